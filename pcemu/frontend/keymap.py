"""Host keys to what an AT's keyboard sends: set-1 scancodes, make and break.

Keys are matched by position (SDL scancodes, the USB usage of the physical
key), so the machine sees a US keyboard whatever the host's layout is, as a
PC with a US BIOS would.  Events without a scancode (synthetic ones) fall
back to the key code.  Covered: the whole 101/102-key board - letters, digits
and punctuation, both Shifts, Ctrls and Alts (right ones E0-prefixed), the
grey cursor and editing block (E0-prefixed), the keypad (its Enter and / are
E0-prefixed), F1-F12, Caps/Num/Scroll Lock, Print Screen (E0 2A E0 37;
E0 37 with Shift or Ctrl; 54h, SysRq, with Alt), Pause (E1 1D 45 E1 9D C5,
no break code) and Ctrl-Break (E0 46 E0 C6).  A key held down repeats its
make code without breaks (typematic), as the keyboard does.  The Windows
keys did not exist on an AT and are not passed on.
"""
from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

EXTENDED = 0xE0
CTRL, LSHIFT, RSHIFT, ALT = 0x1D, 0x2A, 0x36, 0x38
PRINT_SCREEN, PAUSE = "PRINTSCREEN", "PAUSE"

# SDL scancode name -> (set-1 code, E0-prefixed), or a special key's name
_BY_SCANCODE_NAME: dict[str, tuple[int, bool] | str] = {
    **{letter: (code, False) for letter, code in zip(
        "QWERTYUIOP", range(0x10, 0x1A))},
    **{letter: (code, False) for letter, code in zip("ASDFGHJKL", range(0x1E, 0x27))},
    **{letter: (code, False) for letter, code in zip("ZXCVBNM", range(0x2C, 0x33))},
    **{str(digit): (0x01 + digit, False) for digit in range(1, 10)}, "0": (0x0B, False),
    "ESCAPE": (0x01, False), "MINUS": (0x0C, False), "EQUALS": (0x0D, False),
    "BACKSPACE": (0x0E, False), "TAB": (0x0F, False), "LEFTBRACKET": (0x1A, False),
    "RIGHTBRACKET": (0x1B, False), "RETURN": (0x1C, False), "LCTRL": (CTRL, False),
    "SEMICOLON": (0x27, False), "APOSTROPHE": (0x28, False), "GRAVE": (0x29, False),
    "LSHIFT": (LSHIFT, False), "BACKSLASH": (0x2B, False), "NONUSHASH": (0x2B, False),
    "COMMA": (0x33, False), "PERIOD": (0x34, False), "SLASH": (0x35, False),
    "RSHIFT": (RSHIFT, False), "KP_MULTIPLY": (0x37, False), "LALT": (ALT, False),
    "SPACE": (0x39, False), "CAPSLOCK": (0x3A, False),
    **{f"F{n}": (0x3A + n, False) for n in range(1, 11)}, "F11": (0x57, False), "F12": (0x58, False),
    "NUMLOCKCLEAR": (0x45, False), "SCROLLLOCK": (0x46, False),
    "KP_7": (0x47, False), "KP_8": (0x48, False), "KP_9": (0x49, False), "KP_MINUS": (0x4A, False),
    "KP_4": (0x4B, False), "KP_5": (0x4C, False), "KP_6": (0x4D, False), "KP_PLUS": (0x4E, False),
    "KP_1": (0x4F, False), "KP_2": (0x50, False), "KP_3": (0x51, False), "KP_0": (0x52, False),
    "KP_PERIOD": (0x53, False), "SYSREQ": (0x54, False), "NONUSBACKSLASH": (0x56, False),
    "KP_ENTER": (0x1C, True), "RCTRL": (CTRL, True), "KP_DIVIDE": (0x35, True),
    "RALT": (ALT, True), "HOME": (0x47, True), "UP": (0x48, True), "PAGEUP": (0x49, True),
    "LEFT": (0x4B, True), "RIGHT": (0x4D, True), "END": (0x4F, True), "DOWN": (0x50, True),
    "PAGEDOWN": (0x51, True), "INSERT": (0x52, True), "DELETE": (0x53, True),
    "PRINTSCREEN": PRINT_SCREEN, "PAUSE": PAUSE,
}
# key-code names where pygame's K_ constant is spelled unlike the scancode's
_KEYCODE_ALIASES = {"APOSTROPHE": "QUOTE", "GRAVE": "BACKQUOTE", "NUMLOCKCLEAR": "NUMLOCK",
                    "SCROLLLOCK": "SCROLLOCK", "PRINTSCREEN": "PRINT",
                    **{f"KP_{d}": f"KP{d}" for d in range(10)}}


