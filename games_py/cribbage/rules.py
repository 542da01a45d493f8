"""The rules: legal actions and how each action or chance step changes a game.

Quotes are from CRIBBAGE.DOC v1.2 ("Rules of the Game", after the U.S.
Playing Card Co.'s "Official Rules of Card Games", 1968).  The document is
cut off in the middle of its hand-count example; the cut for first deal and
the one point for the last card come from those standard rules.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations

from games_py.cards import Card, shuffled_deck
from games_py.cribbage.scoring import (
    JACK, MAX_COUNT, ScoreItem, pegging_items, score_hand, total, value)
from games_py.cribbage.state import (
    DISCARDS, HAND_SIZE, PLAYERS, Action, Discard, Event, GameState, Phase,
    Play, other)

SCORE_LIMITS = (121, 61)    # "cycles the pegging board total between 121 and 61"
SKUNK_MARGIN = 30           # "the skunk point (limit - 30)"
HEELS_POINTS = 2            # "If the STARTER is a JACK then the dealer PEGS ... 2"
GO_POINTS = 1
MIN_CUT_PACKET = 4          # the cut leaves at least four cards in each packet


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


def new_game(limit: int = 121, skunking: bool = False,
             dealer: int | None = None) -> GameState:
    """A game before the cut for deal (or, with ``dealer``, before the deal)."""
    if limit not in SCORE_LIMITS:
        raise ValueError(f"score limit must be 121 or 61, not {limit!r}")
    state = GameState(limit=limit, skunking=skunking)
    if dealer is not None:
        state.dealer = dealer
        state.phase = Phase.DEAL
    return state


# --- what may be done ----------------------------------------------------------

def playable(state: GameState, player: int) -> list[Card]:
    """Cards ``player`` can lay without the count passing 31."""
    room = MAX_COUNT - state.count
    return [c for c in state.hands[player] if value(c) <= room]


def legal_actions(state: GameState) -> list[Action]:
    player = state.current_player()
    if player is None:
        return []
    if state.phase is Phase.DISCARD:
        return [Discard(pair) for pair in combinations(state.hands[player], DISCARDS)]
    return [Play(c) for c in playable(state, player)]


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is allowed now (a discard's two cards in any order)."""
    if isinstance(action, Discard):
        wanted = frozenset(action.cards)
        return any(isinstance(a, Discard) and frozenset(a.cards) == wanted
                   for a in legal_actions(state))
    return action in legal_actions(state)


def canonical(action: Action, legal: list[Action]) -> Action:
    """The legal action meaning ``action`` (a discard's two cards in either order)."""
    if isinstance(action, Discard):
        wanted = frozenset(action.cards)
        for a in legal:
            if isinstance(a, Discard) and frozenset(a.cards) == wanted:
                return a
    return action


def apply(state: GameState, action: Action) -> list[Event]:
    """Carry out ``action`` for the player to move; return what happened."""
    player = state.current_player()
    if player is None:
        raise IllegalAction(f"no player is to move during the {state.phase.value}")
    if isinstance(action, Discard) and state.phase is Phase.DISCARD:
        return _discard(state, player, action)
    if isinstance(action, Play) and state.phase is Phase.PLAY:
        return _play(state, player, action.card)
    raise IllegalAction(f"{type(action).__name__} is not a move in the {state.phase.value}")


def step(state: GameState, rng: random.Random) -> list[Event]:
    """Resolve a phase where nobody chooses: cuts, deals and the show."""
    if state.phase is Phase.CUT_FOR_DEAL:
        return _cut_for_deal(state, rng)
    if state.phase is Phase.DEAL:
        return _deal(state, rng)
    if state.phase is Phase.STARTER:
        return _turn_starter(state, rng)
    if state.phase is Phase.SHOW:
        return _show(state)
    raise IllegalAction(f"nothing happens by itself during the {state.phase.value}")


# --- scoring helper ------------------------------------------------------------

