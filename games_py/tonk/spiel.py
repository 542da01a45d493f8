"""Tonk through the one game interface (games_py.interface): one hand is one game.

As OpenSpiel's card games do, a state is one deal: the dealer and the deck come from the
same seeded shuffle and cut the terminal game uses (``match.Session``), so there is no
chance node.  The returns are the stakes the hand pays: the winner +1 (+2 after an
undercut), the loser the opposite, 0 each for a dead hand (its bet is carried over).

Calling tonk out of turn ('EITHER PLAYER MAY CALL TONK (IF IT IS THE COMPUTER'S TURN,
JUST HIT "T" BEFORE THE COMPUTER MAKES A PLAY)') becomes a *call window*: at the start of
a turn the seat that is not up is asked, with the legal actions TONK and WAIT, whether it
calls.  When it is asked follows 'THE COMPUTER GIVES YOU A HANDICAP': a ``patient`` seat
(the human's, seat 0 by default) is asked before the player up moves; any other seat
after the player up has chosen and before that move is made, so a computer's tonk beats
the human's pluck or draw but not the human's own T.  The chosen move waits in
``pending`` meanwhile; it is not part of any observation (the answer cannot depend on it).
"""
from __future__ import annotations

import random
from typing import Sequence

from games_py.cards import Card
from games_py.interface import TERMINAL
from games_py.tonk.players import Observation
from games_py.tonk.rules import DEADLOCK_RETURNS_EACH, apply_action, legal_actions, unmatched_points
from games_py.tonk.state import HAND_SIZE, NUM_PLAYERS, Action, Kind, Phase, TonkState


class TonkHand:
    """One hand of Tonk as an interface ``State`` around a ``TonkState`` (the rules' state)."""

    def __init__(self, hand: TonkState, patient: Sequence[bool] = (True, False)):
        self.hand = hand
        self.patient = tuple(patient) + (False,) * (hand.num_players - len(patient))
        self.pending: Action | None = None      # the up player's move, held during a call window
        self._asked: set[int] = set()           # seats asked in this turn's call windows
        self._hits = [0] * hand.num_players
        self.applied: list[Action] = []          # the rules' moves made by the last apply_action

    # -- whose turn ----------------------------------------------------------------------
    def _window_seat(self) -> int | None:
        """The seat to ask now whether it calls tonk out of turn, if any."""
        h = self.hand
        if h.phase is not Phase.TURN:
            return None
        for k in range(1, h.num_players):
            seat = (h.current + k) % h.num_players
            due = self.patient[seat] if self.pending is None else not self.patient[seat]
            if due and seat not in self._asked and Action(Kind.TONK, seat) in legal_actions(h, seat):
                return seat
        return None

    def current_player(self) -> int:
        if self.hand.over:
            return TERMINAL
        seat = self._window_seat()
        return self.hand.current if seat is None else seat

    def legal_actions(self) -> list[Action]:
        if self.hand.over:
            return []
        seat = self._window_seat()
        if seat is not None:
            return [Action(Kind.TONK, seat), Action(Kind.WAIT, seat)]
        return legal_actions(self.hand, self.hand.current)

    def chance_outcomes(self) -> list:
        return []

    # -- moves ---------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Play ``action``; ``applied`` then lists the rules' moves it made (none while a
        move waits for a call window, two when a window closes and the move is made)."""
        if isinstance(action, Action) and action.kind is Kind.MELD:   # a meld in any order
            action = Action(Kind.MELD, action.player, tuple(sorted(action.cards)))
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"{action} is not a legal action now")
        self.applied = []
        h = self.hand
        if action.kind is Kind.WAIT:
            self._asked.add(action.player)
            if self.pending is not None and self._window_seat() is None:
                self._make(self.pending)
            return
        if action.kind is Kind.TONK or action.player != h.current:
            self._make(action)
            return
        self.pending = action if h.phase is Phase.TURN else None
        if self.pending is not None and self._window_seat() is not None:
            return                          # a seat may still call tonk before this move
        self._make(action)

    def _make(self, action: Action) -> None:
        apply_action(self.hand, action)
        self.applied.append(action)
        if action.kind is Kind.HIT:
            self._hits[action.player] += 1
        self.pending = None
        self._asked = set()          # a move made: the next call windows are a new turn's

    # -- the end -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.hand.over

    def returns(self) -> list[float]:
        o = self.hand.outcome
        if o is None or o.winner is None:      # still playing, or a dead hand
            return [0.0] * self.hand.num_players
        return [float(o.multiplier if p == o.winner else -o.multiplier)
                for p in range(self.hand.num_players)]

    # -- what each seat sees -------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        return Observation.of(self.hand, player)

    def hidden_from(self, player: int) -> set[Card]:
        """Cards ``player`` may not see: the other hands and the deck."""
        h = self.hand
        out = set(h.stock)
        for seat, cards in enumerate(h.hands):
            if seat != player:
                out |= set(cards)
        return out

    def action_to_string(self, action: Action) -> str:
        return str(action)

    def clone(self) -> "TonkHand":
        other = TonkHand(self.hand.clone(), self.patient)
        other.pending, other._asked, other._hits = self.pending, set(self._asked), list(self._hits)
        return other

    def invariant_violations(self) -> list[str]:
        h = self.hand
        out = []
        everything = h.all_cards()
        if len(everything) != 52 or len(set(everything)) != 52:
            out.append(f"{len(everything)} cards, {len(set(everything))} different: not the 52 once each")
        if h.phase is Phase.TURN or h.over:
            for p in range(h.num_players):
                if h.cards_held(p) != HAND_SIZE + self._hits[p]:
                    out.append(f"seat {p} holds {h.cards_held(p)} cards, not 7 plus {self._hits[p]} hits")
        if not h.over and h.returns_in_row >= DEADLOCK_RETURNS_EACH * h.num_players:
            out.append("the deadlock count is reached but the hand goes on")
        if h.breaker is not None and len(h.stock) >= h.num_players:
            out.append("a breaker before the break")
        o = h.outcome
        if o is not None:
            pts = tuple(unmatched_points(c) for c in h.hands)
            if o.points != pts:
                out.append(f"outcome points {o.points} but the hands count {pts}")
            r = self.returns()
            if sum(r) != 0 or (o.winner is not None and r[o.winner] != o.multiplier):
                out.append(f"returns {r} do not pay the outcome's stake x{o.multiplier}")
        return out


class TonkGame:
    """``GAME``: one hand of Tonk, the deal seeded as the terminal game seeds it."""

    name = "tonk"
    num_players = NUM_PLAYERS

    def __init__(self, no_passing: bool = False, patient: Sequence[bool] = (True, False)):
        self.no_passing = no_passing
        self.patient = tuple(patient)

    def new_initial_state(self, seed: int | None = None) -> TonkHand:
        from games_py.tonk.match import Session     # match builds its loop on this module
        rng = random.Random(f"tonk-deal-{seed}") if seed is not None else random.Random()
        return TonkHand(Session(rng, self.no_passing).new_hand(), self.patient)


GAME = TonkGame()
