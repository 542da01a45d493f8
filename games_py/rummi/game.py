"""Running a game between two players (demo, tests, benchmark)."""
from __future__ import annotations

from dataclasses import dataclass, field
import random
from typing import Callable, Sequence

from games_py.rummi import rules
from games_py.rummi.players import Player, SwapOffer
from games_py.rummi.rules import EndTurn, Swap
from games_py.rummi.state import GameState, duplicates, new_game, view_for

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
    before = state
    swaps = []
    while True:
        action = players[me].act(view_for(state, me))
        if isinstance(action, SwapOffer):
            if not duplicates(state.trays[state.opponent]):
                raise rules.IllegalAction("swap offered but the opponent has no duplicate")
            receive = players[state.opponent].swap_return(
                view_for(state, state.opponent), action.give)
            swap = Swap(action.give, receive)
            state = rules.apply(state, swap)
            swaps.append(swap)
            continue
        if not isinstance(action, EndTurn):
            raise rules.IllegalAction(f"player {me} gave {action!r}")
        table_before = set(state.table_tiles())
        state = rules.apply(state, action)
        played = len(set(state.table_tiles()) - table_before)
        return state, TurnRecord(me, before, state, played, swaps)


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
