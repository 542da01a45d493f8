"""The two levels of the guide's Level menu:
"Beginner -- the program doesn't try every (complex) combination" and
"Expert -- the program will try every combination it can think of"."""
from __future__ import annotations

from collections import Counter
import random

import pytest

from games_py.rummi import rules
from games_py.rummi.game import play_game, play_turn
from games_py.rummi.players import (BeginnerPlayer, ExpertPlayer, ScriptedPlayer, SwapOffer,
                                    beginner_play, make_player)
from games_py.rummi.rules import EndTurn
from games_py.rummi.solver import best_play
from games_py.rummi.state import GameState, duplicates, view_for
from games_py.rummi.tiles import Tile, parse_kind, tiles


def S(text):
    return tuple(tiles(text))


def make_state(tray0, tray1, table=(), pile="O1 O2", opened=(True, True)):
    taken: Counter = Counter()

    def take(text):
        out = []
        for word in text.split():
            kind = parse_kind(word)
            out.append(Tile(*kind, taken[kind]))
            taken[kind] += 1
        return tuple(out)

    table_t = tuple(take(s) for s in table)
    return GameState(pile=take(pile), trays=(take(tray0), take(tray1)), table=table_t,
                     current=0, opened=opened)


def game_positions():
    """Positions from real games between the two levels."""
    out = []
    for seed in range(10):
        players = [ExpertPlayer(), BeginnerPlayer()] if seed % 2 else \
            [BeginnerPlayer(), ExpertPlayer()]
        _, records = play_game(players, seed)
        out += [r.before for r in records]
    return out


POSITIONS = game_positions()


def test_expert_never_plays_fewer_pieces_than_beginner():
    """From the same position (the player to move, same tray and table).
    [003_57b64a2ada5ce15a.txt lines 216-219]"""
    more = 0
    for state in POSITIONS:
        view = view_for(state, state.current)
        expert = ExpertPlayer().plan(view)
        beginner = BeginnerPlayer().plan(view)
        assert len(expert.played) >= len(beginner.played)
        more += len(expert.played) > len(beginner.played)
    assert more > 0          # and sometimes strictly more: it does search


def test_expert_rearranges_where_beginner_cannot():
    """R4-R5-R6-R7 on the table, B7 K7 on the tray: only taking R7 off the run
    ("the program will try every combination") plays them.
    [003_57b64a2ada5ce15a.txt line 219]"""
    state = make_state("B7 K7 O1", "B1", table=["R4 R5 R6 R7"])
    view = view_for(state, 0)
    assert BeginnerPlayer().plan(view).played == ()
    expert = ExpertPlayer().plan(view)
    assert Counter(t.kind for t in expert.played) == Counter(t.kind for t in tiles("B7 K7"))


def test_beginner_lays_tray_series_and_adds_to_ends_without_rearranging():
    """"doesn't try every (complex) combination": new series from the tray,
    single pieces at the ends of table series; table series are not split.
    [003_57b64a2ada5ce15a.txt line 217]"""
    table = [S("R3 R4 R5"), S("K9 B9 O9")]
    plan = beginner_play(table, tiles("R6 R9 B1 B2 B3 K5"), 0)
    assert Counter(str(t) for t in plan.played) == Counter(["R6", "R9", "B1", "B2", "B3"])
    assert [str(t) for t in plan.table[0]] == ["R3", "R4", "R5", "R6"]
    assert sorted(str(t) for t in plan.table[1]) == ["B9", "K9", "O9", "R9"]
    # splitting R3..R7 for the second R5 is beyond the beginner
    assert beginner_play([S("R3 R4 R5 R6 R7")], [Tile(3, 5, 1)], 0).played == ()
    assert len(best_play([S("R3 R4 R5 R6 R7")], [Tile(3, 5, 1)], 0).played) == 1


def test_beginner_opening_needs_30():
    """"he must play at least a total of 30" -- or the beginner draws.
    [003_57b64a2ada5ce15a.txt line 148]"""
    assert beginner_play([], tiles("R1 R2 R3 K4"), 30).played == ()
    plan = beginner_play([], tiles("R10 R11 R12 K4"), 30)
    assert plan.points == 33


