"""David Teach's Cribbage on the one game interface (``games_py.interface``).

A state is one whole game (to 121 or 61 points), as the original plays it.  The
cut for deal, the deals and the starter come from a generator seeded by
``new_initial_state(seed)`` and kept inside the state, so there are no chance nodes and
a seed names the same game in the terminal UI, the demo and the property test; the show
is counted by the rules without anyone choosing.  Each of those automatic steps runs as
soon as it is due, so ``current_player`` is always a seat or ``TERMINAL``.

Actions are the rules' own: ``Discard((card, card))`` while laying away to the crib,
``Play(card)`` while pegging.  A discard names its two cards in the order the rules
list them; ``rules.canonical`` finds that order for a discard typed the other way round.
Observations are ``PlayerView``: the seat's own cards and the table, never the other
hand.  Returns: the winner gets the game's wins (2 for a skunk with SKUNKING on, else
1), the loser the opposite.
"""
from __future__ import annotations

import random
from typing import Callable
from games_py.cards import full_deck
from games_py.cribbage import render, rules
from games_py.cribbage.scoring import MAX_COUNT
from games_py.cribbage.state import (
    Action, Discard, Event, GameState, Phase, Play, PlayerView, PLAYERS)
from games_py.interface import TERMINAL

DECK = frozenset(full_deck())


class CribbageState:
    def __init__(self, seed: int | None = None, limit: int = 121, skunking: bool = False,
                 game: GameState | None = None, rng: random.Random | None = None) -> None:
        self.game = game if game is not None else rules.new_game(limit, skunking)
        self.rng = rng if rng is not None else random.Random(seed)
        self.events: list[Event] = []      # everything that happened, in order
        self.pegged = [0, 0]               # the points of those events, by seat
        # Each seat's two pegs: the front one in the hole of its score, the back one in the
        # hole it left when it last pegged (both in the start holes at 0).
        self.back_pegs = [0, 0]
        # Called with the events of each step as soon as it is done, before the next
        # automatic step runs: a UI can show the show before the next deal.
        self.observer: Callable[[list[Event]], None] | None = None
        self._advance()

    # -- the interface -------------------------------------------------------
    def current_player(self) -> int:
        if self.game.is_over:
            return TERMINAL
        player = self.game.current_player()
        assert player is not None        # automatic steps never wait (see _advance)
        return player

    def legal_actions(self) -> list[Action]:
        return rules.legal_actions(self.game)

    def chance_outcomes(self) -> list:
        return []

    def apply_action(self, action: Action) -> list[Event]:
        """Play ``action``; returns the events it caused (the automatic steps after it too)."""
        if self.game.is_over:
            raise ValueError("the game is over")
        if not rules.is_legal(self.game, action):
            raise ValueError(f"{self.action_to_string(action)} is not legal now")
        start = len(self.events)
        self._record(rules.apply(self.game, action))
        self._advance()
        return self.events[start:]

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        if not self.game.is_over:
            return [0.0, 0.0]
        result = rules.result(self.game)
        out = [float(-result.wins)] * 2
        out[result.winner] = float(result.wins)
        return out

    def observation(self, player: int) -> PlayerView:
        return self.game.view(player)

    def hidden_from(self, player: int) -> set:
        """The other hand, the stock, and the other player's two cards in the crib."""
        g = self.game
        return set(g.hands[1 - player]) | set(g.deck) | (set(g.crib) - set(g.discarded[player]))

    def action_to_string(self, action: Action) -> str:
        if isinstance(action, Discard):
            return f"lay away {render.small_cards(action.cards)}"
        if isinstance(action, Play):
            return f"play {action.card}"
        return repr(action)

    def invariant_violations(self) -> list[str]:
        g, problems = self.game, []
        if g.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL) or g.hand_number:
            cards = g.all_cards()
            if len(cards) != 52 or set(cards) != DECK:
                problems.append(f"{len(cards)} cards (of {len(set(cards))} kinds), not the 52")
        if g.count > MAX_COUNT:
            problems.append(f"the count is {g.count}, past 31")
        if len(g.crib) not in (0, 2, 4):
            problems.append(f"the crib holds {len(g.crib)} cards")
        if any(len(g.hands[p]) + len(g.played[p]) > 6 for p in PLAYERS):
            problems.append("a hand holds more than six cards")
        for p in PLAYERS:
            if not 0 <= g.scores[p] <= g.limit:
                problems.append(f"seat {p}'s peg is in hole {g.scores[p]} of {g.limit}")
        pegged = self.pegged
        for p in PLAYERS:
            if g.scores[p] != min(g.limit, pegged[p]):
                problems.append(f"seat {p}'s score {g.scores[p]} is not the {pegged[p]} pegged")
        for p in PLAYERS:
            front, back = self.pegs(p)
            if not (back < front or back == front == 0):
                problems.append(f"seat {p}'s back peg in hole {back}, front peg in {front}")
        if g.is_over:
            if g.winner is None or g.scores[g.winner] != g.limit \
                    or g.scores[1 - g.winner] >= g.limit:
                problems.append(f"game over at {g.scores} with winner {g.winner}")
            elif self.returns()[g.winner] <= 0 or sum(self.returns()) != 0:
                problems.append(f"returns {self.returns()} do not name winner {g.winner}")
        elif g.phase is Phase.PLAY and not rules.playable(g, g.to_move):
            problems.append(f"seat {g.to_move} is to play but cannot")
        return problems

    # -- for the UIs -----------------------------------------------------------
    def _advance(self) -> None:
        """Run the steps nobody chooses (cuts, deals, the starter, the show)."""
        while not self.game.is_over and self.game.current_player() is None:
            self._record(rules.step(self.game, self.rng))

    def _record(self, events: list[Event]) -> None:
        self.events += events
        if self.observer is not None and events:
            self.observer(events)
        for event in events:
            if event.player is not None and event.points:
                self.back_pegs[event.player] = min(self.pegged[event.player], self.game.limit)
                self.pegged[event.player] += event.points

    def pegs(self, player: int) -> tuple[int, int]:
        """(front, back): the holes of ``player``'s two pegs (0 is the start)."""
        return self.game.scores[player], self.back_pegs[player]


class CribbageGame:
    name = "cribbage"
    num_players = 2

    def __init__(self, limit: int = 121, skunking: bool = False) -> None:
        self.limit, self.skunking = limit, skunking

    def new_initial_state(self, seed: int | None = None) -> CribbageState:
        return CribbageState(seed, self.limit, self.skunking)


GAME = CribbageGame()
