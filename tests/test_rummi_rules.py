"""Every rule of the Rummi guide (rummi.guide, sections "Rules of the game"
and "How to play"), each test quoting the line it checks."""
from __future__ import annotations

from collections import Counter
import random

import pytest

from games_py.rummi import rules
from games_py.rummi.rules import EndTurn, IllegalAction, Swap, drop_onto, lift_from
from games_py.rummi.state import GameState, duplicates, new_game
from games_py.rummi.tiles import (Tile, full_set, is_group, is_run, is_valid_series, parse_kind,
                                  tile, tiles)
from games_py.rummi.turn import MoveError, Requester, TurnBuilder


def T(text: str, copy: int = 0) -> Tile:
    return tile(text, copy)


def S(text: str) -> tuple[Tile, ...]:
    return tuple(tiles(text))


def make_state(tray0, tray1="", table=(), pile="", opened=(False, False), current=0):
    """A hand-made position.  Pieces given twice get their second copy."""
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
                     current=current, opened=tuple(opened))


def played_state(state: GameState, table) -> GameState:
    return rules.apply(state, EndTurn(tuple(tuple(s) for s in table)))


# -- the pieces ----------------------------------------------------------------

def test_104_pieces_1_to_13_in_4_colours_two_of_each():
    """"There are 104 pieces, numbered from 1 thru 13, in 4 different colors.
    There are two pieces for each color/number combination.\"
    [003_57b64a2ada5ce15a.txt line 135]"""
    pieces = full_set()
    assert len(pieces) == 104 == len(set(pieces))
    kinds = Counter(t.kind for t in pieces)
    assert set(kinds.values()) == {2}
    assert {n for _, n in kinds} == set(range(1, 14))
    assert len({c for c, _ in kinds}) == 4


def test_both_players_take_14_pieces_from_the_pile():
    """"Both playes take 14 pieces, and lay them on their own tray.\"
    [003_57b64a2ada5ce15a.txt line 135]"""
    state = new_game(random.Random(7))
    assert [len(t) for t in state.trays] == [14, 14]
    assert len(state.pile) == 104 - 28
    assert sorted(state.all_tiles()) == sorted(full_set())
    assert state.table == ()


def test_first_player_is_chosen_randomly_but_reproducibly():
    """"The program decides (randomly) who has the first turn\" -- through the
    seeded generator, so a seed replays the same game.
    [003_57b64a2ada5ce15a.txt line 163]"""
    firsts = {new_game(random.Random(seed)).current for seed in range(40)}
    assert firsts == {0, 1}
    assert new_game(random.Random(3)) == new_game(random.Random(3))


# -- valid series ----------------------------------------------------------------

@pytest.mark.parametrize("text", ["R1 R2 R3", "K11 K12 K13", "B4 B5 B6 B7 B8",
                                  " ".join(f"O{n}" for n in range(1, 14))])
def test_run_of_3_to_13_same_colour_increasing(text):
    """"3 to 13 pieces of the same color but increasing value\"
    [003_57b64a2ada5ce15a.txt line 143]"""
    assert is_run(S(text)) and is_valid_series(S(text))


@pytest.mark.parametrize("text", ["R1 R2", "R1 R2 R4", "R1 B2 R3", "K12 K13 K1", "R5 R5 R6"])
def test_not_a_run(text):
    """"valid series of at least 3 pieces\", one colour, no gaps, no wrap
    round from 13 to 1 (values increase).
    [003_57b64a2ada5ce15a.txt line 141]"""
    pieces = tiles(text) if text != "R5 R5 R6" else [T("R5"), T("R5", 1), T("R6")]
    assert not is_valid_series(pieces)


@pytest.mark.parametrize("text", ["R7 B7 K7", "R7 B7 K7 O7"])
def test_group_of_3_or_4_same_value_different_colours(text):
    """"3 or 4 pieces of the same value but different colors\"
    [003_57b64a2ada5ce15a.txt line 144]"""
    assert is_group(S(text)) and is_valid_series(S(text))


