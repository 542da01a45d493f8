"""The rules of Tommy's Gin Rummy: melds, arrangement, knocking, lay-offs, scoring.

Pure functions over cards, as GINRUMMY.DOC states the rules (quoted in the
docstrings).  Where the document is silent or the original program decides
otherwise, the original's behaviour is followed and the place in its code is
named (docs/games/ginrummy.md lists these findings):

* a tie after lay-offs is an undercut (line 2760: the knocker wins only if the
  opponent's PV is higher);
* Oklahoma's doubling compares the upcard's suit with the program's constant
  for clubs (line 2870 against line 180), although the document says spades;
  ``Rules.doubling_suit`` chooses, ``ORIGINAL_RULES`` is the program;
* lay-offs try the knocker's straights first, then its flats (lines 6300-6520), and
  the program looks for them only in a window of the opponent's hand that can miss
  a card (``original_lay_off``); ``Rules.layoffs`` chooses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from games_py.cards import SUITS, Card
from games_py.melds import Arrangement, arrangements, is_run, is_set

STANDARD, OKLAHOMA, COWBOY = "standard", "oklahoma", "cowboy"
VARIANTS = (STANDARD, OKLAHOMA, COWBOY)

STANDARD_KNOCK = 10         # "TO KNOCK, YOUR PV (AFTER DISCARDING) MUST BE 10 OR LESS"
GIN_ONLY = 0                # an ace upcard: "GIN IS NEEDED"
GIN_BONUS = 25
UNDERCUT_BONUS = 25
GAME_TARGET = 100           # "THE FIRST PLAYER TO SCORE 100 GAME POINTS WINS THE GAME"
GAME_BONUS = 100            # "THE WINNER GETS 100 MORE POINTS"
BOX_BONUS = 25              # "25 MORE POINTS FOR EACH HAND HE HAS WON"
DEAD_AT = 50                # "IF THE 50TH CARD IS DRAWN FROM THE DECK ..."


@dataclass(frozen=True)
class Rules:
    """The choices the document leaves open or the original settles differently."""

    doubling_suit: str = "S"        # GINRUMMY.DOC: "IF THE UPCARD IS A SPADE"
    layoffs: str = "document"       # "document": every card that fits; "original": its scan

    def __post_init__(self) -> None:
        if self.doubling_suit not in SUITS:
            raise ValueError(f"doubling_suit must be one of {SUITS}, not {self.doubling_suit!r}")
        if self.layoffs not in ("document", "original"):
            raise ValueError(f"layoffs must be 'document' or 'original', not {self.layoffs!r}")


DOCUMENT_RULES = Rules("S", "document")
ORIGINAL_RULES = Rules("C", "original")   # GINRUMMY.EXE: line 2870 compares with CLUBS (5);
                                          # lines 6010-6120 scan for lay-offs (original_lay_off)


# -- cards, melds and the point value ---------------------------------------------------
def pip(card: Card) -> int:
    """"EACH FACE CARD COUNTS AS 10 POINTS, AN ACE COUNTS AS 1 POINT"."""
    return min(card.rank, 10)


def pv(cards: Iterable[Card]) -> int:
    return sum(pip(c) for c in cards)


def card_order(card: Card) -> tuple[int, int]:
    """The order cards and melds are written in traces: rank, then suit C D H S."""
    return card.rank, SUITS.index(card.suit)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=card_order)


def canonical_melds(melds: Iterable[Sequence[Card]]) -> list[list[Card]]:
    """Melds with their cards in order and the melds ordered by their first card."""
    return sorted((sort_cards(m) for m in melds), key=lambda m: [card_order(c) for c in m])


def is_flat(cards: Sequence[Card]) -> bool:
    """"3 OR 4 CARDS OF THE SAME RANK ("FLAT")"."""
    return is_set(cards)


def is_straight(cards: Sequence[Card]) -> bool:
    """"3 OR MORE CARDS OF THE SAME SUIT IN SEQUENCE ("STRAIGHT")"; aces are low."""
    return is_run(cards)


@dataclass(frozen=True)
class Hand:
    """A hand arranged into melds and deadwood."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def matched(self) -> int:
        return sum(len(m) for m in self.melds)

    @property
    def pv(self) -> int:
        return pv(self.deadwood)

    @property
    def gin(self) -> bool:
        return not self.deadwood


def _arrangement_key(a: Arrangement) -> tuple:
    # most matched cards, then lowest PV (GINRUMMY.DOC, "NOTE ON MATCHED SETS"); among
    # equal alternatives our own choice: fewest melds, then the first in card order
    # (the original's choice among exact ties is not yet established)
    return (-a.matched, a.points, len(a.melds), [[card_order(c) for c in m] for m in canonical_melds(a.melds)])


