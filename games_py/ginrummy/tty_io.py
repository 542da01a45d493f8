"""Keys from a real terminal and the screen drawn on it (``python -m games_py.ginrummy play``).

The terminal is put in cbreak mode (keys arrive one at a time, unechoed) and
restored on exit.  Function keys arrive as escape sequences; those of xterm, the
Linux console and VT100s are understood.  The screen is written with
``screen.ansi_frame``, only the rows that changed.
"""
from __future__ import annotations

import os
import select
import sys
import termios
import tty
from typing import IO

from games_py.ginrummy.screen import Screen, ansi_frame

SEQUENCES = {
    "\x1bOP": "F1", "\x1b[11~": "F1", "\x1b[[A": "F1",
    "\x1bOQ": "F2", "\x1b[12~": "F2", "\x1b[[B": "F2",
    "\x1bOR": "F3", "\x1b[13~": "F3", "\x1b[[C": "F3",
    "\x1bOS": "F4", "\x1b[14~": "F4", "\x1b[[D": "F4",
    "\x1b[15~": "F5", "\x1b[[E": "F5",
    "\x1b[17~": "F6", "\x1b[18~": "F7", "\x1b[19~": "F8", "\x1b[20~": "F9", "\x1b[21~": "F10",
}
ESCAPE_WAIT = 0.05          # a lone ESC: nothing follows within this time


def key_name(text: str) -> str | None:
    """The name of what one key sent ("F5", "ESC", "ENTER", " " or the upper-cased
    character); None for sequences the game has no use for (cursor keys...)."""
    if text in SEQUENCES:
        return SEQUENCES[text]
    if text == "\x1b":
        return "ESC"
    if text in ("\r", "\n"):
        return "ENTER"
    if len(text) == 1 and (text.isprintable() or text == " "):
        return text.upper()
    return None


class TerminalKeyboard:
    """Keys from a terminal file descriptor (stdin)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.fd = (stream or sys.stdin).fileno()
        self._saved = None
        self.idle = None            # called about once a second while a key is awaited

    IDLE_EVERY = 1.0

    def __enter__(self) -> "TerminalKeyboard":
        if os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *_exc) -> None:
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def _read(self, timeout: float | None) -> str | None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 1)
        if not data:
            raise EOFError
        return data.decode("latin-1")

    def key(self, timeout: float | None) -> str | None:
        while True:
            if timeout is None and self.idle is not None:
                first = self._read(self.IDLE_EVERY)
                if first is None:
                    self.idle()
                    continue
            else:
                first = self._read(timeout)
            if first is None:
                return None
            text = first
            if first == "\x1b":
                while True:
                    more = self._read(ESCAPE_WAIT)
                    if more is None:
                        break
                    text += more
                    if text in SEQUENCES or (len(text) > 2 and (more.isalpha() or more == "~")):
                        break
            name = key_name(text)
            if name is not None:
                return name


class AnsiDisplay:
    """Draws the screen on a terminal, changed rows only."""

    def __init__(self, out: IO[str] | None = None, mono: bool = False) -> None:
        self.out = out or sys.stdout
        self.mono = mono
        self._shown: Screen | None = None

    def __enter__(self) -> "AnsiDisplay":
        self.out.write("\x1b[?25l")              # no cursor over the cards
        return self

    def __exit__(self, *_exc) -> None:
        self.out.write("\x1b[0m\x1b[?25h\x1b[26;1H\n")
        self.out.flush()

    def show(self, screen: Screen) -> None:
        text = ansi_frame(screen, self._shown, self.mono)
        raw = getattr(self.out, "buffer", None)
        if raw is not None:             # UTF-8 whatever the locale says (the cards' suits)
            self.out.flush()
            raw.write(text.encode("utf-8"))
            raw.flush()
        else:
            self.out.write(text)
            self.out.flush()
        self._shown = screen.copy()
