"""The play (pegging): combinations, GO, 31, last card, who leads.

Quotes are from CRIBBAGE.DOC "Game play" and "Pegging Combinations".
"""
import pytest

from games_py.cards import card, cards
from games_py.cribbage import rules
from games_py.cribbage.scoring import pegging_items, pegging_points, total
from games_py.cribbage.state import GameState, Phase, Play


def pegs(text):
    return total(pegging_items(cards(text)))


def play_state(dealer_hand, pone_hand, dealer=1, scores=(0, 0), limit=121):
    """A hand at the start of the play: dealer and non-dealer ("pone") hands
    of up to four cards each; the other cards sit in the stock."""
    pone = 1 - dealer
    s = GameState(limit=limit, phase=Phase.PLAY, dealer=dealer, scores=list(scores))
    s.hands[dealer], s.hands[pone] = cards(dealer_hand), cards(pone_hand)
    s.kept = [list(h) for h in s.hands]
    s.to_move = pone
    return s


def play(state, text):
    player = state.current_player()
    return player, rules.apply(state, Play(card(text)))


# --- combinations -----------------------------------------------------------

def test_fifteen_pegs_two():
    """Doc: "FIFTEEN  You peg 2 points for adding a card that makes the sum
    equal to 15".
    [004_fa271ff1c123496e.txt line 173]"""
    assert pegs("7H 8S") == 2
    assert pegs("KH 5S") == 2
    assert pegs("KH 4S") == 0


def test_pair_pegs_two_only_with_the_previous_card():
    """Doc: "PAIR  You peg 2 points if you match the rank of the previously
    played card".
    [004_fa271ff1c123496e.txt line 176]"""
    assert pegs("9H 9S") == 2
    assert pegs("9H 2S 9C") == 0          # not the previously played card


def test_triplet_pegs_six_and_four_pegs_twelve():
    """Doc: "TRIPLET  Adding the third card (in a row) of the same rank scores
    6 points" and "FOUR ... pegs 12 points".
    [004_fa271ff1c123496e.txt lines 179, 183]"""
    assert pegs("4H 4S 4C") == 6
    assert pegs("4H 4S 4C 4D") == 12
    assert [i.kind for i in pegging_items(cards("4H 4S 4C"))] == ["triplet"]


def test_run_in_any_order_one_point_a_card():
    """Doc: "RUN (Sequence) ... a sequence of 3 or more, in any order, you
    peg 1 point for each card ... Example: 3-4-5, 3-5-4, 5-2-4-3".
    [004_fa271ff1c123496e.txt lines 185-186, 189]"""
    assert pegs("3H 4S 5C") == 3
    assert pegs("3H 5S 4C") == 3
    assert pegs("5H 2S 4C 3D") == 4
    assert pegs("5H 2S 4C 3D 6S") == 5        # run of five (count 20)
    assert pegs("KH 2S 4C 3D") == 3           # only the last three are in sequence


def test_run_is_broken_by_a_repeated_rank():
    """A run uses the last cards played; a repeated rank among them spoils it.
    [004_fa271ff1c123496e.txt lines 185-189]"""
    assert pegs("3H 4S 4C 5D") == 0
    assert pegs("4H 5S 3C 4D") == 3           # 5-3-4 is a run; 4-5-3-4 is not


def test_combinations_add_up():
    """"EACH and EVERY combination counts separately": a run that makes 15
    pegs both, and 31 pegs 2.
    [004_fa271ff1c123496e.txt line 219]"""
    assert pegs("4H 5S 6C") == 3 + 2
    assert pegs("KH QS AC") == 0
    items = pegging_items(cards("KH QS 5C 6D"))   # 10+10+5+6 = 31
    assert [i.kind for i in items] == ["thirty-one"] and total(items) == 2


def test_cached_points_match_itemised_points():
    """[004_fa271ff1c123496e.txt lines 171-189]"""
    for text in ("7H 8S", "4H 4S 4C 4D", "5H 2S 4C 3D", "KH QS 5C 6D", "3H 5S 3C 4D"):
        assert pegging_points(tuple(c.rank for c in cards(text))) == pegs(text)


# --- turn order, GO and 31 ----------------------------------------------------

def test_non_dealer_lays_the_first_card():
    """Doc: "play begins with the non-dealer laying down a card".
    [004_fa271ff1c123496e.txt line 155]"""
    s = play_state("2H 3H", "4S 5S", dealer=1)
    assert s.current_player() == 0
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, Play(card("2H")))    # the dealer's card: not his turn


def test_count_can_never_exceed_31():
    """Doc: "During play, the sum can never exceed 31".
    [004_fa271ff1c123496e.txt line 161]"""
    s = play_state("KH QH", "7S 2S", dealer=1)
    s.pile = cards("KC QC 5C")                 # count 25
    assert rules.legal_actions(s) == [Play(card("2S"))]
    with pytest.raises(rules.IllegalAction, match="past 31"):
        rules.apply(s, Play(card("7S")))       # 32


def summary(events):
    return [(e.kind, e.player, e.points) for e in events]