def test_group_needs_different_colours_and_at_least_three():
    """"3 or 4 pieces of the same value but different colors\"
    [003_57b64a2ada5ce15a.txt line 144]"""
    assert not is_valid_series([T("R7"), T("R7", 1), T("B7")])
    assert not is_valid_series(S("R7 B7"))
    assert not is_valid_series(S("R7 B7 K8"))


# -- a turn ----------------------------------------------------------------------

def test_playing_pieces_moves_them_from_tray_to_table():
    """"In each turn you may play any number of pieces by putting them from
    your tray onto the table.\"
    [003_57b64a2ada5ce15a.txt line 139]"""
    state = make_state("R5 R6 R7 R8 K1", "B1 B2", pile="O1 O2", opened=(True, True))
    after = played_state(state, [S("R5 R6 R7 R8")])
    assert after.trays[0] == (T("K1"),)
    assert after.table == (S("R5 R6 R7 R8"),)
    assert after.current == 1 and after.pile == state.pile


def test_table_may_be_rearranged():
    """"Pieces on the table may be rearranged\": B7 K7 join R7 taken from the
    end of R4-R5-R6-R7.
    [003_57b64a2ada5ce15a.txt line 140]"""
    state = make_state("B7 K7 O1", "B1", table=["R4 R5 R6 R7"], pile="O2", opened=(True, True))
    after = played_state(state, [S("R4 R5 R6"), S("R7 B7 K7")])
    assert Counter(t.kind for s in after.table for t in s) == \
        Counter(parse_kind(w) for w in "R4 R5 R6 R7 B7 K7".split())
    assert [str(t) for t in after.trays[0]] == ["O1"]


def test_table_pieces_cannot_go_back_to_the_tray():
    """"but not be taken back from the table to your own tray.\"
    [003_57b64a2ada5ce15a.txt line 140]"""
    state = make_state("B7", "B1", table=["R4 R5 R6 R7"], pile="O2", opened=(True, True))
    with pytest.raises(IllegalAction, match="not taken back"):
        rules.apply(state, EndTurn((S("R4 R5 R6"),)))


def test_pieces_must_come_from_the_players_own_tray():
    """"putting them from your tray onto the table\" -- not the opponent's.
    [003_57b64a2ada5ce15a.txt line 139]"""
    state = make_state("B7", "K1 K2 K3", pile="O2", opened=(True, True))
    with pytest.raises(IllegalAction, match="not on your tray"):
        rules.apply(state, EndTurn((S("K1 K2 K3"),)))


def test_no_minimum_after_the_first_play():
    """"In the second and following turns there is no minimum.\"
    [003_57b64a2ada5ce15a.txt line 149]"""
    state = make_state("R8 K1", "B1", table=["R5 R6 R7"], pile="O2", opened=(True, True))
    after = played_state(state, [S("R5 R6 R7 R8")])
    assert after.trays[0] == (T("K1"),) and after.last_turn_end == "play"


def test_first_play_must_total_30():
    """"The first time a player plays a piece, he must play at least a total
    of 30 in that same turn.\"
    [003_57b64a2ada5ce15a.txt line 148]"""
    state = make_state("R7 R8 R9 K1", "B1", pile="O1 O2 O3 O4 O5 O6")
    assert rules.table_problems([S("R7 R8 R9")], S("R7 R8 R9"), opened=False) == \
        ["your first play must total at least 30 from your tray; you played 24"]
    ok = make_state("R9 R10 R11 K1", "B1", pile="O1")
    after = played_state(ok, [S("R9 R10 R11")])
    assert after.opened == (True, False) and after.trays[0] == (T("K1"),)


