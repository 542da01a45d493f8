"""The command-line switches of TONK.DOC: 'S START UP WITH SOUND OFF, M FORCE MONO
DISPLAY MODE, C FORCE COLOR DISPLAY MODE, P PROHIBIT PASSING', written together as
in '>TONK MS' (a leading / or - is accepted too)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

SWITCHES = {"S": "sound off", "M": "mono display", "C": "color display", "P": "no passing"}


class SwitchError(ValueError):
    """An unknown or contradictory switch; the message is meant for the player."""


@dataclass
class Options:
    sound: bool = True
    display: str = "auto"      # "auto", "mono" or "color"
    no_passing: bool = False


def parse_switches(args: Iterable[str]) -> Options:
    opts = Options()
    letters = "".join(a.strip().lstrip("/-") for a in args).upper()
    if "M" in letters and "C" in letters:
        raise SwitchError("M (mono) and C (color) contradict each other: give only one")
    for ch in letters:
        if ch == "S":
            opts.sound = False
        elif ch == "M":
            opts.display = "mono"
        elif ch == "C":
            opts.display = "color"
        elif ch == "P":
            opts.no_passing = True
        else:
            known = ", ".join(f"{k} ({v})" for k, v in SWITCHES.items())
            raise SwitchError(f"unknown switch {ch!r}: the switches are {known}")
    return opts