def arrange(cards: Sequence[Card]) -> Hand:
    """The automatic arrangement: "THE MOST MATCHED CARDS, AND, AMONG EQUAL
    ALTERNATIVES, THOSE WITH THE LOWEST PV"."""
    cards = list(cards)
    if len(set(cards)) != len(cards):
        raise ValueError(f"a hand cannot hold the same card twice: {[str(c) for c in cards]}")
    best = min(arrangements(cards), key=_arrangement_key)
    melds = tuple(tuple(m) for m in canonical_melds(best.melds))
    return Hand(melds, tuple(sort_cards(best.deadwood)))


# -- knocking ---------------------------------------------------------------------------
def knock_limit(variant: str, upcard: Card | None) -> int:
    """The most PV a knock may leave.  Standard: 10.  Oklahoma (the first upcard) and
    Space Cowboy (the current upcard): the upcard's rank, a face card 10, an ace gin only."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, not {variant!r}")
    if variant == STANDARD:
        return STANDARD_KNOCK
    if upcard is None:
        raise ValueError(f"the {variant} knock value needs an upcard")
    if upcard.rank < 2:                         # line 11170: IF KNOCK < 2 THEN KNOCK = 0
        return GIN_ONLY
    return min(upcard.rank, STANDARD_KNOCK)


def doubles(variant: str, upcard: Card | None, rules: Rules) -> bool:
    """Oklahoma and Space Cowboy: "IF THE UPCARD IS A SPADE THEN ALL SCORES FROM THE
    HAND ARE DOUBLED" (the suit per ``rules``), judged on the upcard that set the knock value."""
    return variant != STANDARD and upcard is not None and upcard.suit == rules.doubling_suit


def can_knock(hand_pv: int, limit: int) -> bool:
    """"AFTER DRAWING AND DISCARDING, IF THE POINT VALUE IS [limit] OR LESS"; gin always may."""
    return hand_pv <= limit


def is_dead(cards_drawn: int) -> bool:
    """The hand is dead once the 50th card has come off the deck and nobody knocked
    (``cards_drawn`` counts every card taken from the deck, the deal's 21 included)."""
    return cards_drawn >= DEAD_AT


# -- the original's hand layout ------------------------------------------------------------
DISPLAY_SUITS = "SHDC"          # within a rank the program shows spades, hearts, diamonds, clubs


def display_order(card: Card) -> tuple[int, int]:
    """Unmatched cards as the program lays them out: high ranks first, then S H D C."""
    return -card.rank, DISPLAY_SUITS.index(card.suit)


def layout(hand: Hand) -> list[Card]:
    """The hand as the program lays it out after arranging it (H(P, 1..)): straights
    (each high card first), then flats (low rank first, suits S H D C), then the
    unmatched cards high to low.  Seen in every hand traced so far; the order of two
    straights between themselves is our guess (high first)."""
    straights = sorted((sorted(m, key=display_order) for m in hand.melds if is_straight(m)),
                       key=lambda m: display_order(m[0]))
    flats = sorted((sorted(m, key=display_order) for m in hand.melds if is_flat(m)),
                   key=lambda m: m[0].rank)
    return [c for m in straights for c in m] + [c for m in flats for c in m] + sorted(hand.deadwood, key=display_order)


# -- laying off -------------------------------------------------------------------------
def fits(card: Card, meld: Sequence[Card]) -> bool:
    """Whether ``card`` extends ``meld`` as the same kind of set: a flat takes its
    missing suit, a straight the next card of its suit at either end.  So "YOU CANNOT
    LAY OFF A STRAIGHT ON AN OPPONENT'S FLAT, OR VICE VERSA"."""
    if card in meld:
        return False
    if is_flat(meld):
        return card.rank == meld[0].rank and len(meld) < 4
    if is_straight(meld):
        ranks = [c.rank for c in meld]
        return card.suit == meld[0].suit and card.rank in (min(ranks) - 1, max(ranks) + 1)
    raise ValueError(f"not a matched set: {[str(c) for c in meld]}")


@dataclass(frozen=True)
class LayOff:
    card: Card
    meld: int           # index into the knocker's melds


@dataclass
class LayOffResult:
    lay_offs: list[LayOff] = field(default_factory=list)
    melds: list[list[Card]] = field(default_factory=list)      # the knocker's melds, extended
    pv: int = 0                                                # the opponent's PV afterwards


def _target(card: Card, melds: list[list[Card]]) -> int | None:
    """The meld a card goes on: the first straight it extends, else the first flat
    (lines 6300-6520 try the straights, then the flats)."""
    order = [i for i, m in enumerate(melds) if is_straight(m)] + [i for i, m in enumerate(melds) if is_flat(m)]
    return next((i for i in order if fits(card, melds[i])), None)


