"""GINRUMMY.CFG, GINRUMMY.STA and GINRUMMY.SCR in the data directory.

The document names the files and what they hold but not their layout, so the
layout is ours: UTF-8 text, a first line naming the file and format version,
then one record per line.

    GINRUMMY.CFG   "GINRUMMY.CFG 1", then key=value lines: name, gin_bonus,
                   undercut_bonus, score_limit, oklahoma, big_pips, easy,
                   knocking (YES/NO), pointer (1-7), sort (RANK/SUIT).
                   NOBLANK is not stored ("the NOBLANK option is not saved").
    GINRUMMY.STA   "GINRUMMY.STA 1", then name TAB points TAB hands TAB won
                   TAB lost TAB drawn, newest name first, at most 20 lines.
    GINRUMMY.SCR   "GINRUMMY.SCR 1", then name TAB final score TAB score limit
                   TAB hands TAB Y/N (Oklahoma) TAB YYYY-MM-DD, best first, <= 20.

What happens to a bad file follows the document:
* CFG missing or corrupt: "it will be created with the default options" (line
  63).  The corrupt bytes are first copied to GINRUMMY.BAD, so nothing is lost.
* STA or SCR corrupt: the document's remedy is that the user erases or renames
  it (lines 69, 103).  We say so, play on with an empty list for the session,
  and never overwrite the corrupt file.
* Read-only directory: "the stats will start from zero ... but cannot be saved"
  (line 73).  NODISK: no file is read or written at all (line 135).
Every write goes to a temporary file that then replaces the old one, so a
failed write never leaves a half-written file behind.
"""
from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from games_py.teach_gin import options as opt
from games_py.teach_gin.options import Options
from games_py.teach_gin.records import MAX_SCORES, MAX_STATS, PlayerStats, ScoreEntry, ScoreTable, StatsBook

CFG_FILE, STA_FILE, SCR_FILE = "GINRUMMY.CFG", "GINRUMMY.STA", "GINRUMMY.SCR"
BAD_CFG_COPY = "GINRUMMY.BAD"
DOC_FILE = "GINRUMMY.DOC"


class CorruptFile(ValueError):
    def __init__(self, filename: str, line: int, reason: str) -> None:
        super().__init__(f"{filename} line {line}: {reason}")
        self.filename, self.line, self.reason = filename, line, reason


def valid_stored_name(name: str) -> bool:
    return 1 <= len(name) <= opt.NAME_MAX and name.isprintable() and "\t" not in name


# ---- GINRUMMY.CFG --------------------------------------------------------------

_BOOL_KEYS = ("oklahoma", "big_pips", "easy", "knocking")


def format_config(o: Options) -> str:
    yn = lambda b: "YES" if b else "NO"  # noqa: E731
    lines = [f"{CFG_FILE} 1", f"name={o.name}", f"gin_bonus={o.gin_bonus}",
             f"undercut_bonus={o.undercut_bonus}", f"score_limit={o.score_limit}"]
    lines += [f"{k}={yn(getattr(o, k))}" for k in _BOOL_KEYS]
    lines += [f"pointer={o.pointer}", f"sort={o.sort}"]
    return "\n".join(lines) + "\n"


def parse_config(text: str) -> Options:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != f"{CFG_FILE} 1":
        raise CorruptFile(CFG_FILE, 1, "not a GinRummy configuration file")
    values: dict[str, str] = {}
    where: dict[str, int] = {}
    for n, line in enumerate(lines[1:], start=2):
        key, sep, value = line.partition("=")
        if not sep or key in values:
            raise CorruptFile(CFG_FILE, n, f"bad or repeated line {line!r}")
        values[key], where[key] = value, n
    wanted = {"name", "gin_bonus", "undercut_bonus", "score_limit", "pointer", "sort", *_BOOL_KEYS}
    if set(values) != wanted:
        raise CorruptFile(CFG_FILE, len(lines), "missing or unknown settings")

    def number(key: str, ok) -> int:
        v = values[key]
        if not v.isdigit() or not ok(int(v)):
            raise CorruptFile(CFG_FILE, where[key], f"bad {key} {v!r}")
        return int(v)

    def flag(key: str) -> bool:
        if values[key] not in ("YES", "NO"):
            raise CorruptFile(CFG_FILE, where[key], f"bad {key} {values[key]!r}")
        return values[key] == "YES"

    if not valid_stored_name(values["name"]):
        raise CorruptFile(CFG_FILE, where["name"], "bad name")
    if values["sort"] not in opt.SORTS:
        raise CorruptFile(CFG_FILE, where["sort"], "bad sort")
    return Options(
        name=values["name"],
        gin_bonus=number("gin_bonus", lambda v: v in opt.BONUS_CHOICES),
        undercut_bonus=number("undercut_bonus", lambda v: v in opt.BONUS_CHOICES),
        score_limit=number("score_limit", lambda v: v <= opt.SCORE_LINE_MAX),
        oklahoma=flag("oklahoma"), big_pips=flag("big_pips"), easy=flag("easy"),
        knocking=flag("knocking"),
        pointer=number("pointer", lambda v: 1 <= v <= opt.POINTER_SHAPES),
        sort=values["sort"])


# ---- GINRUMMY.STA --------------------------------------------------------------

def format_stats(book: StatsBook) -> str:
    rows = [f"{STA_FILE} 1"]
    rows += [f"{e.name}\t{e.points}\t{e.hands}\t{e.won}\t{e.lost}\t{e.drawn}" for e in book.entries]
    return "\n".join(rows) + "\n"


