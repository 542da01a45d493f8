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
        m.send_keys(codes)
    m.run_until(condition=lambda mm: mm.kbc.idle(), max_ticks=18)
    m.run(1)
    out = []
    while (code := bios_keyboard.buffer_take(m.services)) is not None:
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
    bios_keyboard.buffer_flush(m.services)
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


# -- the whole board, as a program sees it -----------------------------------------------------
# A program that hooks INT 09h to log every byte it finds on port 60h, chains to the BIOS, and
# reads key codes with INT 16h AH=10h (the enhanced read, which keeps E0h codes) into a log.
KEY_LOGGER = """
    xor ax, ax
    mov es, ax
    mov word ptr es:[0x4F0], cs
    mov ax, 0x3509
    int 0x21
    mov word ptr [0x0F04], bx
    mov word ptr [0x0F06], es
    mov ax, 0x2509
    mov dx, int9
    int 0x21
    sti
read:
    mov ah, 0x10
    int 0x16
    mov bx, word ptr [0x0F00]
    mov word ptr [bx + 0x1000], ax
    add bx, 2
    and bx, 0x3FF
    mov word ptr [0x0F00], bx
    jmp read
int9:
    push ax
    push bx
    in al, 0x60
    mov bx, word ptr cs:[0x0F02]
    mov byte ptr cs:[bx + 0x1800], al
    inc bx
    and bx, 0x3FF
    mov word ptr cs:[0x0F02], bx
    pop bx
    pop ax
    .byte 0x2e, 0xff, 0x2e, 0x04, 0x0f
"""
# The IBM AT enhanced keyboard BIOS's codes (INT 16h AH=10h), written out here from its
# published tables rather than taken from bios/keyboard.py: SDL name -> (set-1 make code,
# code alone, code with Shift).
_US = {"1": (0x02, "1!"), "2": (0x03, "2@"), "3": (0x04, "3#"), "4": (0x05, "4$"), "5": (0x06, "5%"),
       "6": (0x07, "6^"), "7": (0x08, "7&"), "8": (0x09, "8*"), "9": (0x0A, "9("), "0": (0x0B, "0)"),
       "MINUS": (0x0C, "-_"), "EQUALS": (0x0D, "=+"), "LEFTBRACKET": (0x1A, "[{"),
       "RIGHTBRACKET": (0x1B, "]}"), "SEMICOLON": (0x27, ";:"), "APOSTROPHE": (0x28, "'\""),
       "GRAVE": (0x29, "`~"), "BACKSLASH": (0x2B, "\\|"), "COMMA": (0x33, ",<"),
       "PERIOD": (0x34, ".>"), "SLASH": (0x35, "/?"), "SPACE": (0x39, "  ")}
