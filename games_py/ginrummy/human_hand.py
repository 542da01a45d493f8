"""A hand of the original with you at the table: player 1's moves come from a HumanPolicy.

``HumanHand`` is ``computer.DemoHand`` with FNCOMP (line 350) false for player 1:
where the computer decides, the original asks you (docs/ginrummy-internals.md,
section 14), and each question costs what it costs in the original:

* knock (lines 5030-5060, 5750-5890): no question while the knock value is not set
  or your PV is above it (and not 0); else "KNOCK? " and the cleared message line:
  two message colours (FNR(4) each in colour);
* draw (lines 3640-3670, 5320-5460): "DRAW FROM UPCARD (U) OR DECK (D)? " and the
  cleared line, then the draw itself as for the computer (line 3910 on);
* discard (lines 4110-4140, 5480-5730): "DISCARD WHICH CARD (1-9,A,B)? ", then the
  cleared line, or, for a card of a meld, "ARE YOU NUTS? YOU ARE SPOILING A MATCHED
  SET! CANCEL?" answered N, which returns without clearing; then the discard as for
  the computer (line 4730 on);
* your arrangements (deal, line 3540, line 5000) have no thinking pause (line 8400
  asks FNCOMP) and your hand is never shuffled for hiding (line 9660).

``table_view`` makes the ``HumanView`` from the program's own tables; the tracer of
the original builds it with the same function from the arrays it reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from games_py.ginrummy import human, trace
from games_py.ginrummy.computer import PILE, DemoHand
from games_py.ginrummy.deal import card_of

YOU = 1
DECK_SIZE = 52


def table_view(hands: Sequence[Sequence[int]], unmatched: int, points: int, top: int, turn: int,
               knock: int, double: bool, variant: str, open_hands: bool) -> human.HumanView:
    """The view of player 1 from H(3, 52) (``hands[p][k]``), UNMATCHED(1), PV(1), TOP,
    TURN and the knock value."""
    mine = hands[YOU]
    places = tuple(card_of(c) if c > 0 else None for c in mine[1:mine[0] + 1])
    held = sum(1 for c in places if c is not None)
    pile = tuple(card_of(c) for c in hands[PILE][1:hands[PILE][0] + 1])
    other = hands[2]
    opponent = tuple(card_of(c) for c in other[1:other[0] + 1] if c > 0) if open_hands else None
    return human.HumanView(places=places, unmatched_from=held - unmatched + 1, points=points,
                           upcard=pile[-1] if pile else None, pile=pile, knock=knock,
                           double=double, stock=DECK_SIZE - top, turn=turn, variant=variant,
                           opponent=opponent)


@dataclass
class HumanHand(DemoHand):
    """One hand with ``policy`` playing player 1 (you) and the computer player 2."""

    policy: human.HumanPolicy | None = None

    def view(self) -> human.HumanView:
        t = self.t
        double = t.oklahoma and t.knock_suit == self.doubling_suit
        return table_view(t.hands, t.unmatched[YOU], t.pv[YOU], t.top, t.turn, t.knock_value, double,
                          variant=self.variant, open_hands=t.open_hands)

    def _plays_itself(self, p: int) -> bool:
        return p != YOU

    def _knocks(self, p: int) -> bool:
        if p != YOU:
            return super()._knocks(p)
        t = self.t
        if not t.knock_set:                                            # line 5760
            return False
        if t.pv[YOU] > 0 and t.pv[YOU] > t.knock_value:                # line 5770
            return False
        self._message()                                                # "KNOCK? " (5780)
        knocks = human.checked_knock(self.policy, self.view())
        self._message()                                                # cleared (5880)
        if not knocks:
            self.events.append(trace.knock_declined_event(trace.YOU, t.pv[YOU]))
        return knocks

    def _takes_upcard(self, p: int) -> bool:
        if p != YOU:
            return super()._takes_upcard(p)
        self._message()                                                # "DRAW FROM ..." (5340)
        answer = human.checked_draw(self.policy, self.view())
        self._message()                                                # cleared (5450)
        return answer == human.UPCARD

    def _discard_place(self, p: int) -> int:
        if p != YOU:
            return super()._discard_place(p)
        self._message()                                                # "DISCARD WHICH CARD" (5490)
        place = human.checked_discard(self.policy, self.view())
        self._message()            # cleared (5620), or "ARE YOU NUTS? ..." (5660), answered N
        return place
