"""The options and the CRIBBAGE.CFG file that keeps them.

CRIBBAGE.DOC: "Selecting SAVE will save all options to the CRIBBAGE.CFG
file.  This file is loaded when the program is run ...  If this file is not
present, or is corrupted, it will be created with the default options."

The document does not give the file's layout, so this reimplementation uses
its own plain-text one (one ``KEY=value`` a line, ``;`` starts a comment)::

    NAME=PLAYER
    LIMIT=121
    SKUNKING=NO
    BIGCARDS=NO
    POINTER=1

A corrupt file is not thrown away: it is renamed CRIBBAGE.CFG.BAD before the
defaults are written, so nothing the user typed is lost.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

CONFIG_FILE = "CRIBBAGE.CFG"
BAD_SUFFIX = ".BAD"
DEFAULT_NAME = "PLAYER"       # "The default name is 'PLAYER'."
NAME_MAX = 8                  # "The name can be a maximum of eight characters"
# "Upper and lower case letters, numbers 0 through 9, characters ! . , " -
# : / ? and spaces are also allowed."
NAME_PUNCTUATION = frozenset('!.,"-:/? ')
SCORE_LIMITS = (121, 61)
POINTER_SHAPES = 7            # "There are seven different shapes"


class ConfigError(ValueError):
    """A CRIBBAGE.CFG that cannot be read; the message says where."""


@dataclass(frozen=True)
class Options:
    name: str = DEFAULT_NAME
    score_limit: int = 121
    skunking: bool = False     # "Changing the SKUNKING option to YES will allow"
    big_cards: bool = False    # "changing this option to YES will give you"
    pointer: int = 1           # mouse pointer shape 1..7 (no effect here)


# --- the options menu's edits ------------------------------------------------

def name_allowed(ch: str) -> bool:
    return (ch.isascii() and ch.isalnum()) or ch in NAME_PUNCTUATION


def clean_name(text: str) -> str:
    """What the original's name box would accept from ``text``: only the
    allowed characters (others are ignored as keystrokes), at most eight."""
    return "".join(ch for ch in text if name_allowed(ch))[:NAME_MAX]


def valid_name(name: str) -> bool:
    return 0 < len(name) <= NAME_MAX and all(name_allowed(ch) for ch in name) \
        and name.strip() != ""


def cycle_limit(options: Options) -> Options:
    """SCORE LIMIT "cycles the pegging board total between 121 and 61"."""
    i = SCORE_LIMITS.index(options.score_limit)
    return replace(options, score_limit=SCORE_LIMITS[(i + 1) % len(SCORE_LIMITS)])


def toggle_skunking(options: Options) -> Options:
    return replace(options, skunking=not options.skunking)


def toggle_big_cards(options: Options) -> Options:
    return replace(options, big_cards=not options.big_cards)


def next_pointer(options: Options) -> Options:
    """'P' steps through the seven pointer shapes, wrapping round."""
    return replace(options, pointer=options.pointer % POINTER_SHAPES + 1)


# --- the file --------------------------------------------------------------------

def _yes_no(value: str, key: str, line_no: int) -> bool:
    v = value.strip().upper()
    if v not in ("YES", "NO"):
        raise ConfigError(f"line {line_no}: {key} must be YES or NO, not {value.strip()!r}")
    return v == "YES"


def parse_config(text: str) -> Options:
    """Read the file's text; every key must appear exactly once."""
    seen: dict[str, object] = {}
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if "=" not in line:
            raise ConfigError(f"line {line_no}: expected KEY=value, found {line.strip()!r}")
        key, value = line.split("=", 1)
        key = key.strip().upper()
        if key in seen:
            raise ConfigError(f"line {line_no}: {key} is given twice")
        if key == "NAME":                       # spaces are part of a name
            if not valid_name(value):
                raise ConfigError(f"line {line_no}: {value!r} is not a valid name "
                                  f"(1-{NAME_MAX} letters, digits, spaces or !.,\"-:/?)")
            seen[key] = value
        elif key == "LIMIT":
            if value.strip() not in ("121", "61"):
                raise ConfigError(f"line {line_no}: LIMIT must be 121 or 61, not {value.strip()!r}")
            seen[key] = int(value)
        elif key in ("SKUNKING", "BIGCARDS"):
            seen[key] = _yes_no(value, key, line_no)
        elif key == "POINTER":
            v = value.strip()
            if not v.isdigit() or not 1 <= int(v) <= POINTER_SHAPES:
                raise ConfigError(f"line {line_no}: POINTER must be 1 to {POINTER_SHAPES}, not {v!r}")
            seen[key] = int(v)
        else:
            raise ConfigError(f"line {line_no}: unknown option {key!r}")
    missing = [k for k in ("NAME", "LIMIT", "SKUNKING", "BIGCARDS", "POINTER") if k not in seen]
    if missing:
        raise ConfigError(f"missing {', '.join(missing)}")
    return Options(name=seen["NAME"], score_limit=seen["LIMIT"],  # type: ignore[arg-type]
                   skunking=seen["SKUNKING"], big_cards=seen["BIGCARDS"],  # type: ignore[arg-type]
                   pointer=seen["POINTER"])  # type: ignore[arg-type]


def format_config(options: Options) -> str:
    def yn(flag: bool) -> str:
        return "YES" if flag else "NO"
    return (f"; {CONFIG_FILE} - options of Cribbage (saved from the Options menu)\n"
            f"NAME={options.name}\n"
            f"LIMIT={options.score_limit}\n"
            f"SKUNKING={yn(options.skunking)}\n"
            f"BIGCARDS={yn(options.big_cards)}\n"
            f"POINTER={options.pointer}\n")


def save_config(path: Path, options: Options) -> str | None:
    """Write the options; returns an error message instead of raising."""
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(format_config(options), encoding="ascii")
        os.replace(tmp, path)
    except OSError as exc:
        return f"Could not save {path}: {exc.strerror or exc}."
    return None


def load_config(path: Path) -> tuple[Options, list[str]]:
    """Load the options at start-up, as the original does.

    A missing or corrupt file is (re)created with the default options; the
    messages returned say what happened.  Never raises for a bad file.
    """
    messages: list[str] = []
    try:
        text = path.read_bytes().decode("ascii")
        return parse_config(text), messages
    except FileNotFoundError:
        messages.append(f"{path.name} not found: created it with the default options.")
    except (UnicodeDecodeError, ConfigError) as exc:
        reason = str(exc) if isinstance(exc, ConfigError) else "it is not a text file"
        backup = path.with_name(path.name + BAD_SUFFIX)
        try:
            os.replace(path, backup)
            kept = f"the old file is kept as {backup.name}"
        except OSError as err:
            kept = f"could not keep the old file ({err.strerror or err})"
        messages.append(f"{path.name} is corrupt ({reason}); {kept}. "
                        f"Created a new one with the default options.")
    except OSError as exc:
        messages.append(f"Could not read {path}: {exc.strerror or exc}. Using the default options.")
        return Options(), messages
    error = save_config(path, Options())
    if error:
        messages.append(error)
    return Options(), messages
