"""Rummi pieces and the two kinds of valid series.

The guide: "There are 104 pieces, numbered from 1 thru 13, in 4 different
colors. There are two pieces for each color/number combination."  It does not
name the colours; we use the Rummikub board game's black, blue, orange, red.

A piece is written colour letter then number: ``"R5"``, ``"k13"``.  The two
copies of a colour/number are distinct objects (``copy`` 0 or 1) so tests can
check that no piece is ever created or lost; rules only look at the *kind*
(colour, number).
"""
from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Iterable, NamedTuple, Sequence

COLOURS = ("K", "B", "O", "R")          # black, blue, orange, red
COLOUR_NAMES = {"K": "black", "B": "blue", "O": "orange", "R": "red"}
NUMBERS = range(1, 14)
COPIES = 2
TILE_COUNT = len(COLOURS) * len(NUMBERS) * COPIES     # 104

MIN_SERIES = 3        # "valid series of at least 3 pieces"
MAX_GROUP = 4         # "3 or 4 pieces of the same value but different colors"


class _TileFields(NamedTuple):
    colour: int
    number: int
    copy: int = 0


class Tile(_TileFields):
    """One physical piece.  ``colour`` indexes COLOURS; ``copy`` is 0 or 1.

    A named tuple rather than a dataclass: hashing, equality and ordering
    (colour, number, copy) then run in C, and the rules and the property
    tests put pieces in sets thousands of times a game."""

    __slots__ = ()

    def __new__(cls, colour: int, number: int, copy: int = 0) -> "Tile":
        if not (isinstance(colour, int) and 0 <= colour < len(COLOURS)):
            raise ValueError(f"colour must be 0..3, not {colour!r}")
        if number not in NUMBERS:
            raise ValueError(f"number must be 1..13, not {number!r}")
        if copy not in (0, 1):
            raise ValueError(f"copy must be 0 or 1, not {copy!r}")
        return super().__new__(cls, colour, number, copy)

    @property
    def kind(self) -> tuple[int, int]:
        """(colour, number): what the rules see; the two copies are equal."""
        return (self.colour, self.number)

    @property
    def letter(self) -> str:
        return COLOURS[self.colour]

    def __str__(self) -> str:
        return f"{self.letter}{self.number}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r}, copy={self.copy})"


def parse_kind(text: str) -> tuple[int, int]:
    """``"r5"`` -> (3, 5).  Raises ValueError with a readable message."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in COLOURS or not t[1:].isdigit():
        raise ValueError(
            f"not a piece: {text!r} (write colour letter then number, e.g. R5; "
            f"colours {', '.join(f'{k}={v}' for k, v in COLOUR_NAMES.items())})")
    number = int(t[1:])
    if number not in NUMBERS:
        raise ValueError(f"not a piece: {text!r} (numbers go from 1 to 13)")
    return COLOURS.index(t[0]), number


def tile(text: str, copy: int = 0) -> Tile:
    """Shorthand for tests: ``tile("R5")``."""
    colour, number = parse_kind(text)
    return Tile(colour, number, copy)


def tiles(text: str) -> list[Tile]:
    """``tiles("R3 R4 R5")``; a repeated kind gets the second copy."""
    seen: dict[tuple[int, int], int] = {}
    out = []
    for word in text.split():
        colour, number = parse_kind(word)
        copy = seen.get((colour, number), 0)
        if copy >= COPIES:
            raise ValueError(f"only {COPIES} pieces of {word.upper()} exist")
        seen[(colour, number)] = copy + 1
        out.append(Tile(colour, number, copy))
    return out


def full_set() -> list[Tile]:
    """All 104 pieces in a fixed order."""
    return [Tile(c, n, k) for c in range(len(COLOURS)) for n in NUMBERS
            for k in range(COPIES)]


def value(items: Iterable[Tile]) -> int:
    """Points of pieces: their numbers added up (the initial-30 rule)."""
    return sum(t.number for t in items)


def is_run(series: Sequence[Tile]) -> bool:
    """3 to 13 pieces of one colour with consecutive numbers."""
    if not MIN_SERIES <= len(series) <= len(NUMBERS):
        return False
    return run_compatible(series)


def is_group(series: Sequence[Tile]) -> bool:
    """3 or 4 pieces of one number, all colours different."""
    return MIN_SERIES <= len(series) <= MAX_GROUP and group_compatible(series)


def is_valid_series(series: Sequence[Tile]) -> bool:
    if isinstance(series, tuple):       # table series: mostly the same each turn
        return _is_valid_tuple(series)
    return is_run(series) or is_group(series)


@lru_cache(maxsize=8192)
def _is_valid_tuple(series: tuple[Tile, ...]) -> bool:
    return is_run(series) or is_group(series)


def run_compatible(series: Sequence[Tile]) -> bool:
    """Could be (part of) a run: one colour, consecutive, no number twice."""
    if not series or len({t.colour for t in series}) != 1:
        return False
    numbers = sorted(t.number for t in series)
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:]))


def group_compatible(series: Sequence[Tile]) -> bool:
    """Could be (part of) a group: one number, each colour at most once."""
    return bool(series) and len({t.number for t in series}) == 1 \
        and len({t.colour for t in series}) == len(series)


# Sort keys read by C code, which matters in the thousand-game property
# test.  _TRAY_ORDER is the field order, i.e. the same order as Tile's ``<``.
_SERIES_ORDER = attrgetter("number", "colour", "copy")
_TRAY_ORDER = attrgetter("colour", "number", "copy")


def sort_series(series: Iterable[Tile]) -> tuple[Tile, ...]:
    """Display order: runs ascending, groups by colour."""
    if isinstance(series, tuple):       # table series: mostly the same each turn
        return _sorted_tuple(series)
    return tuple(sorted(series, key=_SERIES_ORDER))


@lru_cache(maxsize=8192)
def _sorted_tuple(series: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(series, key=_SERIES_ORDER))


def sort_tray(items: Iterable[Tile]) -> tuple[Tile, ...]:
    """A tray as players sort theirs: by colour, then number."""
    return tuple(sorted(items, key=_TRAY_ORDER))


def format_tiles(items: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in items)
