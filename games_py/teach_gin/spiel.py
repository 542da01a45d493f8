"""Teach's GinRummy through the one game interface (games_py.interface): one hand.

As OpenSpiel's gin_rummy does, a state is one hand: the game runs with a score limit of
0, which the document defines as "exactly one hand will be played, even if it ends in a
draw" (seed 001 line 127), so the rules' own ``finish_hand`` settles it and ends the
game.  The deal comes from the game's seeded generator (``rules.new_game``), as the
terminal game's does, so there is no chance node.  The returns are the points the hand
scores, as a difference: the winner +points, the loser -points, 0 each for a draw.

Moves are the rules' own (``DrawDeck``, ``DrawPile``, ``Undo``, ``Discard(card)``,
``Knock``, ``NoKnock``, ``PlayToGin``); observations are ``observation.Observation``.
"""
from __future__ import annotations

import random

from games_py.cards import Card
from games_py.interface import TERMINAL
from games_py.teach_gin import rules
from games_py.teach_gin.observation import Observation, observe
from games_py.teach_gin.options import Options
from games_py.teach_gin.state import HAND_SIZE, GameState, Move, Phase

ONE_HAND = 0     # the score limit that plays exactly one hand (line 127)


class TeachHand:
    """One hand of Teach's GinRummy as an interface ``State`` around the rules' GameState."""

    def __init__(self, game: GameState):
        self.game = game

    def current_player(self) -> int:
        return TERMINAL if self.game.over else self.game.hand.to_move

    def legal_actions(self) -> list[Move]:
        return [] if self.game.over else rules.legal_moves(self.game.hand)

    def chance_outcomes(self) -> list:
        return []

    def apply_action(self, action: Move) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not a legal action now")
        rules.play_move(self.game, action)

    def is_terminal(self) -> bool:
        return self.game.over

    def returns(self) -> list[float]:
        a, b = self.game.scores
        return [float(a - b), float(b - a)]

    def observation(self, player: int) -> Observation:
        return observe(self.game.hand, player)

    def hidden_from(self, player: int) -> set[Card]:
        """The stock and the other hand, less what the other took face up from the pile."""
        hand = self.game.hand
        other = hand.hands[1 - player]
        seen = set(observe(hand, player).opponent_holds)
        return set(hand.stock) | {c for c in other if c not in seen}

    def action_to_string(self, action: Move) -> str:
        return str(action)

    def clone(self) -> "TeachHand":
        return TeachHand(self.game.clone())

    def invariant_violations(self) -> list[str]:
        g, h = self.game, self.game.hand
        out = []
        cards = h.all_cards()
        if len(cards) != 52 or len(set(cards)) != 52:
            out.append(f"{len(cards)} cards, {len(set(cards))} different: not the 52 once each")
        for p in (0, 1):
            want = HAND_SIZE + (1 if h.phase is Phase.DISCARD and p == h.to_move else 0)
            if len(h.hands[p]) != want:
                out.append(f"seat {p} holds {len(h.hands[p])} cards in the {h.phase.value} phase, not {want}")
        if min(g.scores) < 0:
            out.append(f"a negative score {g.scores}")
        if g.over:
            r = h.result
            if r is None or g.history[-1] is not r:
                out.append("the game is over but its hand has no result")
            else:
                expect = [0, 0]
                if r.winner is not None:
                    expect[r.winner] = r.points
                if g.scores != expect:
                    out.append(f"scores {g.scores} but the hand's result gives {expect}")
            if self.returns() != [float(g.scores[0] - g.scores[1]), float(g.scores[1] - g.scores[0])]:
                out.append("returns disagree with the scores")
        return out


class TeachGame:
    """``GAME``: one hand of Teach's GinRummy with the document's default options."""

    name = "teach_gin"
    num_players = 2

    def __init__(self, options: Options | None = None):
        self.options = (options or Options()).with_(score_limit=ONE_HAND)

    def new_initial_state(self, seed: int | None = None) -> TeachHand:
        return TeachHand(rules.new_game(self.options, random.Random(seed)))


GAME = TeachGame()
