"""Playing cards shared by the card games: ranks, suits, cards and decks.

Cards are written as card players write them: rank then suit letter,
``"AS"``, ``"10H"``, ``"QD"``.  This string form is also the one used in
trace files, so a card in a trace is readable without a table.
"""
from __future__ import annotations

from dataclasses import dataclass
import random
from typing import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")          # clubs, diamonds, hearts, spades
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@dataclass(frozen=True, order=True)
class Card:
    """One card.  ``rank`` is 1 (ace) to 13 (king); ``suit`` is one of SUITS."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be 1..13, not {self.rank!r}")
        if self.suit not in SUITS:
            raise ValueError(f"suit must be one of {SUITS}, not {self.suit!r}")

    @property
    def rank_name(self) -> str:
        return RANKS[self.rank - 1]

    @property
    def pip_value(self) -> int:
        """Points as most rummy games count them: ace 1, faces 10."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        return f"{self.rank_name}{SUIT_SYMBOLS[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``"10H"``, ``"qd"`` or ``"T H"`` style text into a Card."""
        t = text.strip().upper().replace(" ", "")
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit = t[:-1], t[-1]
        if rank_text == "T":
            rank_text = "10"
        if rank_text == "1":
            rank_text = "A"
        if rank_text not in RANKS or suit not in SUITS:
            raise ValueError(f"not a card: {text!r}")
        return cls(RANKS.index(rank_text) + 1, suit)


def card(text: str) -> Card:
    """Shorthand for Card.parse, handy in tests: ``card("QH")``."""
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> list[Card]:
    """``cards("AS 2S 3S")`` -> three cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items]


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order: suit by suit, ace to king."""
    return [Card(r, s) for s in SUITS for r in range(1, 14)]


def shuffled_deck(rng: random.Random) -> list[Card]:
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def format_cards(items: Iterable[Card]) -> str:
    return " ".join(str(c) for c in items)
