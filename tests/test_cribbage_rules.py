"""The deal, the crib, the starter, the show, the end of a game and the
computer's play.  Quotes are from CRIBBAGE.DOC."""
import random
from itertools import combinations

import pytest

from games_py.cards import Card, card, cards, full_deck
from games_py.cribbage import rules, strategy
from games_py.cribbage.match import play_game
from games_py.cribbage.players import ComputerPlayer, RandomPlayer, suggest
from games_py.cribbage.scoring import _rank_points, hand_points, score_hand, total
from games_py.cribbage.state import Discard, GameState, Phase, Play


def dealt(seed=1, dealer=0, limit=121):
    s = rules.new_game(limit, dealer=dealer)
    rules.step(s, random.Random(seed))
    return s


class FixedCut(random.Random):
    """A generator whose starter cut lands on a chosen card."""

    def __init__(self, state, wanted):
        super().__init__(0)
        self.index = state.deck.index(wanted)

    def randrange(self, *args):
        return self.index


def discard_both(s):
    for _ in range(2):
        p = s.current_player()
        rules.apply(s, Discard(tuple(s.hands[p][:2])))


# --- the deal and the crib ----------------------------------------------------

def test_each_player_receives_six_cards():
    """Doc: "Each player receives 6 cards".
    [004_fa271ff1c123496e.txt line 146]"""
    s = dealt()
    assert [len(h) for h in s.hands] == [6, 6]
    assert len(set(s.hands[0]) | set(s.hands[1])) == 12
    assert len(s.deck) == 40 and s.phase is Phase.DISCARD


def test_two_discards_each_make_the_crib_which_belongs_to_the_dealer():
    """Doc: "The players then choose two cards to discard.  The four cards
    discarded by the two players constitute the CRIB, which always belongs to
    the dealer".
    [004_fa271ff1c123496e.txt line 146]"""
    s = dealt(dealer=1)
    assert s.current_player() == 0
    tossed = s.hands[0][:2] + s.hands[1][:2]
    discard_both(s)
    assert sorted(s.crib) == sorted(tossed)
    assert [len(h) for h in s.hands] == [4, 4]
    s.phase, s.starter = Phase.SHOW, s.deck[0]     # straight to the show
    events = rules.step(s, random.Random(0))
    crib_event = [e for e in events if e.label == "crib"]
    assert crib_event and crib_event[0].player == 1


def test_a_discard_must_be_two_different_cards_of_the_hand():
    """[004_fa271ff1c123496e.txt lines 146-148]"""
    s = dealt()
    p = s.current_player()
    mine, theirs = s.hands[p], s.hands[1 - p]
    with pytest.raises(rules.IllegalAction, match="not in your hand"):
        rules.apply(s, Discard((mine[0], theirs[0])))
    with pytest.raises(rules.IllegalAction, match="two different"):
        rules.apply(s, Discard((mine[0], mine[0])))
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, Play(mine[0]))            # no playing before the discard
    assert len(mine) == 6 and not s.crib


def test_the_starter_is_cut_after_both_discards():
    """Doc: "After both players have discarded their two cards, the deck is
    cut and one card is placed face up ... This card is the STARTER".
    [004_fa271ff1c123496e.txt lines 150-151]"""
    s = dealt()
    rules.apply(s, Discard(tuple(s.hands[s.current_player()][:2])))
    assert s.phase is Phase.DISCARD and s.starter is None
    rules.apply(s, Discard(tuple(s.hands[s.current_player()][:2])))
    assert s.phase is Phase.STARTER
    rules.step(s, random.Random(3))
    assert s.starter is not None and s.starter not in s.deck
    assert len(s.deck) == 39 and s.phase is Phase.PLAY


def test_jack_starter_pegs_two_for_the_dealer():
    """Doc: "If the STARTER is a JACK then the dealer PEGS (scores) 2 points".
    [004_fa271ff1c123496e.txt line 152]"""
    s = dealt(seed=5, dealer=1)
    discard_both(s)
    jack = next(c for c in s.deck if c.rank == 11)
    events = rules.step(s, FixedCut(s, jack))
    assert s.starter == jack
    heels = [e for e in events if e.kind == "peg"]
    assert [(e.player, e.points, e.items[0].kind) for e in heels] == [(1, 2, "his heels")]
    assert s.scores == [0, 2]


def test_no_heels_for_another_starter():
    """[004_fa271ff1c123496e.txt lines 151-152]"""
    s = dealt(seed=5, dealer=1)
    discard_both(s)
    other = next(c for c in s.deck if c.rank != 11)
    rules.step(s, FixedCut(s, other))
    assert s.scores == [0, 0]


