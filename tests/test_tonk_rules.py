"""Tommy's Tonk rules, one test per rule of TONK.DOC (quoted in each docstring)."""
import random

import pytest

from games_py.cards import card, cards, full_deck
from games_py.tonk.match import Session, run_hand, shuffle_and_cut, stacked_deck
from games_py.tonk.players import ComputerPlayer, Observation, ScriptedPlayer
from games_py.tonk.pot import Pot
from games_py.tonk.rules import (IllegalMove, apply_action, autosort, deal, is_ten_card_hand,
                                 legal_actions, may_tonk, meld_options, swap_cards,
                                 unmatched_points)
from games_py.tonk.state import Action, Kind, Phase, Reason, TonkState

A, B = 0, 1


def make(hand_a, hand_b, *, upcard="KD", stock=None, dealer=B, no_passing=False,
         tables=None, plays=1):
    """A hand in progress: player A up, ``plays`` plays already made (1 = past the
    first play, so the ten-card rule is out of the way unless a test sets 0)."""
    if stock is None:
        used = set(cards(hand_a)) | set(cards(hand_b)) | {card(upcard)}
        stock = [c for c in full_deck() if c not in used][:20]
    else:
        stock = cards(stock)
    return TonkState(dealer=dealer, stock=list(stock), pile=[card(upcard)] if upcard else [],
                     hands=[cards(hand_a), cards(hand_b)],
                     tables=tables or [[], []], current=(dealer + 1) % 2,
                     plays=plays, no_passing=no_passing)


def act(state, kind, player=None, cs=(), meld=-1):
    player = state.current if player is None else player
    a = Action(kind, player, tuple(cards(cs)) if isinstance(cs, str) else tuple(cs), meld)
    apply_action(state, a)
    return a


def kinds(state, player):
    return {a.kind for a in legal_actions(state, player)}


# --------------------------------------------------------------- the deck and melds

def test_card_values_ace_one_faces_ten_others_pips():
    """'ACES COUNTING AS 1 POINT, FACE CARDS AS 10 POINTS, AND THE OTHER CARDS THEIR
    PIP VALUES (2..10)'.
    [002_b5a441868e5ee1bb.txt line 54]"""
    assert unmatched_points(cards("AS")) == 1
    assert unmatched_points(cards("JH")) == unmatched_points(cards("QC")) == unmatched_points(cards("KD")) == 10
    assert unmatched_points(cards("7S")) == 7
    assert unmatched_points(cards("10S")) == 10
    assert unmatched_points(cards("AS 7H KD")) == 18


def test_melds_count_zero_and_unmatched_cards_are_totalled():
    """'THE MELDS COUNTING 0 AND THE SO-CALLED UNMATCHED CARDS TOTALLED ... THE LOWER
    THE SCORE THE BETTER'.
    [002_b5a441868e5ee1bb.txt lines 77, 79]"""
    assert unmatched_points(cards("5S 5H 5D 9C 10C JC 2H")) == 2
    assert unmatched_points(cards("5S 5H 5D 9C 10C JC")) == 0
    # the best arrangement counts: 7H belongs to the run or the set, not both
    # 7H can serve the run 5H-6H-7H (leaving 14) or the set of sevens (leaving 11): best counts
    assert unmatched_points(cards("5H 6H 7H 7S 7D")) == 11


def test_ace_low_a23_is_a_run_qka_is_not():
    """'ACE RANKS LOW, KING HIGH, SO A-2-3 IS LEGAL AND Q-K-A IS NOT'.
    [002_b5a441868e5ee1bb.txt line 61]"""
    assert meld_options(cards("2S 3S 9D"), card("AS")) == [tuple(cards("2S 3S"))]
    assert meld_options(cards("QS KS 9D"), card("AS")) == []
    assert unmatched_points(cards("AS 2S 3S")) == 0
    assert unmatched_points(cards("QS KS AS")) == 21


