"""Players choose actions from a state; they never change it.

The computer's own strategy (the original's, move for move) is part 2 of the
work (issue 4); here are the players the rules engine and its tests need.
"""
from __future__ import annotations

from typing import Iterable, Protocol

from games_py.ginrummy.state import Action, HandState


class Player(Protocol):
    def choose(self, state: HandState) -> Action: ...


class ScriptedPlayer:
    """Plays a fixed list of actions, in order (tests, replays)."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = list(actions)

    def choose(self, state: HandState) -> Action:
        if not self._actions:
            raise RuntimeError(f"the script has no action left for {state.to_move} ({state.phase.value})")
        return self._actions.pop(0)


def play_hand(state: HandState, players: dict[str, Player]) -> HandState:
    """Ask the player to move until the hand is over."""
    while not state.over:
        state.apply(players[state.to_move].choose(state))
    return state
