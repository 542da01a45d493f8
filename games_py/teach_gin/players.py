"""Players: each turns an Observation and the legal moves into a move.

The terminal's human player lives in ``terminal``; these are the computer and
the players the tests and the demo use.
"""
from __future__ import annotations

import random
from typing import Iterable, Protocol, Sequence

from games_py.teach_gin import strategy
from games_py.teach_gin.observation import Observation
from games_py.teach_gin.state import Move


class Player(Protocol):
    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move: ...


class ComputerPlayer:
    """The computer opponent; ``easy`` is the Options menu's EASY switch."""

    def __init__(self, easy: bool = False) -> None:
        self.easy = easy

    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move:
        return strategy.choose(obs, easy=self.easy)


class HintPlayer:
    """Always follows the hint (what a player leaning on H would do)."""

    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move:
        return strategy.hint(obs)


class RandomPlayer:
    """Uniformly random legal moves, from its own seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move:
        return self.rng.choice(list(legal))


class ScriptedPlayer:
    """Plays a fixed list of moves, then fails loudly if asked for more."""

    def __init__(self, moves: Iterable[Move]) -> None:
        self.moves = list(moves)

    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move:
        if not self.moves:
            raise RuntimeError("the script has no moves left")
        return self.moves.pop(0)
