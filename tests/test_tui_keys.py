"""What one key sends a terminal, read back as one key: escape sequences whole (CSI and
SS3, xterm's and the Linux console's), Esc alone, and Esc followed quickly by a key."""
from __future__ import annotations

import os

from games_py.tui.terminal import ESCAPE_WAIT, TerminalKeyboard, key_name
from tests.terminal_fakes import CharacterKeys


class Typed(CharacterKeys):
    """All ``text`` typed at once; the reads that wait for an escape sequence's rest are
    counted."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.escape_waits = 0

    def _read(self, timeout, wake=True):
        self.escape_waits += timeout == ESCAPE_WAIT
        return super()._read(timeout, wake)


def keys(text: str) -> list[str]:
    reader, out = Typed(text), []
    while (key := reader.sequence(None)) is not None:
        out.append(key)
    return out


def test_sequences_arrive_whole():
    assert keys("\x1b[A\x1bOB\x1b[15~\x1b[[A\x1bOPx") == ["\x1b[A", "\x1bOB", "\x1b[15~", "\x1b[[A", "\x1bOP", "x"]
    assert [key_name(k) for k in keys("\x1bOP\x1b[[E\x1b[21~")] == ["F1", "F5", "F10"]


def test_esc_alone_and_esc_then_a_key_are_separate_keys():
    assert keys("\x1b") == ["\x1b"]
    assert keys("\x1by\x1b\x1b[D") == ["\x1b", "y", "\x1b", "\x1b[D"]
    reader = Typed("\x1bq")
    assert reader.sequence(None) == "\x1b" and reader.sequence(None) == "q"
    assert reader.escape_waits == 1            # q was kept, not read again


def test_the_terminal_keyboard_names_keys_read_from_its_descriptor():
    read_end, write_end = os.pipe()
    os.write(write_end, b"\x1b[15~\x1by\x1bOA\r")
    os.close(write_end)
    with os.fdopen(read_end) as stream, TerminalKeyboard(stream) as keyboard:
        names = [keyboard.key(0) for _ in range(3)]
        assert names == ["F5", "ESC", "Y"]          # a cursor key (no use to the card games) skipped
        assert keyboard.key(0) == "ENTER"
