"""The rules of Rummi: what a turn may do and what happens at its end.

A turn is a (possibly empty) series of duplicate swaps followed by one
EndTurn carrying the table as the player left it.  From the difference
between the old and the new table the rules see which pieces came from the
tray, and then apply the guide:

* valid table, pieces played      -> they leave the tray (first time: >= 30)
* valid table, nothing played     -> "he must take a piece from the pile"
* invalid series or opening < 30  -> the penalty: "Any invalid series are
  put from the table on your tray, and you must take 5 extra pieces"

Pieces never go from the table back to a tray except by that penalty.

The guide does not say what happens when the pile runs out.  We use the
board game's rule: a player who cannot play and cannot draw passes; when
both players pass in succession the game ends and the lower tray value
wins (then fewer pieces; otherwise a draw).  See docs/games/rummi.md.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from games_py.rummi.state import GameState, Series, Table, duplicates, normalise_table
from games_py.rummi.tiles import (Tile, format_tiles, group_compatible, is_valid_series,
                                  run_compatible, sort_series, sort_tray, value)

OPENING_MINIMUM = 30    # "he must play at least a total of 30 in that same turn"
PENALTY_DRAW = 5        # "you must take 5 extra pieces from the pile"


class IllegalAction(ValueError):
    """An action no player may take (not a penalised play: a broken one)."""


@dataclass(frozen=True)
class EndTurn:
    """End the turn leaving ``table`` on the table."""

    table: Table


@dataclass(frozen=True)
class Swap:
    """Give ``give`` (one of a duplicate pair on the mover's tray) for
    ``receive`` (one of a duplicate pair on the opponent's tray)."""

    give: Tile
    receive: Tile


@dataclass(frozen=True)
class Offer:
    """Offer ``give`` (one of a duplicate pair on the mover's tray) for a swap; the
    opponent answers with a ``Return``."""

    give: Tile


@dataclass(frozen=True)
class Return:
    """The answer to an ``Offer``: ``tile``, one of the answering player's duplicates."""

    tile: Tile


Action = EndTurn | Swap


def draw_action(state: GameState) -> EndTurn:
    """Ending the turn without moving anything: take a piece."""
    return EndTurn(state.table)


# -- checking a table --------------------------------------------------------

def is_valid_table(table: Iterable[Sequence[Tile]]) -> bool:
    return all(is_valid_series(s) for s in table)


def pieces_played(old_table: Table, new_table: Iterable[Sequence[Tile]],
                  tray: Sequence[Tile]) -> list[Tile]:
    """The tray pieces that ``new_table`` adds to ``old_table``.

    Raises IllegalAction if a table piece went missing ("not be taken back
    from the table to your own tray") or a piece came from nowhere."""
    # Every piece is a distinct object (its copy number tells the two of a
    # kind apart), so sets are exact here once no piece appears twice.
    new_list = [t for s in new_table for t in s]
    new = set(new_list)
    if len(new) != len(new_list):
        raise IllegalAction("a piece is on the table twice")
    old = {t for s in old_table for t in s}
    missing = old - new
    if missing:
        raise IllegalAction("pieces on the table may be rearranged, not taken back: "
                            + format_tiles(sorted(missing)))
    added = sorted(new - old)
    stray = set(added) - set(tray)
    if stray:
        raise IllegalAction("not on your tray: " + format_tiles(sorted(stray)))
    return added


def table_problems(table: Iterable[Sequence[Tile]], added: Sequence[Tile],
                   opened: bool) -> list[str]:
    """What the requester would say about ending the turn with ``table``."""
    problems = [f"invalid series: {format_tiles(s)}"
                for s in table if not is_valid_series(s)]
    if not opened and added and value(added) < OPENING_MINIMUM:
        problems.append(f"your first play must total at least {OPENING_MINIMUM} "
                        f"from your tray; you played {value(added)}")
    return problems


# -- applying actions --------------------------------------------------------

def apply(state: GameState, action: Action) -> GameState:
    if state.over:
        raise IllegalAction("the game is over")
    if isinstance(action, Swap):
        return apply_swap(state, action)
    if isinstance(action, EndTurn):
        return apply_end_turn(state, action.table)
    raise IllegalAction(f"unknown action {action!r}")


def swap_problem(state: GameState, give: Tile, receive: Tile) -> str | None:
    """Why this swap is not allowed, or None.  "You cannot swap a piece that
    wasn't duplicate on your tray, nor can you swap a duplicate piece if the
    program hasn't any.\""""
    mine, theirs = state.trays[state.current], state.trays[state.opponent]
    if give not in mine:
        return f"{give} is not on your tray"
    if give.kind not in duplicates(mine):
        return f"{give} is not a duplicate on your tray"
    if not duplicates(theirs):
        return "your opponent has no duplicate pieces"
    if receive not in theirs or receive.kind not in duplicates(theirs):
        return f"{receive} is not a duplicate on your opponent's tray"
    return None


def apply_swap(state: GameState, swap: Swap) -> GameState:
    problem = swap_problem(state, swap.give, swap.receive)
    if problem:
        raise IllegalAction(problem)
    trays = list(state.trays)
    me, other = state.current, state.opponent
    trays[me] = sort_tray([t for t in trays[me] if t != swap.give] + [swap.receive])
    trays[other] = sort_tray([t for t in trays[other] if t != swap.receive] + [swap.give])
    return state.with_(trays=tuple(trays)).log(
        f"player {me}: swap duplicate {swap.give} for {swap.receive}")


def apply_end_turn(state: GameState, table: Iterable[Sequence[Tile]]) -> GameState:
    me = state.current
    table = normalise_table(table)
    added = pieces_played(state.table, table, state.trays[me])
    if table_problems(table, added, state.opened[me]):
        return _penalty(state, table, added)
    if not added:
        return _draw(state.with_(last_turn_end="draw"), table, 1,
                     f"player {me}: take a piece")
    gone = set(added)       # pieces are distinct objects: a set is exact
    tray = sort_tray(t for t in state.trays[me] if t not in gone)
    trays = _replace(state.trays, me, tray)
    opened = _replace(state.opened, me, True)
    after = state.with_(table=table, trays=trays, opened=opened, passes=0,
                        last_turn_end="play").log(
        f"player {me}: play {format_tiles(added)}")
    if not tray:
        return after.with_(over=True, winner=me,
                           end_reason=f"player {me} has played all pieces")
    return _next_turn(after)


def _penalty(state: GameState, table: Table, added: list[Tile]) -> GameState:
    """Invalid series go to the tray, then 5 pieces are drawn.  For a player
    who has not yet opened, series holding his tray pieces are not allowed
    either unless those pieces reach 30, so they go back too (that way the
    table left behind is always valid)."""
    me = state.current
    bad = [s for s in table if not is_valid_series(s)]
    good = [s for s in table if is_valid_series(s)]
    played = Counter(added)
    opened = state.opened[me]
    if not opened:
        kept = [t for s in good for t in s if played[t]]
        if kept and value(kept) >= OPENING_MINIMUM:
            opened = True
        else:
            bad += [s for s in good if any(played[t] for t in s)]
            good = [s for s in good if not any(played[t] for t in s)]
    back = [t for s in bad for t in s]
    on_table = Counter(t for s in good for t in s)
    tray = [t for t in state.trays[me] if not on_table[t]] + \
        [t for t in back if t not in played]
    after = state.with_(table=normalise_table(good),
                        trays=_replace(state.trays, me, sort_tray(tray)),
                        opened=_replace(state.opened, me, opened))
    return _draw(after.with_(last_turn_end="penalty"), after.table, PENALTY_DRAW,
                 f"player {me}: penalty -- {format_tiles(back)} back to the tray "
                 f"and 5 pieces taken")


def _draw(state: GameState, table: Table, count: int, message: str) -> GameState:
    me = state.current
    pile = list(state.pile)
    drawn = [pile.pop() for _ in range(min(count, len(pile)))]
    trays = _replace(state.trays, me, sort_tray(state.trays[me] + tuple(drawn)))
    passes = 0 if drawn else state.passes + 1
    end = state.last_turn_end
    if not drawn:
        message += " -- the pile is empty"
        if end == "draw":
            end = "pass"
    after = state.with_(pile=tuple(pile), trays=trays, table=table,
                        passes=passes, last_turn_end=end).log(message)
    if passes >= 2:
        return _end_by_count(after)
    return _next_turn(after)


def skip_turn(state: GameState) -> GameState:
    """Single play: "the program doesn't play" -- its turn passes without a
    move or a draw (counts as a pass once the pile is empty)."""
    if state.over:
        raise IllegalAction("the game is over")
    passes = state.passes + 1 if not state.pile else 0
    after = state.with_(passes=passes, last_turn_end="skip").log(f"player {state.current}: single play, no move")
    return _end_by_count(after) if passes >= 2 else _next_turn(after)


def _end_by_count(state: GameState) -> GameState:
    """Nobody can play or draw: the lower tray value wins."""
    key = [(value(t), len(t)) for t in state.trays]
    if key[0] == key[1]:
        winner = None
    else:
        winner = 0 if key[0] < key[1] else 1
    reason = (f"the pile is empty and nobody can play; tray values "
              f"{key[0][0]} and {key[1][0]}")
    return state.with_(over=True, winner=winner, end_reason=reason)


def _next_turn(state: GameState) -> GameState:
    return state.with_(current=state.opponent, turn=state.turn + 1)


def _replace(items: tuple, index: int, new) -> tuple:
    out = list(items)
    out[index] = new
    return tuple(out)


# -- moving single pieces (how the table reacts to a dropped piece) ---------

def drop_onto(series: Sequence[Tile], piece: Tile) -> list[Series] | None:
    """Drop ``piece`` on ``series``: the series it becomes, or None if the
    piece does not fit.  "the piece will be added to the proper end of the
    series.  If necessary, the series will be split in two (for example:
    drop a 5 on top of a series 3-4-5-6-7, and the series will be split into
    3-4-5 and 5-6-7)"."""
    grown = list(series) + [piece]
    if run_compatible(grown) and len(grown) <= 13:
        return [sort_series(grown)]
    if group_compatible(grown) and len(grown) <= 4:
        return [sort_series(grown)]
    if run_compatible(series) and len(series) > 1 and piece.colour == series[0].colour:
        ordered = sort_series(series)
        if ordered[0].number < piece.number < ordered[-1].number:
            low = [t for t in ordered if t.number <= piece.number]
            high = [piece] + [t for t in ordered if t.number > piece.number]
            return [tuple(low), tuple(high)]
    return None


def lift_from(series: Sequence[Tile], piece: Tile) -> list[Series]:
    """Take ``piece`` out of ``series``; a run taken from the middle falls
    apart into the pieces on either side."""
    if piece not in series:
        raise IllegalAction(f"{piece} is not in that series")
    ordered = sort_series(series)
    rest = [t for t in ordered if t != piece]
    if len({t.colour for t in ordered}) == 1 and len(ordered) > 1 and run_compatible(ordered):
        low = tuple(t for t in rest if t.number < piece.number)
        high = tuple(t for t in rest if t.number > piece.number)
        return [s for s in (low, high) if s]
    return [tuple(rest)] if rest else []
