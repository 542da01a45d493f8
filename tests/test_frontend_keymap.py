"""Host keys to AT set-1 scancodes, and on through the 8042 and INT 09h to BIOS key codes."""
from __future__ import annotations

import pygame
import pytest

from bios import keyboard as bios_keyboard
from pcemu import Machine
from pcemu import keys as keylib
from pcemu.frontend import keymap
from pcemu.frontend.keymap import KeyboardState
from tests.machine_helpers import com_program

# pygame scancode -> (make, break) as an AT keyboard sends them
EXPECTED = {
    pygame.KSCAN_A: ([0x1E], [0x9E]), pygame.KSCAN_Z: ([0x2C], [0xAC]),
    pygame.KSCAN_1: ([0x02], [0x82]), pygame.KSCAN_0: ([0x0B], [0x8B]),
    pygame.KSCAN_ESCAPE: ([0x01], [0x81]), pygame.KSCAN_RETURN: ([0x1C], [0x9C]),
    pygame.KSCAN_BACKSPACE: ([0x0E], [0x8E]), pygame.KSCAN_TAB: ([0x0F], [0x8F]),
    pygame.KSCAN_SPACE: ([0x39], [0xB9]), pygame.KSCAN_GRAVE: ([0x29], [0xA9]),
    pygame.KSCAN_BACKSLASH: ([0x2B], [0xAB]), pygame.KSCAN_NONUSBACKSLASH: ([0x56], [0xD6]),
    pygame.KSCAN_F1: ([0x3B], [0xBB]), pygame.KSCAN_F10: ([0x44], [0xC4]),
    pygame.KSCAN_F11: ([0x57], [0xD7]), pygame.KSCAN_F12: ([0x58], [0xD8]),
    pygame.KSCAN_LSHIFT: ([0x2A], [0xAA]), pygame.KSCAN_RSHIFT: ([0x36], [0xB6]),
    pygame.KSCAN_LCTRL: ([0x1D], [0x9D]), pygame.KSCAN_RCTRL: ([0xE0, 0x1D], [0xE0, 0x9D]),
    pygame.KSCAN_LALT: ([0x38], [0xB8]), pygame.KSCAN_RALT: ([0xE0, 0x38], [0xE0, 0xB8]),
    pygame.KSCAN_CAPSLOCK: ([0x3A], [0xBA]), pygame.KSCAN_NUMLOCKCLEAR: ([0x45], [0xC5]),
    pygame.KSCAN_SCROLLLOCK: ([0x46], [0xC6]),
    pygame.KSCAN_UP: ([0xE0, 0x48], [0xE0, 0xC8]), pygame.KSCAN_DOWN: ([0xE0, 0x50], [0xE0, 0xD0]),
    pygame.KSCAN_LEFT: ([0xE0, 0x4B], [0xE0, 0xCB]), pygame.KSCAN_RIGHT: ([0xE0, 0x4D], [0xE0, 0xCD]),
    pygame.KSCAN_INSERT: ([0xE0, 0x52], [0xE0, 0xD2]), pygame.KSCAN_DELETE: ([0xE0, 0x53], [0xE0, 0xD3]),
    pygame.KSCAN_HOME: ([0xE0, 0x47], [0xE0, 0xC7]), pygame.KSCAN_END: ([0xE0, 0x4F], [0xE0, 0xCF]),
    pygame.KSCAN_PAGEUP: ([0xE0, 0x49], [0xE0, 0xC9]), pygame.KSCAN_PAGEDOWN: ([0xE0, 0x51], [0xE0, 0xD1]),
    pygame.KSCAN_KP_7: ([0x47], [0xC7]), pygame.KSCAN_KP_0: ([0x52], [0xD2]),
    pygame.KSCAN_KP_PERIOD: ([0x53], [0xD3]), pygame.KSCAN_KP_MULTIPLY: ([0x37], [0xB7]),
    pygame.KSCAN_KP_MINUS: ([0x4A], [0xCA]), pygame.KSCAN_KP_PLUS: ([0x4E], [0xCE]),
    pygame.KSCAN_KP_ENTER: ([0xE0, 0x1C], [0xE0, 0x9C]),
    pygame.KSCAN_KP_DIVIDE: ([0xE0, 0x35], [0xE0, 0xB5]),
}


@pytest.mark.parametrize("scancode", list(EXPECTED), ids=str)
def test_each_key_sends_its_make_and_break_codes(scancode):
    state = KeyboardState()
    assert state.key_down(scancode, 0) == EXPECTED[scancode][0]
    assert state.key_up(scancode, 0) == EXPECTED[scancode][1]


