"""What a turn did on the table, in words: "split 5-6-7-8 red into 5-6-7 red and 8 red;
added 9 red to 8 red, making 8-9 red ..." -- from the table before and after the turn.

Each series of the new table that was not there before is explained by where its pieces
came from: the tray, or (parts of) series of the old table.  An old series whose pieces
went to more than one new series was split.  Series left as they were are not mentioned.
"""
from __future__ import annotations

from typing import Sequence

from games_py.rummi.tiles import COLOUR_NAMES, COLOURS, Tile, group_compatible, \
    run_compatible, sort_series

Series = Sequence[Tile]


def name(series: Series) -> str:
    """``5-6-7 red``, ``7 black, blue and red``, or the pieces for anything else."""
    tiles = sort_series(series)
    if not tiles:
        return "nothing"
    if run_compatible(tiles):
        colour = COLOUR_NAMES[COLOURS[tiles[0].colour]]
        return "-".join(str(t.number) for t in tiles) + f" {colour}"
    if group_compatible(tiles):
        colours = [COLOUR_NAMES[COLOURS[t.colour]] for t in sorted(tiles, key=lambda t: t.colour)]
        listed = colours[0] if len(colours) == 1 else \
            ", ".join(colours[:-1]) + " and " + colours[-1]
        return f"{tiles[0].number} {listed}"
    return " ".join(str(t) for t in tiles)


def _and(parts: list[str]) -> str:
    """"a, b and c"; with "; " between the parts if a part has its own "and" (a group)."""
    if len(parts) == 1:
        return parts[0]
    if any(" and " in p for p in parts):
        return "; ".join(parts[:-1]) + "; and " + parts[-1]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def account(before: Sequence[Series], after: Sequence[Series], whose: str = "its") -> list[str]:
    """Sentences (no subject) for what changed from ``before`` to ``after``; ``whose``
    tray the new pieces came from ("its", "your")."""
    old = [tuple(sort_series(s)) for s in before]
    new = [tuple(sort_series(s)) for s in after]
    kept = set(old) & set(new)
    gone = [s for s in old if s not in kept]
    made = [s for s in new if s not in kept]
    home = {t: i for i, s in enumerate(gone) for t in s}       # piece -> old series
    lines = []
    for i, s in enumerate(gone):
        parts = [tuple(t for t in n if home.get(t) == i) for n in made]
        parts = [p for p in parts if p]
        if len(parts) > 1:
            lines.append(f"split {name(s)} into {_and([name(p) for p in parts])}")
    for n in made:
        from_tray = [t for t in n if t not in home]
        sources = []
        for t in n:
            if t in home and home[t] not in sources:
                sources.append(home[t])
        parts = [tuple(t for t in n if home.get(t) == i) for i in sources]
        if not sources:
            lines.append(f"laid {name(n)} from {whose} tray")
        elif len(sources) == 1 and from_tray:
            what = " ".join(str(t) for t in sort_series(from_tray))
            lines.append(f"added {what} to {name(parts[0])}, making {name(n)}")
        elif len(sources) == 1:
            continue        # a part of a split series (said above), or the same series
        else:
            pieces = [name(p) for p in parts]
            if from_tray:
                pieces.append(" ".join(str(t) for t in sort_series(from_tray))
                              + f" from {whose} tray")
            lines.append(f"made {name(n)} from {_and(pieces)}")
    for i, s in enumerate(gone):
        if not any(home.get(t) == i for n in made for t in n):
            lines.append(f"{name(s)} left the table")      # only by a penalty
    return lines
