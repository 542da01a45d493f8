"""Drive one game: ask each seat's player to move; the state runs chance and the show."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from games_py.cribbage import rules
from games_py.cribbage.players import Player
from games_py.cribbage.spiel import CribbageState
from games_py.cribbage.state import Event, GameState


def play_game(state: GameState, players: Sequence[Player], rng: random.Random,
              on_event: Callable[[Event, GameState], None] | None = None) -> rules.Result:
    """Play ``state`` to its end with ``rng`` for the cards; ``on_event`` sees each event
    as it happens (the events of the automatic steps before the first move too)."""
    return play_state(CribbageState(game=state, rng=rng), players, on_event)


def play_state(spiel: CribbageState, players: Sequence[Player],
               on_event: Callable[[Event, GameState], None] | None = None) -> rules.Result:
    """``play_game`` for an interface state (which a full-screen table also draws)."""
    state = spiel.game
    if on_event is not None:
        def observe(events: list[Event]) -> None:
            for event in events:
                on_event(event, state)
        observe(spiel.events)              # the cut and the deal, done before we were here
        spiel.observer = observe
    while True:
        if spiel.is_terminal():
            return rules.result(state)
        seat = spiel.current_player()
        legal = spiel.legal_actions()
        spiel.apply_action(players[seat].choose(spiel.observation(seat), legal))
