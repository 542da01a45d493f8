"""Hand scoring (the show), each rule from CRIBBAGE.DOC "Scoring Hands"."""
from collections import Counter

import pytest

from games_py.cards import card, cards
from games_py.cribbage.scoring import (
    fifteens, flush, hand_points, nobs, pairs, runs, score_hand, total)


def kinds(items):
    return Counter((i.kind, i.points) for i in items)


def test_documents_example_8_7_7_6_2_scores_16():
    """Doc: "A hand (with STARTER) of 8,7,7,6,2 will score 16 points ...
    For four combinations that total FIFTEEN: the 8 with one 7 and also with
    the other 7, and the 6-2 c[ombined with each 7]" - then a pair of sevens
    and two runs 6-7-8 (the standard count; the document is cut off).
    [004_fa271ff1c123496e.txt lines 222-223]"""
    hand, starter = cards("8C 7D 7S 6H"), card("2C")
    items = score_hand(hand, starter)
    assert total(items) == 16
    assert kinds(items) == Counter({("fifteen", 2): 4, ("pair", 2): 1, ("run of 3", 3): 2})
    fifteen_sets = {frozenset(str(c) for c in i.cards) for i in items if i.kind == "fifteen"}
    assert fifteen_sets == {frozenset({"8C", "7D"}), frozenset({"8C", "7S"}),
                            frozenset({"6H", "2C", "7D"}), frozenset({"6H", "2C", "7S"})}
    assert hand_points(hand, starter) == 16


def test_fifteen_two_points_for_each_combination():
    """Doc: "FIFTEEN  2 points for each combination of cards that total 15";
    face cards count 10, an ace 1.
    [004_fa271ff1c123496e.txt line 201]"""
    assert len(fifteens(cards("KH 5S"))) == 1
    assert len(fifteens(cards("JH QD KC 5S"))) == 3        # each face with the 5
    assert len(fifteens(cards("AH 3D KC 9S"))) == 0        # no subset makes 15
    assert len(fifteens(cards("AH 4D KC 9S"))) == 1        # A+4+K
    assert len(fifteens(cards("AH 3D KC 9S 5C"))) == 2     # K+5, A+9+5
    assert total(fifteens(cards("AH 3D KC 9S 5C"))) == 4


def test_pair_two_points_and_three_of_a_kind_is_three_pairs():
    """Doc: "PAIR  2 points for each pair of cards of the same rank" and
    "EACH and EVERY combination counts separately".
    [004_fa271ff1c123496e.txt lines 204, 219]"""
    assert total(pairs(cards("9H 9S 2C 4D KH"))) == 2
    assert total(pairs(cards("9H 9S 9C 4D KH"))) == 6
    assert total(pairs(cards("9H 9S 9C 9D KH"))) == 12
    assert total(pairs(cards("9H 9S 4C 4D KH"))) == 4


def test_run_counts_one_point_a_card_and_only_the_longest():
    """Doc: "RUN  Each combination of 3 or more cards in sequence counts 1
    point for each card in the RUN" - a run of 4 is 4, not 4 + two runs of 3.
    [004_fa271ff1c123496e.txt line 207]"""
    assert kinds(runs(cards("3H 4S 5C 9D KH"))) == Counter({("run of 3", 3): 1})
    assert kinds(runs(cards("3H 4S 5C 6D KH"))) == Counter({("run of 4", 4): 1})
    assert kinds(runs(cards("9H 10S JC QD KH"))) == Counter({("run of 5", 5): 1})
    assert runs(cards("QH KS AC 2D 4H")) == []             # no wrap round K-A


def test_double_triple_and_double_double_runs_each_combination():
    """Doc: "EACH and EVERY combination counts separately" applied to runs.
    [004_fa271ff1c123496e.txt line 219]"""
    assert kinds(runs(cards("3H 4S 4C 5D KH"))) == Counter({("run of 3", 3): 2})
    assert kinds(runs(cards("3H 3S 3C 4D 5H"))) == Counter({("run of 3", 3): 3})
    assert kinds(runs(cards("3H 3S 4C 4D 5H"))) == Counter({("run of 3", 3): 4})
    assert kinds(runs(cards("3H 4S 4C 5D 6H"))) == Counter({("run of 4", 4): 2})
    # whole hands with their standard totals
    assert total(score_hand(cards("3H 3S 3C 4D"), card("5H"))) == 21
    assert total(score_hand(cards("3H 3S 4C 4D"), card("5H"))) == 20


def test_flush_four_in_hand_not_including_the_starter():
    """Doc: "Four cards of the same suit (not including the STARTER) is 4
    points.  If the STARTER is also the same suit, count 5 points".
    [004_fa271ff1c123496e.txt line 212]"""
    hand = cards("2H 6H 10H QH")
    assert total(flush(hand, card("KS"), is_crib=False)) == 4
    assert total(flush(hand, card("KH"), is_crib=False)) == 5
    # three hand cards plus the starter make no flush
    assert flush(cards("2H 6H 10H QS"), card("KH"), is_crib=False) == []


def test_only_a_five_card_flush_counts_in_the_crib():
    """Doc: "Only a 5 card flush counts in the CRIB".
    [004_fa271ff1c123496e.txt line 214]"""
    crib = cards("2H 6H 10H QH")
    assert flush(crib, card("KS"), is_crib=True) == []
    assert total(flush(crib, card("KH"), is_crib=True)) == 5
    assert hand_points(crib, card("KS"), is_crib=True) == \
        hand_points(crib, card("KS"), is_crib=False) - 4


def test_his_nobs_jack_of_the_starters_suit():
    """Doc: "JACK  Holding a JACK of the same suit as the STARTER counts as 1".
    [004_fa271ff1c123496e.txt line 216]"""
    assert total(nobs(cards("JD 2C 4S 8H"), card("6D"))) == 1
    assert nobs(cards("JD 2C 4S 8H"), card("6C")) == []
    # the starter itself being a jack is his heels, pegged by the dealer, not nobs
    assert nobs(cards("2D 3C 4S 8H"), card("JD")) == []


def test_the_highest_hand_29():
    """All rules at once: 5-5-5-J with the 5 of the jack's suit turned is the
    standard maximum, 29 (8 fifteens, 6 pairs, nobs).
    [004_fa271ff1c123496e.txt lines 199-219]"""
    items = score_hand(cards("5H 5S 5C JD"), card("5D"))
    assert total(items) == 29
    assert kinds(items) == Counter({("fifteen", 2): 8, ("pair", 2): 6, ("his nobs", 1): 1})


def test_a_hand_worth_nothing():
    """No fifteen, pair, run, flush or nobs: 0 (the player's "nineteen").
    [004_fa271ff1c123496e.txt lines 199-219]"""
    assert score_hand(cards("2H 4S 6C 8D"), card("KH")) == []
    assert hand_points(cards("2H 4S 6C 8D"), card("KH")) == 0


def test_hand_must_have_four_cards():
    """[004_fa271ff1c123496e.txt lines 192-197]"""
    with pytest.raises(ValueError, match="4 cards"):
        score_hand(cards("2H 4S 6C"), card("KH"))
