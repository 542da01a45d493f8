"""Tommy's Gin Rummy's rules on the edge cases GINRUMMY.DOC names.

Each test quotes the document; the expected values are worked out by hand
from its words (and, where the original program settles what the document
leaves open, from the line of the program named in games_py/ginrummy/rules.py).
"""
from __future__ import annotations

import random

import pytest

from games_py.cards import Card, card
from games_py.ginrummy import rules, trace
from games_py.ginrummy.rules import COWBOY, OKLAHOMA, STANDARD
from games_py.ginrummy.state import COMPUTER, YOU, Continue, Discard, DrawDeck, HandState, Knock, Phase


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def texts(melds) -> list[list[str]]:
    return [[str(c) for c in m] for m in melds]


# -- arrangement: "THE MOST MATCHED CARDS, AND, AMONG EQUAL ALTERNATIVES, THOSE WITH THE LOWEST PV"
def test_the_documents_intersect_example_uses_the_3_of_clubs_once():
    """"2-CLUBS, 3-CLUBS, 4-CLUBS, 3-HEARTS, 3-DIAMONDS HAS ONE INTERSECT, 3-CLUBS":
    either meld can have it, not both, so three cards are matched and two are not."""
    hand = rules.arrange(cards("2C 3C 4C 3H 3D"))
    assert hand.matched == 3 and len(hand.melds) == 1 and card("3C") in hand.melds[0]
    assert hand.pv == 6                           # 3H+3D or 2C+4C: 6 either way


def test_an_intersect_card_goes_where_it_matches_the_most_cards():
    # with the 3 of spades the flat 3H 3D 3S no longer needs the 3 of clubs: all six match
    hand = rules.arrange(cards("2C 3C 4C 3H 3D 3S"))
    assert hand.gin and texts(hand.melds) == [["2C", "3C", "4C"], ["3D", "3H", "3S"]]


@pytest.mark.parametrize("hand, melds, deadwood", [
    # equal matched cards (3): the flat leaves AC 2C (PV 3), the straight 3H 3D (PV 6)
    ("AC 2C 3C 3H 3D", [["3C", "3D", "3H"]], ["AC", "2C"]),
    # the straight leaves 4H 4D (8), the flat 2C 3C (5)
    ("2C 3C 4C 4H 4D", [["4C", "4D", "4H"]], ["2C", "3C"]),
    # the straight leaves JH JD (20), the flat 9C 10C (19)
    ("9C 10C JC JH JD", [["JC", "JD", "JH"]], ["9C", "10C"]),
])
def test_among_equal_matched_cards_the_lowest_pv_wins(hand, melds, deadwood):
    arranged = rules.arrange(cards(hand))
    assert texts(arranged.melds) == melds and [str(c) for c in arranged.deadwood] == deadwood


def test_more_matched_cards_win_over_a_lower_pv():
    # two flats match 7 cards and leave 3C (PV 3); AC 2C 3C + 2D 2H 2S match only 6
    # but would leave AH AS (PV 2): the document puts the matched cards first
    hand = rules.arrange(cards("AC AH AS 2C 2D 2H 2S 3C"))
    assert hand.matched == 7 and hand.pv == 3 and [str(c) for c in hand.deadwood] == ["3C"]


def test_aces_are_low_only():
    assert rules.is_straight(cards("AS 2S 3S")) and not rules.is_straight(cards("QS KS AS"))
    assert rules.arrange(cards("QS KS AS")).matched == 0


# -- knock limits ------------------------------------------------------------------------------
def test_standard_knocks_on_10_or_less_whatever_the_upcard():
    for upcard in ("AS", "3C", "KD"):
        assert rules.knock_limit(STANDARD, card(upcard)) == 10
    assert rules.can_knock(10, 10) and not rules.can_knock(11, 10)
    assert not rules.doubles(STANDARD, card("AS"), rules.DOCUMENT_RULES)


@pytest.mark.parametrize("variant", [OKLAHOMA, COWBOY])
def test_oklahoma_knock_value_is_the_upcards_rank(variant):
    """"IF THE UPCARD IS A 3, THEN 3 OR LESS POINTS ARE NEEDED TO KNOCK, IF THE UPCARD IS
    A FACE CARD, THEN 10 POINTS OR LESS"."""
    assert rules.knock_limit(variant, card("3H")) == 3
    assert rules.knock_limit(variant, card("9D")) == 9
    for face in ("10C", "JH", "QD", "KS"):
        assert rules.knock_limit(variant, card(face)) == 10


@pytest.mark.parametrize("variant", [OKLAHOMA, COWBOY])
def test_an_ace_upcard_means_gin_only(variant):
    """"HOWEVER, IF THE UPCARD IS AN ACE, THEN GIN IS NEEDED"."""
    limit = rules.knock_limit(variant, card("AD"))
    assert limit == rules.GIN_ONLY == 0
    assert rules.can_knock(0, limit) and not rules.can_knock(1, limit)