def _peg(state: GameState, player: int, points: int, events: list[Event],
         event: Event) -> bool:
    """Peg ``points`` and record ``event``; True when that wins the game.

    The game ends the moment a player reaches the limit, even mid-play or
    before the other hands are counted ("a player might be able to reach a
    winning score before his opponent has a chance to count his hand").
    The peg stops in the game hole: the board has no holes past the limit.
    """
    state.scores[player] = min(state.limit, state.scores[player] + points)
    events.append(replace(event, score=state.scores[player]))
    if state.scores[player] >= state.limit:
        state.winner = player
        state.phase = Phase.GAME_OVER
        state.to_move = None
        events.append(Event("win", player, label=f"{state.scores[player]}-"
                                                  f"{state.scores[other(player)]}"))
        return True
    return False


# --- chance steps ----------------------------------------------------------------

def _cut_for_deal(state: GameState, rng: random.Random) -> list[Event]:
    """Each player cuts a card; the lower card deals, equal cards cut again."""
    events = []
    while True:
        deck = shuffled_deck(rng)
        first, second = rng.sample(deck, 2)
        events += [Event("cut", 0, (first,)), Event("cut", 1, (second,))]
        if first.rank != second.rank:
            break
        events.append(Event("cut", label="tie"))
    state.dealer = 0 if first.rank < second.rank else 1
    state.phase = Phase.DEAL
    events.append(Event("dealer", state.dealer))
    return events


def _deal(state: GameState, rng: random.Random) -> list[Event]:
    assert state.dealer is not None
    deck = shuffled_deck(rng)
    state.hands = [[], []]
    for i in range(2 * HAND_SIZE):              # one at a time, non-dealer first
        state.hands[(state.non_dealer + i) % 2].append(deck.pop())
    state.deck = deck
    state.kept = [[], []]
    state.discarded = [[], []]
    state.crib = []
    state.starter = None
    state.pile = []
    state.played = [[], []]
    state.to_move = state.last_player = None
    state.go_said = set()
    state.hand_number += 1
    state.phase = Phase.DISCARD
    return [Event("deal", state.dealer, label=f"hand {state.hand_number}")]


def _turn_starter(state: GameState, rng: random.Random) -> list[Event]:
    """Cut the stock and turn the starter; a jack is "his heels" for the dealer."""
    assert state.dealer is not None
    cut = rng.randrange(MIN_CUT_PACKET, len(state.deck) - MIN_CUT_PACKET + 1)
    state.starter = state.deck.pop(cut)
    events = [Event("starter", state.non_dealer, (state.starter,))]
    if state.starter.rank == JACK:
        item = ScoreItem("his heels", HEELS_POINTS, (state.starter,))
        if _peg(state, state.dealer, HEELS_POINTS, events,
                Event("peg", state.dealer, (state.starter,), HEELS_POINTS, (item,))):
            return events
    state.phase = Phase.PLAY
    state.to_move = state.non_dealer     # "play begins with the non-dealer"
    return events


# --- player actions ----------------------------------------------------------------

def _discard(state: GameState, player: int, action: Discard) -> list[Event]:
    chosen = list(action.cards)
    if len(chosen) != DISCARDS or len(set(chosen)) != DISCARDS:
        raise IllegalAction("choose two different cards for the crib")
    missing = [c for c in chosen if c not in state.hands[player]]
    if missing:
        raise IllegalAction(f"{missing[0]} is not in your hand")
    for c in chosen:
        state.hands[player].remove(c)
    state.discarded[player] = chosen
    state.crib += chosen
    events = [Event("discard", player, tuple(chosen))]
    if all(state.discarded[p] for p in PLAYERS):
        state.kept = [list(h) for h in state.hands]
        state.phase = Phase.STARTER
    return events


