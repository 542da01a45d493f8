"""What cards are worth: the show (hand count) and each pegging play.

CRIBBAGE.DOC, "Scoring Hands": fifteens 2 each, pairs 2 each, runs 1 a card
("each combination ... counts"), a flush of 4 in the hand (5 with the
starter; "only a 5 card flush counts in the CRIB") and 1 for the jack of
the starter's suit.  "EACH and EVERY combination counts separately", so the
itemised functions list every combination; ``hand_points`` is the same sum
computed fast (the computer calls it thousands of times per decision).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Iterable, Sequence

from games_py.cards import Card

JACK = 11
MAX_COUNT = 31          # "During play, the sum can never exceed 31."


def value(c: Card) -> int:
    """Counting value: ace 1, two to ten their pips, face cards 10."""
    return min(c.rank, 10)


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: what it is, what it is worth, which cards."""

    kind: str
    points: int
    cards: tuple[Card, ...] = ()

    def describe(self) -> str:
        shown = " ".join(str(c) for c in self.cards)
        return f"{self.kind} {shown} for {self.points}".replace("  ", " ")


def total(items: Iterable[ScoreItem]) -> int:
    return sum(i.points for i in items)


# --- the show ----------------------------------------------------------------

def fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every combination of cards totalling 15, 2 points each."""
    found = []
    valued = [(value(c), c) for c in cards]
    for size in range(2, len(cards) + 1):
        for combo in combinations(valued, size):
            if sum(v for v, _ in combo) == 15:
                found.append(ScoreItem("fifteen", 2, tuple(c for _, c in combo)))
    return found


def pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every pair of cards of one rank, 2 points each (three of a kind is
    three pairs, four of a kind six)."""
    return [ScoreItem("pair", 2, (a, b))
            for a, b in combinations(cards, 2) if a.rank == b.rank]


def runs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every combination of 3+ cards in sequence, 1 point a card.

    Only maximal sequences count (a run of four is not also two runs of
    three), but each choice among duplicated ranks is its own run: the
    "double run" 6-7-7-8 is two runs of three.
    """
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    found = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        length = end - rank + 1
        if length >= 3:
            for combo in product(*(by_rank[r] for r in range(rank, end + 1))):
                found.append(ScoreItem(f"run of {length}", length, tuple(combo)))
        rank = end + 1
    return found


def flush(hand: Sequence[Card], starter: Card, is_crib: bool) -> list[ScoreItem]:
    """Four hand cards of one suit: 4, or 5 with the starter; crib needs 5."""
    if len(hand) != 4 or len({c.suit for c in hand}) != 1:
        return []
    if starter.suit == hand[0].suit:
        return [ScoreItem("flush", 5, tuple(hand) + (starter,))]
    if is_crib:
        return []
    return [ScoreItem("flush", 4, tuple(hand))]


def nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """Holding the jack of the starter's suit ("his nobs"): 1 point."""
    return [ScoreItem("his nobs", 1, (c,)) for c in hand
            if c.rank == JACK and c.suit == starter.suit]


def score_hand(hand: Sequence[Card], starter: Card,
               is_crib: bool = False) -> list[ScoreItem]:
    """Every scoring combination of a 4-card hand (or crib) plus starter."""
    if len(hand) != 4:
        raise ValueError(f"a hand to count has 4 cards, not {len(hand)}")
    five = list(hand) + [starter]
    return (fifteens(five) + pairs(five) + runs(five)
            + flush(hand, starter, is_crib) + nobs(hand, starter))


@lru_cache(maxsize=None)
def _rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs of a sorted rank tuple (suits don't matter)."""
    points = 0
    vals = [min(r, 10) for r in ranks]
    for size in range(2, len(vals) + 1):
        for combo in combinations(vals, size):
            if sum(combo) == 15:
                points += 2
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    points += sum(n * (n - 1) for n in counts.values())   # 2 per pair
    rank = 1
    while rank <= 13:
        if rank not in counts:
            rank += 1
            continue
        end, ways = rank, counts[rank]
        while end + 1 in counts:
            end += 1
            ways *= counts[end]
        if end - rank + 1 >= 3:
            points += (end - rank + 1) * ways
        rank = end + 1
    return points


def hand_points(hand: Sequence[Card], starter: Card | None,
                is_crib: bool = False) -> int:
    """Total of ``score_hand``, fast.  With no starter, counts the cards alone
    (used by the computer to judge what it keeps before the cut)."""
    cards = list(hand) if starter is None else list(hand) + [starter]
    points = _rank_points(tuple(sorted(c.rank for c in cards)))
    if starter is not None:
        points += total(flush(hand, starter, is_crib)) + total(nobs(hand, starter))
    return points


# --- the play (pegging) ------------------------------------------------------

@lru_cache(maxsize=None)
def pegging_points(ranks: tuple[int, ...]) -> int:
    """Total of ``pegging_items`` for a pile given by its ranks (suits never
    matter in the play); cached for the computer's look-ahead."""
    return total(pegging_items([Card(r, "S") for r in ranks]))


def pegging_items(pile: Sequence[Card]) -> list[ScoreItem]:
    """What the last card of ``pile`` (the cards of the current series, in
    order) pegs: fifteen 2, 31 2, pair 2, triplet 6, four 12, run 1 a card.

    The go and last-card points depend on the other player's cards, so the
    rules add them, not this function.
    """
    if not pile:
        return []
    items = []
    count = sum(value(c) for c in pile)
    last = pile[-1]
    if count == 15:
        items.append(ScoreItem("fifteen", 2, (last,)))
    if count == MAX_COUNT:
        items.append(ScoreItem("thirty-one", 2, (last,)))
    same = 1
    while same < len(pile) and pile[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        kind, points = {2: ("pair", 2), 3: ("triplet", 6), 4: ("four", 12)}[same]
        items.append(ScoreItem(kind, points, tuple(pile[-same:])))
    for length in range(len(pile), 2, -1):
        tail = [c.rank for c in pile[-length:]]
        if len(set(tail)) == length and max(tail) - min(tail) == length - 1:
            items.append(ScoreItem(f"run of {length}", length, tuple(pile[-length:])))
            break
    return items
