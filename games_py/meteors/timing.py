"""The frame's pace (line 3231) as the original experiences it in virtual time.

``WHILE ABS(TIMER - T0) < .05: WEND`` with T0 the TIMER of the last frame's end.
DOS's time moves only at BIOS ticks (65536/1193182 s), so TIMER, an MBF single
computed from DOS's hours..hundredths, steps by 5 or 6 hundredths; near 43,200 s
a single resolves 1/256 s, and a 5-hundredth step can come out below .05 once
rounded.  The loop then waits for a second tick: frames take one tick or two,
depending on the time of day.

This module gives the TIMER the program reads at an absolute BIOS tick count,
the tick at which such a wait ends, and ``FrameClock``: the tick the program is in
from RANDOMIZE TIMER on, with sound off.  Every wait of the program is on TIMER
(line 222's calibration, the frame's pace, the two-second pauses of a game's end),
so each ends just after a tick; between waits the program's work is estimated in
instructions, which only matters where it passes a tick: a level screen, and the
steps and new meteor that follow one with no wait between.  The start-up show and
the name prompt take a fixed number of ticks with the tracer's keys.  With sound on
the music timer moves the BIOS ticks (docs/meteors-internals.md, section 6): not
modelled.
"""
from __future__ import annotations

from fractions import Fraction

from games_py.qbasic import mbf, rng
from games_py.qbasic.mbf import MBF

PIT_HZ = 1_193_182
TICK_SECONDS = Fraction(65536, PIT_HZ)
TICKS_PER_DAY = 0x1800B0
PACE = MBF.from_hex("CD CC 4C 7C")          # .05 at DGROUP:1294 (line 3231)
CALIBRATION = MBF.from_hex("CD CC 4C 7D")   # .1 at DGROUP:11A0 (line 222)
PAUSE = MBF.from_hex("00 00 00 82")         # 2 at DGROUP:1224 (lines 1640/1670 -> 1710)


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


def waited_enough(now: MBF, t0: MBF, span: MBF = PACE) -> bool:
    """NOT (ABS(TIMER - T0) < span), in the runtime's arithmetic."""
    difference = mbf.sub(now, t0)
    if difference.negative:
        difference = MBF(bytes([*difference.raw[:2], difference.raw[2] & 0x7F, difference.raw[3]]))
    return mbf.compare(difference, span) >= 0


def wait_ends(clock: DosTime, t0_tick: int, now_tick: int, span: MBF = PACE) -> int:
    """The tick at which a ``WHILE ABS(TIMER - T0) < span: WEND`` loop ends, entered at
    ``now_tick`` with T0 read at ``t0_tick`` (line 3231 by default)."""
    t0 = clock.timer(t0_tick)
    tick = now_tick
    while not waited_enough(clock.timer(tick), t0, span):
        tick += 1
    return tick


# What the tracer's key script costs before the first game (original.py): F1 (sound
# off) and F2 (demo), each followed by {TICKS:20}, then the space that ends PRESS ANY
# KEY (line 3560).  For 0, 1 or 2 function keys: the ticks from the end of line 222's
# wait to the level screen's T0 (line 3232), and the ticks the first blocks then take
# before the first frame.  Measured on the original at 30 start times each (the show
# itself waits on TIMER and PLAY, so its length is fixed in ticks); see
# docs/meteors-internals.md, section 6.
STARTUP = {0: (35, 0), 1: (55, 1), 2: (76, 1)}
# The work between two waits, in instructions (1.2 MIPS: a tick is 65,910), measured
# on the original with sound off: a wait on TIMER ends and reads T0 this far into the
# tick (1,000 to 2,100: where the loop was when the tick came); a level screen (lines
# 3670-4030, from the countdown's T0 to the next step) takes LEVEL_SCREEN plus a row of
# blocks (four PRINT STRING$(14, BLOCK)) each; a step (lines 1110-1400: median 3,300
# of 1,261 in human sessions, 1,700 to 17,000) and an arrow key's ON KEY handler in it
# (median 6,500 more, of 299), a new meteor (lines 1400 -> 630-720 -> 1110) and a retry
# of line 630-680's choice of path take about these.  Only sequences with no wait
# between (a level screen, then the meteor's extra step and a new meteor) can pass a
# tick, so only they need the estimate.
TICK_INSTRUCTIONS = 65_910
AFTER_WAIT = 1_500
LEVEL_SCREEN = 20_700
BLOCK_ROW = 4_007
STEP = 3_300
KEY_HANDLER = 6_500                         # ON KEY(11-14) run in the step (lines 4930-5070)
NEW_METEOR = 6_100
METEOR_RETRY = 850
# Between the two pauses of a game's end: the high-score table asks the name (line
# 5910), which the tracer types (PLAYER and Enter) at once, at that statement.
NAME_TICKS = 7


class FrameClock:
    """The BIOS tick the program is in, as the Python game follows it (sound off):
    every wait of the program is on TIMER, so it ends just after a tick, and the work
    between two waits is known to fit in the tick it starts in, or to pass one."""

    def __init__(self, start: tuple[int, int, int, int], function_keys: int) -> None:
        self.clock = DosTime(start)
        self.now = self.clock.start_tick            # line 120's RANDOMIZE TIMER
        self.t0: int | None = None                  # the tick of T0, None for T0 = -1
        self.fast = True                            # line 225
        self.work = AFTER_WAIT                      # instructions into the tick, about
        self.function_keys = function_keys

    def time_of_day(self) -> tuple[int, int, int, int]:
        return self.clock.at(self.now)

    def since(self, tick: int) -> int:
        """BIOS ticks from ``tick`` to now as the tick count at 0040:006C shows them
        (it starts again at 0 at midnight)."""
        return self.now % TICKS_PER_DAY - tick % TICKS_PER_DAY

    def calibrate(self) -> bool:
        """Line 222: WHILE ABS(TIMER - T) < .1 counts loop passes; line 225: FAST when
        more than 60.  A pass takes about a fortieth of a tick, and the loop lasts two
        ticks or more (5 or 6 hundredths a tick), except when TIMER wraps at midnight
        in the first: then FAST is false and the frames are not paced at all."""
        start = self.now
        self.now = wait_ends(self.clock, self.now, self.now, CALIBRATION)
        self.fast = self.now - start >= 2
        return self.fast

    def show(self) -> int:
        """The start-up show and PRESS ANY KEY (game 1): to the level screen's T0;
        returns the ticks its blocks take."""
        ticks, blocks = STARTUP[self.function_keys]
        self.now += ticks
        self.work = AFTER_WAIT
        return blocks

    def pace(self, wait: bool = True) -> None:
        """Lines 3231-3232 (no wait when T0 = -1, a level screen's)."""
        if wait and self.t0 is not None:
            ends = wait_ends(self.clock, self.t0, self.now)
            if ends > self.now:
                self.now, self.work = ends, AFTER_WAIT
        self.t0 = self.now

    def work_done(self, instructions: int) -> None:
        """Work with no wait: the tick it ends in."""
        self.work += instructions
        self.now += self.work // TICK_INSTRUCTIONS
        self.work %= TICK_INSTRUCTIONS

    def blocks_drawn(self, rows: int) -> None:
        self.work_done(LEVEL_SCREEN + BLOCK_ROW * rows)

    def pause(self) -> None:
        """Line 1710: T = TIMER: WHILE ABS(TIMER - T) < 2 (a game's end)."""
        self.now = wait_ends(self.clock, self.now, self.now, PAUSE)
        self.work = AFTER_WAIT

    def name_typed(self) -> None:
        self.now += NAME_TICKS