def test_heels_can_win_the_game_before_the_play():
    """[004_fa271ff1c123496e.txt line 152]"""
    s = dealt(seed=5, dealer=0)
    s.scores = [119, 100]
    discard_both(s)
    jack = next(c for c in s.deck if c.rank == 11)
    rules.step(s, FixedCut(s, jack))
    assert s.is_over and s.winner == 0 and s.scores == [121, 100]


# --- the show ----------------------------------------------------------------

def show_state(dealer=1, scores=(0, 0)):
    s = GameState(phase=Phase.SHOW, dealer=dealer, scores=list(scores))
    s.kept[1 - dealer] = cards("8C 7D 7S 6H")     # 16 with the 2C
    s.kept[dealer] = cards("AS 3D 9H KH")          # 2 (A+3+9+2 = 15)
    s.crib = cards("5H 5S JC QD")                  # 5s with faces, pair, nobs
    s.starter = card("2C")
    return s


def test_hands_are_counted_non_dealer_dealer_then_crib():
    """Doc: "the three hands are counted in order: non-dealer, then dealer's
    hand, then CRIB ... The STARTER is considered a part of each hand".
    [004_fa271ff1c123496e.txt lines 193, 196]"""
    s = show_state(dealer=1)
    events = rules.step(s, random.Random(0))
    shows = [(e.player, e.label, len(e.cards)) for e in events if e.kind == "show"]
    assert shows == [(0, "hand", 5), (1, "hand", 5), (1, "crib", 5)]
    points = [e.points for e in events if e.kind == "show"]
    assert points == [16, hand_points(cards("AS 3D 9H KH"), card("2C")),
                      hand_points(cards("5H 5S JC QD"), card("2C"), is_crib=True)]
    assert s.scores == [16, points[1] + points[2]]


def test_a_player_can_win_before_his_opponent_counts():
    """Doc: "toward the end of a game a player might be able to reach a
    winning score before his opponent has a chance to count his hand".
    [004_fa271ff1c123496e.txt line 194]"""
    s = show_state(dealer=1, scores=(110, 120))
    events = rules.step(s, random.Random(0))
    assert [e.kind for e in events] == ["show", "win"]
    assert s.winner == 0 and s.scores == [121, 120]


def test_the_deal_alternates_after_each_hand():
    """[004_fa271ff1c123496e.txt lines 145-148]"""
    s = show_state(dealer=1)
    rules.step(s, random.Random(0))
    assert s.dealer == 0 and s.phase is Phase.DEAL


def test_cut_for_deal_lower_card_deals():
    """Standard rule (the document is silent): each cuts, lower card deals,
    equal cards cut again; "Rank of cards: (High) K, Q, J, 10, ... 2, A", so
    an ace is the lowest cut.
    [004_fa271ff1c123496e.txt line 142]"""
    for seed in range(40):
        s = rules.new_game()
        events = rules.step(s, random.Random(seed))
        cut0, cut1 = [e.cards[0] for e in events if e.kind == "cut" and e.cards][-2:]
        assert cut0.rank != cut1.rank
        assert s.dealer == (0 if cut0.rank < cut1.rank else 1)
        assert s.phase is Phase.DEAL


# --- the end of a game -----------------------------------------------------

def ended(limit, loser_score, skunking=True):
    s = GameState(limit=limit, skunking=skunking, phase=Phase.GAME_OVER,
                  scores=[limit, loser_score], winner=0)
    return rules.result(s)


@pytest.mark.parametrize("limit", [121, 61])
def test_score_limits_121_and_61_only(limit):
    """Doc: "cycles the pegging board total between 121 and 61 pegs".
    [004_fa271ff1c123496e.txt line 101]"""
    assert rules.new_game(limit).limit == limit
    with pytest.raises(ValueError, match="121 or 61"):
        rules.new_game(100)


def test_skunk_line_after_hole_90_or_30():
    """Doc: "If a player fails to reach the skunk point (limit - 30) ... this
    counts a 2 wins.  When playing to 121 points, the skunk line is after the
    90th hole; for a 61 point limit it is after the 30th".
    [004_fa271ff1c123496e.txt lines 105, 107]"""
    assert ended(121, 90).skunk and ended(121, 90).wins == 2
    assert not ended(121, 91).skunk and ended(121, 91).wins == 1
    assert ended(61, 30).wins == 2
    assert ended(61, 31).wins == 1


def test_skunk_only_with_the_option_on():
    """Doc: "Changing the SKUNKING option to YES will allow a skunk win".
    [004_fa271ff1c123496e.txt line 105]"""
    assert ended(121, 40, skunking=False).wins == 1
    assert not ended(121, 40, skunking=False).skunk