def test_melds_are_sets_of_a_rank_or_suited_sequences():
    """'3 OR MORE CARDS OF THE SAME RANK, OR 3 OR MORE CARDS OF THE SAME SUIT IN SEQUENCE'.
    [002_b5a441868e5ee1bb.txt line 58]"""
    opts = meld_options(cards("8S 8D 7H 9H 2C"), card("8H"))
    assert tuple(cards("8D 8S")) in opts          # set of eights
    assert tuple(cards("7H 9H")) in opts          # 7-8-9 of hearts
    assert meld_options(cards("7S 9D 2C"), card("8H")) == []   # mixed suits are no run


# --------------------------------------------------------------- the deal

def test_deal_starts_with_dealers_opponent_one_at_a_time_then_upcard():
    """'STARTING WITH DEALER'S OPPONENT, CARDS ARE DEALT ONE AT A TIME ... UNTIL ALL
    PLAYERS HAVE 7 CARDS.  THE NEXT CARD IS THEN ... DEALT FACE UP'.
    [002_b5a441868e5ee1bb.txt line 72]"""
    deck = shuffle_and_cut(random.Random(7))
    for dealer in (A, B):
        st = deal(deck, dealer)
        opp = 1 - dealer
        assert st.hands[opp] == list(deck[0:14:2])
        assert st.hands[dealer] == list(deck[1:14:2])
        assert st.pile == [deck[14]]
        assert st.stock == list(deck[15:]) and len(st.stock) == 37


def test_leader_is_the_dealers_opponent_and_play_alternates():
    """'THE FIRST PLAYER (LEADER) IS THE OPPONENT OF THE DEALER. AFTER THAT, PLAY ALTERNATES.'
    [002_b5a441868e5ee1bb.txt line 89]"""
    deck = shuffle_and_cut(random.Random(1))
    st = deal(deck, A)
    assert st.current == st.leader == B
    act(st, Kind.DRAW)
    act(st, Kind.DISCARD, cs=[st.hands[B][0]])
    assert st.current == A
    act(st, Kind.DRAW)
    act(st, Kind.DISCARD, cs=[st.hands[A][-1]])
    assert st.current == B


def test_deal_rejects_a_deck_that_is_not_52_distinct_cards():
    deck = list(shuffle_and_cut(random.Random(2)))
    with pytest.raises(ValueError, match="52"):
        deal(deck[:-1] + deck[:1], A)


def test_initial_dealer_is_random_and_the_deal_alternates():
    """'THE INITIAL (FIRST HAND) DEALER IS CHOSEN RANDOMLY'; 'THE DEAL ALTERNATES'.
    [002_b5a441868e5ee1bb.txt lines 90, 112]"""
    first = {Session(random.Random(s)).new_hand().dealer for s in range(40)}
    assert first == {A, B}
    sess = Session(random.Random(3))
    dealers = [sess.new_hand().dealer for _ in range(6)]
    assert all(x != y for x, y in zip(dealers, dealers[1:]))


def test_replay_restores_the_deck_after_the_shuffle_and_cut():
    """'THE DECK IS RESTORED TO WHAT IT WAS AFTER THE SHUFFLE & CUT DURING THE LAST HAND'.
    [002_b5a441868e5ee1bb.txt line 128]"""
    sess = Session(random.Random(11))
    first = sess.new_hand()
    hands, pile, stock = [list(h) for h in first.hands], list(first.pile), list(first.stock)
    act(first, Kind.DRAW)                               # playing it does not change the record
    again = sess.new_hand(replay=True)
    assert again.hands == hands and again.pile == pile and again.stock == stock
    assert again.dealer == first.dealer
    fresh = sess.new_hand()
    assert fresh.hands != hands and fresh.dealer != again.dealer
    with pytest.raises(ValueError):
        Session(random.Random(1)).new_hand(replay=True)