def test_first_play_counts_only_tray_pieces():
    """"Only pieces taken from his tray count in this total, not any pieces
    rearranged on the table.\"  R13 added to a 10-11-12 run on the table
    is only 13 from the tray.
    [003_57b64a2ada5ce15a.txt line 148]"""
    state = make_state("R13 B2", "K1", table=["R10 R11 R12"], pile="O1 O2 O3 O4 O5 O6")
    b = TurnBuilder(state)
    b.play(b.find_on_tray("R13"), 1)
    assert b.played_value() == 13
    assert b.problems() == ["your first play must total at least 30 from your tray; "
                            "you played 13"]
    # rearranging the table is allowed in the first turn, and only the tray
    # pieces count: B10 K10 (20) + R13 (13) = 33 >= 30
    state = make_state("R13 B10 K10 B1", "K1", table=["R10 R11 R12"], pile="O1")
    after = played_state(state, [S("R11 R12 R13"), S("R10 B10 K10")])
    assert after.opened[0] and [str(t) for t in after.trays[0]] == ["B1"]


def test_cannot_play_takes_a_piece_from_the_pile():
    """"If a player cannot play any piece, he must take a piece from the pile.\"
    [003_57b64a2ada5ce15a.txt line 150]"""
    state = make_state("R1 K5", "B1", pile="O1 O2 O3")
    after = rules.apply(state, rules.draw_action(state))
    assert sorted(after.trays[0]) == sorted([T("R1"), T("K5"), T("O3")])   # the top piece
    assert after.pile == (T("O1"), T("O2"))
    assert after.current == 1 and after.table == () and after.last_turn_end == "draw"


def test_first_to_lose_all_pieces_wins():
    """"The player who is the first to lose all his pieces, wins the game.\"
    [003_57b64a2ada5ce15a.txt line 151]"""
    state = make_state("R9 R10 R11", "B1 B2", pile="O1", opened=(True, True))
    after = played_state(state, [S("R9 R10 R11")])
    assert after.over and after.winner == 0 and after.trays[0] == ()
    with pytest.raises(IllegalAction, match="over"):
        rules.apply(after, rules.draw_action(after))


# -- duplicate swap -------------------------------------------------------------

def test_swap_duplicates_when_both_players_have_them():
    """"If both players have duplicate pieces (two pieces with the same color
    and value), they may swap the duplicate pieces.\"
    [003_57b64a2ada5ce15a.txt line 147]"""
    state = make_state("R5 R5 K1", "B9 B9 O2", pile="O1")
    give, receive = state.trays[0][1], state.trays[1][0]
    after = rules.apply(state, Swap(give, receive))
    assert Counter(t.kind for t in after.trays[0]) == Counter([(3, 5), (0, 1), (1, 9)])
    assert Counter(t.kind for t in after.trays[1]) == Counter([(1, 9), (2, 2), (3, 5)])
    assert duplicates(after.trays[0]) == [] and duplicates(after.trays[1]) == []
    assert after.current == 0                      # a swap does not end the turn


def test_cannot_swap_a_piece_that_is_not_duplicate():
    """"You cannot swap a piece that wasn't duplicate on your tray\"
    [003_57b64a2ada5ce15a.txt line 187]"""
    state = make_state("R5 K1", "B9 B9", pile="O1")
    with pytest.raises(IllegalAction, match="not a duplicate on your tray"):
        rules.apply(state, Swap(state.trays[0][1], state.trays[1][0]))


def test_cannot_swap_when_the_opponent_has_no_duplicate():
    """"nor can you swap a duplicate piece if the program hasn't any.\"
    [003_57b64a2ada5ce15a.txt line 187]"""
    state = make_state("R5 R5", "B9 B8", pile="O1")
    with pytest.raises(IllegalAction, match="no duplicate"):
        rules.apply(state, Swap(state.trays[0][0], state.trays[1][0]))


