"""Keys from a real terminal and the screen drawn on it, for the full-screen games
(``python -m games_py.ginrummy play``, ``python -m games_py.tonk play``).

The terminal is put in cbreak mode (keys arrive one at a time, unechoed) and
restored on exit.  Function keys arrive as escape sequences; those of xterm, the
Linux console and VT100s are understood.  The screen is written with
``screen.ansi_frame``, only the rows that changed.

A change of the terminal's size (SIGWINCH) arrives as the key ``RESIZE`` and
Ctrl-L as ``CTRL-L``; the session answers both with ``AnsiDisplay.repaint``,
which writes the whole screen again, or, on a terminal smaller than 80x25, says
plainly that the game needs 80x25 until the terminal grows back.
"""
from __future__ import annotations

import os
import select
import signal
import sys
import termios
import tty
from typing import IO, Callable

from games_py.tui.screen import COLUMNS, ROWS, Screen, ansi_frame

SEQUENCES = {
    "\x1bOP": "F1", "\x1b[11~": "F1", "\x1b[[A": "F1",
    "\x1bOQ": "F2", "\x1b[12~": "F2", "\x1b[[B": "F2",
    "\x1bOR": "F3", "\x1b[13~": "F3", "\x1b[[C": "F3",
    "\x1bOS": "F4", "\x1b[14~": "F4", "\x1b[[D": "F4",
    "\x1b[15~": "F5", "\x1b[[E": "F5",
    "\x1b[17~": "F6", "\x1b[18~": "F7", "\x1b[19~": "F8", "\x1b[20~": "F9", "\x1b[21~": "F10",
}
ESCAPE_WAIT = 0.05          # a lone ESC: nothing follows within this time
RESIZE = "RESIZE"           # the terminal changed its size (SIGWINCH)


def key_name(text: str) -> str | None:
    """The name of what one key sent ("F5", "ESC", "ENTER", " " or the upper-cased
    character); None for sequences the game has no use for (cursor keys...)."""
    if text in SEQUENCES:
        return SEQUENCES[text]
    if text == "\x1b":
        return "ESC"
    if text in ("\r", "\n"):
        return "ENTER"
    if text == "\x0c":
        return "CTRL-L"
    if text in ("\x7f", "\x08"):
        return "BACKSPACE"
    if len(text) == 1 and (text.isprintable() or text == " "):
        return text.upper()
    return None


class EscapeReader:
    """One key's text from characters read one at a time (``_read``, the subclass's): an
    escape sequence whole, or Esc alone.  A character other than ``[`` or ``O`` right after
    Esc is a key of its own (Esc typed, then another key, or Alt+key), kept for the next
    read."""

    _held: str | None = None

    def _read(self, timeout: float | None, wake: bool = True) -> str | None:
        raise NotImplementedError

    def sequence(self, timeout: float | None, wake: bool = True) -> str | None:
        if self._held is not None:
            first, self._held = self._held, None
        else:
            first = self._read(timeout, wake)
        if first != "\x1b":
            return first
        text = first
        while (more := self._read(ESCAPE_WAIT, wake=False)) is not None:   # a resize waits its turn
            if len(text) == 1 and more not in "[O":
                self._held = more
                break
            text += more
            if text in SEQUENCES or (len(text) > 2 and (more.isalpha() or more == "~")):
                break
        return text


