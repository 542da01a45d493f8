"""Rummi on the one game interface (``games_py.interface``).

A state is one whole game.  The shuffle comes from ``random.Random(seed)`` inside
``state.new_game`` (as the terminal game and the demo deal), so there are no chance nodes.

Actions (hashable, equal when they mean the same move):

* ``EndTurn(table)`` -- end the turn leaving ``table`` (the rules' own action).  The
  table as it was means "take a piece" (or pass, the pile being empty).  Any
  rearrangement of the table plus tray pieces is a legal turn: an invalid one takes the
  guide's penalty, exactly as in the game.
* ``Offer(give)`` -- offer one of a duplicate pair for a swap.  The opponent is then the
  current player and answers ``Return(tile)``, one of its own duplicates; then the turn
  goes on.  (The Amiga program asks the human which duplicate to give back, the same way.)

Every rearrangement of the table is a legal turn, far too many to list, so
``legal_actions`` returns ``TurnActions``: *iterating* it gives a short list of
candidate turns that is cheap to build (take a piece; the Beginner's whole play; each
series the tray can lay alone; each tray piece that extends a table series; one offer
per duplicate kind), enough for a random player and for the property test.  *Membership*
(``action in legal``) is the rules' whole legality: a human's rearrangement built piece
by piece (``turn.TurnBuilder``) or the Expert's solver plan is in it although it is not
in the list.  Note ``interface.play`` copies the legal actions into a list before the
membership check, so through ``play`` a player must choose from the list; the games'
own loops (``game.play_game``, the terminal UIs) keep the ``TurnActions``.

Returns: +1 to the winner, -1 to the loser, 0 each for a draw (the guide keeps no score).
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from games_py.interface import TERMINAL
from games_py.rummi import rules
from games_py.rummi.players import _extending_kinds_of, beginner_play, tray_series
from games_py.rummi.rules import EndTurn, IllegalAction, Offer, Return, Swap
from games_py.rummi.state import GameState, View, duplicates, new_game, view_for
from games_py.rummi.tiles import (TILE_COUNT, Tile, format_tiles, full_set, is_valid_series,
                                  sort_series, value)

ALL_TILES = frozenset(full_set())


class TurnActions(Sequence):
    """Candidate actions to iterate (built on first use); ``in`` tests the rules' whole
    legality (see above) without building them."""

    def __init__(self, state: "RummiState") -> None:
        self.state = state
        self._listed: list | None = None

    @property
    def listed(self) -> list:
        if self._listed is None:
            self._listed = self.state._candidates()
        return self._listed

    def __getitem__(self, index):
        return self.listed[index]

    def __len__(self) -> int:
        return len(self.listed)

    def __iter__(self):
        return iter(self.listed)

    def __contains__(self, action) -> bool:
        return self.state.is_legal(action)

    def __eq__(self, other) -> bool:
        return list(self) == list(other) if isinstance(other, (list, tuple, Sequence)) \
            else NotImplemented

    def __repr__(self) -> str:
        return f"TurnActions({self.listed!r})"


class RummiState:
    def __init__(self, seed: int | None = None, game: GameState | None = None) -> None:
        self.game = game if game is not None else new_game(random.Random(seed))
        self.offer: Tile | None = None      # a swap offered and not yet answered
        self._legal: TurnActions | None = None

    # -- the interface -------------------------------------------------------
    def current_player(self) -> int:
        if self.game.over:
            return TERMINAL
        return self.game.opponent if self.offer is not None else self.game.current

    def legal_actions(self) -> TurnActions:
        if self._legal is None:
            self._legal = TurnActions(self)
        return self._legal

    def chance_outcomes(self) -> list:
        return []

    def is_legal(self, action) -> bool:
        g = self.game
        if g.over:
            return False
        if self.offer is not None:
            return isinstance(action, Return) and rules.swap_problem(
                g, self.offer, action.tile) is None
        if isinstance(action, Offer):
            return action.give in g.trays[g.current] and bool(duplicates(g.trays[g.opponent])) \
                and action.give.kind in duplicates(g.trays[g.current])
        if isinstance(action, EndTurn):
            try:
                rules.pieces_played(g.table, action.table, g.trays[g.current])
            except (IllegalAction, TypeError, AttributeError):
                return False
            return True
        return False

    def apply_action(self, action) -> None:
        if not self.is_legal(action):
            raise ValueError(f"{self.action_to_string(action)} is not legal now")
        self._legal = None
        if isinstance(action, Offer):
            self.offer = action.give
        elif isinstance(action, Return):
            self.game = rules.apply(self.game, Swap(self.offer, action.tile))
            self.offer = None
        else:
            self.game = rules.apply(self.game, action)

    def is_terminal(self) -> bool:
        return self.game.over

    def returns(self) -> list[float]:
        g = self.game
        if not g.over or g.winner is None:
            return [0.0, 0.0]
        out = [-1.0, -1.0]
        out[g.winner] = 1.0
        return out

    def observation(self, player: int) -> View:
        return view_for(self.game, player, self.offer if player != self.game.current else None)

    def hidden_from(self, player: int) -> set:
        """The pile and the other tray (but a piece offered to ``player`` for a swap)."""
        g = self.game
        hidden = set(g.pile) | set(g.trays[1 - player])
        if self.offer is not None and player != g.current:
            hidden.discard(self.offer)
        return hidden

    def action_to_string(self, action) -> str:
        if isinstance(action, Offer):
            return f"offer {action.give} for a swap"
        if isinstance(action, Return):
            return f"give {action.tile} back"
        if isinstance(action, EndTurn):
            if tuple(action.table) == self.game.table:
                return "take a piece"
            try:
                added = rules.pieces_played(self.game.table, action.table,
                                            self.game.trays[self.game.current])
            except (IllegalAction, TypeError, AttributeError):
                return f"end the turn with {action.table!r}"
            return f"play {format_tiles(added)}" if added else "rearrange and take a piece"
        return repr(action)

    def invariant_violations(self) -> list[str]:
        g, problems = self.game, []
        everything = g.all_tiles()
        if len(everything) != TILE_COUNT or set(everything) != ALL_TILES:
            problems.append(f"{len(everything)} pieces ({len(set(everything))} different), "
                            f"not the {TILE_COUNT}")
        bad = [s for s in g.table if not is_valid_series(s)]
        if bad:
            problems.append(f"invalid series on the table: {format_tiles(bad[0])}")
        if self.offer is not None and self.offer not in g.trays[g.current]:
            problems.append(f"the offered {self.offer} is not on the mover's tray")
        if g.over:
            r = self.returns()
            if g.winner is not None:
                if r[g.winner] != 1 or r[1 - g.winner] != -1:
                    problems.append(f"returns {r} do not name winner {g.winner}")
                if g.trays[g.winner] and g.passes < 2:
                    problems.append(f"seat {g.winner} won holding pieces with the pile going")
            elif r != [0.0, 0.0]:
                problems.append(f"a draw with returns {r}")
        return problems

    # -- candidates -------------------------------------------------------------
    def _candidates(self) -> list:
        g = self.game
        if g.over:
            return []
        if self.offer is not None:
            theirs = g.trays[g.opponent]
            return [Return(max(t for t in theirs if t.kind == k)) for k in duplicates(theirs)]
        me = g.current
        tray, table, opened = g.trays[me], g.table, g.opened[me]
        minimum = 0 if opened else rules.OPENING_MINIMUM
        lays = tray_series(tray)
        firsts: dict = {}
        for t in tray:
            firsts.setdefault(t.kind, t)
        extensions = []
        if opened:
            for i, series in enumerate(table):
                for kind in _extending_kinds_of(series):
                    if kind in firsts:
                        grown = sort_series(series + (firsts[kind],))
                        extensions.append(table[:i] + (grown,) + table[i + 1:])
        singles = [table + (sort_series(s),) for s in lays if value(s) >= minimum]
        singles += extensions
        turns = [table]
        if lays or extensions:       # the Beginner's whole play, unless it is a single one
            plan = beginner_play(table, tray, minimum, lays)
            if plan.played and plan.table not in singles:
                turns.append(plan.table)
        out: list = [EndTurn(t) for t in turns + singles]
        if duplicates(g.trays[g.opponent]):
            out += [Offer(max(t for t in tray if t.kind == k)) for k in duplicates(tray)]
        return out


class RummiGame:
    name = "rummi"
    num_players = 2

    def new_initial_state(self, seed: int | None = None) -> RummiState:
        return RummiState(seed)


GAME = RummiGame()
