"""Exact search for the best play: which tray pieces can join the table, with
the whole table free to be rearranged.

The question is whether the multiset "table pieces + chosen tray pieces"
splits into valid series, and which choice places the most tray pieces.  We
answer it with dynamic programming over the numbers 1..13, the method of van
Rijn, Takes and Vis, "The Complexity of Rummikub Problems" (2015):

* Walking up the numbers, a colour has at most two runs passing through any
  number (only two copies of each piece exist).  So the state of a colour is
  the pair of its open run lengths, each 0, 1, 2 or "3 or more" -- ten states.
* At number n every piece of colour c either continues/starts one of that
  colour's runs or goes into a group of number n.  A run of length 1 or 2
  must continue; a run of 3+ may stop.
* The pieces of number n that went to groups must form 1 or 2 groups of 3-4
  different colours; that depends only on how many colours gave two pieces
  and how many gave one, which we carry while stepping through the colours.
* Table pieces must all be used; tray pieces are optional.

Colours are processed one at a time inside a number, so a step looks at only
the handful of choices for one colour.  The value of each state is
1000 * pieces placed + their points (most pieces first, then the most points
shed).  For a player who has not opened, the tray points placed so far
(capped at 30) are part of the state, so "the most pieces worth at least 30"
is found exactly rather than approximated.  Back-pointers rebuild the
series.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Iterable, Sequence

from games_py.rummi.tiles import COLOURS, NUMBERS, Tile, is_valid_series, sort_series

NCOL = len(COLOURS)
PIECE_WEIGHT = 1000     # more pieces always beats more points (max 728 points)

# A colour's two open runs, longer first; 3 stands for "3 or more".
SLOT_STATES = [(a, b) for a in range(4) for b in range(a + 1)]
SLOT_INDEX = {s: i for i, s in enumerate(SLOT_STATES)}
CLOSED = {SLOT_INDEX[s] for s in SLOT_STATES if set(s) <= {0, 3}}
POW = [10 ** c for c in range(NCOL)]

# What one open run can do at the next number: (op, new length, pieces used).
_SLOT_MOVES = {
    0: [("none", 0, 0), ("start", 1, 1)],
    1: [("cont", 2, 1)],
    2: [("cont", 3, 1)],
    3: [("cont", 3, 1), ("end", 0, 0)],
}

# Group summary: (colours giving 2 pieces, colours giving 1 piece).
GROUP_SUMMARIES = [(d, s) for d in range(NCOL + 1) for s in range(NCOL + 1 - d)]
GS_INDEX = {g: i for i, g in enumerate(GROUP_SUMMARIES)}
NGS = len(GROUP_SUMMARIES)


def _groups_possible(d: int, s: int) -> bool:
    """Can the group pieces of one number make groups of 3-4 colours?  With
    a colour twice there must be two groups, sizes d+s1 and d+s2."""
    if d == 0:
        return s == 0 or 3 <= s <= 4
    return d + s // 2 >= 3


GS_OK = [_groups_possible(d, s) for d, s in GROUP_SUMMARIES]
GS_NEXT = [[GS_INDEX.get((d + (g == 2), s + (g == 1)), -1) for g in range(3)]
           for d, s in GROUP_SUMMARIES]


def _build_transitions():
    """TRANS[slot][t][h]: ways one colour can use t table pieces (all
    required) and up to h tray pieces of one number: (new slot, pieces to
    groups, tray pieces used, run ops)."""
    table = [[[[] for _ in range(3)] for _ in range(3)] for _ in SLOT_STATES]
    for si, (a, b) in enumerate(SLOT_STATES):
        for t in range(3):
            for h in range(3 - t):
                seen = set()
                for x in range(h + 1):
                    k = t + x
                    for (op0, n0, u0), (op1, n1, u1) in product(_SLOT_MOVES[a], _SLOT_MOVES[b]):
                        g = k - u0 - u1
                        if g < 0:
                            continue
                        ns = SLOT_INDEX[tuple(sorted((n0, n1), reverse=True))]
                        if (ns, g, x) in seen:
                            continue
                        seen.add((ns, g, x))
                        table[si][t][h].append((ns, g, x, (op0, op1)))
    return table


TRANS = _build_transitions()


@dataclass(frozen=True)
class Plan:
    """A solution: the whole table as it should be left, and the tray
    pieces it uses."""

    table: tuple[tuple[Tile, ...], ...]
    played: tuple[Tile, ...]

    @property
    def points(self) -> int:
        return sum(t.number for t in self.played)


def best_play(table: Sequence[Sequence[Tile]], tray: Sequence[Tile],
              minimum: int = 0) -> Plan:
    """The play placing the most tray pieces (then the most points), the
    whole table rearranged as needed.  ``minimum`` > 0 demands that the
    placed tray pieces total at least that much (the opening), else nothing
    is played.  Returns an empty play if nothing fits."""
    table_tiles = [t for s in table for t in s]
    tcount = Counter(t.kind for t in table_tiles)
    hcount = Counter(t.kind for t in tray)
    choices = _search(tcount, hcount, 0)
    if choices is not None and minimum > 0 and 0 < _points(choices) < minimum:
        # the best play overall is too small to open: search again with the
        # points carried in the state (slower, so only when needed)
        choices = _search(tcount, hcount, minimum)
    if choices is None:
        raise ValueError("the table given to the solver is not valid")
    return _rebuild(choices, table, table_tiles, tray)


def _points(choices) -> int:
    """Tray points placed by a solution (choices come in number order)."""
    total, it = 0, iter(choices)
    for n in NUMBERS:
        for _ in range(NCOL):
            total += next(it)[2] * n
        next(it)
    return total


def _search(tcount: Counter, hcount: Counter, minimum: int):
    """The DP proper.  Returns the per-(number, colour) choices of the best
    solution, or None when even the table alone cannot be arranged."""
    caps = minimum + 1 if minimum > 0 else 1
    top = caps - 1

    layer = {0: 0}                  # key -> best score
    steps = []                      # per step: key -> (prev key, choice)
    for n in NUMBERS:
        for c in range(NCOL):
            t = min(tcount[(c, n)], 2)
            h = min(hcount[(c, n)], 2 - t)
            pw = POW[c]
            new: dict[int, int] = {}
            back: dict[int, tuple] = {}
            for key, score in layer.items():
                cap = key % caps
                rest = key // caps
                gs = rest % NGS
                run = rest // NGS
                slot = (run // pw) % 10
                for ns, g, x, ops in TRANS[slot][t][h]:
                    ngs = GS_NEXT[gs][g]
                    if ngs < 0:
                        continue
                    ncap = cap + x * n
                    if ncap > top:
                        ncap = top
                    nk = ((run + (ns - slot) * pw) * NGS + ngs) * caps + ncap
                    sc = score + x * (PIECE_WEIGHT + n)
                    if sc > new.get(nk, -1):
                        new[nk] = sc
                        back[nk] = (key, (ops, g, x))
            steps.append(back)
            layer = _pareto(new, caps) if caps > 1 else new
        # close the groups of number n
        new, back = {}, {}
        for key, score in layer.items():
            cap = key % caps
            rest = key // caps
            if not GS_OK[rest % NGS]:
                continue
            nk = (rest // NGS) * NGS * caps + cap
            if score > new.get(nk, -1):
                new[nk] = score
                back[nk] = (key, None)
        steps.append(back)
        layer = new

    best_key, best_score = None, -1
    for key, score in layer.items():
        cap = key % caps
        run = key // caps // NGS
        if not all((run // POW[c]) % 10 in CLOSED for c in range(NCOL)):
            continue
        if 0 < cap < top:
            continue            # placed something worth less than the minimum
        if score > best_score:
            best_key, best_score = key, score
    if best_key is None:
        return None
    choices = []
    key = best_key
    for back in reversed(steps):
        key, choice = back[key]
        choices.append(choice)
    choices.reverse()
    return choices


def _pareto(layer: dict[int, int], caps: int) -> dict[int, int]:
    """Drop states beaten on both counts by a state with the same runs:
    at least as many points towards the minimum and at least the score.
    States that placed nothing yet (cap 0) are kept: they may still end as
    "play nothing", which a state with a few points placed may not."""
    by_rest: dict[int, list[tuple[int, int]]] = defaultdict(list)
    kept = {}
    for key, score in layer.items():
        rest, cap = divmod(key, caps)
        if cap == 0:
            kept[key] = score
        else:
            by_rest[rest].append((cap, score))
    for rest, entries in by_rest.items():
        entries.sort(reverse=True)
        best = -1
        for cap, score in entries:
            if score > best:
                kept[rest * caps + cap] = score
                best = score
    return kept


def _rebuild(choices, table, table_tiles, tray) -> Plan:
    """Turn the DP's choices back into series of actual pieces."""
    pool = defaultdict(list)                # kind -> table pieces
    for t in table_tiles:
        pool[t.kind].append(t)
    spare = defaultdict(list)               # kind -> tray pieces
    for t in tray:
        spare[t.kind].append(t)

    series: list[list[Tile]] = []
    played: list[Tile] = []
    runs = [[[], []] for _ in range(NCOL)]
    it = iter(choices)
    for n in NUMBERS:
        group_pieces: dict[int, list[Tile]] = {}
        for c in range(NCOL):
            (ops, g, x) = next(it)
            pieces = list(pool[(c, n)]) + spare[(c, n)][:x]
            played += spare[(c, n)][:x]
            order = sorted((0, 1), key=lambda i: -min(len(runs[c][i]), 3))
            for op, i in zip(ops, order):
                if op == "start" or op == "cont":
                    runs[c][i].append(pieces.pop())
                elif op == "end":
                    series.append(runs[c][i])
                    runs[c][i] = []
            assert len(pieces) == g
            if pieces:
                group_pieces[c] = pieces
        next(it)                            # the group-closing step
        series += _split_groups(group_pieces)
    for c in range(NCOL):
        series += [r for r in runs[c] if r]
    result = tuple(sort_series(s) for s in series)
    assert all(is_valid_series(s) for s in result), result
    return Plan(table=arrange_like(table, result), played=tuple(sorted(played)))