def test_go_opponent_plays_on_and_31_pegs_two_instead_of_one():
    """Doc: "If a player cannot play a card without exceeding 31 he must say
    GO ...  Before pegging his 1 point the player gaining the GO must lay down
    all the cards he can ... If a player reaches exactly 31 then he pegs 2
    points instead of 1 point for the GO".
    [004_fa271ff1c123496e.txt lines 161, 163-164]"""
    s = play_state(dealer_hand="QH 7H 6H 5H", pone_hand="KS 8S 2S AS", dealer=1)
    play(s, "KS")                                   # 10
    play(s, "QH")                                   # 20
    _, events = play(s, "8S")                       # 28: dealer cannot go on
    assert summary(events) == [("play", 0, 0), ("go", 1, 0)]
    assert s.current_player() == 0                  # pone keeps laying cards
    play(s, "2S")                                   # 30
    _, events = play(s, "AS")                       # 31
    assert summary(events)[0] == ("play", 0, 2)
    assert [i.kind for i in events[0].items] == ["thirty-one"]
    assert s.scores == [2, 0]                       # 2, not 2 + 1
    # "The player who said GO starts off the next round ... sum is reset"
    assert summary(events)[1:] == [("reset", 1, 0)]
    assert s.count == 0 and s.current_player() == 1


def test_go_point_when_nobody_can_reach_31():
    """[004_fa271ff1c123496e.txt lines 161-166]"""
    s = play_state(dealer_hand="QH 7H 6H 5H", pone_hand="KS 8S 2S 9S", dealer=1)
    for c in ("KS", "QH", "8S"):                    # 28, dealer says GO
        play(s, c)
    _, events = play(s, "2S")                       # 30, pone cannot play 9S
    assert summary(events) == [("play", 0, 0), ("peg", 0, 1), ("reset", 1, 0)]
    assert events[1].items[0].kind == "go"
    assert s.scores == [1, 0]
    assert s.current_player() == 1                  # the one who said GO leads


def test_a_player_out_of_cards_lets_the_other_play_on_and_last_card_pegs_one():
    """With the pone's cards gone the dealer plays his out alone; runs still
    count, and the last card of the play pegs 1 (standard rule).
    [004_fa271ff1c123496e.txt lines 161-166]"""
    s = play_state(dealer_hand="QH 7H 6H 5H", pone_hand="KS 8S 2S AS", dealer=1)
    for c in ("KS", "QH", "8S", "2S", "AS"):        # pone reaches 31, empty-handed
        play(s, c)
    play(s, "7H")
    assert s.current_player() == 1
    play(s, "6H")
    _, events = play(s, "5H")                       # 7-6-5: run of three, count 18
    assert summary(events) == [("play", 1, 3), ("peg", 1, 1)]
    assert events[1].items[0].kind == "last card"
    assert s.scores == [2, 4]
    assert s.phase is Phase.SHOW


def test_after_31_the_other_player_leads_and_no_go_is_said():
    """[004_fa271ff1c123496e.txt lines 161-166]"""
    s = play_state(dealer_hand="KH QH 3H", pone_hand="5S 6S 4S", dealer=1)
    play(s, "5S")
    _, events = play(s, "KH")                       # 15
    assert summary(events) == [("play", 1, 2)]
    play(s, "6S")                                   # 21
    _, events = play(s, "QH")                       # 31
    assert summary(events) == [("play", 1, 2), ("reset", 0, 0)]
    assert s.current_player() == 0
    play(s, "4S")
    _, events = play(s, "3H")
    assert summary(events) == [("play", 1, 0), ("peg", 1, 1)]   # last card
    assert s.scores == [0, 5]


def test_no_last_card_point_when_the_play_ends_on_31():
    """[004_fa271ff1c123496e.txt lines 164-165]"""
    s = play_state(dealer_hand="KH", pone_hand="AS", dealer=1)
    s.pile = cards("QC KC")
    s.played = [[], cards("QC KC")]
    s.kept = [cards("AS"), cards("KH")]
    play(s, "AS")                                   # 21
    _, events = play(s, "KH")                       # 31, last card
    assert summary(events) == [("play", 1, 2)]
    assert s.phase is Phase.SHOW


def test_each_card_laid_announces_the_sum():
    """Doc: "Each time a player lays down a card he announces the sum of all
    the cards that have been laid down so far".
    [004_fa271ff1c123496e.txt line 158]"""
    from games_py.cribbage.render import describe
    s = play_state(dealer_hand="KH 3H", pone_hand="4S AS", dealer=1)
    sums = []
    for c in ("4S", "KH", "AS", "3H"):
        _, events = play(s, c)
        sums.append(events[0].count)
        assert f"count {events[0].count}" in describe(events[0], s, ("A", "B"), None)
    assert sums == [4, 14, 15, 18]


def test_cards_not_in_hand_are_refused():
    """[004_fa271ff1c123496e.txt lines 156-159]"""
    s = play_state("2H 3H", "4S 5S", dealer=1)
    with pytest.raises(rules.IllegalAction, match="not in your hand"):
        rules.apply(s, Play(card("9D")))


def test_reaching_the_limit_in_the_play_ends_the_game_at_once():
    """The game is won the moment the limit is reached; the peg stops in the
    game hole (121) and nobody plays on.
    [004_fa271ff1c123496e.txt lines 100-102, 193-196]"""
    s = play_state(dealer_hand="KH 2H", pone_hand="5S 9S", dealer=1, scores=(120, 50))
    play(s, "5S")
    _, events = play(s, "KH")                       # dealer 15: 52
    _, events = play(s, "9S")                       # 24, nothing
    assert s.scores == [120, 52]
    _, events = play(s, "2H")                       # 26: dealer, nothing
    # pone cannot play: no cards; dealer's last card pegs 1
    assert s.scores == [120, 53]
    s2 = play_state(dealer_hand="KH 2H", pone_hand="5S 9S", dealer=1, scores=(40, 120))
    play(s2, "5S")
    _, events = play(s2, "KH")                      # fifteen for 2: 122 -> 121
    assert [e.kind for e in events] == ["play", "win"]
    assert s2.scores == [40, 121] and s2.winner == 1
    assert s2.is_over and s2.current_player() is None
