"""The pygame-ce window on a virtual X display (Xvfb): keys in, picture out, host commands.

Events are posted into pygame's queue as the window system would deliver them;
the window must turn them into scancodes for the machine, and show what the
machine draws.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time

import pygame
import pytest

from pcemu import Machine
from pcemu.frontend import palette
from pcemu.frontend.window import Window, run_window
from tests.machine_helpers import DISK1612, needs_originals


@pytest.fixture(scope="module")
def x_display():
    """A private Xvfb server for this module; DISPLAY points at it while the tests run."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (Debian package xvfb): the window tests need an X display")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + 10
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([read_end], [], [], 0.5)
        if ready:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
    os.close(read_end)
    if not number.strip():
        server.kill()
        pytest.skip("Xvfb did not start")
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    os.environ["DISPLAY"] = f":{number.decode().strip()}"
    os.environ.pop("SDL_VIDEODRIVER", None)
    os.environ["SDL_AUDIODRIVER"] = "dummy"            # sound is exercised, silently
    try:
        yield os.environ["DISPLAY"]
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.terminate()
        server.wait(10)


def key_event(kind: int, scancode: int) -> pygame.event.Event:
    return pygame.event.Event(kind, scancode=scancode, key=0, mod=0, unicode="")


def press(*scancodes: int) -> None:
    """Post key downs in order and key ups in reverse, as a person's chord."""
    for scancode in scancodes:
        pygame.event.post(key_event(pygame.KEYDOWN, scancode))
    for scancode in reversed(scancodes):
        pygame.event.post(key_event(pygame.KEYUP, scancode))


@needs_originals
def test_f10_in_the_window_changes_the_border_on_screen(x_display):
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}")
    seen = {}

    def script(window: Window) -> None:
        screen = pygame.display.get_surface()
        if window.frames == 1:
            seen["before"] = tuple(screen.get_at((2, 2)))[:3]
            seen["size"] = screen.get_size()
            press(pygame.KSCAN_F10)
        if window.frames == 40:
            seen["after"] = tuple(screen.get_at((2, 2)))[:3]
            seen["title"] = window.title()

    run_window(m, frames=41, on_frame=script)
    border = m.video_card.color_register & 0x0F
    assert seen["after"] == palette.CGA[border] != seen["before"]
    assert seen["size"] == (672, 432)                   # a CGA frame, lines doubled, fits 1280x1024
    assert "GINRUMMY.EXE" in seen["title"] and "%" in seen["title"]


def test_keys_reach_dos_and_host_commands_do_not(x_display, tmp_path):
    m = Machine()
    seen = {}

    def script(window: Window) -> None:
        if window.frames == 1:
            press(pygame.KSCAN_V)
            press(pygame.KSCAN_LSHIFT, pygame.KSCAN_E)
            press(pygame.KSCAN_R)
        elif window.frames == 20:
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_S)          # screenshot, not an "s"
        elif window.frames == 25:
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_P)          # pause
        elif window.frames == 30:
            seen["paused_at"] = m.clock.seconds()
            seen["title"] = window.title()
        elif window.frames == 45:
            seen["still"] = m.clock.seconds()
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_P)          # resume
        elif window.frames == 50:
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_F)          # fullscreen
        elif window.frames == 53:
            seen["fullscreen"] = pygame.display.get_surface().get_size()
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_F)
        elif window.frames == 56:
            seen["windowed"] = pygame.display.get_surface().get_size()

    window = run_window(m, frames=60, on_frame=script, output_dir=tmp_path)
    line = next(line for line in m.screen_text().splitlines() if line.strip().startswith(("A:", "B:", "C:")))
    assert line.rstrip().endswith(">vEr")
    assert (tmp_path / "pcemu-dos-001.png").exists()
    assert pygame.image.load(str(tmp_path / "pcemu-dos-001.png")).get_size() == (672, 432)
    assert "paused" in seen["title"] and seen["still"] == seen["paused_at"]
    assert m.clock.seconds() > seen["still"]
    assert seen["fullscreen"] == (1280, 1024) and seen["windowed"] == (672, 432)
    assert not window.pacer.paused and not window.fullscreen


def test_the_window_keeps_the_machine_near_real_time(x_display):
    m = Machine()
    start_virtual = m.clock.seconds()
    start = time.monotonic()
    run_window(m, frames=45)
    wall = time.monotonic() - start
    virtual = m.clock.seconds() - start_virtual
    assert virtual <= wall + 0.1                        # never ahead of the wall clock
    assert virtual >= 0.4 * wall                        # and, at an idle prompt, not far behind


def test_quitting_with_the_host_key_ends_the_loop(x_display):
    m = Machine()
    window = run_window(m, frames=600, on_frame=lambda w: press(pygame.KSCAN_RCTRL, pygame.KSCAN_Q)
                        if w.frames == 2 else None)
    assert window.frames < 10


class FakeMouse:
    def __init__(self) -> None:
        self.moves: list[tuple[int, int]] = []
        self.buttons: list[tuple[int, bool]] = []

    """Records what the window gives pcemu.devices.mouse.Mouse (same method names)."""

    def move(self, x: int, y: int) -> None:
        self.moves.append((x, y))

    def button(self, number: int, down: bool) -> None:
        self.buttons.append((number, down))


def test_the_pointer_reaches_the_mouse_in_the_drivers_virtual_screen(x_display):
    m = Machine()
    m.mouse = FakeMouse()
    seen = {}

    def script(window: Window) -> None:
        if window.frames == 2:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(336, 216), rel=(0, 0),
                                                 buttons=(0, 0, 0)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(336, 216), button=3))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(0, 0), rel=(0, 0),
                                                 buttons=(0, 0, 0)))
        if window.frames == 4:
            seen["moves"], seen["buttons"] = list(m.mouse.moves), list(m.mouse.buttons)

    run_window(m, frames=5, on_frame=script)
    assert seen["moves"][-2:] == [(320, 100), (0, 0)]      # the centre dot; the border clamps to 0,0
    assert seen["buttons"][-1] == (1, True)                 # right button


def test_the_window_drives_the_real_mouse_device(x_display):
    m = Machine(mouse=True)

    def script(window: Window) -> None:
        if window.frames == 2:
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(336, 216), button=1))

    run_window(m, frames=4, on_frame=script)
    assert m.mouse.buttons & 1                              # the left button is down in the device
