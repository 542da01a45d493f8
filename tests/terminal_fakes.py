"""Stand-ins for a terminal in the play tests: a keyboard that sends characters one read
at a time, and a display that keeps the text of every screen shown."""
from __future__ import annotations

from games_py.tui.terminal import EscapeReader


class CharacterKeys(EscapeReader):
    """``keys`` one item a read (None: nothing typed now), then nothing."""

    def __init__(self, keys) -> None:
        self.keys = list(keys)

    def _read(self, timeout, wake=True):
        return self.keys.pop(0) if self.keys else None


class TextDisplay:
    def __init__(self) -> None:
        self.shown: list[str] = []

    def show(self, screen) -> None:
        self.shown.append(screen.text())