def _play(state: GameState, player: int, card: Card) -> list[Event]:
    if card not in state.hands[player]:
        raise IllegalAction(f"{card} is not in your hand")
    if state.count + value(card) > MAX_COUNT:
        raise IllegalAction(f"{card} would take the count past 31 "
                            f"(count is {state.count})")
    state.hands[player].remove(card)
    state.pile.append(card)
    state.played[player].append(card)
    state.last_player = player
    items = tuple(pegging_items(state.pile))
    events: list[Event] = []
    if _peg(state, player, total(items), events,
            Event("play", player, (card,), total(items), items, state.count)):
        return events
    _advance_play(state, events)
    return events


def _advance_play(state: GameState, events: list[Event]) -> None:
    """Decide who lays the next card, handling GO, 31 and the last card.

    "If a player cannot play a card without exceeding 31 he must say GO and
    his opponent pegs 1 point.  Before pegging his 1 point the player gaining
    the GO must lay down all the cards he can ... If a player reaches exactly
    31 then he pegs 2 points instead of 1 point for the GO.  The player who
    said GO starts off the next round of play, and sum is reset to zero."
    """
    last = state.last_player
    assert last is not None
    if not state.hands[0] and not state.hands[1]:
        if state.count != MAX_COUNT:       # 31 already pegged its 2
            item = ScoreItem("last card", GO_POINTS, (state.pile[-1],))
            if _peg(state, last, GO_POINTS, events,
                    Event("peg", last, (), GO_POINTS, (item,), state.count)):
                return
        state.phase = Phase.SHOW
        state.to_move = None
        return
    opponent = other(last)
    if playable(state, opponent):
        state.to_move = opponent
        return
    if (state.hands[opponent] and opponent not in state.go_said
            and state.count != MAX_COUNT):
        state.go_said.add(opponent)
        events.append(Event("go", opponent, count=state.count))
    if playable(state, last):
        state.to_move = last            # lay down all the cards he can
        return
    if state.count != MAX_COUNT:
        item = ScoreItem("go", GO_POINTS, ())
        if _peg(state, last, GO_POINTS, events,
                Event("peg", last, (), GO_POINTS, (item,), state.count)):
            return
    state.pile = []
    state.go_said = set()
    # The opponent of the last card's player (the one who said GO) leads,
    # unless he has no cards left.
    state.to_move = opponent if state.hands[opponent] else last
    events.append(Event("reset", state.to_move, count=0))


# --- the show --------------------------------------------------------------------

def _show(state: GameState) -> list[Event]:
    """Count "non-dealer, then dealer's hand, then CRIB", stopping at a win."""
    assert state.dealer is not None and state.starter is not None
    events: list[Event] = []
    order = [(state.non_dealer, state.kept[state.non_dealer], False, "hand"),
             (state.dealer, state.kept[state.dealer], False, "hand"),
             (state.dealer, state.crib, True, "crib")]
    for player, cards, is_crib, label in order:
        items = tuple(score_hand(cards, state.starter, is_crib))
        shown = tuple(cards) + (state.starter,)
        if _peg(state, player, total(items), events,
                Event("show", player, shown, total(items), items, label=label)):
            return events
    state.dealer = other(state.dealer)          # the deal alternates
    state.phase = Phase.DEAL
    return events


# --- the end of a game ------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    winner: int
    scores: tuple[int, int]
    skunk: bool       # the loser never passed the skunk line
    wins: int         # what the game counts in the statistics


def skunk_line(limit: int) -> int:
    """The lowest score that escapes a skunk: 91 playing to 121, 31 to 61."""
    return limit - SKUNK_MARGIN


def result(state: GameState) -> Result:
    """Who won and how much it counts.

    "If a player fails to reach the skunk point (limit - 30) with at least one
    peg by the end of a game, this counts a 2 wins" - only with SKUNKING on.
    "Double skunk ... is NOT implemented", so a skunk never counts more than 2.
    """
    if state.winner is None:
        raise ValueError("the game is not over")
    loser_score = state.scores[other(state.winner)]
    skunk = state.skunking and loser_score < skunk_line(state.limit)
    return Result(state.winner, (state.scores[0], state.scores[1]), skunk,
                  2 if skunk else 1)

