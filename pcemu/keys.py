"""Key scripts and the keyboard's side of typing: text and key names to set-1 scancodes.

A key script is plain text plus names in braces::

    GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{TICKS:18}{F2}

Every character becomes the make and break codes a US keyboard sends for it,
wrapped in Shift when the character needs it.  ``{WAIT:text}`` waits until the
text is on screen and the program has since polled the keyboard, and
``{TICKS:n}`` lets n BIOS ticks of virtual time pass.
"""
from __future__ import annotations

from dataclasses import dataclass
import re

SHIFT = 0x2A
CTRL = 0x1D
ALT = 0x38
EXTENDED = 0xE0

_UNSHIFTED = {
    "1": 0x02, "2": 0x03, "3": 0x04, "4": 0x05, "5": 0x06, "6": 0x07, "7": 0x08, "8": 0x09,
    "9": 0x0A, "0": 0x0B, "-": 0x0C, "=": 0x0D, "q": 0x10, "w": 0x11, "e": 0x12, "r": 0x13,
    "t": 0x14, "y": 0x15, "u": 0x16, "i": 0x17, "o": 0x18, "p": 0x19, "[": 0x1A, "]": 0x1B,
    "a": 0x1E, "s": 0x1F, "d": 0x20, "f": 0x21, "g": 0x22, "h": 0x23, "j": 0x24, "k": 0x25,
    "l": 0x26, ";": 0x27, "'": 0x28, "`": 0x29, "\\": 0x2B, "z": 0x2C, "x": 0x2D, "c": 0x2E,
    "v": 0x2F, "b": 0x30, "n": 0x31, "m": 0x32, ",": 0x33, ".": 0x34, "/": 0x35, " ": 0x39,
    "\t": 0x0F, "\n": 0x1C, "\r": 0x1C,
}
_SHIFTED = {
    "!": 0x02, "@": 0x03, "#": 0x04, "$": 0x05, "%": 0x06, "^": 0x07, "&": 0x08, "*": 0x09,
    "(": 0x0A, ")": 0x0B, "_": 0x0C, "+": 0x0D, "{": 0x1A, "}": 0x1B, ":": 0x27, '"': 0x28,
    "~": 0x29, "|": 0x2B, "<": 0x33, ">": 0x34, "?": 0x35,
}
for _c in "abcdefghijklmnopqrstuvwxyz":
    _SHIFTED[_c.upper()] = _UNSHIFTED[_c]

# named keys: scancode, and whether it is a grey (E0-prefixed) key
NAMED_KEYS: dict[str, tuple[int, bool]] = {
    "ENTER": (0x1C, False), "ESC": (0x01, False), "TAB": (0x0F, False),
    "BKSP": (0x0E, False), "SPACE": (0x39, False),
    **{f"F{i}": (0x3A + i, False) for i in range(1, 11)},
    "F11": (0x57, False), "F12": (0x58, False),
    "UP": (0x48, True), "DOWN": (0x50, True), "LEFT": (0x4B, True), "RIGHT": (0x4D, True),
    "HOME": (0x47, True), "END": (0x4F, True), "PGUP": (0x49, True), "PGDN": (0x51, True),
    "INS": (0x52, True), "DEL": (0x53, True),
    "KP0": (0x52, False), "KP1": (0x4F, False), "KP2": (0x50, False), "KP3": (0x51, False),
    "KP4": (0x4B, False), "KP5": (0x4C, False), "KP6": (0x4D, False), "KP7": (0x47, False),
    "KP8": (0x48, False), "KP9": (0x49, False), "KPDOT": (0x53, False),
    "KPMINUS": (0x4A, False), "KPPLUS": (0x4E, False), "KPSTAR": (0x37, False),
    "CAPSLOCK": (0x3A, False), "NUMLOCK": (0x45, False), "SCROLLLOCK": (0x46, False),
}
MODIFIERS = {"SHIFT": SHIFT, "CTRL": CTRL, "ALT": ALT}


class KeyScriptError(ValueError):
    pass


def press(scancode: int, extended: bool = False) -> list[int]:
    """Make then break codes for one key."""
    prefix = [EXTENDED] if extended else []
    return prefix + [scancode] + prefix + [scancode | 0x80]


def with_modifier(modifier: int, codes: list[int]) -> list[int]:
    return [modifier] + codes + [modifier | 0x80]


def scancodes_for_char(char: str) -> list[int]:
    if char in _UNSHIFTED:
        return press(_UNSHIFTED[char])
    if char in _SHIFTED:
        return with_modifier(SHIFT, press(_SHIFTED[char]))
    raise KeyScriptError(f"no key on a US keyboard types {char!r}")


def scancodes_for_name(name: str) -> list[int]:
    """``ENTER``, ``F7``, ``CTRL+C``, ``ALT+F4``, ``SHIFT+TAB`` ..."""
    parts = name.upper().split("+")
    *mods, key = parts
    if key in NAMED_KEYS:
        codes = press(*NAMED_KEYS[key])
    elif len(key) == 1:
        char = key.lower()
        if char not in _UNSHIFTED:
            raise KeyScriptError(f"unknown key {name!r}")
        codes = press(_UNSHIFTED[char])
    else:
        raise KeyScriptError(f"unknown key name {{{name}}}")
    for mod in reversed(mods):
        if mod not in MODIFIERS:
            raise KeyScriptError(f"unknown modifier {mod!r} in {{{name}}}")
        codes = with_modifier(MODIFIERS[mod], codes)
    return codes


@dataclass(frozen=True)
class Keys:
    codes: tuple[int, ...]
    label: str


@dataclass(frozen=True)
class WaitText:
    text: str


@dataclass(frozen=True)
class WaitTicks:
    ticks: float


Action = Keys | WaitText | WaitTicks
MAX_SCRIPT_TICKS = 18.2065 * 86400     # one {TICKS:n} waits at most a day of virtual time
_TOKEN = re.compile(r"\{([^{}]*)\}")


def parse_script(script: str) -> list[Action]:
    """Split a key script into key groups and waits, checking every name."""
    actions: list[Action] = []
    pos = 0
    for match in _TOKEN.finditer(script):
        for char in script[pos:match.start()]:
            actions.append(Keys(tuple(scancodes_for_char(char)), char))
        body = match.group(1)
        pos = match.end()
        if body.upper().startswith("WAIT:"):
            text = body[5:]
            if not text:
                raise KeyScriptError("{WAIT:} needs the text to wait for")
            actions.append(WaitText(text))
        elif body.upper().startswith("TICKS:"):
            try:
                ticks = float(body[6:])
            except ValueError:
                raise KeyScriptError(f"{{{body}}}: TICKS needs a number") from None
            if not 0 <= ticks <= MAX_SCRIPT_TICKS:        # also refuses nan and inf
                raise KeyScriptError(f"{{{body}}}: TICKS needs a number of ticks from 0 to "
                                     f"{MAX_SCRIPT_TICKS:.0f} (a day)")
            actions.append(WaitTicks(ticks))
        elif body in ("{", "}"):
            actions.append(Keys(tuple(scancodes_for_char(body)), body))
        else:
            actions.append(Keys(tuple(scancodes_for_name(body)), "{" + body + "}"))
    rest = script[pos:]
    if "{" in rest or "}" in rest:
        raise KeyScriptError(f"unbalanced brace in key script near {rest!r}")
    for char in rest:
        actions.append(Keys(tuple(scancodes_for_char(char)), char))
    return actions
