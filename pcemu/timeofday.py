"""The time of day as DOS and the real-time clock keep it.

DOS reads the time from the BIOS tick count at 0040:006C, so its clock moves
in steps of one tick (65536/1193182 s, about 5.5 hundredths) and stops if a
program keeps INT 08h from reaching the BIOS, as on a real PC.  The start time
given by the user is kept exactly: the fraction of a tick it falls into is held
as an offset, so the first reading equals the start time to the hundredth and
every later one is that plus whole ticks.

The CMOS real-time clock is separate hardware: it runs from virtual time itself.
"""
from __future__ import annotations

import datetime as _dt
from fractions import Fraction

from pcemu.clock import PIT_HZ, TICKS_PER_DAY

TICK_SECONDS = Fraction(65536, PIT_HZ)
DAY_SECONDS = 86400


def split_seconds(seconds: Fraction) -> tuple[int, Fraction]:
    """Seconds since midnight -> (whole ticks, remaining fraction of a tick in seconds)."""
    ticks = min(int(seconds / TICK_SECONDS), TICKS_PER_DAY - 1)
    return ticks, seconds - ticks * TICK_SECONDS


def seconds_of(moment: _dt.datetime | _dt.time) -> Fraction:
    return (Fraction(moment.hour * 3600 + moment.minute * 60 + moment.second)
            + Fraction(moment.microsecond // 10_000, 100))


class DosClock:
    def __init__(self, start: _dt.datetime) -> None:
        self.date = start.date()
        self.start_ticks, self.offset = split_seconds(seconds_of(start))

    def now(self, ticks: int) -> _dt.datetime:
        """The date and time DOS reports when the BIOS tick count is ``ticks``."""
        seconds = ticks * TICK_SECONDS + self.offset
        whole = int(seconds)
        hundredths = int((seconds - whole) * 100)
        whole = min(whole, DAY_SECONDS - 1)
        return _dt.datetime.combine(self.date, _dt.time(whole // 3600, whole // 60 % 60, whole % 60,
                                                        hundredths * 10_000))

    def set_time(self, hour: int, minute: int, second: int, hundredths: int) -> int:
        """Set the time of day; returns the tick count to store at 0040:006C."""
        ticks, self.offset = split_seconds(Fraction(hour * 3600 + minute * 60 + second)
                                           + Fraction(hundredths, 100))
        return ticks

    def midnight(self) -> None:
        self.date += _dt.timedelta(days=1)
