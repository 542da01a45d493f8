"""The Gin Rummy trace: JSON Lines of game events in card players' words.

One JSON object per line, ``"event"`` first.  The same format is written by
the Python game (``python -m games_py.ginrummy trace``) and by the tracer of
the original program (``pcemu trace ginrummy``), so ``pcemu diff`` can compare
them.  docs/trace-format.md is the reference; the builders below are the only
place events are made, so the two writers cannot drift apart.

Cards are short strings ("QH", "10S", "AC"); players are "you" (the player
at the top of the original's screen, player 1) and "computer" (player 2).
Melds are written in a canonical order (rules.canonical_melds) so that two
arrangements of the same melds compare equal.
"""
from __future__ import annotations

import json
from typing import IO, Iterable, Sequence

from games_py.cards import Card
from games_py.ginrummy.player import Player
from pcemu.trace.events import TraceError, iter_events, read   # noqa: F401 - the one reader of traces

YOU, COMPUTER = Player.YOU.word, Player.COMPUTER.word     # "you", "computer"
FROM_DECK, FROM_UPCARD = "deck", "upcard"
FORMAT = "ginrummy-trace/1"

# keys that say where a trace came from rather than what happened: diff skips them.  They are
# the envelope's own (pcemu.trace.events.ENVELOPE_METADATA), so the start event lists no
# metadata_keys; files written before the envelope had a name compare the same.
METADATA_KEYS = frozenset({"source", "format"})

EVENTS = ("start", "deal", "knock_value", "draw", "discard", "knock_declined", "knock", "gin",
          "rearranged", "layoff",
          "hand_end", "dead_hand", "game_end", "fault")


def cards_text(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _melds_text(melds: Iterable[Sequence[Card]]) -> list[list[str]]:
    from games_py.ginrummy.rules import canonical_melds
    return [cards_text(m) for m in canonical_melds(melds)]


def start_event(*, time: str, variant: str, sound: bool, open_hands: bool, demo: bool,
                rnd_seed: int, source: str, colour: bool = True, human: str | None = None) -> dict:
    """``human``, the scripted player of your hand, is written only when there is one."""
    event = {"event": "start", "format": FORMAT, "source": source, "time": time,
             "variant": variant, "sound": "on" if sound else "off",
             "display": "colour" if colour else "mono", "open_hands": open_hands,
             "demo": demo, "rnd_seed": f"{rnd_seed:06X}"}
    if human is not None:
        event["human"] = human
    return event


def deal_event(*, game: int, hand: int, dealer: str, you: Sequence[Card], computer: Sequence[Card],
               upcard: Card, stock: int, knock: int, double: bool) -> dict:
    return {"event": "deal", "game": game, "hand": hand, "dealer": dealer,
            "hands": {YOU: cards_text(you), COMPUTER: cards_text(computer)},
            "upcard": str(upcard), "stock": stock, "knock": knock, "double": double}


def knock_value_event(knock: int, double: bool) -> dict:
    return {"event": "knock_value", "knock": knock, "double": double}


def draw_event(player: str, source: str, card: Card) -> dict:
    return {"event": "draw", "player": player, "from": source, "card": str(card)}


def discard_event(player: str, card: Card) -> dict:
    return {"event": "discard", "player": player, "card": str(card)}


def knock_declined_event(player: str, points: int) -> dict:
    """The program asked "KNOCK? " (a human player, allowed to knock) and the answer was no."""
    return {"event": "knock_declined", "player": player, "points": points}


def knock_event(player: str, melds: Iterable[Sequence[Card]], deadwood: Iterable[Card],
                points: int) -> dict:
    """``knock``, or ``gin`` when nothing is left unmatched."""
    deadwood = list(deadwood)
    from games_py.ginrummy.rules import sort_cards
    return {"event": "gin" if not deadwood else "knock", "player": player,
            "melds": _melds_text(melds), "deadwood": cards_text(sort_cards(deadwood)), "points": points}


def rearranged_event(player: str, melds: Iterable[Sequence[Card]], deadwood: Iterable[Card],
                     points: int, left_out: Iterable[Card] = ()) -> dict:
    """The knocker's hand as arranged again at the hand's end (line 2540), written only
    when it is not what the ``knock``/``gin`` event showed: a coin toss on cards shared
    by a straight and a flat went the other way, or cards of the hand lay beyond the
    places that arrangement looked at and were ``left_out`` (not counted in PV).  Same
    keys as ``knock``, and ``left_out`` when there are such cards."""
    event = {**knock_event(player, melds, deadwood, points), "event": "rearranged"}
    left_out = list(left_out)
    if left_out:
        event["left_out"] = cards_text(left_out)
    return event


def layoff_event(player: str, card: Card, meld: int) -> dict:
    """``meld``: the index in the knocker's melds as last shown (``knock``, ``gin`` or
    ``rearranged``)."""
    return {"event": "layoff", "player": player, "card": str(card), "meld": meld}


def phantom_layoff_event(player: str, card: Card, row: int) -> dict:
    """A card laid off on a phantom straight: row ``row`` of the lay-offs' copy SL(), past
    the knocker's straights, which the program scans because lines 6390/6440 overwrite
    its straight count (docs/ginrummy-internals.md, section 12).  No meld of the knocker's
    grows; ``meld`` is null."""
    return {"event": "layoff", "player": player, "card": str(card), "meld": None,
            "phantom_straight": row}


def hand_end_event(*, result: str, winner: str, knocker: str, points: int, double: bool,
                   knocker_points: int, opponent_points: int, scores: dict[str, int],
                   hands_won: dict[str, int]) -> dict:
    return {"event": "hand_end", "result": result, "winner": winner, "knocker": knocker,
            "points": points, "double": double, "knocker_points": knocker_points,
            "opponent_points": opponent_points, "scores": dict(scores), "hands_won": dict(hands_won)}


def dead_hand_event(*, next_dealer: str) -> dict:
    return {"event": "dead_hand", "next_dealer": next_dealer}


def game_end_event(*, winner: str, box_bonus: dict[str, int], totals: dict[str, int], shutout: bool,
                   game_points: int, points: dict[str, int]) -> dict:
    return {"event": "game_end", "winner": winner, "game_bonus": 100, "box_bonus": dict(box_bonus),
            "totals": dict(totals), "shutout": shutout, "game_points": game_points,
            "points": dict(points)}


def fault_event(*, player: str, line: int, shared: int, reason: str) -> dict:
    """The last event of a trace whose original program goes wrong here: at BASIC ``line``
    the arrangement of ``player``'s hand stores more shared cards (``shared``) than its
    array holds, and the original later crashes (docs/ginrummy-internals.md, section 12).
    Both tracers stop at it."""
    return {"event": "fault", "player": player, "line": line, "shared": shared, "reason": reason}


# -- writing (reading: pcemu.trace.events, the envelope every game's trace follows) ------
def dumps(event: dict) -> str:
    return json.dumps(event, separators=(", ", ": "))


def write(events: Iterable[dict], out: IO[str]) -> None:
    for event in events:
        out.write(dumps(event) + "\n")
        out.flush()
