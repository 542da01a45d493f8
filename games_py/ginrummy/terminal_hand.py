"""Your side of the table at the terminal: the hand whose messages are drawn, and your keys.

``TerminalHand`` is ``human_hand.HumanHand`` (the original's hand with your three
prompts) telling the session (games_py.ginrummy.terminal) the text of each message
the engine is about to show, so the session can draw it in the colour the engine
spends on it (line 12640); player 1 is the computer's while demo mode is on (FNCOMP,
line 350, reads DEMO).  ``KeyboardPolicy`` is a ``human.HumanPolicy`` answering the
prompts with the keys the original accepts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games_py.cards import Card
from games_py.ginrummy import deal as original
from games_py.ginrummy import human, rules
from games_py.ginrummy.computer import DemoHand
from games_py.ginrummy.human_hand import YOU, HumanHand

if TYPE_CHECKING:
    from games_py.ginrummy.terminal import Session

ME = 2
PLACE_KEYS = "123456789AB"          # the discard prompt's keys: places 1..11


class TakeOver(Exception):
    """F2 at a prompt: demo mode is on and the computer answers the prompt."""


def who(player: int) -> str:
    return "YOU" if player == YOU else "I"


def who_is(player: int) -> str:
    return "YOU'RE" if player == YOU else "I'M"


@dataclass
class TerminalHand(HumanHand):
    """A hand at the terminal: ``HumanHand`` whose messages are drawn on the screen.
    Player 1 is the computer's while demo mode is on (FNCOMP, line 350, reads DEMO)."""

    session: "Session | None" = None
    revealed: bool = False                  # the hand's end shows the computer's hand
    laid_off_places: set = field(default_factory=set)
    first_event: int = 0                    # where this hand's events begin in ``events``
    _skip_message: bool = False

    def _demo(self, p: int) -> bool:
        return p != YOU or self.session.demo

    def _plays_itself(self, p: int) -> bool:
        return self._demo(p)

    def _message(self) -> None:
        if self._skip_message:             # the NUTS prompt was this message (see Session.nuts)
            self._skip_message = False
            return
        super()._message()

    def _ask(self, p: int, prompt: str, computer_decides, you_decide):
        """A decision of player ``p``: in demo mode the computer's; otherwise the prompt is shown
        and your key read, and F2 there (TakeOver) clears the prompt's line and lets the
        computer decide, as the original does."""
        if self._demo(p):
            return computer_decides(self, p)
        self.session.say_next(prompt, "")
        try:
            return you_decide(self, p)
        except TakeOver:
            self._message()
            return computer_decides(self, p)

    def _knocks(self, p: int) -> bool:
        s = self.session
        knocks = self._ask(p, human.KNOCK_PROMPT, DemoHand._knocks, HumanHand._knocks)
        s.say_next()
        if knocks:
            s.say_next(f"PLAYER {p} KNOCKS")
        return knocks

    def _takes_upcard(self, p: int) -> bool:
        s = self.session
        prompt = human.DRAW_PROMPT if self.t.pile_top() is not None else human.DRAW_DECK_PROMPT
        take = self._ask(p, prompt, DemoHand._takes_upcard, HumanHand._takes_upcard)
        source = "THE UPCARD" if take and self.t.pile_top() is not None else "FROM DECK"
        s.say_next(f"{who_is(p)} DRAWING {source}", "")
        return take

    def _discard_place(self, p: int) -> int:
        s = self.session
        k = self._ask(p, human.DISCARD_PROMPT, DemoHand._discard_place, HumanHand._discard_place)
        s.say_next(f"{who_is(p)} DISCARDING CARD {k}", "")
        return k

    def shown_pv(self, p: int) -> int:
        """PV(p) on the screen: the knocker's opponent's counts his lay-offs once they are made."""
        if self.outcome is not None and p != self.knocker:
            return self.outcome[3]
        return self.t.pv[p]

    def _settle(self) -> None:
        self.revealed = True                # both hands face up from the knock's scoring on
        super()._settle()
        s = self.session
        if self.outcome is None:
            return
        score, knocker, _k, _o = self.outcome
        other = 3 - knocker
        laid = {original.number_of(Card.parse(e["card"]))
                for e in self.events[self.first_event:] if e["event"] == "layoff"}
        places = self.t.hands[other][1:self.t.hands[other][0] + 1]
        self.laid_off_places = {k for k, c in enumerate(places, 1) if c in laid}
        texts = []
        if score.result == rules.GIN:
            texts.append(f"{who(knocker)} GO GIN!")
        elif self.laid_off:
            layer = "I AM" if other == ME else "YOU ARE"
            texts.append(f"{layer} LAYING OFF CARD " + " ".join(str(k) for k in sorted(self.laid_off_places)))
        winner = knocker if score.knocker_wins else other
        if winner != knocker:
            texts.append("YOU UNDERCUT ME!" if winner == YOU else "TA TA, AN UNDERCUT!")
        points = f"{score.points} POINT{'' if score.points == 1 else 'S'}"
        texts.append(f"{who(winner)} WON THE HAND! ({points}, {s.seconds_since(s.hand_started)} SECS)")
        s.say_next(*texts)


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
