"""The Options menu: defaults and how each key changes a setting (doc lines 35-63)."""
from __future__ import annotations

from dataclasses import dataclass, replace

DEFAULT_NAME = "PLAYER"                 # "The default name is 'PLAYER'"
NAME_MAX = 8                            # "a maximum of 8 characters long"
BONUS_CHOICES = (10, 15, 20, 25)        # "Usually this is 25 points but some people use 10, 15, or 20"
SCORE_STEP = 50                         # "cycles the maximum score ... by 50 points, from 0 to 500"
SCORE_MENU_MAX = 500
SCORE_LINE_MAX = 999                    # the command line takes "a number from 000 to 999"
POINTER_SHAPES = 7                      # "There are seven different shapes to choose from"
SORTS = ("RANK", "SUIT")

# Characters the name editor accepts (doc line 38): letters, the digits 1-9
# (the document leaves out 0), ! " - : / ? and space.
_NAME_PUNCTUATION = set('!"-:/? ')


def name_char_allowed(ch: str) -> bool:
    return (ch.isascii() and ch.isalpha()) or ch in "123456789" or ch in _NAME_PUNCTUATION


def edit_name(typed: str) -> str:
    """What the name editor keeps of a typed line: the allowed characters, up to
    8 of them (other keys are ignored, as an editor that only accepts those keys
    would).  A backspace character removes the previous one."""
    out: list[str] = []
    for ch in typed:
        if ch in "\b\x7f":
            if out:
                out.pop()
        elif name_char_allowed(ch) and len(out) < NAME_MAX:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class Options:
    name: str = DEFAULT_NAME
    gin_bonus: int = 25
    undercut_bonus: int = 25
    score_limit: int = 100              # "usually 100" (doc line 192)
    oklahoma: bool = False
    big_pips: bool = False
    easy: bool = False
    knocking: bool = True
    pointer: int = 1
    sort: str = "RANK"

    def with_(self, **changes) -> "Options":
        return replace(self, **changes)


def next_bonus(value: int) -> int:
    """The 'U' key steps 10 -> 15 -> 20 -> 25 -> 10."""
    if value not in BONUS_CHOICES:
        return BONUS_CHOICES[-1]
    return BONUS_CHOICES[(BONUS_CHOICES.index(value) + 1) % len(BONUS_CHOICES)]


def raise_limit(value: int) -> int:
    """'+' : next multiple of 50; past 500 the cycle starts again at 0.
    (A command-line limit such as 234 moves to 250.)"""
    nxt = (value // SCORE_STEP + 1) * SCORE_STEP
    return 0 if nxt > SCORE_MENU_MAX else nxt


def lower_limit(value: int) -> int:
    """'-' : previous multiple of 50; below 0 the cycle wraps to 500."""
    if value > SCORE_MENU_MAX:
        return SCORE_MENU_MAX
    prev = -(-value // SCORE_STEP) * SCORE_STEP - SCORE_STEP
    return SCORE_MENU_MAX if prev < 0 else prev


def next_pointer(value: int) -> int:
    return value % POINTER_SHAPES + 1


def other_sort(value: str) -> str:
    return "SUIT" if value == "RANK" else "RANK"
