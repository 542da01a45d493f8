"""Replaying the decisions of a trace through the rules engine.

A trace of the original says what each player chose (draw from the deck or
the upcard, which card to discard, whether to knock); everything else (the
cards drawn, the knock values, the knocker's melds and deadwood, the
lay-offs, the scores and bonuses) follows from the rules.  ``replay`` feeds
those choices to ``HandState`` and ``Match`` and returns the events the
Python game writes, to be compared with the trace: a difference is a rule
the Python game gets wrong (or a choice the original makes that the
document does not explain).

The trace does not list the undealt cards; the replay stacks the stock with
the cards the trace shows coming off the deck, in that order.
"""
from __future__ import annotations

from games_py.cards import Card, full_deck
from games_py.ginrummy import rules, trace
from games_py.ginrummy.state import (Continue, Discard, DrawDeck, DrawUpcard, HandState, Knock,
                                     Match, Phase)

HAND_EVENTS = ("deal", "knock_value", "draw", "discard", "knock", "gin", "rearranged", "layoff")
END_EVENTS = ("hand_end", "dead_hand")


class ReplayError(ValueError):
    """The trace cannot be replayed (it is not a sequence of legal moves)."""


def _cards(names: list[str]) -> list[Card]:
    return [Card.parse(n) for n in names]


def split_hands(events: list[dict]) -> list[list[dict]]:
    """The events of each hand: from its deal to its end (or the end of the trace),
    with the game's end appended to the hand that ended the game."""
    hands: list[list[dict]] = []
    for event in events:
        if event["event"] == "deal":
            hands.append([event])
        elif hands and event["event"] != "start":
            hands[-1].append(event)
    return hands


def _stock(hand: list[dict]) -> list[Card]:
    deal = hand[0]
    dealt = set(_cards(deal["hands"][trace.YOU] + deal["hands"][trace.COMPUTER] + [deal["upcard"]]))
    drawn = [Card.parse(e["card"]) for e in hand if e["event"] == "draw" and e["from"] == trace.FROM_DECK]
    rest = [c for c in full_deck() if c not in dealt and c not in drawn]
    stock = drawn + rest
    if len(stock) != deal["stock"]:
        raise ReplayError(f"the deal leaves {deal['stock']} cards in the stock, but {len(stock)} are unseen")
    return stock


def replay(events: list[dict], variant: str, ruleset: rules.Rules = rules.ORIGINAL_RULES) -> list[dict]:
    """The Python game's events for the choices made in ``events`` (one session)."""
    match = Match(variant, ruleset)
    out: list[dict] = []
    for hand in split_hands(events):
        deal = hand[0]
        match.game, match.hand = deal["game"], deal["hand"] - 1
        state = match.start_hand(deal["dealer"], _cards(deal["hands"][trace.YOU]),
                                 _cards(deal["hands"][trace.COMPUTER]), Card.parse(deal["upcard"]),
                                 _stock(hand))
        before = len(match.events)
        for i, event in enumerate(hand[1:], 1):
            kind = event["event"]
            if state.phase is Phase.KNOCK and kind in ("draw", "dead_hand", "hand_end"):
                state.apply(Continue())
            if kind == "draw":
                state.apply(DrawDeck() if event["from"] == trace.FROM_DECK else DrawUpcard())
            elif kind == "discard":
                state.apply(Discard(Card.parse(event["card"])))
                following = next((e for e in hand[i + 1:] if e["event"] != "knock_value"), None)
                if state.phase is Phase.KNOCK and following is not None and following["event"] in ("knock", "gin"):
                    state.apply(Knock())
                elif state.phase is Phase.KNOCK and (following is None or following["event"] == "draw"
                                                     or following["event"] == "dead_hand"):
                    state.apply(Continue())
            if state.over:
                break
        if not state.over:
            out.extend(state.events)            # the trace ends inside this hand
            break
        match.finish_hand(state)
        out.extend(match.events[before:])
    return out


def hand_events(events: list[dict]) -> list[dict]:
    """The events a replay can reproduce (all but the trace's start)."""
    return [e for e in events if e["event"] != "start"]