def test_shuffle_and_cut_is_a_seeded_permutation():
    a = shuffle_and_cut(random.Random(5))
    assert sorted(a) == sorted(full_deck())
    assert a == shuffle_and_cut(random.Random(5))
    assert a != shuffle_and_cut(random.Random(6))


# --------------------------------------------------------------- tonk before play

TENS = "10S JS QH KD 10H JC QC"     # no meld among them: 70 points


def test_ten_card_tonk_before_play_wins_automatically():
    """'BEFORE THE FIRST PLAY IS MADE (PLUCK OR DRAW), ANY PLAYER MAY ... CALL TONK IF HE
    HOLDS NOTHING BUT TEN-POINT CARDS. HE WINS AUTOMATICALLY.'  Even against a far
    lower count, and even when it is not his turn.
    [002_b5a441868e5ee1bb.txt lines 83-84]"""
    low = "AS 2S 3S 4H 4D 4C AH"          # 1 unmatched point
    st = make(low, TENS, plays=0)
    assert st.current == A
    act(st, Kind.TONK, player=B)
    o = st.outcome
    assert o.reason is Reason.TEN_CARD_TONK and o.winner == B and o.multiplier == 1
    assert o.points == (1, 70)


def test_ten_card_hand_after_the_first_play_is_an_ordinary_tonk():
    """The automatic win is only 'BEFORE THE FIRST PLAY'; afterwards it can be undercut.
    [002_b5a441868e5ee1bb.txt line 83]"""
    st = make("AS 2S 3S 4H 4D 4C AH", TENS, plays=0)
    act(st, Kind.DRAW)
    act(st, Kind.DISCARD, cs=[st.hands[A][-1]])
    act(st, Kind.TONK, player=B)
    assert st.outcome.reason is Reason.UNDERCUT and st.outcome.winner == A


def test_ten_card_hand_means_tens_and_faces_only():
    """[002_b5a441868e5ee1bb.txt lines 54-55, 83-84]"""
    assert is_ten_card_hand(cards(TENS)) and unmatched_points(cards(TENS)) == 70
    assert not is_ten_card_hand(cards("10S JS QS KS 10H JH 9H"))


# --------------------------------------------------------------- tonk and undercut

def test_either_player_may_call_tonk_at_the_start_of_a_turn():
    """'EITHER PLAYER MAY CALL TONK (IF IT IS THE COMPUTER'S TURN, JUST HIT "T" BEFORE
    THE COMPUTER MAKES A PLAY)'.
    [002_b5a441868e5ee1bb.txt line 92]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H")
    assert Kind.TONK in kinds(st, A) and Kind.TONK in kinds(st, B)
    act(st, Kind.DRAW)
    # once the play is under way it is too late until the next turn starts
    assert Kind.TONK not in kinds(st, A) and Kind.TONK not in kinds(st, B)
    with pytest.raises(IllegalMove, match="start of a turn"):
        act(st, Kind.TONK, player=B)


def test_tonker_wins_with_the_same_or_less_points():
    """'THE TONKER WINS IF HE HAS THE SAME OR LESS UNMATCHED POINTS THAN THE OPPONENT'.
    [002_b5a441868e5ee1bb.txt line 109]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H")    # 29 vs 44
    act(st, Kind.TONK)
    assert st.outcome.reason is Reason.TONK and st.outcome.winner == A
    tie = make("AS 2S 3S 9C 9D 5H 6S", "AH 2H 3H 9S 9H 5D 6D")   # 29 vs 29
    act(tie, Kind.TONK, player=B)
    assert tie.outcome.reason is Reason.TONK and tie.outcome.winner == B
    assert tie.outcome.points == (29, 29)


def test_it_is_not_necessary_to_have_zero_points_to_tonk():
    """'IT IS NOT NECESSARY TO HAVE ZERO UNMATCHED POINTS TO CALL TONK'.
    [002_b5a441868e5ee1bb.txt line 96]"""
    st = make("KS QH JD 10C 9S 8H 7D", "KD QS JC 10D 9H 8C 7S")
    assert may_tonk(st, A) and unmatched_points(st.hands[A]) == 64


