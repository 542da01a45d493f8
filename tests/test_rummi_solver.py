"""The Expert's solver: exact against brute force, and the rearrangements
the guide's Expert "will try every combination it can think of" needs."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
import random

import pytest

from games_py.rummi.solver import best_play
from games_py.rummi.tiles import full_set, is_valid_series, tile, tiles


def S(text):
    return tuple(tiles(text))


def kinds(items):
    return Counter(t.kind for t in items)


def partitionable(kind_list) -> bool:
    """Brute force: can these (colour, number) pieces all be laid out in valid
    series?  The lowest piece starts a run or is in a group of its number."""
    @lru_cache(maxsize=None)
    def rec(ms: tuple) -> bool:
        if not ms:
            return True
        cnt = Counter(ms)
        c, n = ms[0]

        def without(ks):
            r = cnt.copy()
            for k in ks:
                r[k] -= 1
            return tuple(sorted(r.elements(), key=lambda k: (k[1], k[0])))

        for length in range(3, 14 - n + 1 + 1):
            run = [(c, n + i) for i in range(length)]
            if n + length - 1 > 13 or any(cnt[k] < 1 for k in run):
                break
            if rec(without(run)):
                return True
        others = [o for o in range(4) if o != c and cnt[(o, n)] > 0]
        for size in (2, 3):
            for comb in combinations(others, size):
                if rec(without([(c, n)] + [(o, n) for o in comb])):
                    return True
        return False

    return rec(tuple(sorted(kind_list, key=lambda k: (k[1], k[0]))))


def brute_best(table, tray, minimum):
    """(pieces, points) of the best play by trying every subset of the tray."""
    best = (0, 0)
    table_kinds = [t.kind for s in table for t in s]
    for mask in range(1, 1 << len(tray)):
        sub = [tray[i] for i in range(len(tray)) if mask >> i & 1]
        points = sum(t.number for t in sub)
        if points < minimum or (len(sub), points) <= best:
            continue
        if partitionable(table_kinds + [t.kind for t in sub]):
            best = (len(sub), points)
    return best


def random_position(rng: random.Random, table_size: int, tray_size: int):
    pieces = full_set()
    rng.shuffle(pieces)
    table = best_play([], pieces[:table_size]).table       # some valid table
    on_table = {t for s in table for t in s}
    rest = [t for t in pieces if t not in on_table]
    return table, rest[:tray_size]


@pytest.mark.parametrize("seed", range(6))
def test_solver_matches_brute_force(seed):
    """Exact: the most pieces (then points) any subset of the tray allows,
    with the whole table rearranged, and the opening minimum respected.
    [003_57b64a2ada5ce15a.txt lines 218-219]"""
    rng = random.Random(seed)
    for _ in range(25):
        table, tray = random_position(rng, rng.randint(0, 40), rng.randint(1, 10))
        minimum = rng.choice([0, 30])
        plan = best_play(table, tray, minimum)
        assert (len(plan.played), plan.points) == brute_best(table, tray, minimum)
        assert all(is_valid_series(s) for s in plan.table)
        assert Counter(t for s in plan.table for t in s) == \
            Counter(t for s in table for t in s) + Counter(plan.played)
        assert not Counter(plan.played) - Counter(tray)


def test_solver_finds_the_split_from_the_guide():
    """"drop a 5 on top of a series 3-4-5-6-7, and the series will be split
    into 3-4-5 and 5-6-7\" -- the solver finds such plays itself.
    [003_57b64a2ada5ce15a.txt line 173]"""
    plan = best_play([S("R3 R4 R5 R6 R7")], [tile("R5", 1)])
    assert len(plan.played) == 1
    assert sorted([t.number for t in s] for s in plan.table) == [[3, 4, 5], [5, 6, 7]]


def test_solver_rearranges_the_table():
    """Taking R7 off R4-R7 to make R7 B7 K7: only a rearrangement plays B7 K7.
    [003_57b64a2ada5ce15a.txt lines 140, 218-219]"""
    plan = best_play([S("R4 R5 R6 R7")], tiles("B7 K7 O1"))
    assert kinds(plan.played) == kinds(tiles("B7 K7"))
    assert sorted(len(s) for s in plan.table) == [3, 3]


def test_solver_opening_needs_30_from_the_tray():
    """"he must play at least a total of 30 ... Only pieces taken from his
    tray count\": R1 R2 R3 (6) cannot open; nothing is played.
    [003_57b64a2ada5ce15a.txt line 148]"""
    assert best_play([], tiles("R1 R2 R3 K5"), 30).played == ()
    # R13 fits the table's R10-R11-R12, but only its own 13 counts
    assert best_play([S("R10 R11 R12")], tiles("R13 K1"), 30).played == ()
    assert len(best_play([S("R10 R11 R12")], tiles("R13 K1"), 0).played) == 1
    plan = best_play([S("R10 R11 R12")], tiles("R13 K9 B9 O9 K1"), 30)
    assert plan.points == 13 + 27


def test_solver_prefers_more_pieces_then_more_points():
    """[003_57b64a2ada5ce15a.txt lines 137, 218-219]"""
    plan = best_play([], tiles("R1 R2 R3 R4 K9 B9 O9"))
    assert len(plan.played) == 7
    plan = best_play([], tiles("R1 R2 R3 K9 B9 O9 K1"))
    assert len(plan.played) == 6


def test_unchanged_series_keep_their_pieces_and_places():
    """Display: series the play does not touch stay the very same pieces.
    [003_57b64a2ada5ce15a.txt line 140]"""
    table = [S("K1 K2 K3"), S("B5 O5 R5")]
    plan = best_play(table, tiles("K4"))
    assert plan.table[1] == table[1]
    assert [str(t) for t in plan.table[0]] == ["K1", "K2", "K3", "K4"]


def test_solver_rejects_an_invalid_table():
    """[003_57b64a2ada5ce15a.txt lines 141-144]"""
    with pytest.raises(ValueError, match="not valid"):
        best_play([S("R1 R2")], [])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_solver_matches_brute_force_larger(seed):
    """Larger trays (up to 11) and tables (up to 45 pieces).
    [003_57b64a2ada5ce15a.txt lines 218-219]"""
    rng = random.Random(seed)
    for _ in range(15):
        table, tray = random_position(rng, rng.randint(20, 45), rng.randint(8, 11))
        minimum = rng.choice([0, 30])
        plan = best_play(table, tray, minimum)
        assert (len(plan.played), plan.points) == brute_best(table, tray, minimum)