def test_the_map_agrees_with_the_key_script_names():
    """pcemu.keys (the scripts' names) and the window must send the same codes."""
    pairs = {"ENTER": "RETURN", "ESC": "ESCAPE", "BKSP": "BACKSPACE", "TAB": "TAB", "SPACE": "SPACE",
             **{f"F{n}": f"F{n}" for n in range(1, 13)}, "UP": "UP", "DOWN": "DOWN", "LEFT": "LEFT",
             "RIGHT": "RIGHT", "HOME": "HOME", "END": "END", "PGUP": "PAGEUP", "PGDN": "PAGEDOWN",
             "INS": "INSERT", "DEL": "DELETE", **{f"KP{d}": f"KP_{d}" for d in range(10)},
             "KPDOT": "KP_PERIOD", "KPMINUS": "KP_MINUS", "KPPLUS": "KP_PLUS", "KPSTAR": "KP_MULTIPLY",
             "CAPSLOCK": "CAPSLOCK", "NUMLOCK": "NUMLOCKCLEAR", "SCROLLLOCK": "SCROLLLOCK"}
    for script_name, sdl_name in pairs.items():
        scan = getattr(pygame, f"KSCAN_{sdl_name}")
        state = KeyboardState()
        assert state.key_down(scan, 0) + state.key_up(scan, 0) == keylib.scancodes_for_name(script_name), script_name
    mapped = set(keymap.BY_SCANCODE.values())
    for char in "abcdefghijklmnopqrstuvwxyz0123456789-=[];',./`\\ ":
        assert (keylib.scancodes_for_char(char)[0], False) in mapped, char


def test_every_mapped_key_breaks_with_bit_7_and_keeps_its_prefix():
    for scancode, key in keymap.BY_SCANCODE.items():
        if isinstance(key, str):
            continue
        state = KeyboardState()
        down, up = state.key_down(scancode, 0), state.key_up(scancode, 0)
        assert up[-1] == down[-1] | 0x80 and up[:-1] == down[:-1]


def test_synthetic_events_without_a_scancode_use_the_key_code():
    state = KeyboardState()
    assert state.key_down(0, pygame.K_F5) == [0x3F]
    assert state.key_down(0, pygame.K_KP_ENTER) == [0xE0, 0x1C]
    assert state.key_down(0, pygame.K_QUOTE) == [0x28]
    assert state.key_up(0, pygame.K_F5) == [0xBF]
    assert state.key_down(0, pygame.K_LSUPER) == []                # no Windows key on an AT


def test_a_held_key_repeats_its_make_code_only():
    state = KeyboardState()
    assert state.key_down(pygame.KSCAN_X, 0) == [0x2D]
    assert state.key_down(pygame.KSCAN_X, 0) == [0x2D]
    assert state.key_down(pygame.KSCAN_UP, 0) == [0xE0, 0x48]
    assert state.key_down(pygame.KSCAN_UP, 0) == [0xE0, 0x48]
    assert state.key_up(pygame.KSCAN_X, 0) == [0xAD]
    assert state.key_up(pygame.KSCAN_X, 0) == []                    # already up


def test_print_screen_pause_and_ctrl_break():
    state = KeyboardState()
    assert state.key_down(pygame.KSCAN_PRINTSCREEN, 0) == [0xE0, 0x2A, 0xE0, 0x37]
    assert state.key_up(pygame.KSCAN_PRINTSCREEN, 0) == [0xE0, 0xB7, 0xE0, 0xAA]
    state.key_down(pygame.KSCAN_LSHIFT, 0)
    assert state.key_down(pygame.KSCAN_PRINTSCREEN, 0) == [0xE0, 0x37]
    assert state.key_up(pygame.KSCAN_PRINTSCREEN, 0) == [0xE0, 0xB7]
    state.key_up(pygame.KSCAN_LSHIFT, 0)
    state.key_down(pygame.KSCAN_LALT, 0)
    assert state.key_down(pygame.KSCAN_PRINTSCREEN, 0) == [0x54]   # Alt+PrtSc is SysRq
    assert state.key_up(pygame.KSCAN_PRINTSCREEN, 0) == [0xD4]
    state.key_up(pygame.KSCAN_LALT, 0)
    assert state.key_down(pygame.KSCAN_PAUSE, 0) == [0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5]
    assert state.key_down(pygame.KSCAN_PAUSE, 0) == []             # Pause does not repeat
    assert state.key_up(pygame.KSCAN_PAUSE, 0) == []               # ...nor break
    state.key_down(pygame.KSCAN_RCTRL, 0)
    assert state.key_down(pygame.KSCAN_PAUSE, 0) == [0xE0, 0x46, 0xE0, 0xC6]   # Ctrl-Break


