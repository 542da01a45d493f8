"""How the original spends its random numbers from RANDOMIZE TIMER to the first deal.

GINRUMMY.EXE seeds RND once, from TIMER, and then every random choice the
program makes, cosmetic or not, moves the same generator on.  To deal the
hands it deals, this module repeats each of those choices in order, RND call
by RND call (docs/ginrummy-internals.md sections 7 and 8 list the BASIC lines
and the order; `tests/test_ginrummy_trace.py` and `tests/test_ginrummy_rng.py` check it
against the original running in pcemu):

1. line 110  RANDOMIZE TIMER
2. 490-530   the card back (2-3 RNDs, retried while equal to the previous back)
3. 640-670   the screen colours (colour displays only)
4. 1790      who deals first
5. 12650     the colour of the "YOU DEAL" / "I DEAL" message (colour only)
6. 10610-10750 the shuffle: the "*SHUFFLING*" message colour, 3 passes of 52
             swaps, the sound effects' RNDs (sound on), the cleared message's
             colour and a new card back
7. 2160-2220 the deal: ten cards each from D(1), alternately, non-dealer
             first, then the upcard.

Cards are the program's numbers 1..52: rank (C-1) MOD 13 + 1, suit
INT((C-1)/13): 0 hearts, 1 diamonds, 2 clubs, 3 spades.
"""
from __future__ import annotations

from dataclasses import dataclass

from games_py.cards import Card
from games_py.qbasic import mbf, rng
from games_py.qbasic.mbf import MBF

YOU, COMPUTER = 1, 2                 # the program's player numbers (DEALER at DGROUP:10D8h)
DECK_SIZE = 52
HAND_SIZE = 10
SUIT_ORDER = "HDCS"                  # INT((C-1)/13) = 0..3
SHUFFLE_PASSES = 3
SOUND_EVERY = 5                      # line 10670: a sound effect when I MOD 5 = 1

# the single-precision constants the program compares RND with
QUARTER = MBF.from_hex("00 00 00 7f")
TENTH = MBF.from_hex("cd cc 4c 7d")
HALF = MBF.from_hex("00 00 00 80")

PLAIN_BACK = 0xB1                    # the card-back characters of lines 490-510
BACKS = (0xB1, 0xD8, 0xD7, 0xC5)