@pytest.mark.parametrize("variant", [OKLAHOMA, COWBOY])
def test_a_spade_upcard_doubles_the_hand(variant):
    """"IF THE UPCARD IS A SPADE THEN ALL SCORES FROM THE HAND ARE DOUBLED"; the original
    program compares with its constant for clubs instead (ORIGINAL_RULES)."""
    assert rules.doubles(variant, card("7S"), rules.DOCUMENT_RULES)
    assert not rules.doubles(variant, card("7C"), rules.DOCUMENT_RULES)
    assert rules.doubles(variant, card("7C"), rules.ORIGINAL_RULES)
    assert not rules.doubles(variant, card("7S"), rules.ORIGINAL_RULES)
    doubled = rules.score_hand(4, 20, doubled=True)
    assert doubled.points == 2 * rules.score_hand(4, 20).points == 32 and doubled.doubled


def _table(variant: str, upcard: str) -> HandState:
    you = cards("AH 2H 3H 5C 6C 7C 9D 9S KD KS")
    computer = cards("4D 5D 6D JC JD JH 2S 3S 8H 10H")
    used = set(you) | set(computer) | {card(upcard)}
    stock = [Card(r, s) for s in "CDHS" for r in range(1, 14) if Card(r, s) not in used]
    return HandState.deal(variant, COMPUTER, you, computer, card(upcard), stock,
                          rules_=rules.DOCUMENT_RULES)


def test_oklahoma_keeps_the_first_upcard_cowboy_follows_the_current_one():
    """Space Cowboy: "THE RANK OF THE >>>CURRENT<<< UPCARD DETERMINES THE POINTS NEEDED"."""
    for variant in (OKLAHOMA, COWBOY):
        state = _table(variant, "4C")
        assert (state.knock, state.doubled) == (4, False)
        state.apply(DrawDeck())
        state.apply(Discard(card("KS")))              # a spade king on the pile; PV 29, no knock
        if variant == OKLAHOMA:
            assert (state.knock, state.doubled) == (4, False)
            assert not any(e["event"] == "knock_value" for e in state.events)
        else:
            assert (state.knock, state.doubled) == (10, True)
            assert state.events[-1] == trace.knock_value_event(10, True)


# -- laying off ---------------------------------------------------------------------------
def test_no_straight_card_on_a_flat():
    """"IF THE OPPONENT HAS 3 5'S AND YOU HAVE A 4,6 OF THE RIGHT SUIT, THAT'S TOUGH"."""
    result = rules.lay_off(cards("4C 6C"), [cards("5C 5D 5H")])
    assert result.lay_offs == [] and result.pv == 10


def test_no_flat_card_on_a_straight():
    result = rules.lay_off(cards("5D 5H"), [cards("4C 5C 6C")])
    assert result.lay_offs == [] and result.pv == 10


def test_lay_offs_that_fit():
    """Straights take the next card of their suit at either end, straights before flats
    (lines 6300-6520), and a card laid off can make room for the next (4C after 5C)."""
    melds = [cards("5D 5H 5S"), cards("6C 7C 8C"), cards("9D 9H 9S")]
    result = rules.lay_off(cards("4C 5C 9C KD 2H"), melds)
    assert [(str(x.card), x.meld) for x in result.lay_offs] == [("9C", 1), ("5C", 1), ("4C", 1)]
    assert result.pv == 12 and [str(c) for c in result.melds[1]] == ["4C", "5C", "6C", "7C", "8C", "9C"]
    flat = rules.lay_off(cards("JC"), [cards("JD JH JS")])
    assert [(str(x.card), x.meld) for x in flat.lay_offs] == [("JC", 0)] and flat.pv == 0


def test_a_full_flat_takes_nothing():
    full = cards("8C 8D 8H 8S")
    assert not rules.fits(card("8S"), full)
    assert rules.lay_off(cards("7C 9C"), [full]).lay_offs == []


# -- scoring ------------------------------------------------------------------------------------
def test_knocker_with_the_lower_pv_wins_the_difference():
    score = rules.score_hand(7, 30)
    assert (score.result, score.knocker_wins, score.points) == (rules.KNOCK, True, 23)


def test_undercut_wins_the_difference_plus_25():
    """"IF THE OPPONENT HAS THE LOWEST PV ("UNDERCUTS THE KNOCKER"), HE WINS THE DIFFERENCE
    IN PV PLUS A BONUS OF 25 POINTS"."""
    score = rules.score_hand(9, 4)
    assert (score.result, score.knocker_wins, score.points) == (rules.UNDERCUT, False, 30)
    tie = rules.score_hand(6, 6)                  # equal PVs: the program's line 2760
    assert (tie.result, tie.knocker_wins, tie.points) == (rules.UNDERCUT, False, 25)


def test_gin_wins_unconditionally():
    """"IF THE KNOCKER HAS GIN, HE WINS UNCONDITIONALLY, SCORING THE OPPONENT'S PV PLUS A
    BONUS OF 25 POINTS"."""
    assert rules.score_hand(0, 41).points == 66
    zero = rules.score_hand(0, 0)                 # even against an opponent with PV 0
    assert (zero.result, zero.knocker_wins, zero.points) == (rules.GIN, True, 25)


