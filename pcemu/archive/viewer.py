"""Watching a replay in a window, at the pace it was recorded.

The replay drives the machine (the window sends it nothing); after each CPU
slice ``after_step`` waits until wall time catches up with virtual time and
redraws at most 60 times a second with the front end's renderer.  Closing the
window or pressing Esc stops the replay.
"""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from pcemu.errors import PcemuError

if TYPE_CHECKING:
    from pcemu.machine import Machine

FRAME_SECONDS = 1 / 60


class ReplayAborted(PcemuError):
    pass


class ReplayViewer:
    def __init__(self, speed: float = 1.0, title: str = "pcemu replay") -> None:
        if speed <= 0:
            raise PcemuError("--speed must be positive")
        self.speed = speed
        self.title = title
        self._screen = None
        self._renderer = None
        self._start: tuple[float, float] | None = None       # (wall, virtual seconds)
        self._last_draw = 0.0

    def _open(self) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        from pcemu.frontend.display import ScreenRenderer
        pygame.init()
        self._renderer = ScreenRenderer()
        pygame.display.set_caption(self.title)
        self._screen = pygame.display.set_mode((672, 432), pygame.RESIZABLE)   # a CGA frame, lines doubled

    def after_step(self, m: "Machine") -> None:
        import pygame
        if self._screen is None:
            self._open()
        now = time.perf_counter()
        virtual = m.clock.seconds()
        if self._start is None:
            self._start = (now, virtual)
        ahead = (virtual - self._start[1]) / self.speed - (now - self._start[0])
        if ahead > 0:
            time.sleep(min(ahead, 0.1))
        if now - self._last_draw >= FRAME_SECONDS:
            self._last_draw = now
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    pygame.display.quit()
                    raise ReplayAborted("the replay window was closed")
            frame = self._renderer.render(m)
            target = self._screen.get_size()
            self._screen.blit(pygame.transform.scale(frame, target), (0, 0))
            pygame.display.flip()