def _split_groups(group_pieces: dict[int, list[Tile]]) -> list[list[Tile]]:
    if not group_pieces:
        return []
    if all(len(p) == 1 for p in group_pieces.values()):
        return [[p[0] for p in group_pieces.values()]]
    first, second = [], []
    for c in sorted(group_pieces, key=lambda c: -len(group_pieces[c])):
        pieces = group_pieces[c]
        if len(pieces) == 2:
            first.append(pieces[0])
            second.append(pieces[1])
        elif len(first) <= len(second):
            first.append(pieces[0])
        else:
            second.append(pieces[0])
    return [g for g in (first, second) if g]


def arrange_like(old: Sequence[Sequence[Tile]],
                 new: Iterable[Sequence[Tile]]) -> tuple[tuple[Tile, ...], ...]:
    """Lay out ``new`` so that series already on the table stay where they
    were (same pieces, same place) and grown ones keep their place; only the
    pieces of changed series move.  The pieces used are the same multiset
    of kinds, copies are swapped between equal kinds as needed."""
    new = [list(s) for s in new]
    placed: list[tuple[Tile, ...] | None] = [None] * len(old)
    used_new = [False] * len(new)

    def kinds(s):
        return Counter(t.kind for t in s)

    # exact matches first, then old series that a new series contains
    for exact in (True, False):
        for i, o in enumerate(old):
            if placed[i] is not None:
                continue
            ok = kinds(o)
            for j, s in enumerate(new):
                if used_new[j]:
                    continue
                sk = kinds(s)
                if (sk == ok) if exact else not (ok - sk):
                    placed[i] = tuple(s)
                    used_new[j] = True
                    break
    layout = [s for s in placed if s is not None] + \
        [tuple(s) for j, s in enumerate(new) if not used_new[j]]

    # series unchanged in kinds keep their very pieces; the others take free
    # copies of their kinds (the two copies of a kind are interchangeable)
    free = Counter(t for s in new for t in s)
    assigned: list[tuple[Tile, ...] | None] = [None] * len(layout)
    for i, s in enumerate(layout):
        for o in old:
            if kinds(o) == kinds(s) and not Counter(o) - free:
                assigned[i] = tuple(o)
                free -= Counter(o)
                break
    by_kind = defaultdict(list)
    for t in free:
        by_kind[t.kind].append(t)
    for i, s in enumerate(layout):
        if assigned[i] is not None:
            continue
        chosen = []
        for t in s:
            pick = t if free[t] else next(u for u in by_kind[t.kind] if free[u])
            free[pick] -= 1
            chosen.append(pick)
        assigned[i] = tuple(chosen)
    return tuple(sort_series(s) for s in assigned)
