"""Whole games and random hands: invariants that must hold every time.

1,000 seeded games (computer and random seats, both score limits) are
checked after every step: the 52 cards are all somewhere exactly once,
scores never go down nor past the limit, the count never passes 31, every
move a player chooses is legal, and the points of the events add up to the
score.
"""
import random
import time

from hypothesis import given, settings, strategies as st

from games_py.cards import full_deck
from games_py.cribbage import rules
from games_py.cribbage.players import ComputerPlayer, RandomPlayer
from games_py.cribbage.scoring import (
    hand_points, pegging_items, pegging_points, score_hand, total, value)
from games_py.cribbage.state import Phase

GAMES = 1000
FULL = sorted((c.rank, c.suit) for c in full_deck())


def check_invariants(state, before_scores):
    if state.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL):
        held = sorted((c.rank, c.suit) for c in state.all_cards())
        assert held == FULL, "a card was lost or duplicated"
    for p in (0, 1):
        assert before_scores[p] <= state.scores[p] <= state.limit
    assert state.count <= 31
    assert len(state.crib) in (0, 2, 4)
    if state.phase is Phase.PLAY:
        assert all(len(h) <= 4 for h in state.hands)
        assert state.current_player() is not None
        assert rules.playable(state, state.to_move), "the player to move must be able to play"


def play_checked(seed):
    """One game with invariants checked after every step; returns (result,
    number of computer moves checked)."""
    setup = random.Random(seed)
    limit = setup.choice(rules.SCORE_LIMITS)
    kinds = setup.choice(["cc", "cr", "rc", "rr"])
    seats = [ComputerPlayer() if k == "c" else RandomPlayer(random.Random(seed * 7 + i))
             for i, k in enumerate(kinds)]
    state = rules.new_game(limit, skunking=setup.random() < 0.5)
    rng = random.Random(seed)
    pegged = [0, 0]
    computer_moves = 0
    while not state.is_over:
        before = list(state.scores)
        player = state.current_player()
        if player is None:
            events = rules.step(state, rng)
        else:
            legal = rules.legal_actions(state)
            action = seats[player].choose(state.view(player), legal)
            assert rules.is_legal(state, action), f"illegal {action} by {kinds[player]}"
            computer_moves += isinstance(seats[player], ComputerPlayer)
            events = rules.apply(state, action)
        for e in events:
            if e.player is not None:
                pegged[e.player] += e.points
        check_invariants(state, before)
    for p in (0, 1):
        assert state.scores[p] == min(state.limit, pegged[p])
    assert state.scores[state.winner] == state.limit
    assert state.scores[1 - state.winner] < state.limit
    return rules.result(state), computer_moves


def test_a_thousand_seeded_games_keep_every_invariant():
    """[004_fa271ff1c123496e.txt lines 145-166, 192-224]"""
    started, cpu = time.perf_counter(), time.process_time()
    computer_moves = 0
    skunks = 0
    for seed in range(GAMES):
        result, moves = play_checked(seed)
        computer_moves += moves
        skunks += result.skunk
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{GAMES} games, {computer_moves} computer moves checked, "
          f"{skunks} skunks, {elapsed:.1f} s ({cpu:.1f} s CPU)")
    assert computer_moves > 10_000      # the computer really played
    assert skunks > 0                   # the skunk path was exercised


def test_same_seed_same_game():
    assert play_checked(4242) == play_checked(4242)


five_cards = st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_cards, st.booleans())
def test_fast_count_equals_itemised_count(hand5, is_crib):
    """[004_fa271ff1c123496e.txt lines 199-219]"""
    hand, starter = hand5[:4], hand5[4]
    assert hand_points(hand, starter, is_crib) == total(score_hand(hand, starter, is_crib))


@settings(max_examples=300, deadline=None)
@given(five_cards, st.booleans())
def test_no_hand_scores_19_25_26_27_or_over_29(hand5, is_crib):
    """Known facts of cribbage arithmetic: a show is 0-29 and never 19, 25,
    26 or 27.
    [004_fa271ff1c123496e.txt lines 199-219]"""
    points = hand_points(hand5[:4], hand5[4], is_crib)
    assert 0 <= points <= 29 and points not in (19, 25, 26, 27)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=1, max_size=8, unique=True))
def test_pegging_scores_depend_on_ranks_only(pile):
    """[004_fa271ff1c123496e.txt lines 171-189]"""
    while sum(value(c) for c in pile) > 31:
        pile = pile[:-1]
    if pile:
        items = pegging_items(pile)
        assert all(i.points > 0 for i in items)
        assert pegging_points(tuple(c.rank for c in pile)) == total(items)