BOARD = {
    **{c: ([s], s << 8 | ord(c.lower()), s << 8 | ord(c)) for c, s in zip(
        "QWERTYUIOPASDFGHJKLZXCVBNM", [*range(0x10, 0x1A), *range(0x1E, 0x27), *range(0x2C, 0x33)])},
    **{name: ([s], s << 8 | ord(chars[0]), s << 8 | ord(chars[1])) for name, (s, chars) in _US.items()},
    "ESCAPE": ([0x01], 0x011B, 0x011B), "BACKSPACE": ([0x0E], 0x0E08, 0x0E08),
    "TAB": ([0x0F], 0x0F09, 0x0F00), "RETURN": ([0x1C], 0x1C0D, 0x1C0D),
    **{f"F{n}": ([0x3A + n], (0x3A + n) << 8, (0x53 + n) << 8) for n in range(1, 11)},
    "F11": ([0x57], 0x8500, 0x8700), "F12": ([0x58], 0x8600, 0x8800),
    "KP_MULTIPLY": ([0x37], 0x372A, 0x372A), "KP_MINUS": ([0x4A], 0x4A2D, 0x4A2D),
    "KP_PLUS": ([0x4E], 0x4E2B, 0x4E2B), "KP_ENTER": ([0xE0, 0x1C], 0xE00D, 0xE00D),
    "KP_DIVIDE": ([0xE0, 0x35], 0xE02F, 0xE02F),
    # keypad with Num Lock off: cursor codes; Shift gives the digits
    **{f"KP_{d}": ([s], s << 8, s << 8 | ord(str(d))) for d, s in
       ((7, 0x47), (8, 0x48), (9, 0x49), (4, 0x4B), (5, 0x4C), (6, 0x4D), (1, 0x4F), (2, 0x50),
        (3, 0x51), (0, 0x52))},
    "KP_PERIOD": ([0x53], 0x5300, 0x532E),
    # the grey keys: E0h in the low byte, with or without Shift
    **{name: ([0xE0, s], s << 8 | 0xE0, s << 8 | 0xE0) for name, s in
       (("HOME", 0x47), ("UP", 0x48), ("PAGEUP", 0x49), ("LEFT", 0x4B), ("RIGHT", 0x4D),
        ("END", 0x4F), ("DOWN", 0x50), ("PAGEDOWN", 0x51), ("INSERT", 0x52), ("DELETE", 0x53))},
}
# keys that make no key code of their own: shifts and locks (their effect is tested below),
# and keys the BIOS handles itself (Print Screen, SysRq, Pause) or that the AT had not (56h)
NO_CODE = {"LSHIFT", "RSHIFT", "LCTRL", "RCTRL", "LALT", "RALT", "CAPSLOCK", "NUMLOCKCLEAR",
           "SCROLLLOCK", "PRINTSCREEN", "PAUSE", "SYSREQ", "NONUSBACKSLASH", "NONUSHASH"}


@pytest.fixture(scope="module")
def key_logger(tmp_path_factory) -> Machine:
    folder = com_program(tmp_path_factory.mktemp("keylog"), "KEYLOG.COM", KEY_LOGGER)
    m = Machine(host_dirs={"C": folder})
    m.type("C:{ENTER}KEYLOG{ENTER}")
    m.run(5)
    assert m.memory.read_word(0x4F0), "KEYLOG.COM did not start"
    return m


def program_sees(m: Machine, strokes: list[tuple[str, int]]) -> tuple[list[int], list[int]]:
    """Press and release host keys through the window's key map; the bytes the program read
    from port 60h in its INT 09h hook, and the key codes it read with INT 16h."""
    base = m.memory.read_word(0x4F0) * 16
    m.memory.write_word(base + 0x0F00, 0)
    m.memory.write_word(base + 0x0F02, 0)
    state = KeyboardState()
    for action, scancode in strokes:
        m.send_keys(state.key_down(scancode, 0) if action == "d" else state.key_up(scancode, 0))
    m.run_until(condition=lambda mm: mm.kbc.idle(), max_ticks=36)
    m.run(2)
    scans = list(m.memory.read(base + 0x1800, m.memory.read_word(base + 0x0F02)))
    codes = [m.memory.read_word(base + 0x1000 + i) for i in range(0, m.memory.read_word(base + 0x0F00), 2)]
    return scans, codes


def test_every_key_of_the_map_is_covered_by_the_table():
    names = {name for name in keymap._BY_SCANCODE_NAME} - NO_CODE
    assert names == set(BOARD)


@pytest.mark.parametrize("name", list(BOARD))
def test_each_key_reaches_the_program_as_its_scancodes_and_bios_key_codes(key_logger, name):
    make, plain, shifted = BOARD[name]
    key = getattr(pygame, f"KSCAN_{name}")
    scans, codes = program_sees(key_logger, tap(key) + tap(key, pygame.KSCAN_LSHIFT))
    brk = make[:-1] + [make[-1] | 0x80]
    assert scans == make + brk + [0x2A] + make + brk + [0xAA]
    assert codes == [plain, shifted]


