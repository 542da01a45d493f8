"""Holding the machine's virtual clock to the wall clock.

The machine runs as fast as the host allows; a person needs it to run at the
speed of the PC it imitates.  ``Pacer.advance`` runs the machine in short
slices until virtual time has caught up with wall time since the last
anchor.  When the host cannot keep up (or the process was stopped) the debt
is forgiven beyond ``max_lag`` rather than raced through.  Turbo runs
unthrottled for the frame's time budget; pause runs nothing.  Both re-anchor,
so going back to normal speed neither races nor waits.  The machine itself
stays deterministic: pacing only decides when its virtual time is spent.
"""
from __future__ import annotations

import time
from collections import deque
from typing import Callable

from pcemu.clock import TICK_HZ
from pcemu.errors import PcemuError

SLICE_SECONDS = 1 / 120          # virtual time run between checks of the wall clock
SPEED_WINDOW = 1.0               # seconds of history behind the speed shown


class Pacer:
    def __init__(self, machine, wall: Callable[[], float] = time.monotonic,
                 max_lag: float = 0.25) -> None:
        self.machine = machine
        self.wall = wall
        self.max_lag = max_lag
        self.turbo = False
        self.paused = False
        self.stopped: str | None = None         # why the machine can't go on
        self._anchor()
        self._history: deque[tuple[float, float]] = deque()

    def virtual_now(self) -> float:
        return self.machine.clock.seconds()

    def _anchor(self) -> None:
        self._wall0 = self.wall()
        self._virtual0 = self.virtual_now()

    def set_turbo(self, on: bool) -> None:
        self.turbo = on
        self._anchor()

    def set_paused(self, on: bool) -> None:
        self.paused = on
        self._anchor()

    def advance(self, budget: float) -> None:
        """Run the machine for this frame, using at most ``budget`` seconds of wall time."""
        if self.paused or self.stopped:
            self._anchor()
            return
        start = self.wall()
        deadline = start + budget
        if self.turbo:
            while self.wall() < deadline and self._run(SLICE_SECONDS * 4):
                pass
            self._anchor()
        else:
            target = self._virtual0 + (start - self._wall0)
            behind = target - self.virtual_now()
            if behind > self.max_lag:                       # forgive what can't be caught up
                self._virtual0 -= behind - self.max_lag
                target = self._virtual0 + (start - self._wall0)
            while self.virtual_now() < target and self.wall() < deadline:
                if not self._run(min(SLICE_SECONDS, target - self.virtual_now())):
                    break
        self._note_speed()

    def _run(self, seconds: float) -> bool:
        """Run a slice; False when the machine stopped or the slice was too short to move."""
        before = self.virtual_now()
        try:
            self.machine.run(seconds * TICK_HZ)
        except PcemuError as exc:
            self.stopped = str(exc)
            return False
        return self.virtual_now() > before

    def seconds_until_due(self) -> float:
        """How long to sleep before the machine is due to run again (0 if it is behind)."""
        if self.paused or self.turbo or self.stopped:
            return 0.0
        ahead = self.virtual_now() - (self._virtual0 + (self.wall() - self._wall0))
        return max(0.0, ahead)

    def _note_speed(self) -> None:
        now = self.wall()
        self._history.append((now, self.virtual_now()))
        while len(self._history) > 2 and now - self._history[0][0] > SPEED_WINDOW:
            self._history.popleft()

    @property
    def speed(self) -> float:
        """Virtual seconds per wall second, over the last second (1.0 = real time)."""
        if len(self._history) < 2:
            return 0.0
        (w0, v0), (w1, v1) = self._history[0], self._history[-1]
        return (v1 - v0) / (w1 - w0) if w1 > w0 else 0.0
