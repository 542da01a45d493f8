"""Text pictures of cards, hands and the table.  Rendering only: no rules here.

The original draws coloured bars over cards (doc lines 82-86).  In text each
bar is a mark line over the cards, coloured when the terminal has colours:
    ===  BLUE   a set (3 or 4 of a kind)      ---  GREEN  a run
    ***  RED    cards laid off on a knock     ^^^  YELLOW the hint
"""
from __future__ import annotations

from typing import Iterable, Sequence

from games_py.cards import Card
from games_py.teach_gin.deadwood import arrange

BRIDGE_SUITS = "SHDC"       # "Order: Spades, Hearts, Diamonds, Clubs. (Bridge)" (line 61)
KEY_LABELS = "1234567890"   # "the numbers 1 2 3 4 5 6 7 8 9 0 appear under your hand" (line 77)
COLOURS = {"=": "34", "-": "32", "*": "31", "^": "33", "red": "31", "bold": "1"}
LOW_DECK = 7                # "If the number or cards left is 7 or lower, the number ... will be red"


class Style:
    """ANSI colours, or none (LAPTOP, or output that is not a terminal)."""

    def __init__(self, colour: bool, big_pips: bool = False) -> None:
        self.colour = colour
        self.big_pips = big_pips

    def paint(self, text: str, key: str) -> str:
        if not self.colour or not text.strip():
            return text
        return f"\x1b[{COLOURS[key]}m{text}\x1b[0m"

    def card(self, c: Card) -> str:
        # BIG PIPS: "one big number and one big symbol for the suit" (line 51)
        return c.pretty() if self.big_pips else str(c)


def unmatched_order(cards: Iterable[Card], sort: str) -> list[Card]:
    """RANK: highest to lowest, same rank by suit; SUIT: by suit, then high to low (59-61)."""
    if sort == "SUIT":
        return sorted(cards, key=lambda c: (BRIDGE_SUITS.index(c.suit), -c.rank))
    return sorted(cards, key=lambda c: (-c.rank, BRIDGE_SUITS.index(c.suit)))


def hand_layout(hand: Sequence[Card], sort: str) -> tuple[list[Card], list[str]]:
    """Cards in display order and the bar mark over each.

    "The computer sorts the cards in your hand into the arrangement that gives
    you the lowest deadwood score" (line 83): melds first, then the rest."""
    arr = arrange(hand)
    ordered: list[Card] = []
    marks: list[str] = []
    for meld in sorted(arr.melds, key=lambda m: -max(c.rank for c in m)):
        is_set = len({c.rank for c in meld}) == 1
        cards = unmatched_order(meld, "RANK")
        ordered += cards
        marks += ["=" if is_set else "-"] * len(cards)
    rest = unmatched_order(arr.deadwood, sort)
    ordered += rest
    marks += [" "] * len(rest)
    return ordered, marks


def cards_block(cards: Sequence[Card], marks: Sequence[str], style: Style,
                keys: Sequence[str] | None = None, indent: str = "  ") -> str:
    width = 5
    bar = "".join(style.paint((m * 3).center(width), m) if m != " " else " " * width
                  for m in marks)
    row = "".join(style.card(c).center(width) for c in cards)
    lines = [indent + bar.rstrip(), indent + row.rstrip()]
    if keys is not None:
        lines.append(indent + "".join(f"[{k}]".center(width) for k in keys).rstrip())
    return "\n".join(lines)


def deck_count(n: int, style: Style) -> str:
    """Red when 7 or fewer are left; without colours a '!' says the same."""
    if n > LOW_DECK:
        return str(n)
    return style.paint(str(n), "red") if style.colour else f"{n}!"
