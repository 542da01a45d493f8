"""A sequence of hands: the shuffle and cut, who deals, replaying a hand, and the
loop that asks the players for moves.

'THE INITIAL (FIRST HAND) DEALER IS CHOSEN RANDOMLY BY THE COMPUTER'; 'THE DEAL
ALTERNATES', also after a dead hand ('WITH THE DEAL SWITCHING HANDS').
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from games_py.cards import Card, full_deck, shuffled_deck
from games_py.tonk.players import Player
from games_py.tonk.rules import deal
from games_py.tonk.state import HAND_SIZE, NUM_PLAYERS, Action, TonkState


def shuffle_and_cut(rng: random.Random) -> tuple[Card, ...]:
    deck = shuffled_deck(rng)
    cut = rng.randrange(1, len(deck))
    return tuple(deck[cut:] + deck[:cut])


def stacked_deck(hands: Sequence[Sequence[Card]], upcard: Card, dealer: int,
                 stock_top: Sequence[Card] = ()) -> tuple[Card, ...]:
    """A deck that deals ``hands`` (one 7-card list per seat), then ``upcard``, with
    ``stock_top`` on top of the deck: for setting up known positions and puzzles."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    deck: list[Card] = []
    for i in range(HAND_SIZE):
        deck += [hands[seat][i] for seat in order]
    deck += [upcard, *stock_top]
    if len(set(deck)) != len(deck):
        raise ValueError("a card appears twice in the stacked deck")
    return tuple(deck + [c for c in full_deck() if c not in set(deck)])


@dataclass(frozen=True)
class HandSetup:
    """Enough to play a hand again: the deck 'AFTER THE SHUFFLE & CUT' and the dealer."""
    deck: tuple[Card, ...]
    dealer: int


class Session:
    """Deals hands one after another from one seeded random generator."""

    def __init__(self, rng: random.Random, no_passing: bool = False):
        self.rng = rng
        self.no_passing = no_passing
        self.dealer = rng.randrange(NUM_PLAYERS)
        self.last: HandSetup | None = None

    @property
    def can_replay(self) -> bool:
        return self.last is not None

    def new_hand(self, replay: bool = False) -> TonkState:
        """Deal the next hand.  ``replay`` restores the last hand's deck and dealer
        ('THE DECK IS RESTORED TO WHAT IT WAS AFTER THE SHUFFLE & CUT')."""
        if replay:
            if self.last is None:
                raise ValueError("there is no last hand to replay yet")
            setup = self.last
        else:
            setup = HandSetup(shuffle_and_cut(self.rng), self.dealer)
        self.last = setup
        self.dealer = (setup.dealer + 1) % NUM_PLAYERS   # "THE DEAL ALTERNATES"
        return deal(setup.deck, setup.dealer, self.no_passing)


Listener = Callable[[TonkState, Action], None]


def run_hand(state: TonkState, players: Sequence[Player], *, patient: Sequence[bool] = (),
             on_action: Listener | None = None) -> TonkState:
    """Play ``state`` to its end with ``players`` (one per seat), each asked
    ``choose(observation, legal_actions)`` through the interface state (spiel.TonkHand).

    ``patient`` marks seats asked first whether they call tonk at the start of the
    other's turn (the human: 'THE COMPUTER GIVES YOU A HANDICAP'); the others are asked
    after the player up has chosen and before his move is made, so a computer's tonk
    beats any move of the human but the human's own T.  ``on_action`` hears each move
    the rules make.
    """
    from games_py.tonk.spiel import TonkHand
    hand = TonkHand(state, tuple(patient) + (False,) * (len(players) - len(patient)))
    while not hand.is_terminal():
        seat = hand.current_player()
        hand.apply_action(players[seat].choose(hand.observation(seat), hand.legal_actions()))
        for action in hand.applied:
            if on_action:
                on_action(state, action)
    return state
