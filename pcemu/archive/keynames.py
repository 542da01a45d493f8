"""Scancodes back to key names, for traces and replay messages ("G", "ENTER", "F2")."""
from __future__ import annotations

from pcemu import keys as keylib

_NAMES: dict[tuple[int, bool], str] = {}
for _name, (_code, _grey) in keylib.NAMED_KEYS.items():
    _NAMES.setdefault((_code, _grey), _name)
for _char, _code in keylib._UNSHIFTED.items():
    if _char.isprintable() and _char != " ":
        _NAMES.setdefault((_code, False), _char.upper())
for _name, _code in keylib.MODIFIERS.items():
    _NAMES[(_code, False)] = _name
    _NAMES.setdefault((_code, True), "RIGHT " + _name)


def key_name(code: int, extended: bool = False) -> str:
    return _NAMES.get((code & 0x7F, extended), f"key {code & 0x7F:02X}h")


def describe_scancodes(codes: list[int]) -> str:
    """The keys pressed in a batch of set-1 scancodes: 'SHIFT+G', 'ENTER', 'F2'."""
    pressed: list[str] = []
    held: list[str] = []
    extended = False
    for code in codes:
        if code == keylib.EXTENDED:
            extended = True
            continue
        name = key_name(code, extended)
        extended = False
        if code & 0x80:
            if name in held:
                held.remove(name)
            continue
        if name in keylib.MODIFIERS:
            held.append(name)
            continue
        pressed.append("+".join(held + [name]))
    return ", ".join(pressed) if pressed else "key releases"