def _records(text: str, filename: str, fields: int, limit: int) -> list[tuple[int, list[str]]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != f"{filename} 1":
        raise CorruptFile(filename, 1, "missing or wrong header")
    if len(lines) - 1 > limit:
        raise CorruptFile(filename, limit + 2, f"more than {limit} entries")
    out = []
    for n, line in enumerate(lines[1:], start=2):
        parts = line.split("\t")
        if len(parts) != fields:
            raise CorruptFile(filename, n, f"expected {fields} fields, found {len(parts)}")
        if not valid_stored_name(parts[0]):
            raise CorruptFile(filename, n, "bad name")
        out.append((n, parts))
    return out


def _count(filename: str, n: int, text: str) -> int:
    if not re.fullmatch(r"\d{1,9}", text):
        raise CorruptFile(filename, n, f"not a count: {text!r}")
    return int(text)


def parse_stats(text: str) -> StatsBook:
    book = StatsBook()
    for n, (name, *nums) in _records(text, STA_FILE, 6, MAX_STATS):
        if name in book.names():
            raise CorruptFile(STA_FILE, n, f"name {name!r} appears twice")
        points, hands, won, lost, drawn = (_count(STA_FILE, n, x) for x in nums)
        book.entries.append(PlayerStats(name, points, hands, won, lost, drawn))
    return book


# ---- GINRUMMY.SCR --------------------------------------------------------------

def format_scores(table: ScoreTable) -> str:
    rows = [f"{SCR_FILE} 1"]
    rows += [f"{e.name}\t{e.score}\t{e.limit}\t{e.hands}\t{'Y' if e.oklahoma else 'N'}\t{e.date}"
             for e in table.entries]
    return "\n".join(rows) + "\n"


def parse_scores(text: str) -> ScoreTable:
    table = ScoreTable()
    for n, (name, score, limit, hands, okla, day) in _records(text, SCR_FILE, 6, MAX_SCORES):
        if okla not in ("Y", "N"):
            raise CorruptFile(SCR_FILE, n, "Oklahoma must be Y or N")
        try:
            date.fromisoformat(day)
        except ValueError:
            raise CorruptFile(SCR_FILE, n, f"bad date {day!r}") from None
        entry = ScoreEntry(name, _count(SCR_FILE, n, score), _count(SCR_FILE, n, limit),
                           _count(SCR_FILE, n, hands), okla == "Y", day)
        if entry.hands == 0 or entry.score == 0:
            raise CorruptFile(SCR_FILE, n, "zero scores are never saved")
        table.entries.append(entry)
    # best first; sorted() is stable so equal averages keep their order
    table.entries = sorted(table.entries, key=lambda e: -e.score / e.hands)
    return table


# ---- the data directory ----------------------------------------------------------

class DataStore:
    """Reads and writes the three files; collects messages for the player."""

    def __init__(self, directory: Path, disk: bool = True) -> None:
        self.dir = Path(directory)
        self.disk = disk
        self.writable = disk and os.access(self.dir, os.W_OK)
        self.messages: list[str] = []
        self._locked: set[str] = set()     # corrupt files we must not overwrite

    def _say(self, text: str) -> None:
        self.messages.append(text)

    def _read(self, filename: str) -> str | None:
        try:
            return (self.dir / filename).read_bytes().decode("utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            return "\0"     # not text: parsed as corrupt
        except OSError as e:
            self._say(f"Cannot read {filename}: {e.strerror}.")
            return None

    def _write(self, filename: str, text: str) -> bool:
        if not self.disk:
            return False
        if not self.writable:
            self._say(f"{self.dir} is read-only: {filename} was not saved.")
            return False
        # a temporary file beside the real one, then an atomic rename
        tmp = self.dir / f".{filename}.{os.getpid()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.replace(tmp, self.dir / filename)
            return True
        except OSError as e:
            self._say(f"Cannot save {filename}: {e.strerror}.")
            try:
                tmp.unlink()
            except OSError:
                pass
            return False

    # -- configuration
    def load_config(self) -> Options:
        if not self.disk:
            return Options()
        text = self._read(CFG_FILE)
        if text is not None:
            try:
                return parse_config(text)
            except CorruptFile as e:
                self._say(f"{CFG_FILE} is corrupted ({e}); it is created again with the "
                          f"default options (the old one is kept as {BAD_CFG_COPY}).")
                if self.writable:
                    try:
                        (self.dir / BAD_CFG_COPY).write_bytes((self.dir / CFG_FILE).read_bytes())
                    except OSError:
                        pass
        self._write(CFG_FILE, format_config(Options()))
        return Options()

    def save_config(self, options: Options) -> bool:
        return self._write(CFG_FILE, format_config(options))

    # -- statistics
    def load_stats(self) -> StatsBook:
        if not self.disk:
            return StatsBook()
        if not self.writable:
            self._say("The data directory is read-only: statistics start from zero and "
                      "cannot be saved.")
            return StatsBook()
        return self._load_list(STA_FILE, parse_stats, StatsBook)

    def save_stats(self, book: StatsBook) -> bool:
        if STA_FILE in self._locked:
            return False
        return self._write(STA_FILE, format_stats(book))

    # -- high scores
    def load_scores(self) -> ScoreTable:
        if not self.disk:
            return ScoreTable()
        return self._load_list(SCR_FILE, parse_scores, ScoreTable)

    def save_scores(self, table: ScoreTable) -> bool:
        if SCR_FILE in self._locked:
            return False
        return self._write(SCR_FILE, format_scores(table))

    def _load_list(self, filename: str, parse, empty):
        text = self._read(filename)
        if text is None:
            return empty()
        try:
            return parse(text)
        except CorruptFile as e:
            self._locked.add(filename)
            self._say(f"{filename} is corrupted ({e}). Erase or rename it to start a new "
                      f"list; until then it is left untouched and this session's results "
                      f"are not saved to it.")
            return empty()

    def read_document(self) -> str | None:
        if not self.disk:
            return None
        return self._read(DOC_FILE)
