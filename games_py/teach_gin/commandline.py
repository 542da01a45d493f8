"""The DOS command line of GINRUMMY.EXE (doc lines 111-154), word for word.

``GINRUMMY [help|list|view] [nnn] [name] [path] [NOBLANK] [LAPTOP] [GO] ...``

* help (``/?``, ``?``, ``help``), ``list`` and ``view`` count only as the
  FIRST parameter and exit when done (line 122).
* ``nnn``: exactly three digits, 000-999, is the score limit (line 124-125).
* a path starts with a backslash, a drive letter and colon, or ``..`` (145);
  on Unix a leading ``/`` plays the part of the backslash.
* NOBLANK, LAPTOP, GO and the two switches whose names the document lost
  (we call them NODISK, line 135, and NOKEYS, line 139) are case-insensitive.
* anything else is the player name: the LAST such word, cut to 8 characters
  (lines 131-133).
* only the first seven parameters are looked at (line 152).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from games_py.teach_gin.options import NAME_MAX

MAX_PARAMS = 7
HELP_WORDS = ("/?", "?", "HELP")
SWITCHES = ("NOBLANK", "LAPTOP", "GO", "NODISK", "NOKEYS")
_PATH = re.compile(r"^(\\|/|\.\.|[A-Za-z]:)")


@dataclass
class Launch:
    command: str = "play"               # play, help, list or view
    name: str | None = None
    score_limit: int | None = None
    path: str | None = None
    switches: set[str] = field(default_factory=set)
    ignored: list[str] = field(default_factory=list)   # past the seventh parameter

    def has(self, switch: str) -> bool:
        return switch in self.switches


def parse_params(params: list[str]) -> Launch:
    launch = Launch()
    if params:
        first = params[0].upper()
        if first in HELP_WORDS:
            launch.command = "help"
        elif first in ("LIST", "VIEW"):
            launch.command = first.lower()
        if launch.command != "play":
            params = params[1:]
    looked, launch.ignored = params[:MAX_PARAMS], params[MAX_PARAMS:]
    for word in looked:
        up = word.upper()
        if up in SWITCHES:
            launch.switches.add(up)
        elif re.fullmatch(r"\d{3}", word):
            launch.score_limit = int(word)
        elif _PATH.match(word):
            launch.path = word
        else:
            name = "".join(ch for ch in word if ch.isprintable() and ch != "\t")
            if name:
                launch.name = name[:NAME_MAX]
    return launch


def resolve_path(raw: str | None, cwd: Path) -> tuple[Path, str | None]:
    """The data directory, and a message if ``raw`` had to be refused.

    "If a path is given, it is tested at game startup, and if it is invalid for
    any reason, the current directory will be made the default path" (line 150).
    """
    if raw is None:
        return cwd, None
    text = raw
    if os.sep == "/":
        if re.match(r"^[A-Za-z]:", text):
            return cwd, f"Path {raw} is invalid here (no drive letters): using the current directory."
        text = text.replace("\\", "/")
    candidate = (cwd / text).resolve() if not os.path.isabs(text) else Path(text)
    if candidate.is_dir():
        return candidate, None
    return cwd, f"Path {raw} is invalid: using the current directory."
