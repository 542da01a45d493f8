"""Properties over many seeded games and random turns: no piece is ever made
or lost, the table is valid at every turn's end ("At the end of each turn,
all pieces on the table must be arranged in valid series"), and computer
moves are always legal plays, never penalised."""
from __future__ import annotations

from collections import Counter
import random

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from games_py.rummi import rules
from games_py.rummi.game import play_game
from games_py.rummi.players import BeginnerPlayer, ExpertPlayer
from games_py.rummi.solver import best_play
from games_py.rummi.state import GameState, new_game
from games_py.rummi.tiles import full_set, is_valid_series
from games_py.rummi.turn import MoveError, Requester, TurnBuilder

ALL = sorted(full_set())
ALL_SET = set(ALL)


def check_turn(record) -> None:
    """Pieces are distinct objects (the copy number tells the two of a kind
    apart), so sets are exact once the counts are checked."""
    before, after, me = record.before, record.after, record.player
    everything = after.all_tiles()
    assert len(everything) == len(ALL) and set(everything) == ALL_SET, \
        "a piece was made or lost"
    assert rules.is_valid_table(after.table)
    assert after.last_turn_end in ("play", "draw", "pass"), \
        "a computer play was penalised"
    old_table = set(before.table_tiles())
    new_table = set(after.table_tiles())
    assert old_table <= new_table, "a table piece went back to a tray"
    played = new_table - old_table
    if played:
        # the pieces came from the mover's tray (after any swaps)
        tray_at_end = set(before.trays[me]) | {s.receive for s in record.swaps}
        tray_at_end -= {s.give for s in record.swaps}
        assert played <= tray_at_end
        assert set(after.trays[me]) == tray_at_end - played
        if not before.opened[me]:
            assert sum(t.number for t in played) >= rules.OPENING_MINIMUM
    else:
        drawn = len(before.pile) - len(after.pile)
        assert drawn == (1 if before.pile else 0)
        assert len(after.trays[me]) == len(before.trays[me]) + drawn


GAMES = 1000


def test_a_thousand_seeded_games_conserve_pieces_and_stay_valid():
    """1,000 whole games, Beginner against Beginner (an Expert game takes
    about ten times as long; the games below and tests/test_rummi_players.py
    cover the Expert, and ``-m slow`` plays 200 more with it).  After every
    turn: all 104 pieces exist once, the table is valid ("At the end of each
    turn, all pieces on the table must be arranged in valid series"), no
    table piece went back to a tray, and no computer play was penalised.
    [003_57b64a2ada5ce15a.txt lines 135-151]"""
    turns = 0
    for seed in range(GAMES):
        state, records = play_game([BeginnerPlayer(), BeginnerPlayer()], seed + 10_000,
                                   check_turn)
        assert state.over
        assert state.winner is None or not state.trays[state.winner] or \
            "pile is empty" in state.end_reason
        turns += len(records)
    assert turns > 50 * GAMES       # the games were real games, not empty ones


@pytest.mark.slow
@pytest.mark.parametrize("first", ["expert", "beginner"])
def test_many_more_games_with_the_expert(first):
    """[003_57b64a2ada5ce15a.txt lines 135-151, 218-219]"""
    for seed in range(100):
        players = [ExpertPlayer(), BeginnerPlayer()]
        if first == "beginner":
            players.reverse()
        state, _ = play_game(players, seed + 20_000, check_turn)
        assert state.over


@pytest.mark.parametrize("seed,levels", [
    (1, ("expert", "beginner")), (2, ("beginner", "expert")), (3, ("expert", "expert")),
    (4, ("beginner", "beginner")), (5, ("expert", "beginner")), (6, ("beginner", "expert")),
    (7, ("expert", "expert")), (8, ("beginner", "beginner")),
])
def test_seeded_games_conserve_pieces_and_stay_valid(seed, levels):
    """[003_57b64a2ada5ce15a.txt lines 135-151]"""
    players = [ExpertPlayer() if lv == "expert" else BeginnerPlayer() for lv in levels]
    state, records = play_game(players, seed, check_turn)
    assert state.over
    if state.winner is not None and "played all" in state.end_reason:
        assert state.trays[state.winner] == ()
    assert [r.player for r in records] == \
        [(records[0].player + i) % 2 for i in range(len(records))]


def test_same_seed_same_game():
    """Determinism: all randomness comes from the seed."""
    a, ra = play_game([ExpertPlayer(), BeginnerPlayer()], 42)
    b, rb = play_game([ExpertPlayer(), BeginnerPlayer()], 42)
    assert a == b and a.history == b.history and len(ra) == len(rb)


def sample_positions(count: int = 30) -> list[GameState]:
    positions = []
    for seed in range(100, 104):
        _, records = play_game([ExpertPlayer(), ExpertPlayer()], seed)
        positions += [r.before for r in records]
    return positions[::max(1, len(positions) // count)]


POSITIONS = sample_positions()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(POSITIONS) - 1), st.lists(st.integers(0, 10 ** 6), max_size=12))
def test_random_human_turns_conserve_pieces_and_leave_a_valid_table(index, choices):
    """Any sequence of piece moves, then OK twice (requester, then penalty
    if still wrong): nothing is lost and the table left is valid.
    [003_57b64a2ada5ce15a.txt lines 140-141, 191-195]"""
    state = POSITIONS[index]
    b = TurnBuilder(state)
    for c in choices:
        op = c % 3
        try:
            if op == 0 and b.tray:
                piece = b.tray[c // 3 % len(b.tray)]
                target = None if not b.table else (c // 97 % (len(b.table) + 1)) or None
                b.play(piece, target)
            elif op == 1 and b.table:
                source = c // 3 % len(b.table) + 1
                series = b.table[source - 1]
                piece = series[c // 7 % len(series)]
                target = None if len(b.table) < 2 else (c // 97 % (len(b.table) + 1)) or None
                b.move(source, piece, target)
            elif op == 2:
                b.back_up()
        except MoveError:
            pass
    result = b.finish()
    if isinstance(result, Requester):
        result = b.finish()
    after = rules.apply(b.state, result)
    me = state.current
    assert sorted(after.all_tiles()) == ALL
    assert rules.is_valid_table(after.table)
    if after.last_turn_end == "penalty":
        assert len(after.pile) == max(0, len(state.pile) - rules.PENALTY_DRAW)
        assert not after.over
    if not after.opened[me]:
        assert not (Counter(after.table_tiles()) - Counter(state.table_tiles()))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 60), st.integers(0, 20), st.booleans())
def test_solver_plays_are_legal(seed, table_size, tray_size, opening):
    """Every plan: valid series, all table pieces still there, only tray
    pieces added, at least 30 when opening (or nothing).
    [003_57b64a2ada5ce15a.txt lines 139-148]"""
    rng = random.Random(seed)
    pieces = full_set()
    rng.shuffle(pieces)
    table = best_play([], pieces[:table_size]).table
    on_table = {t for s in table for t in s}
    tray = [t for t in pieces if t not in on_table][:tray_size]
    plan = best_play(table, tray, 30 if opening else 0)
    assert all(is_valid_series(s) for s in plan.table)
    assert Counter(t for s in plan.table for t in s) == Counter(on_table) + Counter(plan.played)
    assert not Counter(plan.played) - Counter(tray)
    if opening and plan.played:
        assert plan.points >= 30


def test_new_games_deal_every_piece_once():
    """[003_57b64a2ada5ce15a.txt line 135]"""
    for seed in range(20):
        s = new_game(random.Random(seed))
        assert sorted(s.all_tiles()) == ALL
