"""The data of a cribbage game in progress, its actions and its events.

Nothing here decides anything: ``rules`` changes a ``GameState``; players
see only a ``PlayerView`` (their own cards and what is on the table), so
the computer cannot peek at the human's hand or at the stock.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from games_py.cards import Card
from games_py.cribbage.scoring import ScoreItem

PLAYERS = (0, 1)
HAND_SIZE = 6           # "Each player receives 6 cards."
DISCARDS = 2            # "The players then choose two cards to discard."


def other(player: int) -> int:
    return 1 - player


class Phase(Enum):
    CUT_FOR_DEAL = "cut for deal"   # chance: who deals first
    DEAL = "deal"                   # chance: shuffle and deal six each
    DISCARD = "discard"             # players: two cards each to the crib
    STARTER = "starter"             # chance: cut and turn the starter
    PLAY = "play"                   # players: pegging, count up to 31
    SHOW = "show"                   # automatic: count hands and crib
    GAME_OVER = "game over"


# Phases in which no player chooses: ``rules.step`` resolves them.
AUTOMATIC = (Phase.CUT_FOR_DEAL, Phase.DEAL, Phase.STARTER, Phase.SHOW)


@dataclass(frozen=True)
class Discard:
    """Lay two cards away to the crib."""
    cards: tuple[Card, Card]


@dataclass(frozen=True)
class Play:
    """Lay one card on the table during the play."""
    card: Card


Action = Discard | Play


@dataclass(frozen=True)
class Event:
    """Something that happened, for the UI to show and tests to check.

    ``kind`` is one of: cut, deal, discard, starter, heels, play, go, peg,
    reset, show, win (and dealer, after the cut for deal).  ``points`` is
    what ``player`` pegged by it.
    """

    kind: str
    player: int | None = None
    cards: tuple[Card, ...] = ()
    points: int = 0
    items: tuple[ScoreItem, ...] = ()
    count: int | None = None
    label: str = ""
    score: int | None = None    # the player's score after pegging ``points``


@dataclass
class GameState:
    limit: int = 121
    skunking: bool = False
    phase: Phase = Phase.CUT_FOR_DEAL
    scores: list[int] = field(default_factory=lambda: [0, 0])
    dealer: int | None = None
    hand_number: int = 0
    deck: list[Card] = field(default_factory=list)        # undealt stock
    hands: list[list[Card]] = field(default_factory=lambda: [[], []])
    kept: list[list[Card]] = field(default_factory=lambda: [[], []])
    discarded: list[list[Card]] = field(default_factory=lambda: [[], []])
    crib: list[Card] = field(default_factory=list)
    starter: Card | None = None
    pile: list[Card] = field(default_factory=list)        # current series
    played: list[list[Card]] = field(default_factory=lambda: [[], []])
    to_move: int | None = None
    last_player: int | None = None    # who laid the last card of the series
    go_said: set[int] = field(default_factory=set)
    winner: int | None = None

    @property
    def non_dealer(self) -> int:
        assert self.dealer is not None
        return other(self.dealer)

    @property
    def count(self) -> int:
        return sum(min(c.rank, 10) for c in self.pile)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def current_player(self) -> int | None:
        """Who must choose now, or None when chance/automatic steps are due."""
        if self.phase is Phase.DISCARD:
            for p in (self.non_dealer, self.dealer):
                if not self.discarded[p]:
                    return p
        if self.phase is Phase.PLAY:
            return self.to_move
        return None

    def all_cards(self) -> list[Card]:
        """Every card the state holds anywhere (always the 52 once dealt).

        ``kept`` copies the four cards held for the show and ``pile`` the
        cards of the current series, which are also in ``played``, so
        neither is counted again."""
        cards = list(self.deck) + list(self.crib)
        for p in PLAYERS:
            cards += self.hands[p] + self.played[p]
        if self.starter is not None:
            cards.append(self.starter)
        return cards

    def view(self, player: int) -> "PlayerView":
        return PlayerView(
            me=player, limit=self.limit, phase=self.phase,
            scores=tuple(self.scores), dealer=self.dealer,
            hand=tuple(self.hands[player]), kept=tuple(self.kept[player]),
            my_discards=tuple(self.discarded[player]),
            starter=self.starter, pile=tuple(self.pile), count=self.count,
            played=(tuple(self.played[0]), tuple(self.played[1])),
            opponent_cards=len(self.hands[other(player)]),
        )


@dataclass(frozen=True)
class PlayerView:
    """What one player may know: own cards and the table, nothing hidden."""

    me: int
    limit: int
    phase: Phase
    scores: tuple[int, int]
    dealer: int | None
    hand: tuple[Card, ...]
    kept: tuple[Card, ...]
    my_discards: tuple[Card, ...]
    starter: Card | None
    pile: tuple[Card, ...]
    count: int
    played: tuple[tuple[Card, ...], tuple[Card, ...]]
    opponent_cards: int

    @property
    def my_crib(self) -> bool:
        return self.dealer == self.me
