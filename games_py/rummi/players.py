"""Computer and scripted players.

Every player answers ``choose(view, legal)`` (the one shape of
``games_py.interface``): it sees only a View (own tray, the table, the
opponent's tray size, whether the opponent holds a duplicate, and the swap
offered to it if any) and answers with an Offer (give one of my duplicates;
the opponent picks which of its duplicates comes back), a Return (the answer
to an offer) or an EndTurn with the table as it will leave it.  ``act`` and
``swap_return`` are the computer's judgement behind ``choose``.

Levels, in the guide's words:
* Beginner -- "the program doesn't try every (complex) combination": it lays
  new series made from its own tray and adds single pieces to the ends of
  series already on the table, never rearranging them.
* Expert -- "the program will try every combination it can think of": the
  exact solver (solver.py) over every rearrangement of the table.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Protocol, Sequence

from games_py.rummi.rules import OPENING_MINIMUM, EndTurn, Offer, Return
from games_py.rummi.solver import Plan, best_play
from games_py.rummi.state import View, duplicates
from games_py.rummi.tiles import (Tile, group_compatible, is_valid_series, run_compatible,
                                  sort_series, value)


SwapOffer = Offer       # the name this module gave an offer before the one interface


class Player(Protocol):
    name: str

    def choose(self, view: View, legal: Sequence) -> Offer | Return | EndTurn: ...


def from_legal(action, legal: Sequence):
    """The listed legal action meaning ``action``: an offer or a return of the other copy
    of the same kind is the same move; anything else is returned as it is."""
    if action in legal:         # a TurnActions answers by the rules, without listing
        return action
    if isinstance(action, (Offer, Return)):
        kind = (action.give if isinstance(action, Offer) else action.tile).kind
        for a in legal:
            if type(a) is type(action) and \
                    (a.give if isinstance(a, Offer) else a.tile).kind == kind:
                return a
    return action


def choose_with(player, view: View, legal: Sequence):
    """``choose`` for a player that judges with ``act`` and ``swap_return``."""
    if view.offered is not None:
        return from_legal(Return(player.swap_return(view, view.offered)), legal)
    return from_legal(player.act(view), legal)


def minimum_for(view: View) -> int:
    return 0 if view.opened else OPENING_MINIMUM


class ComputerPlayer:
    """Shared behaviour: plan a play, offer a swap of a duplicate the plan
    does not need, answer swaps by giving away such a duplicate."""

    name = "computer"
    offers_swaps = True

    def plan(self, view: View) -> Plan:
        raise NotImplementedError

    def choose(self, view: View, legal: Sequence) -> Offer | Return | EndTurn:
        return choose_with(self, view, legal)

    def act(self, view: View) -> Offer | EndTurn:
        plan = self.plan(view)
        if self.offers_swaps and view.opponent_has_duplicate:
            spare = self._spare_duplicate(view, plan)
            if spare is not None:
                return SwapOffer(spare)
        return EndTurn(plan.table)

    def swap_return(self, view: View, offered: Tile) -> Tile:
        plan = self.plan(view)
        spare = self._spare_duplicate(view, plan)
        if spare is None:       # every duplicate is wanted: give the cheapest
            kind = min(duplicates(view.tray), key=lambda k: (k[1], k[0]))
            spare = next(t for t in view.tray if t.kind == kind)
        return spare

    @staticmethod
    def _spare_duplicate(view: View, plan: Plan) -> Tile | None:
        """A copy of a duplicate kind this turn's play leaves on the tray
        twice -- highest number first, as it would cost most at the end."""
        used = Counter(t.kind for t in plan.played)
        idle = [k for k in duplicates(view.tray) if used[k] == 0]
        if not idle:
            return None
        kind = max(idle, key=lambda k: (k[1], k[0]))
        return max(t for t in view.tray if t.kind == kind)


class ExpertPlayer(ComputerPlayer):
    name = "Expert"

    def plan(self, view: View) -> Plan:
        return best_play(view.table, view.tray, minimum_for(view))


class BeginnerPlayer(ComputerPlayer):
    name = "Beginner"
    offers_swaps = False

    def plan(self, view: View) -> Plan:
        return beginner_play(view.table, view.tray, minimum_for(view))


def tray_series(tray: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """The series the Beginner lays from ``tray``: the largest, then the largest of what
    is left, and so on."""
    left = list(tray)
    out = []
    while True:
        best = _largest_series(left)
        if best is None:
            return out
        out.append(best)
        for t in best:
            left.remove(t)


def beginner_play(table: Sequence[Sequence[Tile]], tray: Sequence[Tile],
                  minimum: int, new_series: list[tuple[Tile, ...]] | None = None) -> Plan:
    """New series from the tray (largest first), then single pieces added to
    the ends of runs and to groups of three.  Nothing on the table moves.
    ``new_series``: ``tray_series(tray)`` if the caller has it already."""
    if new_series is None:
        new_series = tray_series(tray)
    laid = {t for series in new_series for t in series}
    left = [t for t in tray if t not in laid]
    series = [list(s) for s in table] + [list(s) for s in new_series]
    wanted = [_extending_kinds_of(s) for s in table] + \
        [_extending_kinds(s) for s in new_series]
    grew = True
    while grew:
        grew = False
        for t in sorted(left, key=lambda t: -t.number):
            kind = t.kind
            for i, s in enumerate(series):
                if kind in wanted[i]:
                    s.append(t)
                    wanted[i] = _extending_kinds(s)
                    left.remove(t)
                    grew = True
                    break
    kept = set(left)        # pieces are distinct objects: a set is exact
    played = sorted(t for t in tray if t not in kept)
    if minimum and value(played) < minimum:
        return Plan(table=tuple(tuple(s) for s in table), played=())
    return Plan(table=tuple(sort_series(s) for s in series), played=tuple(played))


def _extends(series: Sequence[Tile], piece: Tile) -> bool:
    """Adding at an end of a run, or a fourth colour to a group."""
    grown = list(series) + [piece]
    return (run_compatible(grown) and len(grown) <= 13) or \
        (group_compatible(grown) and len(grown) <= 4)


@lru_cache(maxsize=4096)
def _extending_kinds_of(series: tuple[Tile, ...]) -> frozenset[tuple[int, int]]:
    """``_extending_kinds`` of a table series; most of the table is the same
    from one turn to the next, hence the cache."""
    return frozenset(_extending_kinds(series))


def _extending_kinds(series: Sequence[Tile]) -> set[tuple[int, int]]:
    """The kinds ``piece`` for which ``_extends(series, piece)`` holds,
    computed once per series rather than tried piece by piece."""
    kinds: set[tuple[int, int]] = set()
    if run_compatible(series) and len(series) < 13:
        colour = series[0].colour
        low = min(t.number for t in series)
        high = max(t.number for t in series)
        kinds |= {(colour, n) for n in (low - 1, high + 1) if 1 <= n <= 13}
    if group_compatible(series) and len(series) < 4:
        number = series[0].number
        used = {t.colour for t in series}
        kinds |= {(c, number) for c in range(4) if c not in used}
    return kinds


def _largest_series(items: Sequence[Tile]) -> tuple[Tile, ...] | None:
    """The longest valid series among ``items`` (then the highest value)."""
    firsts: dict[tuple[int, int], Tile] = {}
    for t in sorted(items):
        firsts.setdefault(t.kind, t)
    candidates = []
    by_number: dict[int, list[Tile]] = {}
    for (c, n), t in firsts.items():
        by_number.setdefault(n, []).append(t)
    for group in by_number.values():
        if len(group) >= 3:
            candidates.append(tuple(group))
    for c in {c for c, _ in firsts}:
        run: list[Tile] = []
        for n in range(1, 15):
            t = firsts.get((c, n))
            if t is not None:
                run.append(t)
                continue
            if len(run) >= 3:
                candidates.append(tuple(run))
            run = []
    candidates = [s for s in candidates if is_valid_series(s)]
    if not candidates:
        return None
    return max(candidates, key=lambda s: (len(s), value(s), sort_series(s)))


class ScriptedPlayer:
    """Plays a fixed list of actions (tests); answers swaps with the first
    duplicate on its tray."""

    name = "scripted"

    def __init__(self, actions: Sequence[Offer | EndTurn]):
        self._actions = list(actions)

    def choose(self, view: View, legal: Sequence) -> Offer | Return | EndTurn:
        return choose_with(self, view, legal)

    def act(self, view: View) -> Offer | EndTurn:
        if not self._actions:
            return EndTurn(view.table)
        return self._actions.pop(0)

    def swap_return(self, view: View, offered: Tile) -> Tile:
        kind = duplicates(view.tray)[0]
        return next(t for t in view.tray if t.kind == kind)


LEVELS = {"beginner": BeginnerPlayer, "expert": ExpertPlayer}


def make_player(level: str) -> ComputerPlayer:
    try:
        return LEVELS[level.lower()]()
    except KeyError:
        raise ValueError(f"unknown level {level!r}; choose beginner or expert") from None
