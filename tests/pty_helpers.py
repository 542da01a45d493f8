"""A game in a pseudo-terminal, for the full-screen tests: spawn a command on a pty of a
given size, type keys, resize it (TIOCSWINSZ on the master sends SIGWINCH), and read the
screen back with a small emulator of the sequences games_py.tui writes (cursor moves,
clears, colours ignored)."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOKEN = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|[^\x1b]")


class PtyGame:
    def __init__(self, argv: list[str], rows: int = 25, columns: int = 80, cwd: Path | None = None,
                 env: dict | None = None) -> None:
        self.rows, self.columns = rows, columns
        self.raw = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                                  # the child: the game
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
                os.chdir(cwd or REPO)
                os.execve(sys.executable, [sys.executable, *argv],
                          {**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm", **(env or {})})
            finally:
                os._exit(127)

    # -- the terminal ------------------------------------------------------------------
    def text(self) -> str:
        return self.raw.decode("utf-8", "replace")

    def screen(self, since: int = 0) -> list[str]:
        """The screen after all output (or after the output from byte ``since`` on a
        cleared screen)."""
        rows = [[" "] * self.columns for _ in range(self.rows)]
        r = c = 0
        for token in TOKEN.findall(self.raw[since:].decode("utf-8", "replace")):
            if token.startswith("\x1b"):
                if token.endswith("H"):
                    r, c = (int(x) - 1 for x in (token[2:-1] or "1;1").split(";"))
                elif token == "\x1b[2J":
                    rows = [[" "] * self.columns for _ in range(self.rows)]
                continue
            if token == "\r":
                c = 0
            elif token == "\n":
                r += 1
            elif token >= " ":
                if 0 <= r < self.rows and 0 <= c < self.columns:
                    rows[r][c] = token
                c += 1
        return ["".join(row) for row in rows]

    def shown(self) -> str:
        return "\n".join(self.screen())

    def read(self, seconds: float = 0.2) -> bool:
        """Read what the game wrote in the next ``seconds``; False at its end."""
        if select.select([self.fd], [], [], seconds)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            self.raw += data
        return True

    def until(self, text: str, seconds: float = 30.0, since: int | None = None) -> None:
        """Read until the screen (or the raw output from byte ``since``) shows ``text``."""
        end = time.monotonic() + seconds
        while True:
            if since is not None:
                if text.encode() in self.raw[since:]:
                    return
            elif text in self.shown():
                return
            if time.monotonic() > end or not self.read():
                raise AssertionError(f"{text!r} not shown:\n" + self.shown())

    def settle(self, seconds: float = 0.5) -> None:
        """Read until the game has written nothing for ``seconds``."""
        while True:
            before = len(self.raw)
            if not self.read(seconds) or len(self.raw) == before:
                return

    def type(self, keys: str | bytes) -> None:
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def resize(self, rows: int, columns: int) -> int:
        """Resize the terminal; returns where the output after the resize starts."""
        self.settle(0.2)
        mark = len(self.raw)
        self.rows, self.columns = rows, columns
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        return mark

    def after_resize(self, rows: int, columns: int, shows: str, settle: float = 0.5) -> list[str]:
        """Resize the terminal; the screen drawn after it, once the output shows ``shows``
        and then settles."""
        mark = self.resize(rows, columns)
        self.until(shows, since=mark)
        self.settle(settle)
        return self.screen(mark)

    def after_keys(self, keys: str, shows: str, settle: float = 0.5) -> list[str]:
        """Type ``keys``; the screen drawn after them, once the output shows ``shows`` and
        then settles."""
        mark = len(self.raw)
        self.type(keys)
        self.until(shows, since=mark)
        self.settle(settle)
        return self.screen(mark)

    def wait(self, seconds: float = 30.0) -> int:
        """The exit code, reading the output to the end."""
        end = time.monotonic() + seconds
        while self.read() and time.monotonic() < end:
            pass
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        return os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        kill_and_close(self.pid, self.fd)

    def __enter__(self) -> "PtyGame":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def kill_and_close(pid: int, fd: int) -> None:
    """End the game on the pty (pid 0: it has ended and been waited for) and close it."""
    if pid:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    os.close(fd)


def assert_repaints_whole(game: PtyGame, before: list[str], shows: str, title: str) -> None:
    """The 80x25 table ``before`` comes back whole after a resize to 100x30 (cleared, then
    every row), after Ctrl-L, and after a 60x20 terminal, which gets the notice that
    ``title`` needs 80x25, grows back; ``shows`` is a text of every repaint."""
    mark = game.resize(30, 100)
    game.until(shows, since=mark)
    game.settle(0.3)
    assert b"\x1b[2J" in game.raw[mark:]
    assert game.screen(mark)[:25] == [row.ljust(100) for row in before]
    game.resize(25, 80)
    game.settle(0.3)
    assert game.after_keys("\x0c", shows, 0.3) == before                 # Ctrl-L
    small = game.after_resize(20, 60, f"{title} needs a terminal of at least 80x25", 0.3)
    assert "this one is 60x20" in " ".join(" ".join(small).split())
    assert game.after_resize(25, 80, shows, 0.3) == before               # back, whole
