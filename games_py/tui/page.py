"""A page of text lines on the 80x25 screen, for a game whose screens are lines (Teach's
GinRummy): lines scroll up as they are added, a new page clears them, and the bottom
row holds the question and what is typed.  ANSI colours in a line (SGR 1, 30-37, 0)
become the cells' PC attributes, so a line coloured for a terminal keeps its colours."""
from __future__ import annotations

import re

from games_py.tui.screen import COLUMNS, GREY, ROWS, Screen

TEXT_ROWS = ROWS - 2            # rows 0-22 for text, 23 blank, 24 the prompt
PROMPT_ROW = ROWS - 1
PROMPT_COLOUR = 0x0F
_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_ANSI_TO_CGA = {30: 0, 31: 4, 32: 2, 33: 14, 34: 1, 35: 5, 36: 3, 37: 7}


def cells(text: str) -> list[tuple[str, int]]:
    """The characters of ``text`` with their attributes, its SGR sequences read."""
    out: list[tuple[str, int]] = []
    attribute, bold = GREY, False
    pos = 0
    for m in _SGR.finditer(text):
        out += [(ch, attribute | (0x08 if bold else 0)) for ch in text[pos:m.start()]]
        for code in (int(c) for c in (m.group(1) or "0").split(";") if c):
            if code == 0:
                attribute, bold = GREY, False
            elif code == 1:
                bold = True
            elif code in _ANSI_TO_CGA:
                attribute = _ANSI_TO_CGA[code]
        pos = m.end()
    out += [(ch, attribute | (0x08 if bold else 0)) for ch in text[pos:]]
    return [(ch if ch.isprintable() else " ", a) for ch, a in out]


class Page:
    """``clear`` starts a new page but keeps what was written since the last answer
    (``answered``): the moves made while you waited stay above the next table."""

    def __init__(self) -> None:
        self.lines: list[list[tuple[str, int]]] = []
        self.prompt = ""
        self.typed = ""
        self.since_answer = 0           # index of the first line written since the last answer

    def add(self, text: str) -> None:
        for line in text.split("\n"):
            self.lines.append(cells(line)[:COLUMNS])
        dropped = max(0, len(self.lines) - TEXT_ROWS)
        del self.lines[:dropped]
        self.since_answer = max(0, self.since_answer - dropped)

    def answered(self) -> None:
        self.since_answer = len(self.lines)

    def clear(self) -> None:
        self.lines = self.lines[self.since_answer:]
        self.since_answer = 0

    def screen(self) -> Screen:
        screen = Screen()
        for row, line in enumerate(self.lines):
            for column, (ch, attribute) in enumerate(line):
                screen.put(row, column, ch, attribute)
        prompt = f"{self.prompt}{self.typed}\u2581"[-(COLUMNS - 1):]
        screen.put(PROMPT_ROW, 0, prompt, PROMPT_COLOUR)
        return screen
