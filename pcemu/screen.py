"""Reading the screen as the video card shows it: text cells and plain text.

The card, not the BIOS, decides what is visible: the 6845's start address
selects the page, the mode register selects 40 or 80 columns and text or
graphics.  Text is returned as Unicode with CP437 mapped the way the IBM PC
drew it (card suits, box drawing, and the control-character glyphs).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pcemu.cp437 import CP437

if TYPE_CHECKING:
    from pcemu.machine import Machine

ROWS = 25


def geometry(m: "Machine") -> tuple[int, int, bool]:
    """(memory base of the visible page, columns, graphics?) as the card shows them now."""
    card = m.video_card
    start = card.crtc.start_address * 2
    if card.memory_base == 0xB0000:
        return 0xB0000 + (start & 0xFFF), 80, card.graphics if hasattr(card, "graphics") else False
    columns = 80 if card.mode_register & 0x01 else 40
    graphics = bool(card.mode_register & 0x02)
    return 0xB8000 + (start & 0x3FFF), columns, graphics


def text_cells(m: "Machine") -> list[list[tuple[int, int]]]:
    """25 rows of (character code, attribute) cells of the visible text page."""
    base, columns, _graphics = geometry(m)
    data = m.memory.read(base, ROWS * columns * 2)
    return [[(data[(r * columns + c) * 2], data[(r * columns + c) * 2 + 1])
             for c in range(columns)] for r in range(ROWS)]


def text(m: "Machine") -> str:
    """The visible text screen as 25 lines, CP437 shown as Unicode."""
    return "\n".join("".join(CP437[ch] for ch, _attr in row) for row in text_cells(m))


def graphics_text(m: "Machine") -> str | None:
    """In a CGA graphics mode, the characters the BIOS font draws on the 8x8 cell grid
    (25 lines; a cell that is no glyph of the font reads as a space), else None.

    A cell matches a glyph when its lit pixels (any non-background colour) are exactly
    the glyph's, or exactly its inverse; the glyphs are the ROM's for 00h-7Fh and the
    table INT 1Fh points to for 80h-FFh, as the BIOS itself draws them."""
    base, _columns, graphics = geometry(m)
    if not graphics or base < 0xB8000:
        return None
    card = m.video_card
    two_bits = not card.mode_register & 0x10          # 320x200 in 4 colours, else 640x200
    columns = 40 if two_bits else 80
    glyphs: dict[bytes, int] = {}
    tables = [(0xFFA6E, 0)]
    seg, off = m.memory.read_word(0x1F * 4 + 2), m.memory.read_word(0x1F * 4)
    if seg or off:
        tables.append((((seg << 4) + off) & 0xFFFFF, 128))
    for address, first in tables:
        for code in range(first, first + 128):
            bitmap = m.memory.read(address + (code - first) * 8, 8)
            glyphs.setdefault(bytes(bitmap), code)
            glyphs.setdefault(bytes(b ^ 0xFF for b in bitmap), code)
    data = m.memory.read(0xB8000, 0x4000)
    lines = []
    for row in range(ROWS):
        line = []
        for col in range(columns):
            cell = bytearray()
            for y in range(8):
                line_y = row * 8 + y
                offset = (line_y & 1) * 0x2000 + (line_y >> 1) * 80
                if two_bits:
                    word = (data[offset + col * 2] << 8) | data[offset + col * 2 + 1]
                    cell.append(sum(1 << (7 - x) for x in range(8) if (word >> (14 - 2 * x)) & 3))
                else:
                    cell.append(data[offset + col])
            code = glyphs.get(bytes(cell), 0x20)
            line.append(CP437[code])
        lines.append("".join(line))
    return "\n".join(lines)
