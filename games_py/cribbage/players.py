"""The seats at the table: computer, random, scripted and human players.

Every player answers ``choose(view, legal)`` with one of the ``legal``
actions, seeing only its own ``PlayerView``.
"""
from __future__ import annotations

import random
from typing import Callable, Iterable, Iterator, Protocol

from games_py.cards import Card
from games_py.cribbage.state import Action, Discard, Phase, Play, PlayerView
from games_py.cribbage import rules, strategy


class Player(Protocol):
    name: str

    def choose(self, view: PlayerView, legal: list[Action]) -> Action: ...


class ComputerPlayer:
    """Discards by expected value and pegs with one ply of look-ahead."""

    def __init__(self, name: str = "COMPUTER") -> None:
        self.name = name

    def choose(self, view: PlayerView, legal: list[Action]) -> Action:
        return rules.canonical(suggest(view), legal)


def suggest(view: PlayerView) -> Action:
    """The computer's choice for ``view``: its own move, or a player's hint."""
    if view.phase is Phase.DISCARD:
        return strategy.best_discard(view)
    card = strategy.best_play(view)
    if card is None:
        raise ValueError("no card can be played: the rules say GO for you")
    return Play(card)


class RandomPlayer:
    """Any legal move, chosen with the given generator (for property tests)."""

    def __init__(self, rng: random.Random, name: str = "RANDOM") -> None:
        self.rng = rng
        self.name = name

    def choose(self, view: PlayerView, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class ScriptedPlayer:
    """Plays a fixed list of moves written as card text: "5H 5S" discards
    two cards, "JD" plays one.  Runs out with a clear error."""

    def __init__(self, moves: Iterable[str], name: str = "SCRIPT") -> None:
        self._moves: Iterator[str] = iter(moves)
        self.name = name

    def choose(self, view: PlayerView, legal: list[Action]) -> Action:
        try:
            text = next(self._moves)
        except StopIteration:
            raise RuntimeError(f"{self.name} has no scripted move left") from None
        chosen = [Card.parse(t) for t in text.split()]
        if view.phase is Phase.DISCARD:
            return rules.canonical(Discard((chosen[0], chosen[1])), legal)
        return Play(chosen[0])


class HumanPlayer:
    """A person at the terminal: the UI's ``ask`` collects the move."""

    def __init__(self, ask: Callable[[PlayerView, list[Action]], Action],
                 name: str = "PLAYER") -> None:
        self.ask = ask
        self.name = name

    def choose(self, view: PlayerView, legal: list[Action]) -> Action:
        return rules.canonical(self.ask(view, legal), legal)
