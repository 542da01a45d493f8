"""What is on the table: one hand in play and the game around it.

Player 0 is the human seat ("In this game, you always go first", doc line 173),
player 1 the computer.  The stock and the discard pile are lists whose last
element is the top card.  During the DISCARD phase the drawn card is already in
the hand (11 cards) and ``drawn`` / ``drawn_from`` remember where it came from,
because a card taken from the pile may be put back with UNDO (doc line 77).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
import random

from games_py.cards import Card
from games_py.teach_gin.options import Options

HUMAN, COMPUTER = 0, 1
HAND_SIZE = 10
DRAW_WHEN_STOCK = 2     # "Only 2 cards are left in the deck" ends the hand (doc lines 177, 180)


class Phase(Enum):
    DRAW = "draw"           # take a card from the deck or the discard pile
    DISCARD = "discard"     # throw one card (or UNDO a draw from the pile)
    KNOCK = "knock"         # "you will be asked if you want to knock" (doc line 79)
    OVER = "over"


# ---- moves -------------------------------------------------------------------

@dataclass(frozen=True)
class DrawDeck:
    def __str__(self) -> str:
        return "draw from the deck"


@dataclass(frozen=True)
class DrawPile:
    def __str__(self) -> str:
        return "draw from the discard pile"


@dataclass(frozen=True)
class Undo:
    def __str__(self) -> str:
        return "undo the draw from the pile"


@dataclass(frozen=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Knock:
    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True)
class NoKnock:
    def __str__(self) -> str:
        return "do not knock yet"


@dataclass(frozen=True)
class PlayToGin:
    def __str__(self) -> str:
        return "play to gin"


Move = DrawDeck | DrawPile | Undo | Discard | Knock | NoKnock | PlayToGin


# ---- results -----------------------------------------------------------------

@dataclass(frozen=True)
class HandResult:
    """How a hand ended.  ``kind`` is 'gin', 'knock', 'undercut' or 'draw'."""

    kind: str
    winner: int | None          # None for a draw
    points: int                 # what the winner scores (after Oklahoma doubling)
    ender: int | None           # who ginned or knocked
    melds: tuple                # per player: tuple of melds (tuples of cards)
    deadwood: tuple             # per player: deadwood cards left after lay-offs
    laid_off: tuple[Card, ...]  # cards the defender laid off on the knocker
    deadwood_points: tuple[int, int]
    doubled: bool


@dataclass
class HandState:
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    upcard: Card                # the first card turned up: Oklahoma reads it
    knock_limit: int            # 0 means a player must gin
    doubled: bool               # Oklahoma, first upcard a spade
    to_move: int = HUMAN
    phase: Phase = Phase.DRAW
    drawn: Card | None = None
    drawn_from: str | None = None           # 'deck' or 'pile'
    play_to_gin: list[bool] = field(default_factory=lambda: [False, False])
    taken: list[list[Card]] = field(default_factory=lambda: [[], []])   # public: cards taken from the pile
    discards: list[tuple[int, Card]] = field(default_factory=list)      # public history
    computer_took_pile: bool = False        # the RED bar over the pile (doc line 84)
    result: HandResult | None = None
    turns: int = 0

    def all_cards(self) -> list[Card]:
        return self.hands[0] + self.hands[1] + self.stock + self.pile

    def clone(self) -> "HandState":
        return copy.deepcopy(self)


@dataclass
class GameState:
    options: Options
    rng: random.Random
    hand: HandState
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hands_played: int = 0           # hands played to a finish, draws included
    hand_number: int = 1
    over: bool = False
    winner: int | None = None       # None while playing, or for a drawn game
    history: list[HandResult] = field(default_factory=list)

    def clone(self) -> "GameState":
        return copy.deepcopy(self)
