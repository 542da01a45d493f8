"""The machine in a pygame-ce window: its screen, its speaker, a whole AT keyboard.

Controls
--------
Every key goes to the PC as an AT keyboard would send it (by position, as
on a US keyboard): F1-F12, the keypad, the grey keys, Print Screen, Pause,
and Ctrl-Break (Ctrl+Pause).  Held keys repeat.  The window's own commands
are the host key, Right Ctrl, held with a letter; the letter is not passed
on (Right Ctrl itself is, so Left Ctrl+letter is always the PC's Ctrl+letter):

    Right Ctrl+F   fullscreen on/off
    Right Ctrl+P   pause/resume (the title says "paused")
    Right Ctrl+T   turbo on/off: run as fast as the host can
    Right Ctrl+S   screenshot: pcemu-PROGRAM-NNN.png in the current folder
    Right Ctrl+W   save the sound of the run so far: pcemu-PROGRAM-NNN.wav
    Right Ctrl+M   sound on/off
    Right Ctrl+Q   quit (so does closing the window)

The title shows the running program and the speed (100% = a real PC's
pace).  Virtual time follows wall time; the machine stays deterministic, only
the moments when keys arrive depend on the person typing.  The window can be
resized; the picture keeps a 4:3 shape at whole-number scales.

Mouse: when the machine has a mouse (``machine.mouse``, see
pcemu/devices/mouse.py), the window gives it the pointer with
``machine.input(MouseMove(x, y))`` in the driver's 640x200 virtual screen (scaled
from the card's dots: 640x200 or 320x200 on the CGA, 720x350/348 on the mono
cards) and the buttons with ``MouseButton(number, down)`` (0 left, 1 right, 2
middle); keys go to ``machine.send_keys``.  Recording sees them all there.
"""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Callable

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from pcemu.errors import PcemuError  # noqa: E402
from pcemu.events import MouseButton, MouseMove  # noqa: E402
from pcemu.frontend.display import ScreenRenderer, render_scaled  # noqa: E402
from pcemu.frontend.keymap import KeyboardState  # noqa: E402
from pcemu.frontend.pacing import Pacer  # noqa: E402
from pcemu.frontend.scaling import integer_scale, placement  # noqa: E402
from pcemu.frontend.sound import LiveSound, write_wav  # noqa: E402

log = logging.getLogger("pcemu.window")

FRAME_RATE = 60
TYPEMATIC_DELAY_MS = 500          # the AT keyboard's defaults: 500 ms, then 10.9 a second
TYPEMATIC_INTERVAL_MS = 92
TITLE_EVERY = 0.5                 # seconds between title updates
HOST_KEY = pygame.KSCAN_RCTRL
HOST_COMMANDS = {pygame.KSCAN_F: "fullscreen", pygame.KSCAN_P: "pause", pygame.KSCAN_T: "turbo",
                 pygame.KSCAN_S: "screenshot", pygame.KSCAN_W: "save_sound",
                 pygame.KSCAN_M: "mute", pygame.KSCAN_Q: "quit"}
HOST_COMMANDS_BY_KEY = {pygame.K_f: "fullscreen", pygame.K_p: "pause", pygame.K_t: "turbo",
                        pygame.K_s: "screenshot", pygame.K_w: "save_sound", pygame.K_m: "mute",
                        pygame.K_q: "quit"}