def test_swap_needs_both_copies_on_the_tray_not_the_table():
    """A piece is "duplicate on your tray" only while both copies are there:
    once one is dropped on the table this turn, it cannot be swapped.
    [003_57b64a2ada5ce15a.txt line 187]"""
    state = make_state("R5 R5 R6 R7", "B9 B9", pile="O1", opened=(True, True))
    b = TurnBuilder(state)
    b.play(b.find_on_tray("R5"))
    with pytest.raises(MoveError, match="not a duplicate"):
        b.swap(b.find_on_tray("R5"), state.trays[1][0])
    b.back_up()
    b.swap(b.find_on_tray("R5"), state.trays[1][0])
    assert sorted(str(t) for t in b.tray) == ["B9", "R5", "R6", "R7"]


# -- moving pieces on the table ------------------------------------------------

def test_drop_splits_a_run():
    """"drop a 5 on top of a series 3-4-5-6-7, and the series will be split
    into 3-4-5 and 5-6-7\"
    [003_57b64a2ada5ce15a.txt line 173]"""
    run = S("R3 R4 R5 R6 R7")
    five = T("R5", 1)
    low, high = drop_onto(run, five)
    assert [t.number for t in low] == [3, 4, 5] and [t.number for t in high] == [5, 6, 7]
    assert five in high and is_run(low) and is_run(high)


def test_drop_adds_to_the_proper_end():
    """"If so, the piece will be added to the proper end of the series.\"
    [003_57b64a2ada5ce15a.txt line 171]"""
    assert [t.number for t in drop_onto(S("R3 R4 R5"), T("R2"))[0]] == [2, 3, 4, 5]
    assert [t.number for t in drop_onto(S("R3 R4 R5"), T("R6"))[0]] == [3, 4, 5, 6]
    assert len(drop_onto(S("R3 B3 K3"), T("O3"))[0]) == 4


def test_drop_that_does_not_fit_is_refused():
    """"the program checks if the piece fits\" -- a wrong colour, a gap, a
    fifth group piece or a colour already in the group does not.
    [003_57b64a2ada5ce15a.txt line 171]"""
    assert drop_onto(S("R3 R4 R5"), T("B6")) is None
    assert drop_onto(S("R3 R4 R5"), T("R7")) is None
    assert drop_onto(S("R3 B3 K3 O3"), T("R3", 1)) is None
    assert drop_onto(S("R3 B3 K3"), T("B3", 1)) is None
    assert drop_onto(S("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13"), T("K13", 1)) is None


def test_turn_builder_drop_on_series_splits_it():
    """Through the turn as the player makes it: "drop a 5 on top of a series
    3-4-5-6-7" gives two series on the table.
    [003_57b64a2ada5ce15a.txt line 173]"""
    state = make_state("R5 K1", "B1", table=["R3 R4 R5 R6 R7"], pile="O1", opened=(True, True))
    b = TurnBuilder(state)
    b.play(b.find_on_tray("R5"), 1)
    assert [[t.number for t in s] for s in b.table] == [[3, 4, 5], [5, 6, 7]]
    with pytest.raises(MoveError, match="does not fit"):
        b.play(b.find_on_tray("K1"), 1)
    after = rules.apply(state, b.finish())
    assert [str(t) for t in after.trays[0]] == ["K1"]


def test_lifting_a_piece_from_the_middle_of_a_run_splits_it():
    """Rearranging: a piece picked out of 3-4-5-6-7 leaves 3-4 and 6-7.
    [003_57b64a2ada5ce15a.txt lines 140, 167-173]"""
    low, high = lift_from(S("R3 R4 R5 R6 R7"), T("R5"))
    assert [t.number for t in low] == [3, 4] and [t.number for t in high] == [6, 7]
    [rest] = lift_from(S("R3 B3 K3 O3"), T("K3"))
    assert sorted(rest) == sorted(S("R3 B3 O3"))