def test_undercut_tonker_loses_and_pays_double():
    """'IF THE OPPONENT UNDERCUTS (HAS LESS UNMATCHED POINTS), THE TONKER LOSES AND MUST
    PAY THE OPPONENT *DOUBLE* THE AMOUNT BET'.
    [002_b5a441868e5ee1bb.txt line 110]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "AH 2H 3H 4H 9S 2D 3D")    # 29 vs 14
    act(st, Kind.TONK)
    o = st.outcome
    assert (o.reason, o.winner, o.tonker, o.multiplier) == (Reason.UNDERCUT, B, A, 2)
    pot = Pot(balance=100)
    assert pot.settle(o, bet=25, you=A) == -50 and pot.balance == 50
    pot = Pot(balance=100)
    assert pot.settle(o, bet=25, you=B) == 50 and pot.balance == 150


def test_an_undercut_by_the_human_makes_the_computer_pay_double():
    """[002_b5a441868e5ee1bb.txt lines 109-112]"""
    st = make("AH 2H 3H 4H 9S 2D 3D", "AS 2S 3S 9C 9D 5H 6S")
    act(st, Kind.TONK, player=B)            # the computer tonks with 29 against 14
    pot = Pot()
    assert pot.settle(st.outcome, bet=7, you=A) == 14


# --------------------------------------------------------------- pluck / draw

def test_player_up_must_pluck_or_draw():
    """'IF NOT, THE PLAYER UP MUST EITHER PLUCK (TAKE THE UPCARD) OR DRAW'.
    [002_b5a441868e5ee1bb.txt line 93]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H")
    assert kinds(st, A) == {Kind.TONK, Kind.PLUCK, Kind.DRAW}
    assert kinds(st, B) == {Kind.TONK}
    with pytest.raises(IllegalMove, match="not your turn"):
        act(st, Kind.DRAW, player=B)


