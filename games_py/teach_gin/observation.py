"""What one player can see: the computer decides from this alone.

"The computer does NOT 'cheat' ... It does not look at the deck before choosing
to draw, it does not look at your hand" (doc line 108).  An Observation holds the
player's own cards and what happened in the open: the discard pile (every
discard was seen), the cards the opponent took from it, and the stock's size.
"""
from __future__ import annotations

from dataclasses import dataclass

from games_py.cards import Card
from games_py.teach_gin.state import HandState, Phase


@dataclass(frozen=True)
class Observation:
    player: int
    phase: Phase
    hand: tuple[Card, ...]
    drawn: Card | None
    drawn_from: str | None
    pile: tuple[Card, ...]                  # bottom .. top
    stock_count: int
    knock_limit: int
    doubled: bool
    play_to_gin: bool
    opponent_holds: tuple[Card, ...]        # taken from the pile, not thrown since
    opponent_discards: tuple[Card, ...]
    opponent_hand_size: int

    @property
    def top(self) -> Card:
        return self.pile[-1]


def observe(hand: HandState, player: int) -> Observation:
    other = 1 - player
    thrown = [c for who, c in hand.discards if who == other]
    # A card the other took from the pile and holds now was seen going in and not
    # seen coming out: once discarded a card can come back only from the pile, so
    # "taken at some time and in his hand now" is exactly what the table saw.
    # (Subtracting his discards instead would drop a card he threw, took back later.)
    in_hand = set(hand.hands[other])
    holds = list(dict.fromkeys(c for c in hand.taken[other] if c in in_hand))
    return Observation(
        player=player, phase=hand.phase, hand=tuple(hand.hands[player]),
        drawn=hand.drawn if hand.to_move == player else None,
        drawn_from=hand.drawn_from if hand.to_move == player else None,
        pile=tuple(hand.pile), stock_count=len(hand.stock),
        knock_limit=hand.knock_limit, doubled=hand.doubled,
        play_to_gin=hand.play_to_gin[player], opponent_holds=tuple(holds),
        opponent_discards=tuple(thrown), opponent_hand_size=len(hand.hands[other]))
