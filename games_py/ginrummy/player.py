"""The two players of Tommy's Gin Rummy: one enum for the engine, the traces, the screen
and the game interface.

The values are the original's own player numbers (H(1, .) is your hand, H(2, .) the
computer's; DEALER, KNOCKER and WINNER hold them), so a ``Player`` indexes the
program's tables directly.  ``word`` is how a trace writes it ("you", "computer",
docs/trace-format.md), ``seat`` the seat of games_py.interface (0 and 1).
"""
from __future__ import annotations

from enum import IntEnum


class Player(IntEnum):
    YOU = 1             # the hand at the top of the original's screen
    COMPUTER = 2

    @property
    def other(self) -> "Player":
        return Player(3 - self)

    @property
    def word(self) -> str:
        """The trace's name: "you" or "computer"."""
        return self.name.lower()

    @property
    def seat(self) -> int:
        return self - 1

    @classmethod
    def from_word(cls, word: str) -> "Player":
        try:
            return cls[word.upper()]
        except KeyError:
            raise ValueError(f"a player is 'you' or 'computer', not {word!r}") from None

    @classmethod
    def from_seat(cls, seat: int) -> "Player":
        return cls(seat + 1)


YOU, COMPUTER = Player.YOU, Player.COMPUTER
