"""The state of one hand of Tonk: who holds what, whose turn it is, how it ended.

The state is plain data; rules.py decides what may happen to it.  The deck is a
list whose index 0 is the top card; the upcard pile's top is its last element.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum

from games_py.cards import Card, format_cards

NUM_PLAYERS = 2     # "PLAYERS: TWO, YOU AGAINST THE COMPUTER"
HAND_SIZE = 7       # "UNTIL ALL PLAYERS HAVE 7 CARDS"


class Phase(Enum):
    TURN = "turn"          # start of a turn: tonk may be called; the player up plucks or draws
    PLUCKED = "plucked"    # the player up holds the upcard: meld it or return it
    DISCARD = "discard"    # the player up discards to the pile or hits his own meld
    OVER = "over"


class Kind(Enum):
    TONK = "tonk"          # call tonk (any player, at the start of a turn)
    PLUCK = "pluck"        # take the upcard
    DRAW = "draw"          # take the top card of the deck
    MELD = "meld"          # lay the plucked upcard down with these hand cards as a new meld
    RETURN = "return"      # give the plucked upcard back to the pile ("pass")
    DISCARD = "discard"    # a hand card onto the upcard pile
    HIT = "hit"            # a hand card onto one of the player's own melds
    END = "end"            # the deck is exhausted and no tonk: show the hands
    WAIT = "wait"          # at the start of the other's turn: let him play, no tonk now


@dataclass(frozen=True)
class Action:
    kind: Kind
    player: int
    cards: tuple[Card, ...] = ()
    meld: int = -1         # index into the player's own table melds, for HIT

    def __str__(self) -> str:
        text = f"P{self.player} {self.kind.value}"
        if self.cards:
            text += " " + format_cards(self.cards)
        if self.kind is Kind.HIT:
            text += f" on meld {self.meld + 1}"
        return text


class Reason(Enum):
    TEN_CARD_TONK = "ten-card tonk before play"
    TONK = "tonk"
    UNDERCUT = "undercut"
    ZERO_TONK = "tonk with zero points after the break"
    EXHAUSTED = "deck exhausted"
    DEAD = "dead hand (deadlock)"


@dataclass(frozen=True)
class Outcome:
    reason: Reason
    winner: int | None             # None for a dead hand
    tonker: int | None             # who called tonk, if anyone
    points: tuple[int, ...]        # each player's unmatched points at the end
    multiplier: int                # stakes paid: 1, 2 (undercut) or 0 (dead: carried over)


@dataclass
class TonkState:
    dealer: int
    stock: list[Card]                      # index 0 is the top of the deck
    pile: list[Card]                       # upcard pile, top is the last card
    hands: list[list[Card]]                # in display order
    tables: list[list[list[Card]]]         # each player's own melds on the table
    current: int
    phase: Phase = Phase.TURN
    plucked: Card | None = None            # the upcard in hand during Phase.PLUCKED
    plays: int = 0                         # plucks + draws so far ("BEFORE THE FIRST PLAY")
    returns_in_row: int = 0                # consecutive pluck-and-return turns (deadlock)
    breaker: int | None = None
    no_passing: bool = False               # the P switch
    outcome: Outcome | None = None
    history: list[Action] = field(default_factory=list)

    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def leader(self) -> int:
        return (self.dealer + 1) % self.num_players

    @property
    def upcard(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def at_break(self) -> bool:
        """'THE NUMBER OF CARDS LEFT IN THE DECK EQUALS THE NUMBER OF PLAYERS'."""
        return len(self.stock) == self.num_players

    @property
    def after_break(self) -> bool:
        """'WHEN THE DECK IS DEPLETED BY ONE MORE CARD' past the break."""
        return len(self.stock) < self.num_players

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def cards_held(self, player: int) -> int:
        """Cards in hand plus on the player's own melds.  TONK.DOC says 'EACH PLAYER
        THUS ALWAYS HAS 7 CARDS EITHER IN HAND OR ON THE TABLE'; that holds for every
        play but the hit, which puts a card on the table with no card leaving, so
        between turns this is 7 plus the player's hits."""
        return len(self.hands[player]) + sum(len(m) for m in self.tables[player])

    def all_cards(self) -> list[Card]:
        """Every card in the game, wherever it is (for conservation checks)."""
        out = list(self.stock) + list(self.pile)
        for hand in self.hands:
            out += hand
        for table in self.tables:
            for meld in table:
                out += meld
        if self.plucked is not None:
            out.append(self.plucked)
        return out

    def clone(self) -> "TonkState":
        return copy.deepcopy(self)