def test_back_up_takes_back_the_last_piece():
    """"Back up -- take back the last piece played.\"
    [003_57b64a2ada5ce15a.txt line 204]"""
    state = make_state("R5 R6 R7 K1", "B1", pile="O1", opened=(True, True))
    b = TurnBuilder(state)
    for w in ("R5", "R6", "R7"):
        b.play(b.find_on_tray(w), None if w == "R5" else 1)
    b.back_up()
    assert b.table == [S("R5 R6")] and sorted(str(t) for t in b.tray) == ["K1", "R7"]
    b.back_up()
    b.back_up()
    assert b.table == [] and not b.moved
    with pytest.raises(MoveError, match="nothing to take back"):
        b.back_up()


def test_move_table_piece_to_another_series():
    """"Pieces on the table may be rearranged\": R7 from the run to the
    group of sevens, done piece by piece.
    [003_57b64a2ada5ce15a.txt line 140]"""
    state = make_state("K7 K1", "B1", table=["R4 R5 R6 R7", "B7 O7"], pile="O1",
                       opened=(True, True))
    # (B7 O7 alone is not valid; the table here is only a workspace)
    b = TurnBuilder(state)
    b.move(1, b.find_on_table(1, "R7"), 2)
    b.play(b.find_on_tray("K7"), 2)
    assert sorted(len(s) for s in b.table) == [3, 4] and b.problems() == []


# -- ending with problems: requester, then penalty --------------------------------

def test_invalid_series_first_gives_a_requester_then_a_penalty():
    """"If there are incomplete series ... you will see a requester ... Then
    you have the chance to fix things right.\"  "If you cannot fix it
    properly, just click the bottom right OK gadget immediately. Any invalid
    series are put from the table on your tray, and you must take 5 extra
    pieces from the pile for a penalty.\"
    [003_57b64a2ada5ce15a.txt lines 193, 195]"""
    state = make_state("R9 K1", "B1", table=["R4 R5 R6 R7"],
                       pile="O1 O2 O3 O4 O5 O6 O7", opened=(True, True))
    b = TurnBuilder(state)
    b.move(1, b.find_on_table(1, "R7"))          # R4-R6 stays valid, R7 alone is not
    b.play(b.find_on_tray("R9"))                 # R9 alone is not valid either
    first = b.finish()
    assert isinstance(first, Requester)
    assert sorted(first.problems) == ["invalid series: R7", "invalid series: R9"]
    second = b.finish()
    assert isinstance(second, EndTurn)
    after = rules.apply(state, second)
    # R7 came from the table and still goes to the tray, with R9 and 5 pieces
    assert sorted(str(t) for t in after.trays[0]) == \
        sorted(["K1", "R7", "R9", "O3", "O4", "O5", "O6", "O7"])
    assert after.table == (S("R4 R5 R6"),)
    assert len(after.pile) == 2 and after.current == 1 and after.last_turn_end == "penalty"
    assert sorted(after.all_tiles()) == sorted(state.all_tiles())


def test_any_change_after_the_requester_asks_again():
    """"Then you have the chance to fix things right\": a fix, or any
    change, means OK checks again before any penalty.
    [003_57b64a2ada5ce15a.txt line 193]"""
    state = make_state("R9 R10 R11 R12", "B1", table=[], pile="O1", opened=(True, True))
    b = TurnBuilder(state)
    b.play(b.find_on_tray("R9"))
    assert isinstance(b.finish(), Requester)
    b.play(b.find_on_tray("R12"))
    assert isinstance(b.finish(), Requester)          # asked again, not penalised
    b.back_up()
    b.play(b.find_on_tray("R10"), 1)
    b.play(b.find_on_tray("R11"), 1)
    assert isinstance(b.finish(), EndTurn)


