"""Your seat at the original's table: a ``HumanPolicy`` answers the prompts.

The engine (``computer.Hand``) asks a seat that is not the computer's as the
original asks you (FNCOMP false, line 350; the prompts and what each costs:
``computer.Hand``).  ``PolicySeat`` answers from a policy (``simple``,
``random:SEED``, the keyboard); ``table_view`` makes the ``HumanView`` from the
program's own tables, and the tracer of the original builds it with the same
function from the arrays it reads.
"""
from __future__ import annotations

from typing import Sequence

from games_py.ginrummy import human
from games_py.ginrummy.computer import DISCARD, DRAW, KNOCK, PILE, Question
from games_py.ginrummy.deal import card_of
from games_py.ginrummy.player import YOU

DECK_SIZE = 52


def table_view(hands: Sequence[Sequence[int]], unmatched: int, points: int, top: int, turn: int,
               knock: int, double: bool, variant: str, open_hands: bool,
               player: int = YOU) -> human.HumanView:
    """The view of ``player`` (you, player 1, unless said) from H(3, 52) (``hands[p][k]``),
    UNMATCHED(p), PV(p), TOP, TURN and the knock value."""
    mine = hands[player]
    places = tuple(card_of(c) if c > 0 else None for c in mine[1:mine[0] + 1])
    held = sum(1 for c in places if c is not None)
    pile = tuple(card_of(c) for c in hands[PILE][1:hands[PILE][0] + 1])
    other = hands[3 - player]
    opponent = tuple(card_of(c) for c in other[1:other[0] + 1] if c > 0) if open_hands else None
    return human.HumanView(places=places, unmatched_from=held - unmatched + 1, points=points,
                           upcard=pile[-1] if pile else None, pile=pile, knock=knock,
                           double=double, stock=DECK_SIZE - top, turn=turn, variant=variant,
                           opponent=opponent)


class PolicySeat:
    """A seat whose decisions come from ``policy`` (never the computer's: FNCOMP false)."""

    def __init__(self, policy: human.HumanPolicy) -> None:
        self.policy = policy

    def plays_itself(self) -> bool:
        return False

    def answer(self, question: Question):
        ask = {KNOCK: self.policy.knock, DRAW: self.policy.draw, DISCARD: self.policy.discard}
        return ask[question.kind](question.view)


def your_seat(policy: human.HumanPolicy) -> dict:
    """The seats of a hand with ``policy`` playing yours (the computer plays the other)."""
    return {YOU: PolicySeat(policy)}
