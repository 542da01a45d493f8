"""The pygame-ce window on a virtual X display (Xvfb): keys in, picture out, host commands.

Events are posted into pygame's queue as the window system would deliver them;
the window must turn them into scancodes for the machine, and show what the
machine draws.
"""
from __future__ import annotations

import time

import pygame

from pcemu import Machine
from pcemu.frontend import palette
from pcemu.frontend.window import Window, run_window
from tests.machine_helpers import DISK1612, needs_originals
from tests.xdisplay import x_display  # noqa: F401 (a fixture)


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


DEAL = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}"


@needs_originals
def test_the_dealt_hands_in_the_window_and_its_screenshots(x_display, tmp_path):
    """Boot to GINRUMMY's dealt hands, take a screenshot with the host key, press F10, take
    another: the cards' cells are their CP437 glyphs in their colours, suits red or black on
    light grey, and the border follows the colour register."""
    from pcemu.fonts import load_cp437_font
    from pcemu.frontend.display import CGA_BORDER
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type(DEAL)
    seen = {}

    def script(window: Window) -> None:
        if window.frames == 2:
            seen["border"] = m.video_card.color_register & 0x0F
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_S)
        elif window.frames == 5:
            press(pygame.KSCAN_F10)
        elif window.frames == 40:
            seen["new_border"] = m.video_card.color_register & 0x0F
            press(pygame.KSCAN_RCTRL, pygame.KSCAN_S)

    run_window(m, frames=43, on_frame=script, output_dir=tmp_path)
    shots = sorted(tmp_path.glob("pcemu-*.png"))
    assert [p.name for p in shots] == ["pcemu-ginrummy-001.png", "pcemu-ginrummy-002.png"]
    first, second = (pygame.image.load(str(p)) for p in shots)
    assert first.get_size() == (672, 432)                  # 640x200 + border, lines doubled
    font = load_cp437_font(8)
    bx, by = CGA_BORDER

    def rgb(surface, col, row, x, y):                      # dot (x, y) of cell (row, col)
        return tuple(surface.get_at((bx + col * 8 + x, (by + row * 8 + y) * 2)))[:3]

    suits = set()
    cells = m.screen_cells()                               # the hands wait for a key: unchanged
    for row in range(0, 16):
        for col, (char, attr) in enumerate(cells[row][:66]):   # the clock (right) keeps ticking
            if attr & 0x80:
                continue
            fg, bg = palette.CGA[attr & 0x0F], palette.CGA[attr >> 4]
            if char in (3, 4, 5, 6) and row in (1, 2, 7, 8):
                assert (fg, bg) == (palette.CGA[4] if char in (3, 4) else palette.CGA[0], palette.CGA[7])
                suits.add(char)
            for y in range(8):
                for x in range(8):
                    expected = fg if font[char][y] & (0x80 >> x) else bg
                    assert rgb(first, col, row, x, y) == expected, (row, col, x, y)
    assert suits == {3, 4, 5, 6}                           # hearts, diamonds, clubs, spades drawn
    assert seen["new_border"] != seen["border"]
    for surface, colour in ((first, seen["border"]), (second, seen["new_border"])):
        for point in ((0, 0), (671, 431), (bx - 1, 200), (300, 431 - 4)):
            assert tuple(surface.get_at(point))[:3] == palette.CGA[colour], point


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
