"""Running a game between two players (demo, tests, benchmark), through the one
interface's state (``spiel.RummiState``) and each player's ``choose``."""
from __future__ import annotations

from dataclasses import dataclass, field
import random
from typing import Callable, Sequence

from games_py.rummi import rules
from games_py.rummi.players import Player
from games_py.rummi.rules import Return, Swap
from games_py.rummi.spiel import RummiState
from games_py.rummi.state import GameState, new_game

# A game cannot go on for ever (the pile shrinks or the trays do), but a
# runaway bug should end a demo rather than hang it.
TURN_LIMIT = 1000


@dataclass
class TurnRecord:
    player: int
    before: GameState
    after: GameState
    played: int                      # tray pieces placed this turn
    swaps: list[Swap] = field(default_factory=list)


def play_turn(state: GameState, players: Sequence[Player]) -> tuple[GameState, TurnRecord]:
    """Ask the player to move until it ends its turn; swaps happen on the way."""
    me = state.current
    spiel = RummiState(game=state)
    swaps = []
    while not spiel.game.over and spiel.game.turn == state.turn:
        seat = spiel.current_player()
        legal = spiel.legal_actions()
        action = players[seat].choose(spiel.observation(seat), legal)
        if action not in legal:
            raise rules.IllegalAction(f"player {seat} gave {action!r}, not a legal move")
        if isinstance(action, Return):
            swaps.append(Swap(spiel.offer, action.tile))
        spiel.apply_action(action)
    after = spiel.game
    played = len(set(after.table_tiles()) - set(state.table_tiles()))
    return after, TurnRecord(me, state, after, played, swaps)


def play_game(players: Sequence[Player], seed: int,
              on_turn: Callable[[TurnRecord], None] | None = None) -> tuple[GameState, list[TurnRecord]]:
    state = new_game(random.Random(seed))
    records = []
    while not state.over:
        if len(records) >= TURN_LIMIT:
            raise RuntimeError(f"game with seed {seed} exceeded {TURN_LIMIT} turns")
        state, record = play_turn(state, players)
        records.append(record)
        if on_turn:
            on_turn(record)
    return state, records
