"""Cumulative game statistics per player name (the Statistics screen).

CRIBBAGE.DOC only says the screen "displays the current player's cumulative
game statistics" and that a skunk "counts a 2 wins"; it does not describe
the file.  This reimplementation keeps them in CRIBBAGE.STA next to
CRIBBAGE.CFG (the name David Teach's GinRummy uses for its GINRUMMY.STA),
one player a line: ``name|games|won|lost|skunks won|skunks lost``.
``|`` cannot occur in a name.  A corrupt file is renamed CRIBBAGE.STA.BAD
and a fresh one started, so nothing is lost.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from games_py.cribbage.config import BAD_SUFFIX, valid_name

STATS_FILE = "CRIBBAGE.STA"
FIELDS = 6


class StatsError(ValueError):
    pass


@dataclass(frozen=True)
class Record:
    games: int = 0
    won: int = 0            # games won
    lost: int = 0
    skunks_won: int = 0     # of the games won, how many were skunks
    skunks_lost: int = 0

    @property
    def wins(self) -> int:
        """Wins as the document counts them: a skunk "counts a 2 wins"."""
        return self.won + self.skunks_won

    @property
    def losses(self) -> int:
        return self.lost + self.skunks_lost

    def add(self, won: bool, skunk: bool) -> "Record":
        if won:
            return replace(self, games=self.games + 1, won=self.won + 1,
                           skunks_won=self.skunks_won + skunk)
        return replace(self, games=self.games + 1, lost=self.lost + 1,
                       skunks_lost=self.skunks_lost + skunk)


def parse_stats(text: str) -> dict[str, Record]:
    table: dict[str, Record] = {}
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith(";"):
            continue
        parts = line.split("|")
        if len(parts) != FIELDS:
            raise StatsError(f"line {line_no}: expected {FIELDS} fields separated by |")
        name, numbers = parts[0], parts[1:]
        if not valid_name(name) or name in table:
            raise StatsError(f"line {line_no}: bad or repeated name {name!r}")
        if not all(n.isdigit() for n in numbers):
            raise StatsError(f"line {line_no}: the counts must be whole numbers")
        rec = Record(*(int(n) for n in numbers))
        if rec.won + rec.lost != rec.games or rec.skunks_won > rec.won \
                or rec.skunks_lost > rec.lost:
            raise StatsError(f"line {line_no}: the counts do not add up")
        table[name] = rec
    return table


def format_stats(table: dict[str, Record]) -> str:
    lines = [f"; {STATS_FILE} - name|games|won|lost|skunks won|skunks lost"]
    for name, r in table.items():
        lines.append(f"{name}|{r.games}|{r.won}|{r.lost}|{r.skunks_won}|{r.skunks_lost}")
    return "\n".join(lines) + "\n"


def load_stats(path: Path) -> tuple[dict[str, Record], list[str]]:
    """Read the statistics; a missing file is an empty table, a corrupt one
    is set aside (renamed .BAD) and replaced by an empty table."""
    try:
        return parse_stats(path.read_bytes().decode("ascii")), []
    except FileNotFoundError:
        return {}, []
    except (UnicodeDecodeError, StatsError) as exc:
        backup = path.with_name(path.name + BAD_SUFFIX)
        try:
            os.replace(path, backup)
            kept = f"the old file is kept as {backup.name}"
        except OSError as err:
            kept = f"could not keep the old file ({err.strerror or err})"
        reason = str(exc) if isinstance(exc, StatsError) else "it is not a text file"
        return {}, [f"{path.name} is corrupt ({reason}); {kept}. Statistics start again from zero."]
    except OSError as exc:
        return {}, [f"Could not read {path}: {exc.strerror or exc}. Statistics start from zero."]


def save_stats(path: Path, table: dict[str, Record]) -> str | None:
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(format_stats(table), encoding="ascii")
        os.replace(tmp, path)
    except OSError as exc:
        return f"Could not save {path}: {exc.strerror or exc}."
    return None


def record_game(table: dict[str, Record], name: str, won: bool,
                skunk: bool) -> dict[str, Record]:
    updated = dict(table)
    updated[name] = updated.get(name, Record()).add(won, skunk)
    return updated
