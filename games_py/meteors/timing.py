"""The frame's pace (line 3231) as the original experiences it in virtual time.

``WHILE ABS(TIMER - T0) < .05: WEND`` with T0 the TIMER of the last frame's end.
DOS's time moves only at BIOS ticks (65536/1193182 s), so TIMER, an MBF single
computed from DOS's hours..hundredths, steps by 5 or 6 hundredths; near 43,200 s
a single resolves 1/256 s, and a 5-hundredth step can come out below .05 once
rounded.  The loop then waits for a second tick: frames take one tick or two,
depending on the time of day.

This module gives the TIMER the program reads at an absolute BIOS tick count,
and the tick at which a frame's wait ends.  What it does not know is when each
frame's own work ends (printing, and with sound on the PLAY(0) waits of about
half a tick per effect), nor how many ticks pass between RANDOMIZE TIMER and a
game's first frame (the start-up show, the keys, the high-score table): see
docs/meteors-internals.md, section 6.  With sound off each frame's work ends
within the tick it began in, and the rule below gives every later frame's tick
from the first (``tests/test_meteors.py`` checks it against the original).
"""
from __future__ import annotations

from fractions import Fraction

from games_py.qbasic import mbf, rng
from games_py.qbasic.mbf import MBF

PIT_HZ = 1_193_182
TICK_SECONDS = Fraction(65536, PIT_HZ)
TICKS_PER_DAY = 0x1800B0
PACE = MBF.from_hex("CD CC 4C 7C")          # .05 at DGROUP:1294


class DosTime:
    """DOS's time of day at BIOS tick counts, for a clock set to ``start`` when the
    tick count was ``start`` // tick (pcemu.timeofday.DosClock: the start's fraction of
    a tick is kept as an offset, readings are truncated to the hundredth)."""

    def __init__(self, start: tuple[int, int, int, int]) -> None:
        h, m, s, hs = start
        seconds = Fraction(h * 3600 + m * 60 + s) + Fraction(hs, 100)
        self.start_tick = min(int(seconds / TICK_SECONDS), TICKS_PER_DAY - 1)
        self.offset = seconds - self.start_tick * TICK_SECONDS

    def at(self, tick: int) -> tuple[int, int, int, int]:
        seconds = (tick % TICKS_PER_DAY) * TICK_SECONDS + self.offset
        whole = min(int(seconds), 86399)
        hundredths = int((seconds - int(seconds)) * 100)
        return whole // 3600, whole // 60 % 60, whole % 60, hundredths

    def timer(self, tick: int) -> MBF:
        return rng.timer(*self.at(tick))


def waited_enough(now: MBF, t0: MBF) -> bool:
    """NOT (ABS(TIMER - T0) < .05), in the runtime's arithmetic."""
    difference = mbf.sub(now, t0)
    if difference.negative:
        difference = MBF(bytes([*difference.raw[:2], difference.raw[2] & 0x7F, difference.raw[3]]))
    return mbf.compare(difference, PACE) >= 0


def wait_ends(clock: DosTime, t0_tick: int, now_tick: int) -> int:
    """The tick at which line 3231's loop ends, entered at ``now_tick`` with T0 read
    at ``t0_tick``."""
    t0 = clock.timer(t0_tick)
    tick = now_tick
    while not waited_enough(clock.timer(tick), t0):
        tick += 1
    return tick
