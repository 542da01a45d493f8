"""Reading the screen as the video card shows it: text cells, plain text, PNG pictures.

The card, not the BIOS, decides what is visible: the 6845's start address
selects the page, the mode register selects 40 or 80 columns and text or
graphics.  Text is returned as Unicode with CP437 mapped the way the IBM PC
drew it (card suits, box drawing, and the control-character glyphs).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.machine import Machine

# CP437 as displayed: 00h-1Fh and 7Fh are glyphs on screen, not control codes.
_LOW = ("\u00a0☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼")
CP437 = [(_LOW[i] if i < 32 else "⌂" if i == 0x7F else bytes([i]).decode("cp437"))
         for i in range(256)]
CP437[0] = " "
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


def save_png(m: "Machine", path: Path) -> None:
    from pcemu.render import render_surface_png
    render_surface_png(m, path)
