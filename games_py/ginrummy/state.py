"""The match around the hands (``Match``: the one place hands and games are scored), and
the document's rules as a second engine of a hand (``HandState``), for replay.

The game is played by one engine, ``computer.Hand`` (the original's, RND and all); its
hands are scored here, as are those ``HandState`` plays.  ``HandState`` checks a trace's
choices against GINRUMMY.DOC's rules (replay.py): ``legal_actions`` and ``apply`` are
the only way it changes, and each change is recorded as a trace event
(docs/trace-format.md).

A turn is DRAW (deck or upcard), DISCARD, then, when the rules allow it,
KNOCK or CONTINUE.  "ON THE FIRST PLAY ... NON-DEALER HAS THE OPTION OF UPCARD
OR DECK", so the first turn is an ordinary one.  The knocker's hand is
arranged, the opponent's deadwood laid off, the hand scored; a hand in which
the 50th card came off the deck and nobody knocked is dead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from games_py.cards import Card
from games_py.ginrummy import rules, trace
from games_py.ginrummy.player import Player
from games_py.ginrummy.rules import COWBOY, OKLAHOMA, Rules

YOU, COMPUTER = Player.YOU.word, Player.COMPUTER.word      # this engine keys its tables by the words
PLAYERS = (YOU, COMPUTER)


def other(player: str) -> str:
    return Player.from_word(player).other.word


class Phase(Enum):
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"            # the player may knock now, or continue
    OVER = "over"


@dataclass(frozen=True)
class DrawDeck:
    def __str__(self) -> str:
        return "draw from the deck"


@dataclass(frozen=True)
class DrawUpcard:
    def __str__(self) -> str:
        return "draw the upcard"


@dataclass(frozen=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Knock:
    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True)
class Continue:
    def __str__(self) -> str:
        return "do not knock"


Action = DrawDeck | DrawUpcard | Discard | Knock | Continue


class IllegalAction(ValueError):
    """An action the rules do not allow now (a player's mistake, reported as such)."""


@dataclass
class HandOutcome:
    dead: bool
    winner: str | None = None
    points: int = 0
    next_dealer: str | None = None


@dataclass
class HandState:
    """The table during one hand.  Stock and pile are lists whose last card is the top."""

    variant: str
    dealer: str
    hands: dict[str, list[Card]]
    stock: list[Card]
    pile: list[Card]
    cards_drawn: int                       # cards taken off the deck so far, the deal's included
    ruleset: Rules = rules.ORIGINAL_RULES
    to_move: str = ""
    phase: Phase = Phase.DRAW
    knock: int = rules.STANDARD_KNOCK
    knock_card: Card | None = None         # the upcard that set the knock value
    events: list[dict] = field(default_factory=list)
    outcome: HandOutcome | None = None
    last_mover: str = ""
    # each hand as the original lays it out (rules.layout after the deal and each draw),
    # None where a card was discarded since: where lay-offs are looked for
    slots: dict[str, list[Card | None]] = field(default_factory=dict)

    @classmethod
    def deal(cls, variant: str, dealer: str, you: list[Card], computer: list[Card],
             upcard: Card, stock: list[Card], *, rules_: Rules = rules.ORIGINAL_RULES,
             game: int = 1, hand: int = 1) -> "HandState":
        """The table after the deal; ``stock`` lists the undealt cards, next first."""
        if variant not in rules.VARIANTS:
            raise ValueError(f"variant must be one of {rules.VARIANTS}, not {variant!r}")
        if dealer not in PLAYERS:
            raise ValueError(f"dealer must be one of {PLAYERS}, not {dealer!r}")
        cards = [*you, *computer, upcard, *stock]
        if len(set(cards)) != len(cards):
            raise ValueError("a card is dealt twice")
        state = cls(variant, dealer, {YOU: list(you), COMPUTER: list(computer)},
                    list(reversed(stock)), [upcard], 52 - len(stock), rules_)
        state.to_move = other(dealer)
        state.slots = {p: rules.layout(rules.arrange(state.hands[p])) for p in PLAYERS}
        state.knock_card = upcard if variant != rules.STANDARD else None
        state.knock = rules.knock_limit(variant, upcard)
        state.events.append(trace.deal_event(
            game=game, hand=hand, dealer=dealer, you=you, computer=computer, upcard=upcard,
            stock=len(stock), knock=state.knock, double=state.doubled))
        return state

    # -- what is true now -------------------------------------------------------------
    @property
    def doubled(self) -> bool:
        return rules.doubles(self.variant, self.knock_card, self.ruleset)

    @property
    def upcard(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def arranged(self, player: str) -> rules.Hand:
        return rules.arrange(self.hands[player])

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.DRAW:
            actions: list[Action] = [DrawDeck()] if self.stock else []
            if self.pile:
                actions.append(DrawUpcard())
            return actions
        if self.phase is Phase.DISCARD:
            return [Discard(c) for c in rules.sort_cards(self.hands[self.to_move])]
        if self.phase is Phase.KNOCK:
            return [Knock(), Continue()]
        return []

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    # -- changing it --------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        if action not in self.legal_actions():
            allowed = ", ".join(str(a) for a in self.legal_actions()) or "nothing (the hand is over)"
            raise IllegalAction(f"{self.to_move} cannot {action} now; allowed: {allowed}")
        player = self.to_move
        if isinstance(action, DrawDeck):
            card = self.stock.pop()
            self.cards_drawn += 1
            self._take(player, card, trace.FROM_DECK)
        elif isinstance(action, DrawUpcard):
            card = self.pile.pop()
            self._take(player, card, trace.FROM_UPCARD)
            self._upcard_changed()
        elif isinstance(action, Discard):
            self.hands[player].remove(action.card)
            slots = self.slots[player]
            slots[slots.index(action.card)] = None
            self.pile.append(action.card)
            self.events.append(trace.discard_event(player, action.card))
            self._upcard_changed()
            hand = self.arranged(player)
            if rules.can_knock(hand.pv, self.knock):
                self.phase = Phase.KNOCK
            else:
                self._end_turn(player)
        elif isinstance(action, Knock):
            self._knock(player)
        elif isinstance(action, Continue):
            self._end_turn(player)

    def _take(self, player: str, card: Card, source: str) -> None:
        self.hands[player].append(card)
        self.slots[player] = rules.layout(rules.arrange(self.hands[player]))
        self.events.append(trace.draw_event(player, source, card))
        self.phase = Phase.DISCARD

    def _upcard_changed(self) -> None:
        """Space Cowboy: the knock value follows the current upcard (GOSUB 11100 after
        each change of the pile's top; an empty pile keeps the value in force)."""
        if self.variant != COWBOY or not self.pile or self.pile[-1] == self.knock_card:
            return
        before = (self.knock, self.doubled)
        self.knock_card = self.pile[-1]
        self.knock = rules.knock_limit(self.variant, self.knock_card)
        if (self.knock, self.doubled) != before:
            self.events.append(trace.knock_value_event(self.knock, self.doubled))

    def _end_turn(self, player: str) -> None:
        self.last_mover = player
        if rules.is_dead(self.cards_drawn):
            self.phase = Phase.OVER
            # line 2600: after a dead hand the player who moved last deals
            self.outcome = HandOutcome(dead=True, next_dealer=player)
            self.events.append(trace.dead_hand_event(next_dealer=player))
            return
        self.to_move = other(player)
        self.phase = Phase.DRAW

    def _knock(self, knocker: str) -> None:
        self.last_mover = knocker
        opponent = other(knocker)
        hand = self.arranged(knocker)
        self.events.append(trace.knock_event(knocker, hand.melds, hand.deadwood, hand.pv))
        opponent_hand = self.arranged(opponent)
        opponent_pv = opponent_hand.pv
        if not hand.gin:                   # "IF HE DIDN'T HAVE GIN, THE OTHER PLAYER ... LAY OFF"
            if self.ruleset.layoffs == "original":
                laid = rules.original_lay_off(self.slots[opponent], len(opponent_hand.deadwood),
                                              opponent_hand.pv, hand.melds)
            else:
                laid = rules.lay_off(opponent_hand.deadwood, hand.melds)
            for item in laid.lay_offs:
                self.events.append(trace.layoff_event(opponent, item.card, item.meld))
            opponent_pv = laid.pv
        score = rules.score_hand(hand.pv, opponent_pv, self.doubled)
        winner = knocker if score.knocker_wins else opponent
        self.outcome = HandOutcome(dead=False, winner=winner, points=score.points, next_dealer=winner)
        self.phase = Phase.OVER
        self._score = (score, hand.pv, opponent_pv, knocker)

    @property
    def score(self) -> tuple[rules.HandScore, int, int, str] | None:
        """(score, knocker's PV, opponent's PV after lay-offs, knocker) once knocked."""
        return getattr(self, "_score", None)


@dataclass
class Match:
    """The game (to 100) and the session around the hands: "AFTER THAT, THE WINNER OF
    EACH ROUND DEALS THE NEXT"; scores restart each game, game points accumulate."""

    variant: str
    ruleset: Rules = rules.ORIGINAL_RULES
    game: int = 1
    hand: int = 0
    scores: dict[str, int] = field(default_factory=lambda: {YOU: 0, COMPUTER: 0})
    hands_won: dict[str, int] = field(default_factory=lambda: {YOU: 0, COMPUTER: 0})
    points: dict[str, int] = field(default_factory=lambda: {YOU: 0, COMPUTER: 0})
    games_won: dict[str, int] = field(default_factory=lambda: {YOU: 0, COMPUTER: 0})
    events: list[dict] = field(default_factory=list)

    def next_hand(self) -> int:
        """The number of the hand about to be dealt (counted from 1 in each game)."""
        self.hand += 1
        return self.hand

    def start_hand(self, dealer: str, you: list[Card], computer: list[Card], upcard: Card,
                   stock: list[Card]) -> HandState:
        self.hand += 1
        return HandState.deal(self.variant, dealer, you, computer, upcard, stock,
                              rules_=self.ruleset, game=self.game, hand=self.hand)

    def finish_hand(self, state: HandState) -> bool:
        """Score a finished hand; True when it ended the game (a new game then begins)."""
        if not state.over or state.outcome is None:
            raise ValueError("the hand is not over")
        self.events.extend(state.events)
        if state.outcome.dead:
            return False
        score, knocker_pv, opponent_pv, knocker = state.score
        over = self.score_hand(score, knocker, knocker_pv, opponent_pv) is not None
        if over:
            self.new_game()
        return over

    def score_hand(self, score: rules.HandScore, knocker: str, knocker_pv: int,
                   opponent_pv: int) -> rules.GameScore | None:
        """The one place a hand is scored, whichever engine played it (the original's
        ``computer.Hand`` or the document's ``HandState``): the winner's score and hands
        won, the ``hand_end`` event, and when somebody reached 100 the game's bonuses, game
        points and ``game_end`` (lines 2870-3060, 3100-3400).  Returns the game's result
        when the hand ended it."""
        winner = knocker if score.knocker_wins else other(knocker)
        self.scores[winner] += score.points
        self.hands_won[winner] += 1
        self.events.append(trace.hand_end_event(
            result=score.result, winner=winner, knocker=knocker, points=score.points,
            double=score.doubled, knocker_points=knocker_pv, opponent_points=opponent_pv,
            scores=self.scores, hands_won=self.hands_won))
        if not rules.game_over(self.scores):
            return None
        result = rules.score_game(self.scores, self.hands_won)
        self.points[result.winner] += result.game_points
        self.games_won[result.winner] += 1
        self.events.append(trace.game_end_event(
            winner=result.winner, box_bonus=result.box_bonus, totals=result.totals,
            shutout=result.shutout, game_points=result.game_points, points=self.points))
        return result

    def new_game(self) -> None:
        """Line 3400 (GOTO 1120): scores and hands won restart; game points stay."""
        self.game += 1
        self.hand = 0
        self.scores = {YOU: 0, COMPUTER: 0}
        self.hands_won = {YOU: 0, COMPUTER: 0}