def test_draw_takes_the_top_of_the_deck_then_a_discard_is_due():
    """'DRAW (FROM THE TOP OF THE DECK)'; 'THE PLAYER MUST THEN DISCARD ONE CARD'.
    [002_b5a441868e5ee1bb.txt lines 94, 105]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H", stock="7C 8C 10D")
    act(st, Kind.DRAW)
    assert st.hands[A][-1] == card("7C") and st.stock == cards("8C 10D")
    assert st.phase is Phase.DISCARD
    assert kinds(st, A) == {Kind.DISCARD, Kind.HIT} - {Kind.HIT}   # no melds of his own yet
    act(st, Kind.DISCARD, cs="9C")
    assert st.upcard == card("9C") and st.current == B and len(st.hands[A]) == 7


def test_plucked_upcard_must_be_melded_or_returned_never_kept():
    """'HE MUST THEN USE THE UPCARD IN A NEW MELD ... OR RETURN THE UPCARD ... HE CAN NEVER
    PLUCK AN UPCARD AND MERGE IT IN HIS HAND'.
    [002_b5a441868e5ee1bb.txt lines 98-99, 101]"""
    st = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="9H")
    act(st, Kind.PLUCK)
    assert st.phase is Phase.PLUCKED and st.plucked == card("9H")
    legal = legal_actions(st, A)
    assert {a.kind for a in legal} == {Kind.MELD, Kind.RETURN}
    assert [a.cards for a in legal if a.kind is Kind.MELD] == [tuple(cards("9D 9S"))]
    with pytest.raises(IllegalMove):
        act(st, Kind.DISCARD, cs="KH")          # no discarding while holding the upcard
    with pytest.raises(IllegalMove):
        act(st, Kind.MELD, cs="2C 3H")         # not a meld with 9H


def test_returning_the_upcard_puts_it_back_and_ends_the_turn():
    """Returning is 'INDICATING THAT HIS HAND COULDN'T USE IT'; the hand is unchanged.
    [002_b5a441868e5ee1bb.txt line 100]"""
    st = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="4S")
    before = list(st.hands[A])
    act(st, Kind.PLUCK)
    act(st, Kind.RETURN, cs="4S")
    assert st.upcard == card("4S") and st.hands[A] == before
    assert st.current == B and st.phase is Phase.TURN


def test_meld_with_the_upcard_goes_on_the_table_then_discard():
    """'A NEW MELD THAT HE LAYS DOWN ON THE TABLE (EXPOSING THAT PART OF HIS HAND)'; 'THE
    PLAYER MUST THEN DISCARD ONE CARD'; 'MELDS ... ARE KEPT SEPARATE FOR EACH PLAYER'.
    [002_b5a441868e5ee1bb.txt lines 81, 98, 105]"""
    st = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="9H")
    act(st, Kind.PLUCK)
    act(st, Kind.MELD, cs="9S 9D")
    assert st.tables == [[cards("9D 9H 9S")], []]
    assert sorted(st.hands[A]) == sorted(cards("2C 3H 5D 7C KH"))
    assert st.phase is Phase.DISCARD and st.current == A
    act(st, Kind.DISCARD, cs="KH")
    assert st.cards_held(A) == 7 and st.current == B


def test_a_meld_must_leave_a_card_to_discard():
    """design: 'THE PLAYER MUST THEN DISCARD ONE CARD FROM HIS HAND', so a pluck cannot
    use up the whole hand.
    [002_b5a441868e5ee1bb.txt line 105]"""
    assert meld_options(cards("9S 9D"), card("9H")) == []
    assert meld_options(cards("9S 9D 2C"), card("9H")) == [tuple(cards("9D 9S"))]


def test_no_new_melds_from_the_hand():
    """'LAYING DOWN ADDITIONAL MELDS FROM THE HAND ON THE TABLE IS NOT PERMITTED': after a
    draw, even a hand holding a full meld can only discard or hit.
    [002_b5a441868e5ee1bb.txt line 107]"""
    st = make("AS 2S 3S 9C 9D 9H 6S", "KS KH 2C 7D 8D 3C 4H", stock="KC 5C")
    act(st, Kind.DRAW)
    assert kinds(st, A) == {Kind.DISCARD}
    assert all(len(a.cards) == 1 for a in legal_actions(st, A))


def test_hitting_own_meld_is_a_discard_onto_the_table():
    """'ONTO ONE OF HIS OWN MELDS ON THE TABLE (THE LATTER IS CALLED HITTING)'.
    [002_b5a441868e5ee1bb.txt line 106]"""
    st = make("4S 2C 3H 9D KH", "KS QH 2D 7D 8D 3C 4H", stock="JD 5C",
              tables=[[cards("5S 6S 7S")], []])
    act(st, Kind.DRAW)
    hits = [a for a in legal_actions(st, A) if a.kind is Kind.HIT]
    assert [(a.cards, a.meld) for a in hits] == [((card("4S"),), 0)]
    act(st, Kind.HIT, cs="4S", meld=0)
    assert st.tables[A] == [cards("4S 5S 6S 7S")]
    assert card("4S") not in st.hands[A] and st.current == B


def test_hitting_the_opponents_melds_is_not_allowed():
    """Hitting is onto 'ONE OF HIS OWN MELDS': a card that fits only the opponent's meld
    cannot be laid off.
    [002_b5a441868e5ee1bb.txt line 106]"""
    st = make("8H 2C 3H 9D KH", "KS QH 2D 7D", stock="JD 5C",
              tables=[[cards("5S 6S 7S")], [cards("8S 8D 8C")]])
    act(st, Kind.DRAW)
    assert Kind.HIT not in kinds(st, A)
    with pytest.raises(IllegalMove, match="own melds"):
        act(st, Kind.HIT, cs="8H", meld=0)


def test_hit_completes_a_set_of_four_but_not_five():
    """[002_b5a441868e5ee1bb.txt lines 58-60, 105-106]"""
    st = make("7D 2C", "KS QH", stock="JD 5C", tables=[[cards("7S 7H 7C")], []])
    act(st, Kind.DRAW)
    assert {(a.cards[0], a.meld) for a in legal_actions(st, A) if a.kind is Kind.HIT} == {(card("7D"), 0)}


def test_p_switch_prohibits_passing():
    """'THE P STARTUP PARAMETER ... WILL DISABLE THE ABILITY TO PASS': the upcard may not
    be returned, so it can only be plucked when it makes a meld.
    [002_b5a441868e5ee1bb.txt line 103]"""
    useless = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="4S", no_passing=True)
    assert kinds(useless, A) == {Kind.TONK, Kind.DRAW}
    with pytest.raises(IllegalMove, match="no passing"):
        act(useless, Kind.PLUCK)
    usable = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="9H", no_passing=True)
    act(usable, Kind.PLUCK)
    assert kinds(usable, A) == {Kind.MELD}


# --------------------------------------------------------------- the break

def test_break_when_deck_holds_two_and_the_next_drawer_is_the_breaker():
    """'WHEN THE NUMBER OF CARDS LEFT IN THE DECK EQUALS THE NUMBER OF PLAYERS ... (2),
    THE GAME IS AT THE BREAK ... THE PLAYER WHOSE TURN IT IS TO PICK UP THE TOP CARD
    OF THE DECK IS CALLED THE BREAKER'.
    [002_b5a441868e5ee1bb.txt lines 114-115]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H", stock="7C 8C 10D")
    assert not st.at_break
    act(st, Kind.DRAW)
    act(st, Kind.DISCARD, cs="7C")
    assert st.at_break and st.breaker is None and not st.after_break
    act(st, Kind.PLUCK)                # B passes: he has not picked up from the deck
    act(st, Kind.RETURN, cs="7C")
    assert st.breaker is None
    act(st, Kind.DRAW)                 # A picks up the top card at the break
    assert st.breaker == A and st.after_break