def _build_tables() -> tuple[dict[int, tuple[int, bool] | str], dict[int, tuple[int, bool] | str]]:
    by_scancode, by_keycode = {}, {}
    for name, key in _BY_SCANCODE_NAME.items():
        scan = getattr(pygame, f"KSCAN_{name}", None)
        if scan is not None:
            by_scancode[scan] = key
        key_name = _KEYCODE_ALIASES.get(name, name)
        keycode = getattr(pygame, f"K_{key_name.lower()}", None) if len(key_name) == 1 \
            else getattr(pygame, f"K_{key_name}", None)
        if keycode is not None and name not in ("NONUSHASH", "NONUSBACKSLASH"):
            by_keycode[keycode] = key
    by_keycode[pygame.K_BREAK] = PAUSE
    return by_scancode, by_keycode


BY_SCANCODE, BY_KEYCODE = _build_tables()


def lookup(scancode: int, keycode: int) -> tuple[int, bool] | str | None:
    """The PC key for a host key event (by position first, then by key code)."""
    key = BY_SCANCODE.get(scancode) if scancode else None
    return key if key is not None else BY_KEYCODE.get(keycode)


def make(key: tuple[int, bool]) -> list[int]:
    code, extended = key
    return [EXTENDED, code] if extended else [code]


def brk(key: tuple[int, bool]) -> list[int]:
    code, extended = key
    return [EXTENDED, code | 0x80] if extended else [code | 0x80]


class KeyboardState:
    """What the keyboard sends as host keys go down and up; remembers what is held."""

    def __init__(self) -> None:
        self.held: dict[tuple[str, int], tuple[int, bool] | str] = {}   # host key -> PC key
        self._print_screen_break: list[int] = []

    def _pc_held(self, code: int) -> bool:
        return any(isinstance(k, tuple) and k[0] == code for k in self.held.values())

    @property
    def ctrl(self) -> bool:
        return self._pc_held(CTRL)

    @property
    def alt(self) -> bool:
        return self._pc_held(ALT)

    @property
    def shift(self) -> bool:
        return self._pc_held(LSHIFT) or self._pc_held(RSHIFT)

    def key_down(self, scancode: int, keycode: int) -> list[int]:
        """Bytes for a key going down (or repeating, if it is already down)."""
        key = lookup(scancode, keycode)
        if key is None:
            return []
        host = _host_key(scancode, keycode)
        repeat = host in self.held
        self.held[host] = key
        if key == PAUSE:
            if repeat:
                return []                                 # Pause does not repeat
            if self.ctrl:
                return [EXTENDED, 0x46, EXTENDED, 0xC6]   # Ctrl-Break: make and break at once
            return [0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5]
        if key == PRINT_SCREEN:
            if self.alt:
                codes, self._print_screen_break = [0x54], [0xD4]                 # SysRq
            elif self.ctrl or self.shift:
                codes, self._print_screen_break = [EXTENDED, 0x37], [EXTENDED, 0xB7]
            else:
                codes = [EXTENDED, LSHIFT, EXTENDED, 0x37]
                self._print_screen_break = [EXTENDED, 0xB7, EXTENDED, LSHIFT | 0x80]
            return codes[-2:] if repeat and len(codes) > 2 else codes
        return make(key)

    def key_up(self, scancode: int, keycode: int) -> list[int]:
        return self._release(_host_key(scancode, keycode))

    def _release(self, host: tuple[str, int]) -> list[int]:
        key = self.held.pop(host, None)
        if key is None:
            return []
        if key == PAUSE:
            return []
        if key == PRINT_SCREEN:
            return self._print_screen_break
        return brk(key)

    def release_all(self) -> list[int]:
        """Break codes for everything held (the window lost the focus)."""
        codes: list[int] = []
        for host in list(self.held):
            codes += self._release(host)
        return codes


def _host_key(scancode: int, keycode: int) -> tuple[str, int]:
    """Which host key an event is about: its position if known, else its key code."""
    return ("scan", scancode) if scancode else ("key", keycode)