def lay_off(deadwood: Sequence[Card], melds: Sequence[Sequence[Card]]) -> LayOffResult:
    """The document's rule: the opponent lays off "ANY OF HIS UNMATCHED CARDS THAT FIT".
    Cards are tried high to low (the program's order), each on the first straight it
    extends or else the first flat, starting again after each one, so a card laid off
    can make room for another, until none fits."""
    extended = [list(m) for m in melds]
    left = sorted(deadwood, key=display_order)
    result = LayOffResult(melds=extended, pv=pv(left))
    changed = True
    while changed:
        changed = False
        for card in left:
            target = _target(card, extended)
            if target is not None:
                extended[target] = sort_cards([*extended[target], card])
                left.remove(card)
                result.lay_offs.append(LayOff(card, target))
                result.pv -= pip(card)
                changed = True
                break
    return result


def original_lay_off(slots: Sequence[Card | None], unmatched: int, hand_pv: int,
                     melds: Sequence[Sequence[Card]]) -> LayOffResult:
    """Lay-offs exactly as GINRUMMY.EXE scans for them (lines 6010-6120): over the last
    ``unmatched`` places of the opponent's hand as laid out (``slots``: the layout after
    his last draw, with None where he discarded), left to right, empty places skipped;
    after each card laid off the count drops by one and the scan starts again over the
    last ``unmatched`` places.  When the gap of his discard lies among his unmatched
    cards, the window misses his first unmatched card: he keeps it, fit or not."""
    extended = [list(m) for m in melds]
    places = list(slots)
    result = LayOffResult(melds=extended, pv=hand_pv)
    while True:
        for k in range(max(0, len(places) - unmatched), len(places)):
            card = places[k]
            if card is None:
                continue
            target = _target(card, extended)
            if target is not None:
                extended[target] = sort_cards([*extended[target], card])
                places[k] = None
                unmatched -= 1
                result.lay_offs.append(LayOff(card, target))
                result.pv -= pip(card)          # line 6090: PV(OTHER) = PV(OTHER) - value
                break
        else:
            return result


# -- scoring ----------------------------------------------------------------------------
KNOCK, UNDERCUT, GIN = "knock", "undercut", "gin"


@dataclass(frozen=True)
class HandScore:
    result: str              # knock, undercut or gin
    knocker_wins: bool
    points: int
    doubled: bool


def score_hand(knocker_pv: int, opponent_pv: int, doubled: bool = False) -> HandScore:
    """"IF THE KNOCKER HAS THE LOWEST PV ... THE KNOCKER WINS THE DIFFERENCE ... IF THE
    OPPONENT HAS THE LOWEST PV ("UNDERCUTS THE KNOCKER"), HE WINS THE DIFFERENCE PLUS A
    BONUS OF 25 POINTS.  HOWEVER, IF THE KNOCKER HAS GIN, HE WINS UNCONDITIONALLY,
    SCORING THE OPPONENT'S PV PLUS A BONUS OF 25 POINTS."  Equal PVs go to the opponent,
    as in the original (line 2760).  ``opponent_pv`` is after the lay-offs."""
    if knocker_pv < 0 or opponent_pv < 0:
        raise ValueError("point values cannot be negative")
    if knocker_pv == 0:
        result, knocker_wins, points = GIN, True, opponent_pv + GIN_BONUS
    elif opponent_pv > knocker_pv:
        result, knocker_wins, points = KNOCK, True, opponent_pv - knocker_pv
    else:
        result, knocker_wins, points = UNDERCUT, False, knocker_pv - opponent_pv + UNDERCUT_BONUS
    return HandScore(result, knocker_wins, points * 2 if doubled else points, doubled)


def game_over(scores: dict[str, int]) -> bool:
    return any(s >= GAME_TARGET for s in scores.values())


@dataclass(frozen=True)
class GameScore:
    winner: str
    box_bonus: dict[str, int]
    totals: dict[str, int]        # the hand scores plus the game and box bonuses
    shutout: bool
    game_points: int


def score_game(scores: dict[str, int], hands_won: dict[str, int]) -> GameScore:
    """"THE WINNER GETS 100 MORE POINTS, THEN EACH PLAYER GETS 25 MORE POINTS FOR EACH
    HAND HE HAS WON ... THE WINNER THEN GETS GAME POINTS EQUAL TO THE DIFFERENCE IN TOTAL
    ... SCORES; BUT IF THE LOSER HAS WON NO HANDS ... THE WINNER WINS DOUBLE"."""
    if set(scores) != set(hands_won) or len(scores) != 2:
        raise ValueError("scores and hands won are needed for the same two players")
    winners = [p for p, s in scores.items() if s >= GAME_TARGET]
    if len(winners) != 1:
        raise ValueError(f"the game is not over with one winner: {scores}")
    winner = winners[0]
    loser = next(p for p in scores if p != winner)
    box = {p: BOX_BONUS * hands_won[p] for p in scores}
    totals = {p: scores[p] + box[p] + (GAME_BONUS if p == winner else 0) for p in scores}
    difference = abs(totals[winner] - totals[loser])
    shutout = totals[loser] < 1                 # line 3250: the loser scored nothing at all
    return GameScore(winner, box, totals, shutout, 2 * difference if shutout else difference)
