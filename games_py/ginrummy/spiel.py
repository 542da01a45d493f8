"""Tommy's Gin Rummy through the one game interface (games_py.interface): one hand is one game.

A whole game to 100 points takes a handful of hands (about 0.1 s of the engine), too
slow for a property test's 1,000 games in 30 s, so, as OpenSpiel's gin_rummy does, a
state is one hand (1,000 random hands, checked after every action as the shared property
test checks them, take about 5 s of one core).  It is the first hand the original deals when started at the time
``seed`` hundredths of a second after midnight (``--seed`` of ``play``): the same
``computer.Hand`` the game, ``demo`` and the traces play, with the original's RND inside
the state (its sequence of calls is part of the original's behaviour, so there is no
chance node).

Seat 0 is you (player 1), asked as the original asks you (``computer.Hand``): at
"KNOCK? " the actions ``KNOCK``/``NO_KNOCK``, at "DRAW FROM ..." ``UPCARD``/``DECK``, at
"DISCARD WHICH CARD" a ``Card`` of your hand.  Seat 1 is the original's computer player
and decides inside the state (its decisions spend the same RND), so it is never the
current player; ``GinRummyGame(asked=(YOU, COMPUTER))`` asks both seats instead, which
the original never does.  Where GINRUMMY.EXE itself crashes (more shared cards than its
CONF holds) or reads memory the game does not model, the hand plays on by the
document's rules, as ``play`` does, and ``faults`` says so.

As in the original, a hand in which both players keep taking the upcard never ends
(only draws from the deck bring the dead hand at the 50th card); ``interface.play``
bounds the actions.

The returns are the hand's points (docs/games/ginrummy.md): the winner + the points, the
loser the opposite, 0 each for a dead hand; they are scored by ``state.Match``, the one
place hands are scored.
"""
from __future__ import annotations

import random as _random
from typing import Sequence

from games_py.cards import Card
from games_py.ginrummy import deal, game, rules
from games_py.ginrummy.computer import (DRAW, KNOCK, PILE, ComputerSeat, Hand, Question,
                                        MeldArrays)
from games_py.ginrummy.human import DECK as DECK_ANSWER
from games_py.ginrummy.human import UPCARD as UPCARD_ANSWER
from games_py.ginrummy.human import HumanView
from games_py.ginrummy.player import COMPUTER, YOU, Player
from games_py.ginrummy.state import Match
from games_py.interface import TERMINAL

KNOCK_ACTION, NO_KNOCK = "knock", "no knock"
UPCARD, DECK = "upcard", "deck"


class _Asked:
    """A seat the interface answers: the engine's questions come out of ``Hand.steps``."""

    def plays_itself(self) -> bool:
        return False

    def answer(self, question: Question):
        raise AssertionError("the interface answers through apply_action")


