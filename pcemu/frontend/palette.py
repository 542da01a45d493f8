"""The colours the monitors showed.

The IBM 5153 colour display decodes the CGA's four RGBI lines with one
exception: dark yellow (6) has its green halved, which gives brown.  The mono
monitor (5151) has three levels: off, normal and intense; its phosphor tint is
a choice (green P39 by default, amber or white like later monitors).
"""
from __future__ import annotations

RGB = tuple[int, int, int]


def _rgbi(index: int) -> RGB:
    intense = 0x55 if index & 8 else 0
    red = (0xAA if index & 4 else 0) + intense
    green = (0xAA if index & 2 else 0) + intense
    blue = (0xAA if index & 1 else 0) + intense
    if index == 6:
        green = 0x55                      # the 5153's brown circuit
    return red, green, blue


CGA: tuple[RGB, ...] = tuple(_rgbi(i) for i in range(16))

# 320x200 graphics: the three colours after the background, by palette
GRAPHICS_PALETTES = {
    0: (2, 4, 6),          # green, red, brown (colour register bit 5 clear)
    1: (3, 5, 7),          # cyan, magenta, light grey (bit 5 set)
    2: (3, 4, 7),          # cyan, red, light grey (mode register bit 2, the "B/W" palette)
}

# (off, normal, intense)
MONO_TINTS: dict[str, tuple[RGB, RGB, RGB]] = {
    "green": ((0, 0, 0), (0x00, 0xAA, 0x00), (0x55, 0xFF, 0x55)),
    "amber": ((0, 0, 0), (0xB0, 0x70, 0x00), (0xFF, 0xC0, 0x30)),
    "white": ((0, 0, 0), (0xAA, 0xAA, 0xAA), (0xFF, 0xFF, 0xFF)),
}


def graphics_colours(mode_register: int, color_register: int) -> tuple[RGB, RGB, RGB, RGB]:
    """The four colours of CGA 320x200 graphics for these register values."""
    background = CGA[color_register & 0x0F]
    if mode_register & 0x04:
        chosen = GRAPHICS_PALETTES[2]
    else:
        chosen = GRAPHICS_PALETTES[1 if color_register & 0x20 else 0]
    intensity = 8 if color_register & 0x10 else 0
    return (background, *(CGA[c | intensity] for c in chosen))