def test_losing_the_focus_releases_every_held_key():
    state = KeyboardState()
    state.key_down(pygame.KSCAN_LSHIFT, 0)
    state.key_down(pygame.KSCAN_RIGHT, 0)
    assert sorted(state.release_all()) == sorted([0xAA, 0xE0, 0xCD])
    assert state.held == {} and state.release_all() == []


# -- through the machine -----------------------------------------------------------------------
IDLE_PROGRAM = "sti\nwait_here:\nhlt\njmp wait_here\n"      # keys pile up in the BIOS buffer


def typed(m: Machine, strokes: list[tuple[str, int]]) -> list[int]:
    """Press/release host keys ('d'/'u', scancode), let INT 09h run, take the buffer's codes."""
    state = KeyboardState()
    for action, scancode in strokes:
        codes = state.key_down(scancode, 0) if action == "d" else state.key_up(scancode, 0)
        m.kbc.send_scancodes(codes)
    m.run_until(condition=lambda mm: mm.kbc.idle(), max_ticks=18)
    m.run(1)
    out = []
    while (code := bios_keyboard.buffer_take(m)) is not None:
        out.append(code)
    return out


def tap(scancode: int, *modifiers: int) -> list[tuple[str, int]]:
    return ([("d", mod) for mod in modifiers] + [("d", scancode), ("u", scancode)]
            + [("u", mod) for mod in reversed(modifiers)])


@pytest.fixture(scope="module")
def idle_machine(tmp_path_factory) -> Machine:
    folder = com_program(tmp_path_factory.mktemp("idle"), "IDLE.COM", IDLE_PROGRAM)
    m = Machine(host_dirs={"C": folder})
    m.type("C:{ENTER}IDLE{ENTER}")
    m.run_until(condition=lambda mm: mm.dos.shell.state.running is not None, max_ticks=18)
    m.run(2)
    bios_keyboard.buffer_flush(m)
    return m


K = pygame


@pytest.mark.parametrize("strokes, codes", [
    (tap(K.KSCAN_A), [0x1E61]),
    (tap(K.KSCAN_A, K.KSCAN_LSHIFT), [0x1E41]),
    (tap(K.KSCAN_C, K.KSCAN_RCTRL), [0x2E03]),                 # right Ctrl is a Ctrl
    (tap(K.KSCAN_X, K.KSCAN_RALT), [0x2D00]),                  # right Alt is an Alt
    (tap(K.KSCAN_F1) + tap(K.KSCAN_F1, K.KSCAN_LSHIFT) + tap(K.KSCAN_F1, K.KSCAN_LCTRL)
     + tap(K.KSCAN_F1, K.KSCAN_LALT), [0x3B00, 0x5400, 0x5E00, 0x6800]),
    (tap(K.KSCAN_F10) + tap(K.KSCAN_F11) + tap(K.KSCAN_F12), [0x4400, 0x8500, 0x8600]),
    (tap(K.KSCAN_UP) + tap(K.KSCAN_DELETE) + tap(K.KSCAN_PAGEDOWN), [0x48E0, 0x53E0, 0x51E0]),
    (tap(K.KSCAN_KP_8) + tap(K.KSCAN_KP_ENTER) + tap(K.KSCAN_KP_MINUS), [0x4800, 0xE00D, 0x4A2D]),
    (tap(K.KSCAN_KP_DIVIDE), [0xE02F]),
    (tap(K.KSCAN_NUMLOCKCLEAR) + tap(K.KSCAN_KP_8) + tap(K.KSCAN_NUMLOCKCLEAR), [0x4838]),
    (tap(K.KSCAN_RETURN) + tap(K.KSCAN_ESCAPE) + tap(K.KSCAN_BACKSPACE) + tap(K.KSCAN_TAB)
     + tap(K.KSCAN_SPACE), [0x1C0D, 0x011B, 0x0E08, 0x0F09, 0x3920]),
    ([("d", K.KSCAN_J)] * 4 + [("u", K.KSCAN_J)], [0x246A] * 4),   # typematic repeat
])
def test_keys_reach_the_bios_as_their_key_codes(idle_machine, strokes, codes):
    assert typed(idle_machine, strokes) == codes