def card_of(number: int) -> Card:
    """The program's card number 1..52 as a Card."""
    if not 1 <= number <= DECK_SIZE:
        raise ValueError(f"card numbers are 1..52, not {number}")
    return Card((number - 1) % 13 + 1, SUIT_ORDER[(number - 1) // 13])


def number_of(card: Card) -> int:
    return SUIT_ORDER.index(card.suit) * 13 + card.rank


class OriginalRandom:
    """The program's random choices, each spending RND exactly as its BASIC line does."""

    def __init__(self, generator: rng.QuickBasicRandom, colour: bool = True) -> None:
        self.generator = generator
        self.colour = colour

    @classmethod
    def seeded(cls, time: tuple[int, int, int, int], colour: bool = True) -> "OriginalRandom":
        """Line 110, ``RANDOMIZE TIMER``, with TIMER read as (hour, minute, second, hundredths)."""
        generator = rng.QuickBasicRandom()
        generator.randomize_timer(*time)
        return cls(generator, colour)

    @property
    def state(self) -> int:
        return self.generator.state

    def below(self, limit: MBF) -> bool:
        """``IF RND < limit``."""
        return mbf.compare(self.generator.rnd(), limit) < 0

    def fnr(self, n: int) -> int:
        """``FNR(N) = INT(N * RND + 1)`` (line 270)."""
        return self.generator.random_int(n)

    def card_back(self, previous: int) -> int:
        """Lines 490-520: a back different from the previous one."""
        while True:
            back = PLAIN_BACK
            if self.below(QUARTER):
                back = 0xD8
            elif self.below(QUARTER):
                back = 0xD7
            if self.below(TENTH):
                back = 0xC5
            if back != previous:
                return back

    def colours(self) -> tuple[int, int, int, int]:
        """Lines 630-670: C1..C4; grey (7) on a monochrome display, with no RND."""
        if not self.colour:
            return 7, 7, 7, 0
        c1 = 7
        c2 = self.fnr(5)
        while c2 in (2, 3, c1):
            c2 = self.fnr(5)
        c4 = self.fnr(5)
        while c4 in (2, 3, c2):
            c4 = self.fnr(5)
        c3 = self.fnr(5) + 1
        while c3 in (c1, c2):
            c3 = self.fnr(5) + 1
        return c1, c2, c3, c4

    def dealer(self) -> int:
        """Line 1790: ``IF RND < .5 THEN DEALER = 1 ELSE DEALER = 2``."""
        return YOU if self.below(HALF) else COMPUTER

    def message_colour(self) -> int | None:
        """Line 12650: every message on line 18 gets ``COLOR FNR(4) + 1`` in colour."""
        return self.fnr(4) + 1 if self.colour else None

    def shuffle(self, deck: list[int], sound: bool) -> None:
        """Lines 10640-10720 on D(1..N) (``deck[0]`` is unused, as D(0) is)."""
        n = len(deck) - 1
        for _pass in range(SHUFFLE_PASSES):
            for i in range(1, n + 1):
                a = self.fnr(n)
                b = self.fnr(n)
                deck[a], deck[b] = deck[b], deck[a]
                if sound and i % SOUND_EVERY == 1:
                    self.generator.rnd()            # SOUND CINT(RND + 95), .1
                    self.generator.rnd()            # SOUND 0, RND * .3 + .3
            if sound:
                self.generator.rnd()                # SOUND CINT(RND * .5 + 91), .5


@dataclass(frozen=True)
class Startup:
    """What the program has chosen before its first hand (lines 110-1790)."""

    back: int
    colours: tuple[int, int, int, int]
    first_dealer: int


@dataclass(frozen=True)
class Deal:
    """One hand as dealt: the shuffled deck and who got what."""

    dealer: int
    deck: tuple[int, ...]          # D(1..52) after the shuffle
    back: int                      # the card back chosen after the shuffle

    @property
    def non_dealer(self) -> int:
        return 3 - self.dealer

    def hand(self, player: int) -> list[Card]:
        """The ten cards ``player`` received, in the order dealt (lines 2160-2190)."""
        first = 0 if player == self.non_dealer else 1
        return [card_of(self.deck[k]) for k in range(first, 2 * HAND_SIZE, 2)]

    @property
    def upcard(self) -> Card:
        return card_of(self.deck[2 * HAND_SIZE])

    @property
    def stock(self) -> list[Card]:
        """The undealt cards, next to be drawn first."""
        return [card_of(c) for c in self.deck[2 * HAND_SIZE + 1:]]


def start_program(random: OriginalRandom) -> Startup:
    """Lines 430-1790 as far as they use RND: card back, colours, first dealer."""
    back = random.card_back(0)
    colours = random.colours()
    return Startup(back, colours, random.dealer())


def deal_hand(random: OriginalRandom, dealer: int, previous_back: int, sound: bool) -> Deal:
    """Lines 2090-2220 for one hand: the dealer's message, the shuffle, the deal."""
    random.message_colour()                         # "YOU DEAL" / "I DEAL" (line 2100)
    deck = list(range(DECK_SIZE + 1))               # line 2020: D(I) = I
    random.message_colour()                         # "*SHUFFLING*" (line 10610)
    random.shuffle(deck, sound)
    random.message_colour()                         # the message line cleared (line 10740)
    back = random.card_back(previous_back)          # line 10740: GOSUB 490
    return Deal(dealer, tuple(deck[1:]), back)


def first_deal(time: tuple[int, int, int, int], *, sound: bool = True,
               colour: bool = True) -> tuple[Startup, Deal, OriginalRandom]:
    """The first hand the original deals when TIMER reads ``time`` at start-up."""
    random = OriginalRandom.seeded(time, colour)
    startup = start_program(random)
    deal = deal_hand(random, startup.first_dealer, startup.back, sound)
    return startup, deal, random
