"""The 80x25 text screen as far as the program reads it back (SCREEN(row, col)):
character codes only, rows and columns from 1 as in BASIC."""
from __future__ import annotations

ROWS, COLUMNS = 25, 80


class Screen:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.cells = [bytearray(b" " * COLUMNS) for _ in range(ROWS)]

    def char(self, row: int, col: int) -> int:
        if not (1 <= row <= ROWS and 1 <= col <= COLUMNS):
            raise ValueError(f"SCREEN({row}, {col}): Illegal function call")
        return self.cells[row - 1][col - 1]

    def put(self, row: int, col: int, code: int) -> None:
        self.cells[row - 1][col - 1] = code

    def write(self, row: int, col: int, text: bytes) -> None:
        """PRINT at LOCATE row, col; what passes column 80 goes on at the next row."""
        for code in text:
            if col > COLUMNS:
                row, col = row + 1, 1
            if row > ROWS:
                return
            self.cells[row - 1][col - 1] = code
            col += 1

    def text(self) -> str:
        return "\n".join(bytes(r).decode("cp437") for r in self.cells)