class Window:
    def __init__(self, machine, *, fullscreen: bool = False, turbo: bool = False,
                 sound: bool = True, mono_tint: str = "green",
                 output_dir: str | Path = ".") -> None:
        self.machine = machine
        self.renderer = ScreenRenderer(mono_tint)
        self.keyboard = KeyboardState()
        self.pacer = Pacer(machine)
        self.pacer.set_turbo(turbo)
        self.output_dir = Path(output_dir)
        self.fullscreen = fullscreen
        self.running = False
        self.message = ""                 # shown in the title for a while
        self._message_until = 0.0
        self._swallowed: set[tuple[str, int]] = set()
        self._last_frame = None
        self._dirty = True
        self._title_at = 0.0
        self.frames = 0
        self._open_display()
        machine.speaker.keep_all = True       # the live sound and Right Ctrl+W read the whole log
        self.sound = LiveSound(machine.speaker, machine.clock.seconds()) if sound else None

    # -- setup -------------------------------------------------------------------------
    def _open_display(self) -> None:
        try:
            pygame.display.init()
            frame = self.renderer.render(self.machine)
            desktop = pygame.display.get_desktop_sizes()[0]
            scale = integer_scale(frame.get_width(), frame.get_height(), self.renderer.pixel_aspect,
                                  int(desktop[0] * 0.9), int(desktop[1] * 0.85))
            self.window_size = (frame.get_width() * scale[0], frame.get_height() * scale[1])
            self._set_mode()
        except pygame.error as exc:
            raise PcemuError(f"can't open a window ({exc}): run with --headless, "
                             "or without a display to use the terminal") from None
        pygame.key.set_repeat(TYPEMATIC_DELAY_MS, TYPEMATIC_INTERVAL_MS)

    def _set_mode(self) -> None:
        if self.fullscreen:
            self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.screen = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
        self._dirty = True

    # -- the loop ------------------------------------------------------------------------
    def run(self, frames: int | None = None,
            on_frame: Callable[["Window"], None] | None = None) -> None:
        """Show the machine until the window is closed (or for ``frames`` frames)."""
        clock = pygame.time.Clock()
        self.running = True
        try:
            while self.running and (frames is None or self.frames < frames):
                if on_frame is not None:
                    on_frame(self)
                for event in pygame.event.get():
                    self.handle_event(event)
                self.pacer.advance(0.8 / FRAME_RATE)
                self._update_sound()
                self.present()
                self._update_title()
                self.frames += 1
                clock.tick(FRAME_RATE)
        finally:
            self.close()

    def close(self) -> None:
        if self.sound is not None:
            self.sound.close()
        pygame.display.quit()

    def _update_sound(self) -> None:
        if self.sound is None:
            return
        now = self.machine.clock.seconds()
        if self.pacer.turbo or self.pacer.paused:
            self.sound.skip(now)
        else:
            self.sound.update(now)

    def present(self) -> None:
        frame = self.renderer.render(self.machine)
        if frame is self._last_frame and not self._dirty:
            return
        self._last_frame, self._dirty = frame, False
        target = self.screen.get_size()
        (x, y), size = placement(frame.get_width(), frame.get_height(), self.renderer.pixel_aspect,
                                 *target)
        self._picture_rect = pygame.Rect((x, y), size)
        self.screen.fill((0, 0, 0))
        self.screen.blit(pygame.transform.scale(frame, size), (x, y))
        pygame.display.flip()

    def _update_title(self) -> None:
        now = time.monotonic()
        if now < self._title_at:
            return
        self._title_at = now + TITLE_EVERY
        pygame.display.set_caption(self.title())

    def title(self) -> str:
        parts = ["pcemu", self.program_name() or "DOS"]
        pacer = self.pacer
        if pacer.stopped:
            parts.append(f"stopped: {pacer.stopped}")
        elif pacer.paused:
            parts.append("paused")
        else:
            parts.append(f"{'turbo ' if pacer.turbo else ''}{pacer.speed:.0%}")
        if self.sound is not None and self.sound.muted:
            parts.append("sound off")
        if self.message and time.monotonic() < self._message_until:
            parts.append(self.message)
        return " - ".join(parts)

    def program_name(self) -> str | None:
        shell = getattr(getattr(self.machine, "dos", None), "shell", None)
        running = getattr(getattr(shell, "state", None), "running", None)
        if not running:
            return None
        return str(running).replace("\\", "/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]

    def say(self, message: str) -> None:
        log.warning("%s", message)
        self.message, self._message_until = message, time.monotonic() + 3
        self._title_at = 0.0

    # -- input ---------------------------------------------------------------------------
    def handle_event(self, event) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.KEYDOWN:
            self._key_down(event)
        elif kind == pygame.KEYUP:
            self._key_up(event)
        elif kind in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self._send(self.keyboard.release_all())
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.WINDOWEXPOSED,
                      pygame.WINDOWRESTORED):
            if kind == pygame.VIDEORESIZE and not self.fullscreen:
                self.window_size = (event.w, event.h)
            self.screen = pygame.display.get_surface()
            self._dirty = True
        elif kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self._mouse(event)

    def _key_down(self, event) -> None:
        scancode, key = getattr(event, "scancode", 0), event.key
        command = self._host_command(scancode, key)
        if command is not None:
            self._swallowed.add(("scan", scancode) if scancode else ("key", key))
            getattr(self, f"command_{command}")()
            return
        self._send(self.keyboard.key_down(scancode, key))

    def _key_up(self, event) -> None:
        scancode, key = getattr(event, "scancode", 0), event.key
        host = ("scan", scancode) if scancode else ("key", key)
        if host in self._swallowed:
            self._swallowed.discard(host)
            return
        self._send(self.keyboard.key_up(scancode, key))

    def _host_command(self, scancode: int, key: int) -> str | None:
        held = self.keyboard.held
        if ("scan", HOST_KEY) not in held and ("key", pygame.K_RCTRL) not in held:
            return None
        if scancode:
            return HOST_COMMANDS.get(scancode)
        return HOST_COMMANDS_BY_KEY.get(key)

    def _send(self, codes: list[int]) -> None:
        if codes:
            self.machine.send_keys(codes)

    def _mouse(self, event) -> None:
        mouse = getattr(self.machine, "mouse", None)
        rect = getattr(self, "_picture_rect", None)
        if mouse is None or rect is None or not rect.w or not rect.h:
            return
        if event.type == pygame.MOUSEMOTION:
            width, height = self.renderer.active_size
            bx, by = self.renderer.border
            frame_w, frame_h = width + 2 * bx, height + 2 * by
            x = (event.pos[0] - rect.x) * frame_w // rect.w - bx
            y = (event.pos[1] - rect.y) * frame_h // rect.h - by
            x, y = max(0, min(width - 1, x)), max(0, min(height - 1, y))
            self.machine.input(MouseMove(x * 640 // width, y * 200 // height))   # the driver's screen
            return
        number = {1: 0, 3: 1, 2: 2}.get(event.button)
        if number is not None:
            self.machine.input(MouseButton(number, event.type == pygame.MOUSEBUTTONDOWN))

    # -- host commands ----------------------------------------------------------------------
    def command_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self._set_mode()

    def command_pause(self) -> None:
        self.pacer.set_paused(not self.pacer.paused)
        self._title_at = 0.0

    def command_turbo(self) -> None:
        self.pacer.set_turbo(not self.pacer.turbo)
        self._title_at = 0.0

    def command_mute(self) -> None:
        if self.sound is not None:
            self.sound.muted = not self.sound.muted
            self._title_at = 0.0

    def command_quit(self) -> None:
        self.running = False

    def command_screenshot(self) -> None:
        path = self._next_file("png")
        try:
            self.output_dir.mkdir(parents=True, exist_ok=True)
            pygame.image.save(render_scaled(self.machine, renderer=ScreenRenderer()), str(path))
        except (OSError, pygame.error) as exc:
            self.say(f"screenshot not saved: {exc}")
            return
        self.say(f"saved {path}")

    def command_save_sound(self) -> None:
        path = self._next_file("wav")
        try:
            write_wav(self.machine.speaker.events, self.machine.clock.seconds(), path)
        except OSError as exc:
            self.say(f"sound not saved: {exc}")
            return
        self.say(f"saved {path}")

    def _next_file(self, suffix: str) -> Path:
        stem = (self.program_name() or "dos").rsplit(".", 1)[0].lower()
        number = 1
        while (path := self.output_dir / f"pcemu-{stem}-{number:03d}.{suffix}").exists():
            number += 1
        return path


def run_window(machine, *, fullscreen: bool = False, turbo: bool = False, sound: bool = True,
               mono_tint: str = "green", output_dir: str | Path = ".",
               frames: int | None = None,
               on_frame: Callable[[Window], None] | None = None) -> Window:
    """Open the window and run the machine in it until it is closed (see the module docstring)."""
    window = Window(machine, fullscreen=fullscreen, turbo=turbo, sound=sound,
                    mono_tint=mono_tint, output_dir=output_dir)
    window.run(frames=frames, on_frame=on_frame)
    return window