def _knock_after_drawing(drawn: str, computer: str) -> HandState:
    """You (non-dealer) hold AH 2H 3H 4C 5C 6C 9D 9S 9H KD, draw ``drawn``, throw the KD
    and knock."""
    you = cards("AH 2H 3H 4C 5C 6C 9D 9S 9H KD")
    theirs = cards(computer)
    used = set(you) | set(theirs) | {card("KC"), card(drawn)}
    stock = [card(drawn)] + [Card(r, s) for s in "CDHS" for r in range(1, 14) if Card(r, s) not in used]
    state = HandState.deal(STANDARD, COMPUTER, you, theirs, card("KC"), stock, rules_=rules.DOCUMENT_RULES)
    state.apply(DrawDeck())
    state.apply(Discard(card("KD")))
    assert state.phase is Phase.KNOCK
    state.apply(Knock())
    return state


def test_gin_gets_no_lay_offs():
    """"IF HE DIDN'T HAVE GIN, THE OTHER PLAYER THEN GETS TO LAY OFF"."""
    gin = _knock_after_drawing("7C", "4H 8C 9C JD QD 2S 3S 8H 10H 5D")
    assert [e["event"] for e in gin.events[-2:]] == ["discard", "gin"]     # 4H, 8C, 9C would fit
    score, knocker_pv, opponent_pv, _knocker = gin.score
    assert (score.result, knocker_pv, opponent_pv, score.points) == (rules.GIN, 0, 69, 94)
    knock = _knock_after_drawing("KS", "4H 7C 8C JD QD 2S 3S 8H 10H 5D")   # KS unmatched: PV 10
    laid = [(e["card"], e["meld"]) for e in knock.events if e["event"] == "layoff"]
    melds = next(e for e in knock.events if e["event"] == "knock")["melds"]
    assert sorted(c for c, _ in laid) == ["4H", "7C", "8C"]
    assert {c: melds[m] for c, m in laid}["8C"] == ["4C", "5C", "6C"]    # the meld as the knock showed it
    score, knocker_pv, opponent_pv, _knocker = knock.score
    assert (score.result, knocker_pv, opponent_pv, score.points) == (rules.KNOCK, 10, 48, 38)


def test_dead_hand_at_the_50th_card():
    """"IF THE 50TH CARD IS DRAWN FROM THE DECK AND, AFTER THE DISCARD, NEITHER PLAYER HAS
    KNOCKED, THE HAND IS DEAD"."""
    assert not rules.is_dead(49) and rules.is_dead(50)
    generator = random.Random(5)
    deck = [Card(r, s) for s in "CDHS" for r in range(1, 14)]
    generator.shuffle(deck)
    state = HandState.deal(STANDARD, YOU, deck[:10], deck[10:20], deck[20], deck[21:])
    draws = 0
    while not state.over:
        if state.phase is Phase.DRAW:
            state.apply(DrawDeck())
            draws += 1
        elif state.phase is Phase.DISCARD:
            state.apply(Discard(state.hands[state.to_move][-1]))     # throw the card drawn back
        else:
            state.apply(Continue())                                  # nobody knocks
    assert draws == 50 - 21 and state.cards_drawn == 50
    assert state.outcome.dead and state.events[-1]["event"] == "dead_hand"
    assert state.events[-1]["next_dealer"] == state.last_mover == state.outcome.next_dealer


# -- the game -------------------------------------------------------------------------------------
def test_box_bonus_and_game_points():
    """"THE WINNER GETS 100 MORE POINTS, THEN EACH PLAYER GETS 25 MORE POINTS FOR EACH HAND
    HE HAS WON ... THE WINNER THEN GETS GAME POINTS EQUAL TO THE DIFFERENCE"."""
    result = rules.score_game({YOU: 105, COMPUTER: 40}, {YOU: 3, COMPUTER: 1})
    assert result.winner == YOU and result.box_bonus == {YOU: 75, COMPUTER: 25}
    assert result.totals == {YOU: 280, COMPUTER: 65}
    assert not result.shutout and result.game_points == 215


def test_shutout_doubles_the_game_points():
    """"IF THE LOSER HAS WON NO HANDS ... THE WINNER WINS DOUBLE THE DIFFERENCE"."""
    result = rules.score_game({YOU: 12, COMPUTER: 131}, {YOU: 0, COMPUTER: 2})
    # the loser's 12 cannot come without a hand won; the shutout needs a loser at 0
    assert not result.shutout and result.game_points == 131 + 100 + 50 - 12
    shutout = rules.score_game({YOU: 0, COMPUTER: 131}, {YOU: 0, COMPUTER: 2})
    assert shutout.winner == COMPUTER and shutout.shutout
    assert shutout.totals == {YOU: 0, COMPUTER: 281} and shutout.game_points == 2 * 281


def test_the_game_ends_at_100():
    assert not rules.game_over({YOU: 99, COMPUTER: 0}) and rules.game_over({YOU: 100, COMPUTER: 0})
    with pytest.raises(ValueError):
        rules.score_game({YOU: 99, COMPUTER: 50}, {YOU: 2, COMPUTER: 1})