def test_after_the_break_tonk_needs_zero_points_and_then_wins():
    """'NO PLAYER CAN TONK AFTER THE BREAK UNLESS HE HAS ZERO UNMATCHED POINTS (HE THEN WINS)'.
    [002_b5a441868e5ee1bb.txt line 118]"""
    st = make("AS 2S 3S 9C 9D 9H 6S", "KS KH 2C 7D 8D 3C 4H", stock="10D")
    st.breaker = B
    assert st.after_break
    assert not may_tonk(st, A) and not may_tonk(st, B)
    with pytest.raises(IllegalMove, match="zero"):
        act(st, Kind.TONK)
    st.hands[A] = cards("AS 2S 3S 9C 9D 9H")
    assert may_tonk(st, A)
    act(st, Kind.TONK)
    assert st.outcome.reason is Reason.ZERO_TONK and st.outcome.winner == A


def test_zero_points_before_the_break_is_an_ordinary_tonk():
    """[002_b5a441868e5ee1bb.txt lines 96, 118]"""
    st = make("AS 2S 3S 9C 9D 9H", "AH 2H 3H 9S 10S JS QS", stock="10D 5C 6C")
    act(st, Kind.TONK)
    assert st.outcome.reason is Reason.TONK


def test_exhausted_deck_lowest_unmatched_points_wins():
    """'IF THE DECK IS EXHAUSTED AND NO PLAYER GOES TONK, THE PLAYER WITH THE LOWEST
    TOTAL UNMATCHED POINTS WINS'.
    [002_b5a441868e5ee1bb.txt line 119]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H", stock="")
    st.breaker = B
    assert kinds(st, A) == {Kind.END}       # no draw, no pluck; tonk would need zero
    act(st, Kind.END)
    o = st.outcome
    assert o.reason is Reason.EXHAUSTED and o.winner == A and o.multiplier == 1


@pytest.mark.parametrize("breaker", [A, B])
def test_exhausted_deck_tie_goes_to_the_breaker(breaker):
    """'IN CASE OF A TIE, THE BREAKER WINS.'
    [002_b5a441868e5ee1bb.txt line 120]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "AH 2H 3H 9S 9H 5D 6D", stock="")
    st.breaker = breaker
    act(st, Kind.END)
    assert st.outcome.points == (29, 29) and st.outcome.winner == breaker


