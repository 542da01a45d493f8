"""Betting and the pot kept in TONK.SCR.

'SINCE THE COMPUTER ACTS AS BANKER YOU START OUT BY SPECIFYING YOUR BET, $1 TO
$999 (IF YOU WANT THE SAME BET AS LAST TIME, JUST HIT THE <ENTER> KEY).'

design: the document gives no starting pot and no file layout.  The pot is your
balance with the banker: it starts at $0 ('TO REFRESH YOUR POT JUST DELETE THE
FILE') and may go below zero, since the banker gives credit; the bet itself is
always $1-$999.  A dead hand's stake is 'CARRIED OVER TO THE NEXT HAND': the
next hand is played for the new bet plus the carried stake.

TONK.SCR is a small text file, one ``key value`` per line after a header::

    TONK.SCR 1
    pot -35
    bet 10
    carry 0

``bet`` is ``none`` before the first bet.  A file that does not read back
exactly like this is never overwritten: it is renamed to TONK.SCR.bad (or
.bad2, ...) so nothing is lost, and play starts from a fresh pot.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from games_py.tonk.state import Outcome, Reason

MIN_BET, MAX_BET = 1, 999
START_POT = 0
POT_FILE_NAME = "TONK.SCR"
HEADER = "TONK.SCR 1"
POT_LIMIT = 10 ** 12          # a sanity bound when reading the file


class BetError(ValueError):
    """Bad bet input; the message is meant for the player."""


def parse_bet(text: str, last_bet: int | None) -> int:
    """The bet typed at the prompt: '' repeats the last bet; '$25' and '25' are $25."""
    t = text.strip().lstrip("$").strip()
    if not t:
        if last_bet is None:
            raise BetError("there is no last bet yet: type an amount from $1 to $999")
        return last_bet
    if not t.isdigit():
        raise BetError(f"{text.strip()!r} is not an amount: type a whole number of dollars, $1 to $999")
    bet = int(t)
    if not MIN_BET <= bet <= MAX_BET:
        raise BetError(f"the bet must be ${MIN_BET} to ${MAX_BET}, not ${bet}")
    return bet


@dataclass
class Pot:
    balance: int = START_POT
    last_bet: int | None = None
    carry: int = 0            # stake of dead hands carried over to the next hand

    def stake(self, bet: int) -> int:
        """What the next hand is played for."""
        if not MIN_BET <= bet <= MAX_BET:
            raise BetError(f"the bet must be ${MIN_BET} to ${MAX_BET}, not ${bet}")
        return bet + self.carry

    def settle(self, outcome: Outcome, bet: int, you: int) -> int:
        """Apply a finished hand to the pot for seat ``you``; returns the change.
        The loser pays the stake, 'DOUBLE THE AMOUNT BET' after an undercut;
        a dead hand pays nothing and carries the stake over."""
        stake = self.stake(bet)
        self.last_bet = bet
        if outcome.reason is Reason.DEAD:
            self.carry = stake
            return 0
        self.carry = 0
        change = stake * outcome.multiplier * (1 if outcome.winner == you else -1)
        self.balance += change
        return change


# ----------------------------------------------------------------- TONK.SCR

def format_pot(pot: Pot) -> str:
    bet = "none" if pot.last_bet is None else str(pot.last_bet)
    return f"{HEADER}\npot {pot.balance}\nbet {bet}\ncarry {pot.carry}\n"


def parse_pot(text: str) -> Pot:
    """Read the file's text; raises ValueError saying what is wrong."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines or lines[0] != HEADER:
        raise ValueError(f"the first line is not {HEADER!r}")
    fields: dict[str, str] = {}
    for ln in lines[1:]:
        parts = ln.split()
        if len(parts) != 2 or parts[0] not in ("pot", "bet", "carry") or parts[0] in fields:
            raise ValueError(f"unexpected line {ln!r}")
        fields[parts[0]] = parts[1]
    missing = {"pot", "bet", "carry"} - set(fields)
    if missing:
        raise ValueError(f"missing {', '.join(sorted(missing))}")
    try:
        balance = int(fields["pot"])
        carry = int(fields["carry"])
        bet = None if fields["bet"] == "none" else int(fields["bet"])
    except ValueError:
        raise ValueError("a value is not a whole number") from None
    if abs(balance) > POT_LIMIT:
        raise ValueError(f"pot {balance} is out of range")
    if bet is not None and not MIN_BET <= bet <= MAX_BET:
        raise ValueError(f"last bet {bet} is not $1-$999")
    if not 0 <= carry <= POT_LIMIT:
        raise ValueError(f"carried stake {carry} is out of range")
    return Pot(balance, bet, carry)


@dataclass(frozen=True)
class Loaded:
    pot: Pot
    message: str | None       # for the player; None when the file read back cleanly
    may_save: bool            # False when saving would overwrite a file we could not read


def load_pot(path: str | os.PathLike) -> Loaded:
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Loaded(Pot(), f"No {path.name} yet: starting a fresh pot of ${START_POT}.", True)
    except OSError as e:
        return Loaded(Pot(), f"Cannot read {path}: {e.strerror or e}. Playing with a fresh pot "
                             "that will not be saved, so the file is left as it is.", False)
    try:
        return Loaded(parse_pot(data.decode("ascii")), None, True)
    except (UnicodeDecodeError, ValueError) as e:
        why = "it is not text" if isinstance(e, UnicodeDecodeError) else str(e)
        kept = _set_aside(path)
        if kept is None:
            return Loaded(Pot(), f"{path.name} is damaged ({why}) and could not be renamed; playing "
                                 "with a fresh pot that will not be saved over it.", False)
        return Loaded(Pot(), f"{path.name} is damaged ({why}); it was kept as {kept.name}. "
                             f"Starting a fresh pot of ${START_POT}.", True)


def save_pot(path: str | os.PathLike, pot: Pot) -> str | None:
    """Write the pot atomically; returns an error message, or None."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(format_pot(pot), encoding="ascii")
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        return f"Could not save the pot to {path}: {e.strerror or e}."
    return None


def _set_aside(path: Path) -> Path | None:
    for n in range(1, 1000):
        bad = path.with_name(path.name + (".bad" if n == 1 else f".bad{n}"))
        if not bad.exists():
            try:
                os.replace(path, bad)
            except OSError:
                return None
            return bad
    return None