def test_no_double_skunk():
    """Doc: "Double skunk (halfway for 121 limit) is NOT implemented".
    [004_fa271ff1c123496e.txt line 109]"""
    assert ended(121, 10).wins == 2


def test_result_needs_a_finished_game():
    with pytest.raises(ValueError, match="not over"):
        rules.result(rules.new_game())


# --- the computer ----------------------------------------------------------

def test_expected_hand_is_the_average_over_every_starter():
    hand = cards("5H 5S JD QC 2C 9S")
    keep = tuple(cards("5H 5S JD QC"))
    unseen = [c for c in full_deck() if c not in hand]
    brute = sum(total(score_hand(keep, s)) for s in unseen) / len(unseen)
    counts = strategy.unseen_counts(hand)
    assert counts.n == 46
    assert strategy.expected_hand(keep, counts) == pytest.approx(brute)
    six = cards("2H 6H 10H QH 3C 4C")
    flush_keep = tuple(six[:4])
    unseen = [c for c in full_deck() if c not in six]
    brute = sum(total(score_hand(flush_keep, s)) for s in unseen) / len(unseen)
    assert strategy.expected_hand(flush_keep, strategy.unseen_counts(six)) == \
        pytest.approx(brute)


def test_expected_crib_is_the_average_over_every_completion():
    """Brute force over every 3 of the 50 other cards (ranks only)."""
    for a, b in ((5, 5), (2, 13)):
        toss = [Card(a, "H"), Card(b, "S")]
        rest = [c for c in full_deck() if c not in toss]
        pts = [_rank_points(tuple(sorted([a, b] + [c.rank for c in trio])))
               for trio in combinations(rest, 3)]
        assert strategy.expected_crib(a, b) == pytest.approx(sum(pts) / len(pts))


def test_computer_takes_a_fifteen_and_avoids_giving_31():
    s = GameState(phase=Phase.PLAY, dealer=1, to_move=0)
    s.hands = [cards("5S 2D"), cards("3C 4C 6C 8C")]
    s.pile = cards("KH")
    s.played = [[], cards("KH")]
    assert suggest(s.view(0)) == Play(card("5S"))     # 15 for 2
    s.pile = cards("KH 6D")
    s.played = [[], cards("KH 6D")]
    assert suggest(s.view(0)) == Play(card("2D"))     # 21 would invite a ten


def test_computer_sees_only_its_own_view():
    """Like Teach's other games the computer "does NOT cheat": changing the
    opponent's hidden cards does not change its choice.
    CRIBBAGE.DOC is cut off before its computer section; the quote is from his
    GinRummy document [001_669d1958badefd0b.txt line 108]."""
    s = dealt(seed=11)
    p = s.current_player()
    before = ComputerPlayer().choose(s.view(p), rules.legal_actions(s))
    swapped = [c for c in s.deck[:6]]
    s.deck[:6], s.hands[1 - p] = s.hands[1 - p], swapped
    assert ComputerPlayer().choose(s.view(p), rules.legal_actions(s)) == before


def test_computer_beats_a_random_player():
    """The expected-value discard and look-ahead pegging should win nearly
    every game against random legal moves."""
    wins = 0
    for seed in range(30):
        s = rules.new_game(61)
        seats = [ComputerPlayer(), RandomPlayer(random.Random(seed))]
        if seed % 2:
            seats.reverse()
        r = play_game(s, seats, random.Random(seed))
        wins += (r.winner == 0) == (seed % 2 == 0)
    assert wins >= 27


def test_scripted_players_finish_a_game_in_the_play():
    """Scripted seats play named cards; the game ends when the pone's
    fifteen takes him to 121."""
    from games_py.cribbage.players import ScriptedPlayer
    s = GameState(phase=Phase.PLAY, dealer=1, to_move=0, scores=[119, 30])
    s.hands = [cards("7S 7C"), cards("AH 2H")]
    s.kept = [list(h) for h in s.hands]
    r = play_game(s, [ScriptedPlayer(["7S", "7C"]), ScriptedPlayer(["AH"])],
                  random.Random(0))
    assert (r.winner, r.scores, r.wins) == (0, (121, 30), 1)


def test_a_script_that_runs_out_says_so():
    from games_py.cribbage.players import ScriptedPlayer
    s = dealt()
    with pytest.raises(RuntimeError, match="no scripted move left"):
        ScriptedPlayer([]).choose(s.view(s.current_player()), rules.legal_actions(s))
