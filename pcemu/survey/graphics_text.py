"""Text on a CGA graphics screen, read cell by cell as the corpus read DOSBox's screens.

In modes 4-6 the BIOS draws characters as 8x8 glyphs on the cell grid (40 columns
at 320x200, 80 at 640x200).  Each cell's pixels are compared with the glyphs the
machine itself holds (the ROM font at F000:FA6E for 00h-7Fh, the table INT 1Fh
points to for 80h-FFh when a program set one), as foreground on background or
inverted.  A cell all of one colour reads as a space; a cell that matches no glyph
reads as U+FFFD.  Text that is not on the grid (a program's own drawing) is not text.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios.font import ROM_FONT_ADDRESS
from pcemu.screen import CP437, ROWS

if TYPE_CHECKING:
    from pcemu.machine import Machine

CGA_MEMORY = 0xB8000
ODD_LINES = 0x2000            # odd scan lines are in the second bank
BYTES_PER_LINE = 80
UNKNOWN = "\ufffd"


def glyph_table(m: "Machine") -> dict[bytes, int]:
    """8-byte bitmaps -> character code, from the fonts in the machine's memory."""
    table: dict[bytes, int] = {}
    mem = m.memory
    for code in range(128):
        table.setdefault(mem.read(ROM_FONT_ADDRESS + code * 8, 8), code)
    seg, off = m.get_vector(0x1F)
    if seg or off:
        base = (seg << 4) + off
        for code in range(128):
            table.setdefault(mem.read((base + code * 8) & 0xFFFFF, 8), 128 + code)
    return table


def graphics_text(m: "Machine", high_resolution: bool) -> list[str]:
    """The 25 rows of the CGA graphics screen as text (see the module's docstring)."""
    table = glyph_table(m)
    columns = 80 if high_resolution else 40
    data = m.memory.read(CGA_MEMORY, 0x4000)
    rows = []
    for row in range(ROWS):
        chars = []
        for column in range(columns):
            lines = [_cell_line(data, row * 8 + y, column, high_resolution) for y in range(8)]
            chars.append(_read_cell(lines, table, 8 if high_resolution else 16))
        rows.append("".join(chars))
    return rows


def _cell_line(data: bytes, line: int, column: int, high_resolution: bool) -> int:
    """One scan line of a cell: 8 pixels of 1 bit (640x200) or 2 bits (320x200)."""
    at = (line & 1) * ODD_LINES + (line >> 1) * BYTES_PER_LINE
    if high_resolution:
        return data[at + column]
    return (data[at + 2 * column] << 8) | data[at + 2 * column + 1]


def _read_cell(lines: list[int], table: dict[bytes, int], bits: int) -> str:
    per_pixel = bits // 8
    mask = (1 << per_pixel) - 1
    pixels = [[(value >> (bits - per_pixel * (x + 1))) & mask for x in range(8)] for value in lines]
    colours = {p for line in pixels for p in line}
    if len(colours) == 1:
        return " "
    if len(colours) > 2:
        return UNKNOWN
    for background in sorted(colours):       # as drawn on the background, then inverted
        bitmap = bytes(sum(0x80 >> x for x in range(8) if line[x] != background)
                       for line in pixels)
        code = table.get(bitmap)
        if code is not None:
            return CP437[code]
    return UNKNOWN
