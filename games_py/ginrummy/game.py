"""Setting up a session as the original does: settings, the seed, the first deal.

``Settings`` are the choices a user makes (start time, variant, sound, open
hands, demo); ``first_hand`` deals the first hand exactly as GINRUMMY.EXE does
for those settings; ``python_trace`` writes it in the trace format.  The computer
player (part 2 of issue 4) will carry the trace past the deal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games_py.ginrummy import deal as original
from games_py.ginrummy import computer, human, rules, trace
from games_py.ginrummy.human_hand import your_seat
from games_py.ginrummy.player import Player
from games_py.ginrummy.state import Match

_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,2}))?)?$")


def parse_time(text: str) -> tuple[int, int, int, int]:
    """"HH:MM[:SS[.hh]]" (24-hour, hundredths) -> (hour, minute, second, hundredths)."""
    match = _TIME.match(text.strip())
    if not match:
        raise ValueError(f"bad time {text!r}: use HH:MM:SS.hh, e.g. 13:05:09.27")
    hour, minute = int(match[1]), int(match[2])
    second = int(match[3] or 0)
    hundredths = int((match[4] or "0").ljust(2, "0"))
    if hour > 23 or minute > 59 or second > 59:
        raise ValueError(f"bad time {text!r}: the hour is 0-23, minutes and seconds 0-59")
    return hour, minute, second, hundredths


def format_time(time: tuple[int, int, int, int]) -> str:
    return "{:02d}:{:02d}:{:02d}.{:02d}".format(*time)


SEEDS = 24 * 60 * 60 * 100          # --seed N: the time of day N hundredths after midnight


def time_of_seed(seed: int) -> tuple[int, int, int, int]:
    """``--seed N``: the original's only seed is the time of day RANDOMIZE TIMER reads, so a
    seed is that time in hundredths of a second after midnight (0 .. 8639999)."""
    if not 0 <= seed < SEEDS:
        raise ValueError(f"a seed is 0 to {SEEDS - 1} (hundredths of a second after midnight), "
                         f"not {seed}")
    seconds, hundredths = divmod(seed, 100)
    return seconds // 3600, seconds // 60 % 60, seconds % 60, hundredths


def seed_of_time(time: tuple[int, int, int, int]) -> int:
    h, m, s, hs = time
    return ((h * 60 + m) * 60 + s) * 100 + hs


def player_name(number: int) -> str:
    return Player(number).word


@dataclass(frozen=True)
class Settings:
    time: tuple[int, int, int, int]
    variant: str = rules.STANDARD
    sound: bool = True
    open_hands: bool = False
    demo: bool = True
    colour: bool = True            # the original picks colours and message colours with RND
    human: str | None = None       # a scripted player for your hand (games_py.ginrummy.human)

    def __post_init__(self) -> None:
        if self.variant not in rules.VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(rules.VARIANTS)}, not {self.variant!r}")
        h, m, s, hs = self.time
        if not (0 <= h <= 23 and 0 <= m <= 59 and 0 <= s <= 59 and 0 <= hs <= 99):
            raise ValueError(f"bad time {self.time}")
        if self.human is not None:
            if self.demo:
                raise ValueError("demo mode (the computer plays your hand) and a human policy exclude "
                                 "each other")
            human.policy_from(self.human)           # a clear error now, not after the deal

    @property
    def played(self) -> bool:
        """Somebody plays your hand: the computer (demo) or a scripted human."""
        return self.demo or self.human is not None


def seed_state(time: tuple[int, int, int, int]) -> int:
    return original.OriginalRandom.seeded(time).state


def first_hand(settings: Settings) -> tuple["computer.Hand", dict, original.OriginalRandom]:
    """The first hand, dealt as the original deals it, with its ``deal`` event."""
    _startup, dealt, random = original.first_deal(settings.time, sound=settings.sound,
                                                  colour=settings.colour)
    hand = computer.Hand.dealt(dealt.deck, dealt.dealer, settings.variant, random, settings.open_hands)
    return hand, hand.deal_event(game=1, number=1), random


def python_trace(settings: Settings, hands: int = 1) -> list[dict]:
    """The trace as far as the Python game can play it today: the start and the first
    deal, and in demo mode ``hands`` hands played out by the original's computer player
    (games_py.ginrummy.computer), game after game."""
    events = [trace_start(settings)]
    startup, dealt, random = original.first_deal(settings.time, sound=settings.sound,
                                                 colour=settings.colour)
    match = Match(settings.variant, events=events)   # the match writes its scores into the trace
    tunes = computer.Tunes()
    arrays = computer.MeldArrays()                  # S() and SL() live as long as the program
    policy = human.policy_from(settings.human) if settings.human is not None else None
    played = 0
    while True:
        hand = computer.Hand.dealt(dealt.deck, dealt.dealer, settings.variant, random,
                                   settings.open_hands, arrays,
                                   seats=None if policy is None else your_seat(policy))
        events.append(hand.deal_event(match.game, match.next_hand()))
        if not settings.played or played >= hands:
            return events
        try:
            next_dealer, game_over = play_hand(hand, settings, match, tunes, events)
        except computer.SharedCardsOverflow as fault:      # the original goes wrong here: stop
            events.append(fault.event())
            return events
        played += 1
        if game_over:
            shutout = events[-1]["shutout"]
            random.message_colour()                     # "... WON THE GAME! (...)" (line 3160)
            random.message_colour()                     # "... GET n GAME POINTS" (line 3280)
            if shutout:
                random.message_colour()                 # "... SKUNKED ..." (line 3360)
        if played >= hands:
            return events
        if game_over:                                   # line 3400: GOTO 1120, a new game
            match.new_game()
            next_dealer = random.dealer()               # line 1790
        dealt = original.deal_hand(random, next_dealer, dealt.back, settings.sound)


def play_hand(hand: "computer.Hand", settings: Settings, match: Match, tunes: "computer.Tunes",
              events: list[dict]) -> tuple[int, bool]:
    """One hand (the computer on both sides, or a policy in your seat) and its score (lines
    2230-3060), its events written into ``events`` as they happen (the match writes the
    score there too); returns the next dealer and whether the game is over."""
    hand.events = events                              # the hand's events, as they happen
    hand.play()
    if not hand.knocker:
        return hand.player, False                     # line 2600: the last mover deals
    score, knocker, knocker_pv, other_pv = hand.outcome
    hand.finish(settings.sound, tunes)
    result = match.score_hand(score, player_name(knocker), knocker_pv, other_pv)
    return hand.winner, result is not None            # line 3060: the winner deals


def trace_start(settings: Settings, source: str = "python") -> dict:
    return trace.start_event(time=format_time(settings.time), variant=settings.variant,
                             sound=settings.sound, open_hands=settings.open_hands,
                             demo=settings.demo, rnd_seed=seed_state(settings.time), source=source,
                             colour=settings.colour, human=settings.human)
