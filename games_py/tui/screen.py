"""An 80x25 text screen like the PC's, and its picture on an ANSI terminal.

The full-screen games (Tommy's Gin Rummy, Tonk) draw on it cell by cell, with the PC's
attributes (background << 4 | foreground, CGA colours 0-15); ``ansi_frame``
turns the cells into escape sequences for a terminal: cursor moves, colours and
text, nothing else, so a test can read the output back with a few lines of code.
"""
from __future__ import annotations

ROWS, COLUMNS = 25, 80
GREY = 0x07                        # the attribute of a cleared cell

# CGA colour index -> ANSI colour index (the PC's order is black, blue, green, cyan, red,
# magenta, brown, grey; ANSI's black, red, green, yellow, blue, magenta, cyan, white)
_ANSI = (0, 4, 2, 6, 1, 5, 3, 7)


class Screen:
    """The cells of a text screen: ``cells[row][column] = (character, attribute)``."""

    def __init__(self) -> None:
        self.cells = [[(" ", GREY)] * COLUMNS for _ in range(ROWS)]

    def clear(self, top: int = 0, bottom: int = ROWS - 1) -> None:
        for row in range(top, bottom + 1):
            self.cells[row] = [(" ", GREY)] * COLUMNS

    def put(self, row: int, column: int, text: str, attribute: int = GREY) -> None:
        """PRINT at LOCATE row + 1, column + 1 (text past the right edge is cut)."""
        line = self.cells[row]
        for i, ch in enumerate(text):
            if 0 <= column + i < COLUMNS:
                line[column + i] = (ch, attribute)

    def row_text(self, row: int) -> str:
        return "".join(ch for ch, _ in self.cells[row])

    def text(self) -> str:
        """The screen as 25 lines of text (as ``pcemu``'s ``screen_text`` shows the PC's)."""
        return "\n".join(self.row_text(r) for r in range(ROWS))

    def attribute(self, row: int, column: int) -> int:
        return self.cells[row][column][1]

    def copy(self) -> "Screen":
        other = Screen()
        other.cells = [list(line) for line in self.cells]
        return other


def sgr(attribute: int, mono: bool = False) -> str:
    """The ANSI colour of a PC attribute (bright foregrounds as bold + the colour); on a
    monochrome adapter foreground 1 on black is underlined grey, as an MDA shows it.  Bit 7
    blinks (SGR 5): the BIOS leaves both adapters' blink enable on, and the games' COLOR
    16-31 (the blinking prompts) set it."""
    fg, bg = attribute & 0x0F, (attribute >> 4) & 0x07
    bold = "1" if fg & 0x08 else "22"
    blink = ";5" if attribute & 0x80 else ""
    if mono and fg & 7 == 1 and bg == 0:
        return f"\x1b[0;{bold};4{blink};37;40m"
    return f"\x1b[0;{bold}{blink};{30 + _ANSI[fg & 7]};{40 + _ANSI[bg]}m"


def ansi_frame(screen: Screen, previous: Screen | None = None, mono: bool = False) -> str:
    """Escape sequences that turn a terminal showing ``previous`` (None: anything) into
    ``screen``: only the rows that changed are written."""
    out = [] if previous is not None else ["\x1b[0m\x1b[2J"]
    for row in range(ROWS):
        line = screen.cells[row]
        if previous is not None and previous.cells[row] == line:
            continue
        out.append(f"\x1b[{row + 1};1H")
        current = None
        for ch, attribute in line[:COLUMNS - 1 if row == ROWS - 1 else COLUMNS]:
            if attribute != current:
                out.append(sgr(attribute, mono))
                current = attribute
            out.append(ch)
    out.append("\x1b[0m")
    return "".join(out)
