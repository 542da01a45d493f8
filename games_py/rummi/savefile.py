"""Saving a game of Rummi and resuming it.

The file is JSON with a format name and a version::

    {"format": "rummi-save", "version": 1, "level": "expert", "single": false,
     "seeds": <the new-game generator's state>,
     "state": {"pile": ["R5.0", ...], "trays": [[...], [...]], "table": [[...], ...],
               "current": 0, "opened": [true, false], "passes": 0, "turn": 7,
               "last_turn_end": "draw", "history": [...]}}

A piece is its name and its copy (``R5.1``).  A game is saved at the start of your turn
(pieces moved in the turn so far are not in it).  Loading checks everything -- the 104
pieces each once, valid series on the table, whose turn, the counters -- and a file that
fails any check is refused with one line saying why; nothing in the file names a path,
so reading it writes nothing anywhere.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from games_py.rummi.players import LEVELS
from games_py.rummi.state import GameState, normalise_table
from games_py.rummi.tiles import (COLOURS, TILE_COUNT, Tile, full_set, is_valid_series,
                                  parse_kind, sort_tray)

FORMAT, VERSION = "rummi-save", 1
MAX_BYTES = 1_000_000
HISTORY_KEPT = 2000


class SaveError(ValueError):
    """A save file that cannot be used; the message says why in one line."""


def _piece(tile: Tile) -> str:
    return f"{COLOURS[tile.colour]}{tile.number}.{tile.copy}"


def _tile(text) -> Tile:
    if not isinstance(text, str) or text.count(".") != 1:
        raise SaveError(f"{text!r} is not a piece (e.g. R5.0)")
    kind, _, copy = text.partition(".")
    try:
        colour, number = parse_kind(kind)
    except ValueError as error:
        raise SaveError(str(error)) from None
    if copy not in ("0", "1"):
        raise SaveError(f"{text!r}: the copy is 0 or 1")
    return Tile(colour, number, int(copy))


def to_json(state: GameState, level: str, single: bool, seeds: random.Random) -> str:
    s = state
    data = {
        "format": FORMAT, "version": VERSION, "level": level, "single": single,
        "seeds": _rng_state(seeds),
        "state": {
            "pile": [_piece(t) for t in s.pile],
            "trays": [[_piece(t) for t in tray] for tray in s.trays],
            "table": [[_piece(t) for t in series] for series in s.table],
            "current": s.current, "opened": list(s.opened), "passes": s.passes,
            "turn": s.turn, "last_turn_end": s.last_turn_end,
            "history": list(s.history[-HISTORY_KEPT:]),
        },
    }
    return json.dumps(data, indent=1)


def save(path: Path, state: GameState, level: str, single: bool,
         seeds: random.Random) -> str | None:
    """Write the game to ``path`` (through a temporary file beside it); an error message
    instead of an exception."""
    if state.over:
        return "The game is over: there is nothing to save."
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(to_json(state, level, single, seeds), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as error:
        return f"Could not save {path}: {error.strerror or error}."
    return None


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _restore_rng(data) -> random.Random:
    rng = random.Random()
    try:
        version, internal, gauss = data
        if not (isinstance(internal, list) and len(internal) == 625
                and all(isinstance(x, int) and 0 <= x < 2 ** 32 for x in internal[:-1])):
            raise ValueError
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError):
        raise SaveError("the new-game generator's state is damaged") from None
    return rng


def _want(value, kind, what: str):
    if type(value) is not kind:
        raise SaveError(f"{what} should be {kind.__name__}, not {type(value).__name__}")
    return value


def from_json(text: str) -> tuple[GameState, str, bool, random.Random]:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise SaveError(f"not a save file (not JSON: {error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a Rummi save file")
    if data.get("version") != VERSION:
        raise SaveError(f"save file version {data.get('version')!r}; this game reads {VERSION}")
    level = data.get("level")
    if level not in LEVELS:
        raise SaveError(f"unknown level {level!r}")
    single = _want(data.get("single"), bool, "single")
    seeds = _restore_rng(data.get("seeds"))
    s = _want(data.get("state"), dict, "state")
    pile = [_tile(t) for t in _want(s.get("pile"), list, "pile")]
    trays = [[_tile(t) for t in _want(tray, list, "a tray")]
             for tray in _want(s.get("trays"), list, "trays")]
    if len(trays) != 2:
        raise SaveError("there must be two trays")
    table = [tuple(_tile(t) for t in _want(series, list, "a series"))
             for series in _want(s.get("table"), list, "table")]
    everything = pile + trays[0] + trays[1] + [t for series in table for t in series]
    if len(everything) != TILE_COUNT or set(everything) != set(full_set()):
        raise SaveError(f"the game must hold the {TILE_COUNT} pieces once each, "
                        f"not {len(everything)} ({len(set(everything))} different)")
    bad = [series for series in table if not is_valid_series(series)]
    if bad:
        raise SaveError("an invalid series on the table: " + " ".join(str(t) for t in bad[0]))
    current = s.get("current")
    if current not in (0, 1) or type(current) is not int:
        raise SaveError("whose turn it is must be 0 or 1")
    opened = _want(s.get("opened"), list, "opened")
    if len(opened) != 2 or not all(type(o) is bool for o in opened):
        raise SaveError("opened must be two true/false values")
    passes, turn = s.get("passes"), s.get("turn")
    if type(passes) is not int or not 0 <= passes <= 1:
        raise SaveError("passes must be 0 or 1 in a game not over")
    if type(turn) is not int or not 1 <= turn <= 100_000:
        raise SaveError("the turn number must be a positive whole number")
    end = s.get("last_turn_end")
    if end not in ("", "play", "draw", "pass", "penalty", "skip"):
        raise SaveError(f"unknown way for a turn to end: {end!r}")
    history = _want(s.get("history"), list, "history")
    if not all(isinstance(line, str) and len(line) < 1000 for line in history):
        raise SaveError("the history must be lines of text")
    state = GameState(pile=tuple(pile), trays=tuple(sort_tray(t) for t in trays),
                      table=normalise_table(table), current=current, opened=tuple(opened),
                      passes=passes, turn=turn, last_turn_end=end,
                      history=tuple(history[-HISTORY_KEPT:]) or ("resumed",))
    return state, level, single, seeds


def load(path: Path) -> tuple[GameState, str, bool, random.Random]:
    """Read a save file; SaveError (one line) for anything wrong with it."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise SaveError(f"cannot read {path}: {error.strerror or error}") from None
    if len(raw) > MAX_BYTES:
        raise SaveError(f"{path} is too large to be a save file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a text file") from None
    return from_json(text)
