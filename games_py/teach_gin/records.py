"""The statistics list and the high-score list, in memory (files.py stores them).

Statistics (doc line 69): per name, cumulative totals - points scored against
the computer and hands played (their quotient is the "average score per
hand"), games won, lost and drawn.  At most 20 names; a new name goes on top
and, past 20, "the name on the bottom of the list (the oldest) is truncated".

High scores (doc line 103): the 20 best averages (final score / hands played)
with name, final score, score limit, hands, Oklahoma Y/N and date.  Zero
averages are not saved, nor scores of the computer player.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

MAX_STATS = 20
MAX_SCORES = 20


@dataclass(frozen=True)
class PlayerStats:
    name: str
    points: int = 0
    hands: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def average(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def games(self) -> int:
        return self.won + self.lost + self.drawn


@dataclass
class StatsBook:
    entries: list[PlayerStats] = field(default_factory=list)    # top (newest) first

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def get(self, name: str) -> PlayerStats:
        for e in self.entries:
            if e.name == name:
                return e
        return PlayerStats(name)

    def record(self, name: str, points: int, hands: int, outcome: str) -> PlayerStats:
        """Add one game ('won', 'lost' or 'drawn') of ``hands`` hands to ``name``."""
        if outcome not in ("won", "lost", "drawn"):
            raise ValueError(f"outcome must be won, lost or drawn, not {outcome!r}")
        for i, e in enumerate(self.entries):
            if e.name == name:
                break
        else:   # "added to the top of the file with zero totals"
            self.entries.insert(0, PlayerStats(name))
            del self.entries[MAX_STATS:]
            i = 0
        e = self.entries[i]
        e = replace(e, points=e.points + points, hands=e.hands + hands,
                    **{outcome: getattr(e, outcome) + 1})
        self.entries[i] = e
        return e


@dataclass(frozen=True)
class ScoreEntry:
    name: str
    score: int
    limit: int
    hands: int
    oklahoma: bool
    date: str           # YYYY-MM-DD

    @property
    def average(self) -> float:
        return self.score / self.hands if self.hands else 0.0


@dataclass
class ScoreTable:
    entries: list[ScoreEntry] = field(default_factory=list)     # best first

    def add(self, entry: ScoreEntry) -> int | None:
        """Insert ``entry`` if it is among the 20 best; return its place (1-based).

        Equal averages keep the older entry first.  A zero average is refused."""
        if entry.hands <= 0 or entry.score <= 0:
            return None
        pos = len(self.entries)
        for i, e in enumerate(self.entries):
            # compare score/hands exactly, without floats
            if entry.score * e.hands > e.score * entry.hands:
                pos = i
                break
        if pos >= MAX_SCORES:
            return None
        self.entries.insert(pos, entry)
        del self.entries[MAX_SCORES:]
        return pos + 1