def test_expert_offers_a_duplicate_it_does_not_need():
    """"If both players have duplicate pieces ... they may swap": the Expert
    offers a duplicate its play leaves idle, only if the opponent has one.
    [003_57b64a2ada5ce15a.txt line 147]"""
    state = make_state("R5 R5 K1 K2 K3", "B9 B9 O4")
    action = ExpertPlayer().act(view_for(state, 0))
    assert isinstance(action, SwapOffer) and action.give.kind == parse_kind("R5")
    no_dup = make_state("R5 R5 K1 K2 K3", "B9 B8 O4")
    assert isinstance(ExpertPlayer().act(view_for(no_dup, 0)), EndTurn)
    assert isinstance(BeginnerPlayer().act(view_for(state, 0)), EndTurn)


def test_swap_through_play_turn_exchanges_duplicates():
    """[003_57b64a2ada5ce15a.txt lines 147, 183-187]"""
    state = make_state("R5 R5 K1", "B9 B9 O4", opened=(True, True))
    scripted = ScriptedPlayer([SwapOffer(state.trays[0][0])])
    after, record = play_turn(state, [scripted, ExpertPlayer()])
    assert len(record.swaps) == 1
    assert record.swaps[0].receive.kind == parse_kind("B9")
    assert duplicates(after.trays[0]) == [] and duplicates(after.trays[1]) == []
    assert sorted(after.all_tiles()) == sorted(state.all_tiles())


def test_swap_return_gives_a_duplicate():
    """[003_57b64a2ada5ce15a.txt lines 147, 183-187]"""
    state = make_state("B9 B9 O4 O5 O6", "R5 R5 K1")
    view = view_for(state, 0)
    for player in (ExpertPlayer(), BeginnerPlayer()):
        back = player.swap_return(view, state.trays[1][0])
        assert back.kind in duplicates(view.tray)


def test_computer_moves_are_legal_plays():
    """Every computer EndTurn is accepted without penalty.
    [003_57b64a2ada5ce15a.txt lines 139-145]"""
    for state in POSITIONS[::5]:
        for player in (ExpertPlayer(), BeginnerPlayer()):
            plan = player.plan(view_for(state, state.current))
            after = rules.apply(state, EndTurn(plan.table))
            assert after.last_turn_end == "play" or not plan.played
            assert rules.is_valid_table(after.table)


def test_make_player_rejects_unknown_levels():
    assert make_player("Expert").name == "Expert"
    with pytest.raises(ValueError, match="beginner or expert"):
        make_player("grandmaster")


@pytest.mark.slow
def test_expert_never_plays_fewer_pieces_than_beginner_many_games():
    """The same comparison over every position of 60 more games.
    [003_57b64a2ada5ce15a.txt lines 216-219]"""
    for seed in range(1000, 1060):
        _, records = play_game([ExpertPlayer(), BeginnerPlayer()], seed)
        for r in records:
            view = view_for(r.before, r.before.current)
            assert len(ExpertPlayer().plan(view).played) >= \
                len(BeginnerPlayer().plan(view).played)


def test_beginner_extension_shortcut_agrees_with_the_plain_rule():
    """The Beginner looks up which kinds extend a series (players._extending_kinds)
    instead of trying each piece (players._extends); both must agree on every
    piece for runs of every length and groups of three and four.
    [003_57b64a2ada5ce15a.txt lines 216-217]"""
    from games_py.rummi.players import _extending_kinds, _extends
    from games_py.rummi.tiles import full_set, is_valid_series
    rng = random.Random(7)
    pieces = full_set()
    series = [S("K1 K2 K3"), S("K11 K12 K13"), S("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13"),
              S("R7 K7 O7"), S("R7 K7 O7 B7")]
    for _ in range(200):
        colour, low = rng.randrange(4), rng.randrange(1, 12)
        high = rng.randrange(low + 2, 14)
        series.append(tuple(Tile(colour, n) for n in range(low, high + 1)))
        number = rng.randrange(1, 14)
        series.append(tuple(Tile(c, number) for c in rng.sample(range(4), rng.choice((3, 4)))))
    for s in series:
        assert is_valid_series(s)
        kinds = _extending_kinds(s)
        for p in pieces:
            assert (p.kind in kinds) == _extends(s, p), (s, p)
