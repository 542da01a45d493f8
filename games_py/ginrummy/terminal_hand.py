"""Your seat at the terminal, and the hand's decisions told on the screen.

``TerminalSeat`` is your seat while you play it: the keyboard answers the prompts
(``KeyboardPolicy``, a ``human.HumanPolicy`` accepting the keys the original
accepts); while demo mode is on the computer plays it (FNCOMP, line 350, reads
DEMO), and F2 at a prompt hands that prompt to the computer (``TAKE_OVER``).
``Narrator`` hears each decision of either seat and tells the session the text of
the messages the engine is about to show, so the session can draw each in the
colour the engine spends on it (line 12640).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games_py.ginrummy import human
from games_py.ginrummy.computer import DISCARD, DRAW, KNOCK, TAKE_OVER, Hand, Question
from games_py.ginrummy.player import YOU, Player

if TYPE_CHECKING:
    from games_py.ginrummy.terminal import Session

PLACE_KEYS = "123456789AB"          # the discard prompt's keys: places 1..11


class TakeOver(Exception):
    """F2 at a prompt: demo mode is on and the computer answers the prompt."""


def who(player: int) -> str:
    return "YOU" if player == YOU else "I"


def who_is(player: int) -> str:
    return "YOU'RE" if player == YOU else "I'M"


class TerminalSeat:
    """Your seat: the keyboard's, or the computer's while demo mode is on."""

    def __init__(self, session: "Session") -> None:
        self.session = session
        self.policy = KeyboardPolicy(session)

    def plays_itself(self) -> bool:
        return self.session.demo

    def answer(self, question: Question):
        ask = {KNOCK: self.policy.knock, DRAW: self.policy.draw, DISCARD: self.policy.discard}
        try:
            return ask[question.kind](question.view)
        except TakeOver:
            return TAKE_OVER


class Narrator:
    """The texts of the messages each decision brings, for the session to draw."""

    def __init__(self, session: "Session") -> None:
        self.session = session

    def asking(self, hand: Hand, player: Player, kind: str) -> None:
        if kind == DRAW and hand.t.pile_top() is None:
            prompt = human.DRAW_DECK_PROMPT
        else:
            prompt = {KNOCK: human.KNOCK_PROMPT, DRAW: human.DRAW_PROMPT, DISCARD: human.DISCARD_PROMPT}[kind]
        self.session.say_next(prompt, "")

    def decided(self, hand: Hand, player: Player, kind: str, answer) -> None:
        s = self.session
        if kind == KNOCK:
            s.say_next()
            if answer:
                s.say_next(f"PLAYER {int(player)} KNOCKS")
        elif kind == DRAW:
            source = "THE UPCARD" if answer and hand.t.pile_top() is not None else "FROM DECK"
            s.say_next(f"{who_is(player)} DRAWING {source}", "")
        else:
            s.say_next(f"{who_is(player)} DISCARDING CARD {answer}", "")


class KeyboardPolicy:
    """``HumanPolicy`` from the keyboard: the prompt is on the screen (the hand drew it
    as the original does); the keys the original accepts answer it, others are ignored."""

    def __init__(self, session: "Session") -> None:
        self.session = session

    def draw(self, view: human.HumanView) -> str:
        while True:
            key = self.session.prompt_key()
            if key == "U" and view.upcard is not None:
                return human.UPCARD
            if key == "D":
                return human.DECK

    def discard(self, view: human.HumanView) -> int:
        while True:
            key = self.session.prompt_key()
            place = PLACE_KEYS.find(key) + 1 if len(key) == 1 else 0
            if place < 1 or place > len(view.places) or view.places[place - 1] is None:
                continue
            if place < view.unmatched_from and self.session.nuts():
                continue                                  # CANCEL? Y: choose again
            return place

    def knock(self, view: human.HumanView) -> bool:
        while True:
            key = self.session.prompt_key()
            if key in ("Y", "N"):
                return key == "Y"
