"""Tables for tests of the Gin Rummy computer player: the program's arrays, all zero,
with the hands a test deals into them."""
from __future__ import annotations

from games_py.cards import Card
from games_py.ginrummy.computer import Table
from games_py.ginrummy.deal import number_of


def card(text: str) -> int:
    """A card's number in the program's deck ("10C" -> its D() value)."""
    return number_of(Card.parse(text))


def empty_table(top: int = 21, **kw) -> Table:
    return Table([[0] * 53 for _ in range(4)], [0] * 4, [0] * 4, [[0] * 4 for _ in range(14)],
                 [0] * 53, top, **kw)


def with_hand(t: Table, p: int, cards: list[str]) -> Table:
    """H(p, 1..) = ``cards``, H(p, 0) = how many."""
    for k, c in enumerate(cards, 1):
        t.hands[p][k] = card(c)
    t.hands[p][0] = len(cards)
    return t
