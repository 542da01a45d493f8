"""The state of a game of Rummi: pile, two trays, the table, whose turn.

States are immutable; the rules (rules.py) make a new state for every
action, so backing up, replaying and testing need no copying discipline.
Player 0 is "you" in the terminal game and the first computer in a demo.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
import random

from games_py.rummi.tiles import Tile, full_set, sort_series, sort_tray, value

HAND_SIZE = 14          # "Both playes take 14 pieces"
PLAYERS = 2

Series = tuple[Tile, ...]
Table = tuple[Series, ...]


@dataclass(frozen=True)
class GameState:
    pile: tuple[Tile, ...]                 # face down; drawn from the end
    trays: tuple[tuple[Tile, ...], ...]
    table: Table
    current: int                           # whose turn: 0 or 1
    opened: tuple[bool, ...] = (False, False)  # made the initial 30 yet?
    passes: int = 0        # turns in a row without a play while the pile is empty
    turn: int = 1
    over: bool = False
    winner: int | None = None              # None with over=True: a draw
    end_reason: str = ""
    # how the last turn ended: "play", "draw", "pass" (pile empty),
    # "penalty" or "skip" (single play); "" before the first turn
    last_turn_end: str = ""
    history: tuple[str, ...] = field(default=(), compare=False)

    @property
    def opponent(self) -> int:
        return 1 - self.current

    def tray(self, player: int) -> tuple[Tile, ...]:
        return self.trays[player]

    def table_tiles(self) -> list[Tile]:
        return [t for s in self.table for t in s]

    def all_tiles(self) -> list[Tile]:
        """Every piece in the game, wherever it is (always 104 of them)."""
        return list(self.pile) + [t for tray in self.trays for t in tray] \
            + self.table_tiles()

    def with_(self, **changes) -> "GameState":
        return replace(self, **changes)

    def log(self, line: str) -> "GameState":
        return replace(self, history=self.history + (line,))


def new_game(rng: random.Random) -> GameState:
    """Shuffle, deal 14 each, and choose the first player at random
    ("The program decides (randomly) who has the first turn")."""
    pile = full_set()
    rng.shuffle(pile)
    trays = []
    for _ in range(PLAYERS):
        trays.append(sort_tray(pile[-HAND_SIZE:]))
        del pile[-HAND_SIZE:]
    first = rng.randrange(PLAYERS)
    return GameState(pile=tuple(pile), trays=tuple(trays), table=(),
                     current=first, history=(f"first turn: player {first}",))


def duplicates(tray: tuple[Tile, ...]) -> list[tuple[int, int]]:
    """Kinds held twice ("two pieces with the same color and value")."""
    counts = Counter(t.kind for t in tray)
    return sorted(k for k, n in counts.items() if n >= 2)


@dataclass(frozen=True)
class View:
    """What one player may know: own tray, the table, the opponent's tray
    size and whether the opponent holds a duplicate (the program "will let
    you know when it has").  Computer players decide from this alone."""

    me: int
    tray: tuple[Tile, ...]
    table: Table
    opened: bool
    opponent_opened: bool
    opponent_tray_size: int
    opponent_has_duplicate: bool
    pile_size: int
    offered: Tile | None = None     # the opponent's swap offer this player must answer


def view_for(state: GameState, player: int, offered: Tile | None = None) -> View:
    other = 1 - player
    return View(me=player, tray=state.trays[player], table=state.table,
                opened=state.opened[player],
                opponent_opened=state.opened[other],
                opponent_tray_size=len(state.trays[other]),
                opponent_has_duplicate=bool(duplicates(state.trays[other])),
                pile_size=len(state.pile), offered=offered)


def tray_value(state: GameState, player: int) -> int:
    return value(state.trays[player])


def normalise_table(table) -> Table:
    """Series in display order; the order of series is kept."""
    return tuple(sort_series(s) for s in table if s)