class TerminalKeyboard(EscapeReader):
    """Keys from a terminal file descriptor (stdin)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.fd = (stream or sys.stdin).fileno()
        self._saved = None
        self._old_winch = None
        self._wake_read, self._wake_write = os.pipe()     # SIGWINCH wakes the key wait
        os.set_blocking(self._wake_write, False)
        self.idle = None            # called about once a second while a key is awaited

    IDLE_EVERY = 1.0

    def __enter__(self) -> "TerminalKeyboard":
        if os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._old_winch = signal.signal(signal.SIGWINCH, self._resized)
        return self

    def __exit__(self, *_exc) -> None:
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        signal.signal(signal.SIGWINCH, self._old_winch or signal.SIG_DFL)
        os.close(self._wake_read)
        os.close(self._wake_write)

    def _resized(self, _signum, _frame) -> None:
        try:
            os.write(self._wake_write, b"w")
        except OSError:              # the pipe is full: a resize is already pending
            pass

    def _read(self, timeout: float | None, wake: bool = True) -> str | None:
        """One character, RESIZE (when ``wake``) or None after ``timeout`` seconds."""
        watched = [self._wake_read, self.fd] if wake else [self.fd]
        ready, _, _ = select.select(watched, [], [], timeout)
        if not ready:
            return None
        if self._wake_read in ready:
            while select.select([self._wake_read], [], [], 0)[0]:   # one RESIZE for them all
                os.read(self._wake_read, 64)
            return RESIZE
        data = os.read(self.fd, 1)
        if not data:
            raise EOFError
        return data.decode("latin-1")

    def key(self, timeout: float | None) -> str | None:
        while True:
            if timeout is None and self.idle is not None:
                text = self.sequence(self.IDLE_EVERY)
                if text is None:
                    self.idle()
                    continue
            else:
                text = self.sequence(timeout)
            if text is None:
                return None
            if text == RESIZE:
                return RESIZE
            name = key_name(text)
            if name is not None:
                return name


def too_small_text(columns: int, rows: int, title: str = "Tommy's Gin Rummy",
                   quit_hint: str = "(F7 then Y quits.)") -> list[str]:
    """What a terminal smaller than the game's screen shows instead, in lines that fit it."""
    words = (f"{title} needs a terminal of at least {COLUMNS}x{ROWS}; this one is "
             f"{columns}x{rows}. Make it larger and the table comes back. {quit_hint}").split()
    width = max(columns, 10)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines[:max(rows, 1)]


class AnsiDisplay:
    """Draws the screen on a terminal, changed rows only; ``repaint`` draws all of it again.
    On a terminal smaller than 80x25 it shows ``too_small_text`` instead of the table."""

    def __init__(self, out: IO[str] | None = None, mono: bool = False,
                 size: Callable[[], tuple[int, int]] | None = None,
                 title: str = "Tommy's Gin Rummy", quit_hint: str = "(F7 then Y quits.)") -> None:
        self.out = out or sys.stdout
        self.title, self.quit_hint = title, quit_hint
        self.mono = mono
        self.size = size or self._terminal_size
        self._shown: Screen | None = None
        self.too_small: tuple[int, int] | None = None     # the size the notice was written for

    def _terminal_size(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            return COLUMNS, ROWS
        return size.columns, size.lines

    def __enter__(self) -> "AnsiDisplay":
        self._write("\x1b[?25l")              # no cursor over the cards
        return self

    def __exit__(self, *_exc) -> None:
        self._write("\x1b[0m\x1b[?25h\x1b[26;1H\n")

    def _write(self, text: str) -> None:
        raw = getattr(self.out, "buffer", None)
        if raw is not None:             # UTF-8 whatever the locale says (the cards' suits)
            self.out.flush()
            raw.write(text.encode("utf-8"))
            raw.flush()
        else:
            self.out.write(text)
            self.out.flush()

    def bell(self) -> None:
        self._write("\a")

    def fits(self) -> bool:
        """Whether the terminal holds the screen; if not, the notice is on it."""
        columns, rows = self.size()
        if columns >= COLUMNS and rows >= ROWS:
            if self.too_small is not None:      # grown back: everything again
                self.too_small, self._shown = None, None
            return True
        if self.too_small != (columns, rows):
            self.too_small = (columns, rows)
            self._shown = None
            self._write("\x1b[0m\x1b[2J" + "".join(
                f"\x1b[{r};1H{line}" for r, line in enumerate(too_small_text(columns, rows, self.title, self.quit_hint), 1)))
        return False

    def show(self, screen: Screen) -> None:
        if not self.fits():
            return
        self._write(ansi_frame(screen, self._shown, self.mono))
        self._shown = screen.copy()

    def repaint(self, screen: Screen) -> None:
        """After a resize or Ctrl-L: the whole screen, from a cleared terminal (or the
        notice again, when the terminal is still too small)."""
        self._shown = None
        if self.too_small is not None:
            self.too_small = (-1, -1)
        self.show(screen)
