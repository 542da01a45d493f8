"""Fast lowest-deadwood arrangement of a gin hand, on 52-bit card masks.

The computer player weighs every possible discard on every turn, and the
property tests play thousands of hands, so the general enumerator in
``games_py.melds`` (every maximal arrangement) is too slow here.  This module
finds one lowest-deadwood arrangement directly: the lowest card of the hand is
either deadwood or belongs to exactly one meld; try each and recurse (memoised).

Only sets of 3-4 and runs of 3-5 are tried: any longer run splits into runs of
3-5 with the same deadwood, and the pieces are joined again for display.
Ties (equal points) go to the arrangement with fewer deadwood cards, so
``7S 7H 7D 7C 8S 9S`` is three sevens plus the 7-8-9 run rather than four of a kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from games_py.cards import Card, SUITS

# bit index of a card: suit block of 13, ace lowest
def card_bit(c: Card) -> int:
    return SUITS.index(c.suit) * 13 + (c.rank - 1)


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
VALUES: tuple[int, ...] = tuple(c.pip_value for c in ALL_CARDS)


def to_mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_bit(c)
    return m


def from_mask(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def _melds_containing() -> tuple[tuple[int, ...], ...]:
    per_card: list[list[int]] = [[] for _ in range(52)]
    for rank in range(13):                      # sets of 3 and 4 of a kind
        bits = [s * 13 + rank for s in range(4)]
        for skip in (None, 0, 1, 2, 3):
            group = [b for i, b in enumerate(bits) if i != skip]
            mask = sum(1 << b for b in group)
            for b in group:
                per_card[b].append(mask)
    for s in range(4):                          # runs of 3 to 5, ace low
        for start in range(13):
            for length in (3, 4, 5):
                if start + length > 13:
                    continue
                group = [s * 13 + start + k for k in range(length)]
                mask = sum(1 << b for b in group)
                for b in group:
                    per_card[b].append(mask)
    return tuple(tuple(m) for m in per_card)


MELDS_WITH = _melds_containing()


@lru_cache(maxsize=1 << 18)
def _best(mask: int) -> tuple[int, int, tuple[int, ...]]:
    """(deadwood points, deadwood mask, meld masks) of a lowest-deadwood arrangement."""
    if not mask:
        return 0, 0, ()
    low = mask & -mask
    i = low.bit_length() - 1
    pts, dead, melds = _best(mask ^ low)
    best = (pts + VALUES[i], dead | low, melds)
    best_cards = best[1].bit_count()
    for m in MELDS_WITH[i]:
        if m & mask == m:
            p2, d2, ml2 = _best(mask ^ m)
            n2 = d2.bit_count()
            if p2 < best[0] or (p2 == best[0] and n2 < best_cards):
                best = (p2, d2, ml2 + (m,))
                best_cards = n2
    return best


def best_of_mask(mask: int) -> tuple[int, int]:
    """(deadwood points, deadwood mask) of a lowest-deadwood arrangement; among
    equal points the fewest deadwood cards, so removing a deadwood card from
    the hand leaves an arrangement that is still lowest for the smaller hand."""
    pts, dead, _ = _best(mask)
    return pts, dead


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def deadwood(cards: Iterable[Card]) -> int:
    """Lowest possible deadwood points of ``cards``."""
    return _best(to_mask(cards))[0]


@dataclass(frozen=True)
class Arrangement:
    """Melds (runs joined back together) and deadwood of one hand."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def points(self) -> int:
        return sum(c.pip_value for c in self.deadwood)

    @property
    def matched(self) -> frozenset[Card]:
        return frozenset(c for m in self.melds for c in m)


def is_set_mask(m: int) -> bool:
    cards = from_mask(m)
    return len({c.rank for c in cards}) == 1


def _join_runs(meld_masks: Iterable[int]) -> list[int]:
    """Join run pieces of one suit that touch (5-6-7 + 8-9-10 -> 5..10)."""
    sets = [m for m in meld_masks if is_set_mask(m)]
    runs = sorted(m for m in meld_masks if not is_set_mask(m))
    joined: list[int] = []
    for r in runs:
        if joined:
            prev = joined[-1]
            top = prev.bit_length() - 1
            low = (r & -r).bit_length() - 1
            if low == top + 1 and low // 13 == top // 13:
                joined[-1] = prev | r
                continue
        joined.append(r)
    return sets + joined


def arrange(cards: Iterable[Card]) -> Arrangement:
    """One lowest-deadwood arrangement; melds and cards in a fixed order."""
    pts, dead, melds = _best(to_mask(cards))
    groups = [tuple(from_mask(m)) for m in _join_runs(melds)]
    groups.sort(key=lambda g: (card_bit(g[0]), len(g)))
    return Arrangement(tuple(groups), tuple(from_mask(dead)))