def test_playing_out_the_deck_reaches_the_break_and_the_end():
    """A whole hand drawn and discarded to the end: the breaker is whoever drew with two
    cards left, and the hand ends when the deck is exhausted.
    [002_b5a441868e5ee1bb.txt lines 113-120]"""
    st = deal(shuffle_and_cut(random.Random(21)), A)
    while st.stock:
        drawer = st.current
        two_left = len(st.stock) == 2
        act(st, Kind.DRAW)
        if two_left:
            assert st.breaker == drawer
        act(st, Kind.DISCARD, cs=[st.hands[drawer][-1]])
    assert st.breaker is not None and kinds(st, st.current) <= {Kind.END, Kind.TONK}
    act(st, Kind.END)
    assert st.over and st.outcome.reason is Reason.EXHAUSTED


# --------------------------------------------------------------- deadlock

def test_deadlock_after_three_pluck_and_returns_each_in_a_row():
    """'THE GAME IS CONSIDERED TO BE DEADLOCKED IF BOTH PLAYERS DO THIS 3 TIMES IN A ROW;
    THE HAND IS CALLED DEAD'.
    [002_b5a441868e5ee1bb.txt line 122]"""
    st = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="4S")
    for i in range(6):
        assert not st.over
        act(st, Kind.PLUCK)
        act(st, Kind.RETURN, cs="4S")
    o = st.outcome
    assert o.reason is Reason.DEAD and o.winner is None and o.multiplier == 0


def test_any_other_play_breaks_the_run_of_returns():
    """[002_b5a441868e5ee1bb.txt lines 121-125]"""
    st = make("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", upcard="4S", stock="JD 6C 6D")
    for _ in range(5):
        act(st, Kind.PLUCK)
        act(st, Kind.RETURN, cs="4S")
    act(st, Kind.DRAW)
    act(st, Kind.DISCARD, cs=[st.hands[st.current][-1]])
    for _ in range(5):
        act(st, Kind.PLUCK)
        act(st, Kind.RETURN, cs=[st.plucked])
    assert not st.over and st.returns_in_row == 5


def test_dead_hand_carries_the_bet_and_switches_the_deal():
    """'THE BET IS CARRIED OVER TO THE NEXT HAND, WITH THE DEAL SWITCHING HANDS'.
    [002_b5a441868e5ee1bb.txt line 124]"""
    sess = Session(random.Random(4))
    st = sess.new_hand()
    for _ in range(6):
        act(st, Kind.PLUCK)
        act(st, Kind.RETURN, cs=[st.plucked])
    pot = Pot(balance=50)
    assert pot.settle(st.outcome, bet=30, you=A) == 0
    assert pot.balance == 50 and pot.carry == 30
    nxt = sess.new_hand()
    assert nxt.dealer != st.dealer
    assert pot.stake(20) == 50


# --------------------------------------------------------------- sorting

def test_switch_sorts_two_cards_and_is_not_a_play():
    """'SORT YOUR HAND 2 CARDS AT A TIME WITH THE S(WITCH) COMMAND'.
    [002_b5a441868e5ee1bb.txt line 95]"""
    st = make("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H", plays=0)
    swap_cards(st, A, 0, 6)
    assert st.hands[A][0] == card("6S") and st.hands[A][6] == card("AS")
    assert st.plays == 0 and st.phase is Phase.TURN and st.current == A
    with pytest.raises(IllegalMove):
        swap_cards(st, A, 0, 7)


