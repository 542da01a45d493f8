"""The computer's judgement, also behind the player's hint.

Like David Teach's other card games the computer "does NOT cheat": it
works from a ``PlayerView`` only (its own cards and the table) and uses
fixed formulas:

* discard: keep the four cards whose expected show, averaged over every
  possible starter, plus (own crib) or minus (opponent's crib) the expected
  crib value of the two cards laid away, is the highest;
* play: the card maximising points pegged now minus the expected best reply
  of the opponent (one ply of look-ahead over the cards it cannot see).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Iterable

from games_py.cards import SUITS, Card
from games_py.cribbage.scoring import (
    JACK, MAX_COUNT, _rank_points, pegging_points, value)
from games_py.cribbage.state import Discard, PlayerView

RANK_RANGE = range(1, 14)
# A jack laid away to the crib scores his nobs when the starter (one of 50
# unknown cards) has its suit: 12 of them.
CRIB_NOBS_CHANCE = 12 / 50


# --- discarding ------------------------------------------------------------------

@dataclass(frozen=True)
class Unseen:
    """How many cards of each rank and suit a player has not seen."""

    n: int
    by_rank: tuple[int, ...]       # index 1..13
    by_suit: dict[str, int]


def unseen_counts(known: Iterable[Card]) -> Unseen:
    """Counts of the cards not among ``known`` (by key: hashing Card
    dataclasses is slow and this runs for every decision)."""
    by_rank = [0] + [4] * 13
    by_suit = {s: 13 for s in SUITS}
    keys = {(c.rank, c.suit) for c in known}
    for rank, suit in keys:
        by_rank[rank] -= 1
        by_suit[suit] -= 1
    return Unseen(52 - len(keys), tuple(by_rank), by_suit)


@lru_cache(maxsize=None)
def _points_by_starter(keep_ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Fifteens, pairs and runs of the kept ranks with each starter rank
    (index 1..13); the kept ranks repeat across hands, so this is cached."""
    return (0,) + tuple(_rank_points(tuple(sorted(keep_ranks + (r,))))
                        for r in RANK_RANGE)


def expected_hand(keep: tuple[Card, ...], unseen: Unseen) -> float:
    """Average show of ``keep`` over every starter the player has not seen."""
    table = _points_by_starter(tuple(sorted(c.rank for c in keep)))
    points = float(sum(n * p for n, p in zip(unseen.by_rank, table)))
    if len({c.suit for c in keep}) == 1:
        points += 4 * unseen.n + unseen.by_suit[keep[0].suit]   # 4, or 5 with starter
    for c in keep:
        if c.rank == JACK:
            points += unseen.by_suit[c.suit]                     # his nobs
    return points / unseen.n


@lru_cache(maxsize=None)
def expected_crib(rank_a: int, rank_b: int) -> float:
    """Average crib show given two of its ranks, the other two crib cards and
    the starter drawn from the 50 cards left (flushes ignored: rare)."""
    left = [4] * 14
    left[0] = 0
    left[rank_a] -= 1
    left[rank_b] -= 1
    weight_sum = 0
    points = 0
    for r1 in RANK_RANGE:
        w1 = left[r1]
        if not w1:
            continue
        left[r1] -= 1
        for r2 in range(r1, 14):
            w2 = left[r2]
            if not w2:
                continue
            left[r2] -= 1
            for r3 in range(r2, 14):
                w3 = left[r3]
                if not w3:
                    continue
                # ways to draw this multiset of ranks as an unordered set of
                # cards: the falling products over-count repeated ranks
                w = w1 * w2 * w3
                if r1 == r3:
                    w //= 6
                elif r1 == r2 or r2 == r3:
                    w //= 2
                weight_sum += w
                points += w * _rank_points(tuple(sorted((rank_a, rank_b, r1, r2, r3))))
            left[r2] += 1
        left[r1] += 1
    return points / weight_sum


def crib_value(toss: tuple[Card, Card]) -> float:
    a, b = sorted(c.rank for c in toss)
    return expected_crib(a, b) + CRIB_NOBS_CHANCE * sum(c.rank == JACK for c in toss)


def rank_discards(hand: tuple[Card, ...], my_crib: bool) -> list[tuple[float, Discard]]:
    """Every discard with its expected value, best first (stable order)."""
    unseen = unseen_counts(hand)
    scored = []
    for toss in combinations(hand, 2):
        keep = tuple(c for c in hand if c not in toss)
        crib = crib_value(toss)
        ev = expected_hand(keep, unseen) + (crib if my_crib else -crib)
        scored.append((ev, Discard(toss)))
    scored.sort(key=lambda t: -t[0])           # sort is stable: ties keep order
    return scored


def best_discard(view: PlayerView) -> Discard:
    return rank_discards(view.hand, view.my_crib)[0][1]


# --- playing ----------------------------------------------------------------------

def _cards_opponent_may_hold(view: PlayerView) -> Unseen:
    known = list(view.hand) + list(view.my_discards) + list(view.played[0]) \
        + list(view.played[1])
    if view.starter is not None:
        known.append(view.starter)
    return unseen_counts(known)


def _expected_reply(ranks: tuple[int, ...], unseen: Unseen, held: int) -> float:
    """Expected points of the opponent's best reply to a pile of ``ranks``,
    assuming his ``held`` cards are a random choice of the unseen ones."""
    n = unseen.n
    if held == 0 or n == 0:
        return 0.0
    room = MAX_COUNT - sum(min(r, 10) for r in ranks)
    counts = unseen.by_rank
    replies = []
    for r in RANK_RANGE:
        if counts[r] and min(r, 10) <= room:
            pts = pegging_points(ranks + (r,))
            if pts:
                # chance he holds at least one card of rank r
                chance = 1 - comb(n - counts[r], held) / comb(n, held) if n >= held else 1.0
                replies.append((pts, chance))
    replies.sort(reverse=True)
    expected, none_better = 0.0, 1.0
    for pts, chance in replies:
        expected += pts * chance * none_better
        none_better *= 1 - chance
    return expected


def rank_plays(view: PlayerView) -> list[tuple[float, Card]]:
    """Every playable card with its value, best first."""
    room = MAX_COUNT - view.count
    unseen = _cards_opponent_may_hold(view)
    pile = tuple(c.rank for c in view.pile)
    scored = []
    for c in view.hand:
        if value(c) > room:
            continue
        after = pile + (c.rank,)
        gain = pegging_points(after)
        risk = _expected_reply(after, unseen, view.opponent_cards)
        score = gain - risk
        if not pile and value(c) < 5:
            score += 0.5          # a low lead leaves no fifteen to answer
        score += value(c) / 100   # keep low cards for the end of a round
        scored.append((score, c))
    scored.sort(key=lambda t: -t[0])
    return scored


def best_play(view: PlayerView) -> Card | None:
    ranked = rank_plays(view)
    return ranked[0][1] if ranked else None
