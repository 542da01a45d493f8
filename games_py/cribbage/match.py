"""Drive one game: ask the player to move, or let chance and the show happen."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from games_py.cribbage import rules
from games_py.cribbage.players import Player
from games_py.cribbage.state import Event, GameState


def play_game(state: GameState, players: Sequence[Player], rng: random.Random,
              on_event: Callable[[Event, GameState], None] | None = None) -> rules.Result:
    """Play ``state`` to its end; ``on_event`` sees each event as it happens."""
    while not state.is_over:
        player = state.current_player()
        if player is None:
            events = rules.step(state, rng)
        else:
            legal = rules.legal_actions(state)
            action = players[player].choose(state.view(player), legal)
            events = rules.apply(state, action)
        if on_event is not None:
            for event in events:
                on_event(event, state)
    return rules.result(state)
