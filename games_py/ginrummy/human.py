"""The human's side of Tommy's Gin Rummy: what you see, and who decides for you.

GINRUMMY.EXE asks you three things, and nothing else (lay-offs, the arrangement
of your hand and the score are automatic; docs/ginrummy-internals.md, section 14):

* "DRAW FROM UPCARD (U) OR DECK (D)? " (only D when the pile is empty);
* "DISCARD WHICH CARD (1-9,A,B)? ": a place of your arranged hand, 1..11
  (a card of a meld brings "ARE YOU NUTS? ... CANCEL?", answered N: the card goes);
* "KNOCK? ", asked only when your points allow a knock (before you draw and after
  you discard).

A ``HumanPolicy`` answers them from a ``HumanView``, a read-only picture of what
you can see at the prompt.  The same policy object drives the Python game
(games_py.ginrummy.computer) and the original in the machine (games_py.ginrummy.original),
which builds the view from what the program holds, so both ask the same questions
in the same order.  A terminal game implements the protocol with keyboard input.

Policies given on the command line (``--human``): ``simple`` and ``random:SEED``.
"""
from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Protocol

from games_py.cards import Card
from games_py.ginrummy import rules

UPCARD, DECK = "upcard", "deck"       # the answers to the draw prompt (the trace's "from")

# the original's prompts, as its M$ holds them (lines 5340-5350, 5490, 5660, 5780)
DRAW_PROMPT = "DRAW FROM UPCARD (U) OR DECK (D)? "
DRAW_DECK_PROMPT = "DRAW FROM DECK (D)? "              # the upcard pile is empty
DISCARD_PROMPT = "DISCARD WHICH CARD (1-9,A,B)? "
SPOILING_PROMPT = "ARE YOU NUTS? YOU ARE SPOILING A MATCHED SET! CANCEL?"   # a card of a meld
KNOCK_PROMPT = "KNOCK? "
PROMPTS = (DRAW_PROMPT, DRAW_DECK_PROMPT, DISCARD_PROMPT, SPOILING_PROMPT, KNOCK_PROMPT)
PLACES = 11                           # a hand holds at most 11 places (after the draw)


@dataclass(frozen=True)
class HumanView:
    """What the human sees at a prompt.  ``places`` is your hand as the program lays it
    out, place 1 first: the melds, then the unmatched cards from the highest; ``None``
    is an empty place (the place just discarded, before the hand is laid out again).
    Places ``unmatched_from`` .. len(places) hold the unmatched cards; ``points`` is
    their PV.  ``pile`` is the upcard pile, bottom first (``upcard`` its top);
    ``opponent`` the computer's cards when the hands are open, else None."""

    places: tuple[Card | None, ...]
    unmatched_from: int
    points: int
    upcard: Card | None
    pile: tuple[Card, ...]
    knock: int                        # the most points a knock may leave (0: gin only)
    double: bool
    stock: int                        # cards left in the deck
    turn: int
    variant: str
    opponent: tuple[Card, ...] | None = None

    @property
    def cards(self) -> list[Card]:
        return [c for c in self.places if c is not None]

    def place_of(self, card: Card) -> int:
        """The place (1..11) of ``card`` in your hand."""
        return self.places.index(card) + 1

    def unmatched(self) -> list[tuple[int, Card]]:
        """(place, card) of the unmatched cards."""
        return [(k, c) for k, c in enumerate(self.places, 1) if k >= self.unmatched_from and c is not None]

    def draw_choices(self) -> tuple[str, ...]:
        return (UPCARD, DECK) if self.upcard is not None else (DECK,)

    def discard_choices(self) -> tuple[int, ...]:
        return tuple(k for k, c in enumerate(self.places, 1) if c is not None)


class HumanPolicy(Protocol):
    """Answers the original's three prompts for the human player."""

    def draw(self, view: HumanView) -> str:
        """UPCARD or DECK (UPCARD only when ``view.upcard`` is not None)."""

    def discard(self, view: HumanView) -> int:
        """The place (1..11) of the card to discard; it must hold a card."""

    def knock(self, view: HumanView) -> bool:
        """Asked only when a knock is allowed: True to knock."""


class IllegalAnswer(ValueError):
    """A policy answered something the prompt does not accept."""


def checked_draw(policy: HumanPolicy, view: HumanView) -> str:
    answer = policy.draw(view)
    if answer not in view.draw_choices():
        raise IllegalAnswer(f"draw: {answer!r} is not one of {view.draw_choices()}")
    return answer


def checked_discard(policy: HumanPolicy, view: HumanView) -> int:
    answer = policy.discard(view)
    if answer not in view.discard_choices():
        raise IllegalAnswer(f"discard: place {answer!r} holds no card (places {view.discard_choices()})")
    return answer


def checked_knock(policy: HumanPolicy, view: HumanView) -> bool:
    return bool(policy.knock(view))


class SimplePolicy:
    """A fixed policy a user can predict: take the upcard when it goes into a meld of the
    best arrangement of your hand with it (rules.arrange), else draw from the deck;
    discard the unmatched card of highest value (then rank; the first such place); knock
    whenever asked."""

    def draw(self, view: HumanView) -> str:
        if view.upcard is None:
            return DECK
        with_it = rules.arrange(view.cards + [view.upcard])
        return UPCARD if any(view.upcard in meld for meld in with_it.melds) else DECK

    def discard(self, view: HumanView) -> int:
        candidates = view.unmatched() or [(k, c) for k, c in enumerate(view.places, 1) if c is not None]
        best = max(candidates, key=lambda kc: (rules.pip(kc[1]), kc[1].rank, -kc[0]))
        return best[0]

    def knock(self, view: HumanView) -> bool:
        return True


class RandomPolicy:
    """A seeded random choice among the legal answers at every prompt (any card may be
    discarded, a meld's too; knock or not with even odds).  Python's own generator,
    never the game's RND."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = _random.Random(seed)

    def draw(self, view: HumanView) -> str:
        return self._random.choice(view.draw_choices())

    def discard(self, view: HumanView) -> int:
        return self._random.choice(view.discard_choices())

    def knock(self, view: HumanView) -> bool:
        return self._random.random() < 0.5


POLICY_HELP = "simple, or random:SEED (SEED an integer)"


def policy_from(text: str) -> HumanPolicy:
    """A fresh policy from its name on the command line."""
    name, _, argument = text.strip().partition(":")
    if name == "simple" and not argument:
        return SimplePolicy()
    if name == "random":
        try:
            return RandomPolicy(int(argument))
        except ValueError:
            pass
    raise ValueError(f"unknown human policy {text!r}: use {POLICY_HELP}")
