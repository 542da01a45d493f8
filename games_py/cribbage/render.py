"""Text for the terminal: cards (small or BIG CARDS), the table, events.

Rendering only reads the state; it never decides anything.
"""
from __future__ import annotations

from typing import Sequence

from games_py.cards import Card, SUIT_SYMBOLS
from games_py.cribbage.state import Event, GameState, PlayerView, other


def sort_for_display(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.rank, c.suit))


def small_cards(cards: Sequence[Card], numbered: bool = False) -> str:
    if numbered:
        return "  ".join(f"{i}) {c}" for i, c in enumerate(cards, 1))
    return " ".join(str(c) for c in cards)


def big_cards(cards: Sequence[Card], numbered: bool = False,
              symbols: bool = True) -> str:
    """BIG CARDS: "cards with one big number and one big symbol for the
    suit" - a box per card with the rank and the suit symbol large."""
    rows = ["", "", "", "", ""]
    for i, c in enumerate(cards, 1):
        suit = SUIT_SYMBOLS[c.suit] if symbols else c.suit
        rank = c.rank_name
        box = ["+-----+", f"|{rank:<5}|", f"|  {suit}  |", f"|{rank:>5}|", "+-----+"]
        for r in range(5):
            rows[r] += box[r] + " "
    text = "\n".join(row.rstrip() for row in rows)
    if numbered:
        text += "\n" + "".join(f"   {i}    " for i in range(1, len(cards) + 1)).rstrip()
    return text


def show_cards(cards: Sequence[Card], big: bool, numbered: bool = False,
               symbols: bool = True) -> str:
    return big_cards(cards, numbered, symbols) if big else small_cards(cards, numbered)


def scoreline(scores: Sequence[int], names: Sequence[str], limit: int) -> str:
    return f"{names[0]} {scores[0]}   {names[1]} {scores[1]}   (game to {limit})"


def pegline(pegs: Sequence[tuple[int, int]], names: Sequence[str]) -> str:
    """The pegging board in words: each player's front and back peg."""
    return "Pegs: " + "; ".join(f"{names[p]} front {front}, back {back}"
                                for p, (front, back) in enumerate(pegs))


def table(view: PlayerView, names: Sequence[str], big: bool,
          symbols: bool = True, pegs: Sequence[tuple[int, int]] | None = None) -> str:
    """What the human sees before choosing: scores, pegs, starter, count, hand."""
    dealer = names[view.dealer] if view.dealer is not None else "?"
    lines = ["-" * 60, scoreline(view.scores, names, view.limit)
             + f"   dealer: {dealer}"]
    if pegs is not None:
        lines.append(pegline(pegs, names))
    if view.starter is not None:
        lines.append(f"Starter: {view.starter}")
    if view.pile or view.starter is not None:
        lines.append(f"Count: {view.count}   on the table: {small_cards(view.pile) or '-'}")
    lines.append("Your hand:")
    lines.append(show_cards(sort_for_display(view.hand), big, numbered=True,
                            symbols=symbols))
    return "\n".join(lines)


def _points(event: Event, names: Sequence[str]) -> str:
    what = ", ".join(f"{i.kind} for {i.points}" for i in event.items)
    return f" - {what} ({names[event.player]} has {event.score})" if what else ""


def describe(event: Event, state: GameState, names: Sequence[str],
             viewer: int | None) -> str:
    """One event as text.  ``viewer`` is the human's seat, whose opponent's
    discards stay hidden; None (the demo) shows everything."""
    who = names[event.player] if event.player is not None else ""
    cards = small_cards(event.cards)
    if event.kind == "cut":
        return "Equal cards: cut again." if event.label == "tie" else f"{who} cuts {cards}."
    if event.kind == "dealer":
        return f"{who} cut the lower card and deals first."
    if event.kind == "deal":
        return f"=== {event.label.capitalize()}: {who} deals ==="
    if event.kind == "discard":
        crib_owner = "his own" if event.player == state.dealer \
            else f"{names[other(event.player)]}'s"
        shown = cards if viewer is None or event.player == viewer else "two cards"
        return f"{who} lays away {shown} to {crib_owner} crib."
    if event.kind == "starter":
        return f"{who} cuts the deck; the starter is {cards}."
    if event.kind == "play":
        return f"{who} plays {cards}, count {event.count}{_points(event, names)}."
    if event.kind == "go":
        return f"{who} says GO."
    if event.kind == "peg":
        return f"{who} pegs {event.points} for {event.items[0].kind}" \
               f" ({who} has {event.score})."
    if event.kind == "reset":
        return f"The count goes back to 0; {who} leads."
    if event.kind == "show":
        head = f"{who}'s {event.label}: {small_cards(event.cards[:-1])}" \
               f" + starter {event.cards[-1]}"
        body = [f"    {i.describe()}" for i in event.items] or ["    nothing to score"]
        return "\n".join([head] + body
                         + [f"    = {event.points} ({who} has {event.score})"])
    if event.kind == "win":
        return f"*** {who} wins the game, {event.label}. ***"
    return f"{event.kind} {who} {cards}".strip()
