"""The one interface every game in ``games_py`` offers, in the shape OpenSpiel uses.

A game is a factory of states.  A state knows whose turn it is (a seat number, ``CHANCE``
when the dealer's shuffle or a die decides, ``TERMINAL`` when the game is over), the legal
actions of that player, how to apply one, what each player may see, and the returns at the
end.  Players choose an action from an observation and the legal actions; they never see
the state itself.  A user interface only renders states and collects a human's choices.

Actions are whatever each game's rules call a move (a card, a meld, ``"knock"``...): they
must be hashable and compare equal when they mean the same move, so that tests can check
"the action chosen is one of the legal actions".  ``action_to_string`` names them for logs.

Randomness: a game whose deal comes from a seeded generator the original used (Tommy's Gin
Rummy's QuickBASIC RND) keeps that generator inside the state and never exposes a chance
node, because the original's sequence of RND calls is part of its behaviour.  A game free to
choose may expose chance nodes; ``play`` below resolves them from its own seeded generator.

The shared property test (tests/test_games_interface.py) plays every registered game at
random through this interface and checks ``invariant_violations`` after every action, and
that no observation of a seat holds a card ``hidden_from`` that seat.
"""
from __future__ import annotations

import importlib
import random
from typing import Any, Hashable, Protocol, Sequence, runtime_checkable

CHANCE = -1        # OpenSpiel's kChancePlayerId
TERMINAL = -4      # OpenSpiel's kTerminalPlayerId

Action = Hashable


@runtime_checkable
class State(Protocol):
    def current_player(self) -> int:
        """The seat to act (0..num_players-1), ``CHANCE`` or ``TERMINAL``."""

    def legal_actions(self) -> Sequence[Action]:
        """The current player's legal actions; empty when terminal."""

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """At a chance node, each outcome and its probability; empty elsewhere."""

    def apply_action(self, action: Action) -> None:
        """Play ``action`` for the current player; raises ValueError if it is not legal."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[float]:
        """Each seat's result of the game (points won or lost, or +1/-1), defined when terminal."""

    def observation(self, player: int) -> Any:
        """What ``player`` may see now: its own cards, never an opponent's hidden ones.
        Two observations of the same position compare equal (a frozen dataclass does)."""

    def hidden_from(self, player: int) -> set:
        """The cards (tiles...) ``player`` may not see now: other seats' concealed hands, the
        stock.  They must be objects of the game's card type, not plain ints, so that the
        shared test can look for them in ``observation(player)`` (where they must not be)."""

    def action_to_string(self, action: Action) -> str: ...

    def invariant_violations(self) -> list[str]:
        """Broken invariants of the game (cards or tiles conserved, scores consistent...)."""


@runtime_checkable
class Game(Protocol):
    name: str            # the package name, as in ``python -m games_py.NAME``
    num_players: int

    def new_initial_state(self, seed: int | None = None) -> State: ...


@runtime_checkable
class Player(Protocol):
    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action: ...


class RandomPlayer:
    """Picks a legal action uniformly from its own seeded generator (property tests)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal_actions))


# Each game's adapter, imported only when asked for, so that one game's import errors never
# stop the others.  "module:attribute" of an object satisfying ``Game``.
GAMES = {
    "ginrummy": "games_py.ginrummy.spiel:GAME",
    "tonk": "games_py.tonk.spiel:GAME",
    "teach_gin": "games_py.teach_gin.spiel:GAME",
    "cribbage": "games_py.cribbage.spiel:GAME",
    "rummi": "games_py.rummi.spiel:GAME",
}


def load_game(name: str) -> Game:
    """The registered game ``name``; KeyError names the games there are."""
    try:
        target = GAMES[name]
    except KeyError:
        raise KeyError(f"no game {name!r}; the games are {', '.join(sorted(GAMES))}") from None
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def play(state: State, players: Sequence[Player], seed: int | None = None,
         max_actions: int = 100_000, check=None) -> State:
    """Play ``state`` to its end with one player per seat; ``check(state)`` after each action.

    Chance nodes are resolved from a generator seeded with ``seed``.  ``max_actions`` bounds a
    game that would never end (a bug), raising RuntimeError instead of looping forever.
    """
    chance = random.Random(seed)
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        seat = state.current_player()
        if seat == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            action = chance.choices(outcomes, weights)[0]
        else:
            # ``in`` asks the game itself: a game may list only candidate moves while its
            # rules accept more (Rummi's rearrangements of the table)
            legal = state.legal_actions()
            action = players[seat].choose(state.observation(seat), legal)
            if action not in legal:
                raise ValueError(f"seat {seat} chose {action!r}, not a legal action")
        state.apply_action(action)
        if check is not None:
            check(state)
    raise RuntimeError(f"no end after {max_actions} actions")
