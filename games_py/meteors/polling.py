"""The passes of line 3231's wait, instruction for instruction.

``WHILE ABS(TIMER - T0) < .05: WEND`` (0000:1D66-1D88) polls: each pass is the
WEND's INT 3, TIMER (INT 21h AH=2Ch, then the runtime's MBF arithmetic on the
hours..hundredths), the subtraction, ABS and the compare.  TIMER changes only at
BIOS ticks, so every pass between two ticks costs the same, but what it costs
depends on the values: the runtime's normalisation loops, its alignment shifts
and its rounding branches take as many instructions as the operands make them
(from 831 to 1,067 a pass in the sweep's sessions).  Where the wait ends inside
the tick that ends it is where that pass lattice puts it (up to a pass after the
tick), and with sound on it decides whether the next fall's note starts fresh
or queues behind the one playing (docs/meteors-internals.md, section 6).

A pass's cost is the sum, over the paths the runtime's routines take for these
operands (``mbf.counting_paths``: the same branches, in the transcription of
those routines), of the instructions each path costs.  The table below was
fitted to the instruction counts of METEORS.EXE's own runtime code running the
loop's body on 18,023 pairs of (TIMER, T0): the sweep's 12,023 and 6,000 drawn
over the whole day; it is exact on all of them and on 4,000 more drawn apart.
Some entries are halves: paths that always come together share their cost.
"""
from __future__ import annotations

from games_py.qbasic import mbf, rng
from games_py.qbasic.mbf import MBF

PACE = MBF.from_hex("CD CC 4C 7C")          # .05 at DGROUP:1294

ENTRY = 41          # line 3231's first INT 3 (FAST, T0 >= 0) to the WHILE's INT 3 (0000:1D66)
TIME_READ = 21      # a pass reads the time (INT 21h AH=2Ch) this far in: a tick before it is seen
BASE = 658          # a pass with every path below at zero (the INT 3 and DOS's call included)
PATHS = {
    "fixed:normalise.byte": 7, "fixed:normalise.bit": 5,      # CSNG of the time's parts
    "mul:round.below": 48, "mul:finish.shift": 1,
    "add:same_signs": 19.5, "add:swap": 7.5, "add:aligned": 2.5, "add:carry": 4,
    "add:word": 7, "add:byte": 11, "add:right": 3, "add:left": 4,
    "add:right_from_direct": 4, "add:right_from_word": 4, "add:right_from_byte": 1,
    "add:left_from_byte": 1, "add:left_from_word": 0,
    "add:normalise.word": 2.5, "add:normalise.byte": 3.5, "add:normalise.bit": 2.5,
    "add:round.below": 8,
    "div:round.above": 2, "div:finish.shift": 1, "div:sticky": 1,
    "compare:low_word": 1,
    "compare:equal": 1,     # ABS(TIMER - T) exactly the span (runtime_cost's; line 3231's .05 never,
                            # line 4740's .5 and line 1710's 2 can: branch h-dticks, line 4740's last
                            # pass at 16:44:38.39 /M, 980 where it was 979)
    "add:round.exponent": 2, "mul:round.exponent": 2, "div:round.exponent": 2,   # (runtime_cost's; no
    "fixed:round.exponent": 2,                                                # time of day rounds so)
}
NEGATIVE = -24      # ABS of a negative difference (and the subtraction's path to it)
EXIT = 1            # the pass that ends the loop, to line 3232's INT 3


def waited_enough(now: MBF, t0: MBF, span: MBF = PACE) -> bool:
    """NOT (ABS(TIMER - T0) < span), in the runtime's arithmetic."""
    difference = mbf.sub(now, t0)
    if difference.negative:
        difference = MBF(bytes([*difference.raw[:2], difference.raw[2] & 0x7F, difference.raw[3]]))
    return mbf.compare(difference, span) >= 0


def one_pass(time_of_day: tuple[int, int, int, int], t0: MBF, span: MBF = PACE) -> tuple[int, bool]:
    """The instructions of one pass that reads ``time_of_day``, from its INT 3 to the
    next (or, when it ends the loop, to line 3232's), and whether it ends the loop
    (``span``: the wait's length, line 1710's 2 for a game's end)."""
    with mbf.counting_paths() as paths:
        now = rng.timer(*time_of_day)
        negative = mbf.sub(now, t0).negative
        done = waited_enough(now, t0, span)
    cost = BASE + sum(PATHS.get(name, 0) * times for name, times in paths.items())
    return int(cost + NEGATIVE * negative + EXIT * done), done
