"""Line-based input and output, with the screen blanker (doc lines 95-99).

Blanking: after ``max(60, 2 * score limit)`` seconds without input the screen
is cleared until a key (a line) is typed; ESC typed at any prompt blanks at once
(the "Boss key").  NOBLANK turns both off.  Waiting for a timeout needs a real
terminal; with input from a pipe or file only ESC blanks.
"""
from __future__ import annotations

import select
from typing import Callable, TextIO

from games_py.teach_gin.render import Style

ESC = "\x1b"
MIN_BLANK_SECONDS = 60      # "The minimum time is one minute"


def blank_seconds(score_limit: int) -> int:
    """"two seconds per score limit point" with a one-minute floor (line 96)."""
    return max(MIN_BLANK_SECONDS, 2 * score_limit)


class EndOfInput(Exception):
    """The input ended (Ctrl-D, or the end of a script)."""


class Console:
    def __init__(self, inp: TextIO, out: TextIO, style: Style,
                 blank_after: Callable[[], int] | None) -> None:
        self.inp, self.out, self.style = inp, out, style
        self.blank_after = blank_after          # None: NOBLANK
        self.blanked = 0                        # how often the screen was blanked

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def new_page(self) -> None:
        """A new screen begins (a table, a menu): a blank line here; a full-screen
        console clears its page."""
        self.say()

    def ask(self, prompt: str, redraw: Callable[[], object] | None = None) -> str:
        """One line of input, stripped; ESC blanks the screen and asks again.  After a
        blank (ESC or the timer) ``redraw`` shows again what the prompt is about (the
        table), since the blank cleared it."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self._readline()
            if line is None:        # blanked by the timer and woken up again
                if redraw is not None:
                    redraw()
                continue
            if ESC in line:
                if self.blank_after is None:    # NOBLANK: "also disable the manual screen blanking"
                    return "ESC"
                self.blank()
                if redraw is not None:
                    redraw()
                continue
            return line.strip()

    def _readline(self) -> str | None:
        if self.blank_after is not None and self._is_tty():
            if not select.select([self.inp], [], [], self.blank_after())[0]:
                self.blank()
                return None
        line = self.inp.readline()
        if not line:
            raise EndOfInput
        return line

    def _is_tty(self) -> bool:
        try:
            return self.inp.isatty() and self.inp.fileno() >= 0
        except (AttributeError, ValueError, OSError):
            return False

    def blank(self) -> None:
        """Clear the screen; any line typed brings the game back."""
        self.blanked += 1
        if self.style.colour:
            self.out.write("\x1b[2J\x1b[H")
        self.out.write("[screen blanked - press Enter]\n")
        self.out.flush()
        if not self.inp.readline():
            raise EndOfInput
