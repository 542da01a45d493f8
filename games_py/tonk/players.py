"""Players: the computer opponent, a random player (for tests) and a scripted one.

A player sees the hand through an Observation, never the opponent's hidden cards,
so the computer cannot cheat.  Every player has the one shape of games_py.interface:
``choose(observation, legal_actions)``.  Calling tonk at the start of somebody else's
turn ('EITHER PLAYER MAY CALL TONK') is a choice between the legal actions TONK and
WAIT (see spiel.py for when that call window opens).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol, Sequence

from games_py.cards import Card, full_deck
from games_py.tonk.rules import is_ten_card_hand, meld_options, unmatched_points
from games_py.tonk.state import Action, Kind, Phase, TonkState


@dataclass(frozen=True)
class Observation:
    """What ``player`` can see: his own hand, everything face up, the counts."""
    player: int
    phase: Phase
    current: int
    dealer: int
    breaker: int | None
    hand: tuple[Card, ...]
    plucked: Card | None
    opponent_hand_size: int
    tables: tuple[tuple[tuple[Card, ...], ...], ...]
    pile: tuple[Card, ...]
    stock_size: int
    plays: int
    after_break: bool
    opponent_draws: int                 # how many turns the opponent has drawn/plucked
    opponent_returned: tuple[Card, ...]  # upcards the opponent plucked and gave back

    @classmethod
    def of(cls, state: TonkState, player: int) -> "Observation":
        opp = (player + 1) % state.num_players
        draws = sum(1 for a in state.history if a.player == opp and a.kind in (Kind.DRAW, Kind.PLUCK))
        returned = tuple(a.cards[0] for a in state.history if a.player == opp and a.kind is Kind.RETURN)
        return cls(player, state.phase, state.current, state.dealer, state.breaker,
                   tuple(state.hands[player]),
                   state.plucked if state.current == player else None,
                   len(state.hands[opp]),
                   tuple(tuple(tuple(m) for m in t) for t in state.tables),
                   tuple(state.pile), len(state.stock), state.plays, state.after_break,
                   draws, returned)

    def unseen(self) -> list[Card]:
        """Cards this player has not seen: in the deck or the opponent's hand."""
        seen = set(self.hand) | set(self.pile)
        if self.plucked is not None:
            seen.add(self.plucked)
        for table in self.tables:
            for meld in table:
                seen |= set(meld)
        return [c for c in full_deck() if c not in seen]


class Player(Protocol):
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action: ...


def is_call_window(legal: Sequence[Action]) -> bool:
    """Whether the question is only 'call tonk now, or let the other play?'."""
    return any(a.kind is Kind.WAIT for a in legal)


def _of_kind(legal: Sequence[Action], kind: Kind) -> Action | None:
    return next((a for a in legal if a.kind is kind), None)


# Average unmatched points of a random hand of n cards (measured over random deals:
# about 6.1 points a card); the opponent's real hand is better the longer he plays.
_POINTS_PER_RANDOM_CARD = 6.1


