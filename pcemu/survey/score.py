"""Scoring a program's screens against DOSBox's: the share of DOSBox's words pcemu shows.

Words are runs of letters and digits with at least one letter, two characters or
more, compared with their case: pure numbers are left out, since clocks, counters,
free memory and dates differ by design between two machines started apart.  The
share is the part of DOSBox's words (counted with repeats) found on pcemu's screen.

DOSBox's settled screen is its last one (20 s in the corpus): pcemu's screen at
each of its moments is compared with it and the best share counts, since DOSBox at
3000 cycles and pcemu's virtual seconds do not run at the same pace.

Verdicts:
- ``graphics``: DOSBox's screen was a graphics mode (words cannot be compared);
- ``match``: share >= 0.90 (a screen without words on both sides also matches);
- ``partial``: 0.50 <= share < 0.90;
- ``differs``: share < 0.50, or DOSBox showed no words and pcemu does, or pcemu
  has no screen at all (the program could not run).
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

from pcemu.survey.text_file import read_text_file

MATCH = 0.90
PARTIAL = 0.50
VERDICTS = ("match", "partial", "differs", "graphics")
_WORD = re.compile(r"[^\W_]{2,}")


def words(lines: list[str]) -> Counter:
    """The comparable words of a screen (see the module's docstring)."""
    found: Counter = Counter()
    for line in lines:
        for word in _WORD.findall(line):
            if not word.isdigit() and any(c.isalpha() for c in word):
                found[word] += 1
    return found


def share(truth: list[str], ours: list[str]) -> float:
    """The part of ``truth``'s words (with repeats) found in ``ours``; 1.0 when both have
    none, 0.0 when only ``ours`` has some."""
    want, have = words(truth), words(ours)
    total = sum(want.values())
    if total == 0:
        return 1.0 if not have else 0.0
    return sum(min(n, have[w]) for w, n in want.items()) / total


def tally(records: list[dict]) -> dict[str, tuple[int, int]]:
    """(matching, all) per kind of DOSBox screen: ``text`` (the survey's measure: the
    programs DOSBox showed a text screen for), ``blank`` (DOSBox showed nothing: a match
    is pcemu showing nothing too) and ``graphics`` (not compared)."""
    matching: Counter = Counter()
    total: Counter = Counter()
    for record in records:
        if record.get("verdict"):
            kind = record.get("truth_kind")
            kind = kind if kind in ("graphics", "blank") else "text"
            total[kind] += 1
            matching[kind] += record["verdict"] == "match"
    return {kind: (matching[kind], n) for kind, n in total.items()}


def tally_line(records: list[dict]) -> str:
    """The tally in words: "91 of 95 text screens match (95.8%); blank in DOSBox: 3 of 5
    blank in pcemu too", then the graphics screens' count if there are any."""
    counts = tally(records)
    matching, total = counts.get("text", (0, 0))
    parts = [f"{matching} of {total} text screens match"
             + (f" ({matching / total:.1%})" if total else "")]
    if "blank" in counts:
        parts.append("blank in DOSBox: {} of {} blank in pcemu too".format(*counts["blank"]))
    if "graphics" in counts:
        parts.append(f"graphics in DOSBox: {counts['graphics'][1]}, not compared")
    return "; ".join(parts)


def verdict_for(value: float | None) -> str:
    if value is None:
        return "differs"
    return "match" if value >= MATCH else "partial" if value >= PARTIAL else "differs"


def score(record: dict, truth: list[dict]) -> dict:
    """The fields a truth adds to a record: ``share``, ``verdict``, ``truth_t``,
    ``best_t`` (which of pcemu's screens counted) and DOSBox's screen."""
    settled = max(truth, key=lambda r: r.get("t", 0))
    result = {"truth_t": settled.get("t"), "truth_kind": settled.get("kind"),
              "truth_lines": settled.get("lines", [])}
    if settled.get("kind") == "graphics":
        return {**result, "share": None, "best_t": None, "verdict": "graphics"}
    best, best_t = None, None
    for screen in record.get("screens", []):
        value = share(settled.get("lines", []), screen.get("lines", []))
        if best is None or value > best:
            best, best_t = value, screen.get("t")
    return {**result, "share": None if best is None else round(best, 4), "best_t": best_t,
            "verdict": verdict_for(best)}


class TruthError(Exception):
    """The truth file cannot be read."""


def load_truth(path: str | os.PathLike) -> dict[tuple[str, str], list[dict]]:
    """DOSBox's screens by (disk, program), from a file in the corpus's dosbox.jsonl format."""
    path = Path(path)
    text = read_text_file(path, "truth", TruthError)
    truth: dict[tuple[str, str], list[dict]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key = (str(record["disk"]).upper(), str(record["prog"]).upper())
            lines = record["lines"]
            if not isinstance(lines, list) or not all(isinstance(s, str) for s in lines):
                raise TypeError
            float(record.get("t", 0))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, RecursionError):
            raise TruthError(f"truth file {path}, line {number}: not a screen record "
                             "(want JSON with disk, prog, t, kind, lines)") from None
        truth.setdefault(key, []).append(record)
    return truth


def truth_for(truth: dict, record: dict) -> list[dict] | None:
    return truth.get((str(record.get("disk", "")).upper(), str(record.get("program") or "").upper()))