def test_opening_below_30_is_penalised_after_the_requester():
    """"or you didn't play at least 30 on your first turn, you will see a
    requester\"; OK again: the pieces go back and 5 are taken.
    [003_57b64a2ada5ce15a.txt line 193]"""
    state = make_state("R1 R2 R3 K9", "B1", pile="O1 O2 O3 O4 O5 O6")
    b = TurnBuilder(state)
    b.play(b.find_on_tray("R1"))
    b.play(b.find_on_tray("R2"), 1)
    b.play(b.find_on_tray("R3"), 1)
    assert isinstance(b.finish(), Requester)
    after = rules.apply(state, b.finish())
    assert after.table == () and not after.opened[0]
    assert len(after.trays[0]) == 4 + 5 and len(after.pile) == 1


def test_penalty_when_the_pile_has_fewer_than_5():
    """"you must take 5 extra pieces from the pile\" -- as many as there are.
    [003_57b64a2ada5ce15a.txt line 195]"""
    state = make_state("R9 K1", "B1", pile="O1 O2", opened=(True, True))
    after = played_state(state, [S("R9")])
    assert after.pile == () and len(after.trays[0]) == 4


def test_penalty_keeps_the_valid_part_of_an_opening_worth_30():
    """Only the invalid series go back; valid series worth 30 from the tray
    stand and count as the opening.
    [003_57b64a2ada5ce15a.txt lines 148, 195]"""
    state = make_state("R10 R11 R12 K2", "B1", pile="O1 O2 O3 O4 O5 O6")
    after = played_state(state, [S("R10 R11 R12"), S("K2")])
    assert after.opened[0] and after.table == (S("R10 R11 R12"),)
    assert len(after.trays[0]) == 1 + 5


# -- the end when the pile is empty (not in the guide) ---------------------------

def test_empty_pile_two_passes_end_the_game_lowest_tray_wins():
    """The guide does not say; documented rule: with the pile empty, a player
    who cannot play passes, and two passes in a row end the game; the lower
    tray value wins.
    [003_57b64a2ada5ce15a.txt lines 150-151]"""
    state = make_state("R1 K2", "B13", pile="", opened=(True, True))
    once = rules.apply(state, rules.draw_action(state))
    assert not once.over and once.passes == 1 and once.last_turn_end == "pass"
    assert [sorted(t) for t in once.trays] == [sorted(t) for t in state.trays]
    twice = rules.apply(once, rules.draw_action(once))
    assert twice.over and twice.winner == 0 and "pile is empty" in twice.end_reason


def test_empty_pile_a_play_resets_the_passes():
    """[003_57b64a2ada5ce15a.txt lines 150-151]"""
    state = make_state("R1 K2", "B11 B12 B13 K9", pile="", opened=(True, True))
    once = rules.apply(state, rules.draw_action(state))
    after = played_state(once, [S("B11 B12 B13")])
    assert after.passes == 0 and not after.over


def test_empty_pile_equal_values_fewer_pieces_wins():
    """Documented tie-break: equal tray values, then fewer pieces wins.
    [003_57b64a2ada5ce15a.txt lines 150-151]"""
    state = make_state("R1 K2", "B3", pile="", opened=(True, True))
    s = rules.apply(state, rules.draw_action(state))
    s = rules.apply(s, rules.draw_action(s))
    assert s.over and s.winner == 1


def test_empty_pile_equal_trays_is_a_draw():
    """Documented: equal value and equal number of pieces is a draw.
    [003_57b64a2ada5ce15a.txt lines 150-151]"""
    state = make_state("R1 K2", "B2 O1", pile="", opened=(True, True))
    s = rules.apply(state, rules.draw_action(state))
    s = rules.apply(s, rules.draw_action(s))
    assert s.over and s.winner is None


def test_single_play_skips_the_program_turn():
    """"Single play -- the program doesn't play.\"
    [003_57b64a2ada5ce15a.txt lines 207-208]"""
    state = make_state("R1", "B3", pile="O1", current=1)
    after = rules.skip_turn(state)
    assert after.current == 0 and after.trays == state.trays and after.pile == state.pile
