"""Melds and deadwood, as the rummy family of games counts them.

A *set* is three or four cards of one rank; a *run* is three or more cards of
one suit in sequence, ace low (A-2-3, never Q-K-A).  An *arrangement* splits a
hand into disjoint melds plus the unmatched cards (the deadwood).  Games differ
in how they pick the best arrangement (Tommy's Gin Rummy: most matched cards,
then lowest point value; most others: lowest deadwood), so the search returns
every maximal arrangement and lets the game choose with a key.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterable, Sequence

from games_py.cards import Card


def is_set(group: Sequence[Card]) -> bool:
    return 3 <= len(group) <= 4 and len({c.rank for c in group}) == 1 \
        and len({c.suit for c in group}) == len(group)


def is_run(group: Sequence[Card]) -> bool:
    if len(group) < 3 or len({c.suit for c in group}) != 1:
        return False
    ranks = sorted(c.rank for c in group)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


def is_meld(group: Sequence[Card]) -> bool:
    return is_set(group) or is_run(group)


def candidate_melds(hand: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every set and run that can be formed from ``hand`` (overlapping)."""
    cards = sorted(set(hand), key=lambda c: (c.suit, c.rank))
    melds: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    for group in by_rank.values():
        for size in (3, 4):
            melds.extend(combinations(sorted(group, key=lambda c: c.suit), size))
    by_suit: dict[str, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c)
    for suited in by_suit.values():
        ranks = {c.rank: c for c in suited}
        for start in range(1, 12):
            length = 0
            while start + length in ranks:
                length += 1
                if length >= 3:
                    melds.append(tuple(ranks[r] for r in range(start, start + length)))
    return melds


def deadwood_points(cards: Iterable[Card]) -> int:
    return sum(c.pip_value for c in cards)


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def matched(self) -> int:
        return sum(len(m) for m in self.melds)

    @property
    def points(self) -> int:
        return deadwood_points(self.deadwood)


def arrangements(hand: Sequence[Card]) -> list[Arrangement]:
    """All arrangements in which no deadwood card could still form a meld on its own
    with other deadwood (maximal sets of disjoint melds)."""
    hand = list(hand)
    melds = candidate_melds(hand)
    results: list[Arrangement] = []

    def search(start: int, used: frozenset[Card], chosen: list[tuple[Card, ...]]) -> None:
        for i in range(start, len(melds)):
            m = melds[i]
            if used.isdisjoint(m):
                chosen.append(m)
                search(i + 1, used | frozenset(m), chosen)
                chosen.pop()
        if not any(used.isdisjoint(m) for m in melds):
            dead = tuple(c for c in hand if c not in used)
            results.append(Arrangement(tuple(chosen), dead))

    search(0, frozenset(), [])
    return results


def best_arrangement(hand: Sequence[Card],
                     key: Callable[[Arrangement], object] | None = None) -> Arrangement:
    """The arrangement minimising ``key`` (default: lowest deadwood points,
    then most matched cards)."""
    if key is None:
        key = lambda a: (a.points, -a.matched)  # noqa: E731
    return min(arrangements(hand), key=key)