def test_caps_lock_ctrl_and_alt_with_letters_digits_and_grey_keys(key_logger):
    K = pygame
    strokes = (tap(K.KSCAN_CAPSLOCK) + tap(K.KSCAN_A) + tap(K.KSCAN_A, K.KSCAN_RSHIFT) + tap(K.KSCAN_1)
               + tap(K.KSCAN_CAPSLOCK) + tap(K.KSCAN_A)
               + tap(K.KSCAN_A, K.KSCAN_LCTRL) + tap(K.KSCAN_Z, K.KSCAN_LCTRL)
               + tap(K.KSCAN_Q, K.KSCAN_LALT) + tap(K.KSCAN_1, K.KSCAN_LALT) + tap(K.KSCAN_EQUALS, K.KSCAN_LALT)
               + tap(K.KSCAN_F1, K.KSCAN_LCTRL) + tap(K.KSCAN_F1, K.KSCAN_LALT)
               + tap(K.KSCAN_LEFT, K.KSCAN_LCTRL) + tap(K.KSCAN_HOME, K.KSCAN_LCTRL)
               + tap(K.KSCAN_NUMLOCKCLEAR) + tap(K.KSCAN_KP_7) + tap(K.KSCAN_KP_7, K.KSCAN_LSHIFT)
               + tap(K.KSCAN_HOME) + tap(K.KSCAN_NUMLOCKCLEAR))
    _scans, codes = program_sees(key_logger, strokes)
    assert codes == [0x1E41, 0x1E61, 0x0231, 0x1E61,          # Caps Lock: A, Shift reverses it, not 1
                     0x1E01, 0x2C1A,                          # Ctrl+A, Ctrl+Z
                     0x1000, 0x7800, 0x8300,                  # Alt+Q, Alt+1, Alt+=
                     0x5E00, 0x6800,                          # Ctrl+F1, Alt+F1
                     0x73E0, 0x77E0,                          # Ctrl+grey Left, Ctrl+grey Home
                     0x4737, 0x4700, 0x47E0]                  # Num Lock: 7; Shift undoes it; grey Home


BREAK_CATCHER = """
    xor ax, ax
    mov ds, ax
    mov word ptr [0x4F0], 0
    push cs
    pop ds
    mov ax, 0x251B
    mov dx, handler
    int 0x21
    sti
wait_here:
    hlt
    jmp wait_here
handler:
    push ds
    push ax
    xor ax, ax
    mov ds, ax
    inc word ptr [0x4F0]
    pop ax
    pop ds
    iret
"""


def test_ctrl_break_in_the_window_runs_int_1bh(tmp_path):
    """Ctrl+Pause on the host is Ctrl-Break: the BIOS calls the program's INT 1Bh handler,
    sets the break flag (0040:0071 bit 7) and leaves 0000h in the key buffer."""
    folder = com_program(tmp_path, "BRK.COM", BREAK_CATCHER)
    m = Machine(host_dirs={"C": folder})
    m.type("C:{ENTER}BRK{ENTER}")
    m.run(5)
    bios_keyboard.buffer_flush(m.services)
    assert m.memory.read_word(0x4F0) == 0
    state = KeyboardState()
    for codes in (state.key_down(pygame.KSCAN_LCTRL, 0), state.key_down(pygame.KSCAN_PAUSE, 0),
                  state.key_up(pygame.KSCAN_PAUSE, 0), state.key_up(pygame.KSCAN_LCTRL, 0)):
        m.send_keys(codes)
    m.run_until(condition=lambda mm: mm.kbc.idle(), max_ticks=18)
    m.run(2)
    assert m.memory.read_word(0x4F0) == 1
    assert m.memory[0x471] & 0x80
    assert bios_keyboard.buffer_take(m.services) == 0x0000


def test_the_print_screen_key_prints_and_types_nothing(key_logger):
    """E0 2A E0 37 is the 101-key board's Print Screen: the BIOS runs INT 05h instead of
    typing the '*' that a bare 37h would be."""
    before = key_logger.service_counts.get("print screen", 0)
    scans, codes = program_sees(key_logger, tap(pygame.KSCAN_PRINTSCREEN))
    assert scans == [0xE0, 0x2A, 0xE0, 0x37, 0xE0, 0xB7, 0xE0, 0xAA]
    assert codes == [] and key_logger.service_counts.get("print screen", 0) == before + 1
