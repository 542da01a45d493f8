"""The character generator's font, in ROM where programs look for it.

The 8x8 glyphs of characters 00h-7Fh live at F000:FA6E, where the IBM BIOS
keeps them and where graphics-mode text (INT 10h in modes 4-6) and programs
that draw their own characters read them.  The glyphs come from a real font
file (``pcemu.fonts.load_bios_font``: the IBM BIOS font, or the CGA card's
where that is missing), never from bitmaps typed into the code.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.memory import Memory

log = logging.getLogger("pcemu.font")
ROM_FONT_ADDRESS = 0xFFA6E


def install_rom_font(memory: "Memory") -> bool:
    try:
        from pcemu.fonts import load_bios_font
        font = load_bios_font()
    except Exception as exc:                     # no font source: graphics text stays blank
        log.debug("no 8x8 CP437 font available: %s", exc)
        return False
    memory.write(ROM_FONT_ADDRESS, b"".join(glyph[:8] for glyph in font[:128]))
    return True