class ComputerPlayer:
    """A steady opponent: melds what it can, keeps its count low, and calls tonk
    when its count is well under what the opponent probably holds ('ALL YOU HAVE TO
    KNOW IS THAT YOU'VE GOT AS GOOD OR A BETTER HAND, THEN TONK').

    ``caution`` is how far under the opponent's estimated count its own count must
    be before it tonks.  In 600-hand matches between computers, values from 0.8 to
    1.0 came out about even, while 0.6 and below or 1.2 and above lost money; 0.9
    sits in the middle.
    """

    def __init__(self, rng: random.Random | None = None, caution: float = 0.9):
        self.rng = rng or random.Random(0)
        self.caution = caution

    # -- tonk decisions
    def estimated_opponent_points(self, obs: Observation) -> float:
        unseen = obs.unseen()
        per_card = (sum(c.pip_value for c in unseen) / len(unseen)) if unseen else 6.5
        per_card *= _POINTS_PER_RANDOM_CARD / 6.5
        # each draw lets the opponent improve; 0.9 a turn is a rough, honest guess
        return obs.opponent_hand_size * per_card * (0.9 ** obs.opponent_draws)

    def wants_tonk(self, obs: Observation, legal: Sequence[Action]) -> bool:
        if _of_kind(legal, Kind.TONK) is None:
            return False
        if obs.plays == 0 and is_ten_card_hand(obs.hand):
            return True
        mine = unmatched_points(obs.hand)
        if mine == 0:
            return True
        return mine <= self.caution * self.estimated_opponent_points(obs)

    @staticmethod
    def sure_win(obs: Observation) -> bool:
        """On the opponent's turn it calls only with a sure win: a ten-card hand before
        play, or zero unmatched points (nobody can undercut zero)."""
        return (obs.plays == 0 and is_ten_card_hand(obs.hand)) or unmatched_points(obs.hand) == 0

    # -- moves
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        legal = list(legal)
        kinds = {a.kind: a for a in legal}
        if is_call_window(legal):
            return kinds[Kind.TONK] if self.sure_win(obs) else kinds[Kind.WAIT]
        if obs.phase is Phase.TURN:
            if Kind.TONK in kinds and self.wants_tonk(obs, legal):
                return kinds[Kind.TONK]
            if Kind.END in kinds:
                return kinds[Kind.END]
            if Kind.PLUCK in kinds and obs.pile:
                best = self._best_pluck(obs.hand, obs.pile[-1])
                if best is not None and best[0] < unmatched_points(obs.hand):
                    return kinds[Kind.PLUCK]
            return kinds[Kind.DRAW]
        if obs.phase is Phase.PLUCKED:
            melds = [a for a in legal if a.kind is Kind.MELD]
            if not melds:
                return kinds[Kind.RETURN]
            return min(melds, key=lambda a: (self._after_meld(obs.hand, a.cards), -len(a.cards)))
        return min(legal, key=lambda a: self._discard_key(obs, a))

    def _after_meld(self, hand: Sequence[Card], cards: Sequence[Card]) -> int:
        """Lowest count reachable by melding ``cards`` and then discarding or hitting
        (both just take one card out of the hand)."""
        rest = [c for c in hand if c not in cards]
        return min(self._after_discard(rest, c) for c in rest)

    @staticmethod
    def _after_discard(hand: Sequence[Card], card: Card) -> int:
        return unmatched_points([c for c in hand if c != card])

    def _best_pluck(self, hand: Sequence[Card], upcard: Card) -> tuple[int, tuple[Card, ...]] | None:
        options = meld_options(hand, upcard)
        if not options:
            return None
        return min((self._after_meld(hand, cards), cards) for cards in options)

    def _discard_key(self, obs: Observation, action: Action):
        card = action.cards[0]
        after = self._after_discard(obs.hand, card)
        # equal counts: hit first (the card is safe on the table), then throw the higher
        # card, then the card with fewest partners in hand (least likely to become a meld)
        partners = sum(1 for c in obs.hand if c != card and
                       (c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2)))
        # a card the opponent already gave back is one he cannot use: safer to throw
        safe = card.rank in {c.rank for c in obs.opponent_returned}
        return (after, action.kind is not Kind.HIT, -card.pip_value, partners, not safe, str(card))


class RandomPlayer:
    """Uniformly random legal moves, with tonk rare so hands reach the break."""

    def __init__(self, rng: random.Random, tonk_chance: float = 0.03, pass_chance: float = 0.3):
        self.rng = rng
        self.tonk_chance = tonk_chance
        self.pass_chance = pass_chance

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        legal = list(legal)
        if is_call_window(legal):
            call = self.rng.random() < self.tonk_chance / 3
            return _of_kind(legal, Kind.TONK if call else Kind.WAIT)
        tonk = [a for a in legal if a.kind is Kind.TONK]
        rest = [a for a in legal if a.kind is not Kind.TONK]
        if tonk and (not rest or self.rng.random() < self.tonk_chance):
            return tonk[0]
        if obs.phase is Phase.TURN:
            kinds = {a.kind: a for a in rest}
            if Kind.PLUCK in kinds and self.rng.random() < self.pass_chance:
                return kinds[Kind.PLUCK]
            return kinds.get(Kind.DRAW) or kinds.get(Kind.END) or self.rng.choice(rest)
        return self.rng.choice(rest)


class ScriptedPlayer:
    """Plays moves from a list of callables or fixed Actions (for tests and replays).
    In a call window it calls tonk when ``interrupts(obs)`` says so, else waits."""

    def __init__(self, moves: Iterable[Action | Callable[[Observation], Action]],
                 interrupts: Callable[[Observation], bool] | None = None):
        self.moves = list(moves)
        self.interrupts = interrupts

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if is_call_window(legal):
            call = bool(self.interrupts and self.interrupts(obs))
            return _of_kind(legal, Kind.TONK if call else Kind.WAIT)
        if not self.moves:
            raise RuntimeError("scripted player ran out of moves")
        move = self.moves.pop(0)
        return move(obs) if callable(move) else move
