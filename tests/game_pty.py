"""A game's command in a pseudo-terminal, for the full-screen tests: keys in, the screen
read back from the escape sequences ``tui.screen.ansi_frame`` writes, resizes by
TIOCSWINSZ (the kernel then sends SIGWINCH).  Waits poll the output; none asserts a time."""
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
PATIENCE = 60.0       # seconds before a wait gives up (a failure, not a measurement)


def read_screen(data: str, rows: int = 25, columns: int = 80) -> list[str]:
    """What a terminal shows after ``data`` (cursor moves, clears and text)."""
    cells = [[" "] * columns for _ in range(rows)]
    r = c = 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|[^\x1b]", data):
        if token.startswith("\x1b"):
            if token.endswith("H"):
                r, c = (int(x) - 1 for x in (token[2:-1] or "1;1").split(";"))
            elif token == "\x1b[2J":
                cells = [[" "] * columns for _ in range(rows)]
            continue
        if token in "\r\n":
            continue
        if 0 <= r < rows and 0 <= c < columns:
            cells[r][c] = token
        c += 1
    return ["".join(row) for row in cells]


class PtyGame:
    def __init__(self, *args: str, rows: int = 25, columns: int = 80,
                 cwd: Path | None = None) -> None:
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.chdir(cwd or REPO)
            env = dict(os.environ, PYTHONPATH=str(REPO))
            os.execve(sys.executable, [sys.executable, "-m", *args], env)
        self.pid, self.fd = pid, fd
        self.raw = b""
        self.mark = 0          # where ``since_mark`` starts
        self.code: int | None = None

    def __enter__(self) -> "PtyGame":
        return self

    def __exit__(self, *_exc) -> None:
        if self.code is None:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)

    def _pump(self, timeout: float = 0.2) -> bool:
        if select.select([self.fd], [], [], timeout)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            self.raw += chunk
        return True

    def text(self) -> str:
        return self.raw.decode("utf-8", "replace")

    def screen(self) -> list[str]:
        return read_screen(self.text())

    def until(self, wanted: str, since_mark: bool = False) -> list[str]:
        """Wait until the screen shows ``wanted`` (or, ``since_mark``, until the output
        after the mark does); returns the screen."""
        end = time.monotonic() + PATIENCE
        while True:
            shown = self.since_mark() if since_mark else self.screen()
            if wanted in "\n".join(shown):
                return shown
            if time.monotonic() > end or not self._pump():
                raise AssertionError(f"{wanted!r} not shown:\n" + "\n".join(self.screen()))

    def settle(self) -> None:
        """Read until nothing more comes for a moment (the game waits for a key)."""
        while select.select([self.fd], [], [], 0.3)[0] and self._pump(0):
            pass

    def keys(self, data: bytes | str) -> None:
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def set_mark(self) -> None:
        self.settle()
        self.mark = len(self.raw)

    def since_mark(self, rows: int = 25, columns: int = 80) -> list[str]:
        return read_screen(self.raw[self.mark:].decode("utf-8", "replace"), rows, columns)

    def resize(self, rows: int, columns: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def wait(self) -> int:
        end = time.monotonic() + PATIENCE
        while time.monotonic() < end:
            self._pump(0.1)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self._pump(0.05):
                    if not select.select([self.fd], [], [], 0.05)[0]:
                        break
                self.code = os.waitstatus_to_exitcode(status)
                return self.code
        raise AssertionError("the game did not end:\n" + "\n".join(self.screen()))
