"""The 80x25 text screen: character codes (what the program reads back with
SCREEN(row, col)) and attributes (what ``play`` shows: background << 4 | foreground,
as COLOR fg, bg sets them); rows and columns from 1 as in BASIC."""
from __future__ import annotations

ROWS, COLUMNS = 25, 80


class Screen:
    def __init__(self) -> None:
        self.attribute = 0x07            # the COLOR in force
        self.clear()

    def clear(self) -> None:
        self.cells = [bytearray(b" " * COLUMNS) for _ in range(ROWS)]
        self.attrs = [bytearray([self.attribute & 0x70 or 0x07]) * COLUMNS for _ in range(ROWS)]

    def color(self, foreground: int, background: int) -> None:
        """COLOR fg, bg (fg 16-31 blink: the attribute's bit 7)."""
        self.attribute = (foreground & 16) << 3 | (background & 7) << 4 | (foreground & 0x0F)

    def char(self, row: int, col: int) -> int:
        if not (1 <= row <= ROWS and 1 <= col <= COLUMNS):
            raise ValueError(f"SCREEN({row}, {col}): Illegal function call")
        return self.cells[row - 1][col - 1]

    def put(self, row: int, col: int, code: int) -> None:
        self.cells[row - 1][col - 1] = code
        self.attrs[row - 1][col - 1] = self.attribute

    def write(self, row: int, col: int, text: bytes) -> None:
        """PRINT at LOCATE row, col; what passes column 80 goes on at the next row."""
        for code in text:
            if col > COLUMNS:
                row, col = row + 1, 1
            if row > ROWS:
                return
            self.cells[row - 1][col - 1] = code
            self.attrs[row - 1][col - 1] = self.attribute
            col += 1

    def text(self) -> str:
        return "\n".join(bytes(r).decode("cp437") for r in self.cells)