def test_autosort_puts_melds_first_for_the_lowest_count():
    """'IN AUTOSORT MODE THE COMPUTER SORTS YOUR HAND FOR THE LOWEST UNMATCHED PV SCORE'.
    [002_b5a441868e5ee1bb.txt line 136]"""
    hand = cards("KD 7H 5H 7S 6H 7D 2C")
    out = autosort(hand)
    assert sorted(out) == sorted(hand)
    assert set(out[:3]) == set(cards("7H 7S 7D")) or set(out[:3]) == set(cards("5H 6H 7H"))
    assert unmatched_points(out[3:]) == unmatched_points(hand)
    assert [c.rank for c in out[-2:]] == sorted(c.rank for c in out[-2:])


# --------------------------------------------------------------- a whole hand from a stacked deck

def test_stacked_deal_plays_out_as_scripted():
    hands = [cards("9S 9D 2C 3H 5D 7C KH"), cards("KS QH 2D 7D 8D 3C 4H")]
    st = deal(stacked_deck(hands, card("9H"), dealer=B, stock_top=cards("AC")), B)
    assert st.hands == hands and st.upcard == card("9H") and st.stock[0] == card("AC")
    act(st, Kind.PLUCK)
    act(st, Kind.MELD, cs="9S 9D")
    act(st, Kind.DISCARD, cs="KH")
    act(st, Kind.TONK, player=A)              # 17 against 44 at the start of B's turn
    assert st.outcome.winner == A and st.outcome.points == (17, 44)


# --------------------------------------------------------------- the race before play

def test_race_human_is_asked_first_but_a_play_lets_the_computer_call():
    """'IF BOTH PLAYERS HAVE A WINNING HAND THIS IS REALLY A RACE ... THE COMPUTER GIVES YOU
    A HANDICAP': the patient seat (the human) answers first; if he plucks or draws
    instead of calling, the computer's tonk comes before his play.
    [002_b5a441868e5ee1bb.txt lines 84, 86]"""
    hands = [cards("10C JD QS KC KH 10D JH"), cards(TENS)]
    st = deal(stacked_deck(hands, card("4D"), dealer=B), B)
    human = ScriptedPlayer([Action(Kind.DRAW, A)])
    run_hand(st, [human, ComputerPlayer()], patient=[True, False])
    assert st.outcome.reason is Reason.TEN_CARD_TONK and st.outcome.winner == B
    assert st.plays == 0 and len(st.stock) == 37          # the human's draw never happened

    st = deal(stacked_deck(hands, card("4D"), dealer=B), B)
    run_hand(st, [ScriptedPlayer([Action(Kind.TONK, A)]), ComputerPlayer()], patient=[True, False])
    assert st.outcome.reason is Reason.TEN_CARD_TONK and st.outcome.winner == A


def test_race_human_may_call_before_the_computer_leads():
    """[002_b5a441868e5ee1bb.txt lines 84-87]"""
    hands = [cards("10C JD QS KC KH 10D JH"), cards(TENS)]
    st = deal(stacked_deck(hands, card("4D"), dealer=A), A)      # the computer (B) leads
    asked = []
    human = ScriptedPlayer([], interrupts=lambda obs: asked.append(obs.current) or True)
    run_hand(st, [human, ComputerPlayer()], patient=[True, False])
    assert asked == [B] and st.outcome.winner == A


def test_computer_calls_a_ten_card_tonk_at_once():
    """[002_b5a441868e5ee1bb.txt lines 83-84]"""
    st = make("AS 2S 3S 4H 4D 4C AH", TENS, plays=0)
    window = [Action(Kind.TONK, B), Action(Kind.WAIT, B)]
    assert ComputerPlayer().choose(Observation.of(st, B), window).kind is Kind.TONK
    st.current = B
    assert ComputerPlayer().choose(Observation.of(st, B), legal_actions(st, B)).kind is Kind.TONK
