"""The game as lines of plain text, for pipes and screen readers (``demo --plain``).

``LineDisplay`` is a ``Display`` for ``terminal.Session``: it ignores the 80x25
picture and writes one sentence for each event the session records (the deal, each
draw and discard, knocks, lay-offs, the scores), in the order they happen.  The game
underneath is the same one the table shows (same seed, same cards, same moves).
"""
from __future__ import annotations

from typing import IO

from games_py.ginrummy import trace

NAMES = {trace.YOU: ("You", "you", "your"), trace.COMPUTER: ("I", "me", "my")}


def _cards(cards) -> str:
    return " ".join(cards) if cards else "-"


def _melds(melds) -> str:
    return ", ".join(" ".join(m) for m in melds) or "-"


def _knock(knock: int, double: bool) -> str:
    value = "gin only" if knock == 0 else f"knock on {knock}"
    return value + (", scores doubled" if double else "")


def describe(event: dict) -> list[str]:
    """The sentences for one event (none for events a reader need not hear)."""
    kind = event["event"]
    who = NAMES.get(event.get("player", ""), ("", "", ""))[0]
    if kind == "deal":
        dealer = NAMES[event["dealer"]][0]
        return [f"Game {event['game']}, hand {event['hand']}: {dealer} deal; "
                f"{_knock(event['knock'], event['double'])}.",
                f"  Your hand: {_cards(event['hands'][trace.YOU])}",
                f"  My hand:   {_cards(event['hands'][trace.COMPUTER])}",
                f"  Upcard {event['upcard']}, {event['stock']} cards in the deck."]
    if kind == "knock_value":
        return [f"Now {_knock(event['knock'], event['double'])}."]
    if kind == "draw":
        source = "the upcard" if event["from"] == trace.FROM_UPCARD else "from the deck:"
        return [f"{who} draw {source} {event['card']}."]
    if kind == "discard":
        return [f"{who} discard {event['card']}."]
    if kind == "knock_declined":
        return [f"{who} do not knock ({event['points']} points)."]
    if kind in ("knock", "gin"):
        verb = "go gin" if kind == "gin" else f"knock with {event['points']}"
        return [f"{who} {verb}: {_melds(event['melds'])}; unmatched {_cards(event['deadwood'])}."]
    if kind == "rearranged":
        left = f"; left out: {_cards(event['left_out'])}" if event.get("left_out") else ""
        return [f"Arranged again at the hand's end: {_melds(event['melds'])}; "
                f"unmatched {_cards(event['deadwood'])}, {event['points']} points{left}."]
    if kind == "layoff":
        where = " on a phantom straight" if event.get("meld") is None else ""
        return [f"{who} lay off {event['card']}{where}."]
    if kind == "hand_end":
        winner = NAMES[event["winner"]][0]
        how = {"gin": " with gin", "undercut": " by an undercut"}.get(event["result"], "")
        doubled = " (doubled)" if event["double"] else ""
        scores = event["scores"]
        return [f"{winner} win the hand{how}: {event['points']} points{doubled}. "
                f"Scores: you {scores[trace.YOU]}, me {scores[trace.COMPUTER]}."]
    if kind == "dead_hand":
        return [f"Dead hand; {NAMES[event['next_dealer']][0]} deal the next."]
    if kind == "game_end":
        winner = NAMES[event["winner"]][0]
        shutout = ", a shutout" if event["shutout"] else ""
        points = event["points"]
        return [f"{winner} win the game: {event['game_points']} game points{shutout}. "
                f"Points: you {points[trace.YOU]}, me {points[trace.COMPUTER]}."]
    return []              # a ``fault`` is told by the session's notice (LineDisplay)


class LineDisplay:
    """Writes the session's new events as sentences whenever the screen would be shown, and
    its notices (where the original crashes, say) as the table shows them."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.session = None
        self._written = self._noticed = 0

    def show(self, _screen=None) -> None:
        if self.session is None:
            return
        events, notices = self.session.events, self.session.notices
        lines = [line for event in events[self._written:] for line in describe(event)]
        lines += notices[self._noticed:]
        self._written, self._noticed = len(events), len(notices)
        if lines:
            self.out.write("".join(line + "\n" for line in lines))
            self.out.flush()


class NoKeys:
    """The keyboard of a demo without a terminal: the pauses pass (``pace`` times the
    original's), and a prompt, which demo mode never shows, ends the session."""

    def __init__(self, sleep=None) -> None:
        import time
        self.sleep = sleep or time.sleep

    def key(self, timeout: float | None) -> str | None:
        if timeout is None:
            raise EOFError
        if timeout > 0:
            self.sleep(timeout)
        return None