class GinRummyHand:
    """One hand of Tommy's Gin Rummy as an interface ``State``."""

    def __init__(self, seed: int, variant: str = rules.STANDARD, open_hands: bool = False,
                 sound: bool = True, colour: bool = True, asked: Sequence[Player] = (YOU,)) -> None:
        self.seed = seed
        self.start = game.time_of_seed(seed % game.SEEDS)
        _startup, dealt, random = deal.first_deal(self.start, sound=sound, colour=colour)
        seats = {p: _Asked() if p in asked else ComputerSeat() for p in Player}
        self.hand = Hand.dealt(dealt.deck, dealt.dealer, variant, random, open_hands, MeldArrays(), seats)
        self.faults: list[str] = []
        self.hand.t.on_overflow = lambda p, shared: self.faults.append(
            f"player {p}'s hand has {shared} shared cards: GINRUMMY.EXE crashes here")
        self.hand.t.on_unmodelled = self.faults.append
        self.match = Match(variant)
        self.match.events.append(self.hand.deal_event(self.match.game, self.match.next_hand()))
        self.returns_ = [0.0, 0.0]
        self._steps = self.hand.steps()
        self._question: Question | None = None
        self._advance(None)

    # -- whose turn ----------------------------------------------------------------------
    def _advance(self, answer) -> None:
        try:
            self._question = self._steps.send(answer)
        except StopIteration:
            self._question = None
            self._score()

    def _score(self) -> None:
        h = self.hand
        if h.outcome is None:                       # a dead hand: nobody scores
            return
        score, knocker, knocker_pv, other_pv = h.outcome
        self.match.score_hand(score, Player(knocker).word, knocker_pv, other_pv)
        you, computer = (self.match.scores[p.word] for p in Player)
        self.returns_ = [float(you - computer), float(computer - you)]

    def current_player(self) -> int:
        return TERMINAL if self._question is None else self._question.player.seat

    def is_terminal(self) -> bool:
        return self._question is None

    def legal_actions(self) -> list:
        q = self._question
        if q is None:
            return []
        if q.kind == KNOCK:
            return [KNOCK_ACTION, NO_KNOCK]
        if q.kind == DRAW:
            return [UPCARD if c == UPCARD_ANSWER else DECK for c in q.view.draw_choices()]
        return [q.view.places[k - 1] for k in q.view.discard_choices()]

    def chance_outcomes(self) -> list:
        return []

    # -- moves ---------------------------------------------------------------------------
    def apply_action(self, action) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"{action!r} is not a legal action now "
                             f"({', '.join(map(self.action_to_string, self.legal_actions())) or 'none'})")
        q = self._question
        if q.kind == KNOCK:
            answer = action == KNOCK_ACTION
        elif q.kind == DRAW:
            answer = UPCARD_ANSWER if action == UPCARD else DECK_ANSWER
        else:
            answer = q.view.place_of(action)
        self._advance(answer)

    def action_to_string(self, action) -> str:
        if isinstance(action, Card):
            return f"discard {action}"
        return {KNOCK_ACTION: "knock", NO_KNOCK: "do not knock", UPCARD: "draw the upcard",
                DECK: "draw from the deck"}.get(action, repr(action))

    # -- what each seat sees, and the end ------------------------------------------------
    def observation(self, player: int) -> HumanView:
        """What the player sees at the table: his hand as laid out, the pile, the counts,
        the other hand only when the hands are open (``human.HumanView``)."""
        return self.hand.view(Player.from_seat(player))

    def hidden_from(self, player: int) -> set[Card]:
        """The stock, and the other hand unless the hands are open."""
        t = self.hand.t
        hidden = {deal.card_of(c) for c in t.deck[t.top + 1:deal.DECK_SIZE + 1]}
        if not t.open_hands:
            hidden |= set(self._cards(Player.from_seat(player).other))
        return hidden

    def returns(self) -> list[float]:
        return list(self.returns_)

    def _cards(self, p: int) -> list[Card]:
        h = self.hand.t.hands[p]
        return [deal.card_of(c) for c in h[1:h[0] + 1] if c > 0]

    def invariant_violations(self) -> list[str]:
        t, broken = self.hand.t, []
        pile = t.hands[PILE][1:t.hands[PILE][0] + 1]
        stock = t.deck[t.top + 1:deal.DECK_SIZE + 1]
        held = [c for p in Player for c in t.hands[p][1:t.hands[p][0] + 1] if c > 0]
        every = held + list(pile) + list(stock)
        if sorted(every) != list(range(1, deal.DECK_SIZE + 1)):
            broken.append(f"the hands, pile and stock hold {len(every)} cards, {len(set(every))} "
                          "different, not the 52 of the deck")
        if 0 in pile:
            broken.append("the pile has an empty place")
        sizes = {p: len(self._cards(p)) for p in Player}
        if not all(10 <= n <= 11 for n in sizes.values()) or sum(sizes.values()) > 21:
            broken.append(f"hands of {sizes[YOU]} and {sizes[COMPUTER]} cards")
        if not 21 <= t.top <= deal.DECK_SIZE:
            broken.append(f"{t.top} cards taken off the deck")
        broken += self._score_violations()
        return broken

    def _score_violations(self) -> list[str]:
        h, broken = self.hand, []
        if not self.is_terminal():
            return [] if self.returns_ == [0.0, 0.0] else ["returns before the hand's end"]
        if sum(self.returns_) != 0:
            broken.append(f"returns {self.returns_} do not cancel out")
        if h.outcome is None:
            if self.returns_ != [0.0, 0.0] or h.events[-1]["event"] != "dead_hand":
                broken.append("a hand without a knock that is not a dead hand scoring nothing")
            return broken
        score, knocker, knocker_pv, other_pv = h.outcome
        if score != rules.score_hand(knocker_pv, other_pv, h.doubled):
            broken.append(f"the score {score} is not the rules' for PVs {knocker_pv} and {other_pv}")
        if self.returns_[h.winner.seat] != score.points:
            broken.append(f"the winner's return {self.returns_[h.winner.seat]} is not the "
                          f"{score.points} points he scored")
        end = next(e for e in reversed(self.match.events) if e["event"] == "hand_end")
        if end["scores"][h.winner.word] != score.points or end["winner"] != h.winner.word:
            broken.append("the match's hand_end does not give the winner the hand's points")
        if sum(1 for e in h.events if e["event"] in ("knock", "gin")) != 1:
            broken.append("a scored hand without exactly one knock")
        return broken


class GinRummyGame:
    name = "ginrummy"
    num_players = 2

    def __init__(self, variant: str = rules.STANDARD, open_hands: bool = False, sound: bool = True,
                 colour: bool = True, asked: Sequence[Player] = (YOU,)) -> None:
        self.variant, self.open_hands, self.sound, self.colour = variant, open_hands, sound, colour
        self.asked = tuple(asked)

    def new_initial_state(self, seed: int | None = None) -> GinRummyHand:
        """The first hand dealt at the time ``seed`` hundredths after midnight (modulo a day);
        None: a seed drawn from Python's generator (a fresh game each time)."""
        if seed is None:
            seed = _random.randrange(game.SEEDS)
        return GinRummyHand(seed, self.variant, self.open_hands, self.sound, self.colour, self.asked)


GAME = GinRummyGame()
