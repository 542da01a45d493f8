"""Intel 8253/8254 programmable interval timer: three channels on ports 40h-43h.

Channel 0 drives IRQ 0 (its period follows the reload value a program writes:
the BASIC runtime sets 0800h while it plays music); channel 2, gated by port
61h bit 0, feeds the speaker.  Counters are not stepped: their value at any
moment is computed from the virtual PIT clock, so reads are exact and cheap.

A count written right after a control word is loaded at once (on the next CLK).  A count
written again with no control word, while the channel counts in mode 2 or 3, waits, as
Intel's 8254 data sheet says: to the end of the current cycle (mode 2) or half-cycle
(mode 3), so that IRQ 0 stays on its lattice.  The QuickBASIC runtime writes channel 0 so
when its music starts (0800h) and ends (0).  Channel 2 does the same; the speaker hears of
the new count when it is loaded (``schedule``), or at once if a rising gate loads it first.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

ACCESS_LATCH, ACCESS_LO, ACCESS_HI, ACCESS_LOHI = 0, 1, 2, 3


class Deferred(NamedTuple):
    """A count written with no control word, waiting for the end of the (half-)cycle."""
    at: int          # PIT clock at which it is loaded
    start: int       # the new count's ``start`` (before ``at`` when it begins in a low half)
    reload: int


class PitChannel:
    def __init__(self, index: int) -> None:
        self.index = index
        self.mode = 3
        self.access = ACCESS_LOHI
        self.bcd = False
        self.reload = 0x10000          # a count of 0 means 65536
        self.start = 0                 # PIT clock at which the count was loaded
        self.gate = index != 2         # channels 0 and 1 are always gated on
        self.counting = index != 2
        self._write_hi_next = False
        self._read_hi_next = False
        self._partial_lo = 0
        self._latched: int | None = None
        self._latched_hi_next = False
        self.control_written = False   # the next count is loaded at once (after POST's: no)
        self.pending: Deferred | None = None

    def settle(self, now: int) -> None:
        """Load a deferred count whose (half-)cycle has ended by ``now``."""
        if self.pending is not None and now >= self.pending.at:
            self.start, self.reload = self.pending.start, self.pending.reload
            self.pending = None

    def defer(self, now: int, count: int) -> Deferred:
        """Where a count written at ``now`` with no control word takes over: the end of
        the cycle (mode 2), or of the half-cycle (mode 3: at a high half's end the new
        count counts the low half, at a low half's end a new cycle)."""
        n = self.reload
        cycle, within = divmod(now - self.start, n)
        end_of_cycle = self.start + (cycle + 1) * n
        if self.mode == 3 and within < (n + 1) // 2:
            at = self.start + cycle * n + (n + 1) // 2
            return Deferred(at, at - (count + 1) // 2, count)
        return Deferred(end_of_cycle, end_of_cycle, count)

    @property
    def period(self) -> int:
        return self.reload

    def value(self, now: int) -> int:
        """The counter as a program reading it at PIT clock ``now`` would see it."""
        self.settle(now)
        if not self.counting:
            return self.reload & 0xFFFF
        elapsed = now - self.start
        n = self.reload
        if self.mode in (2, 3) and n > 0:
            if self.mode == 3:
                half = max(n // 2, 1)
                return (n - 2 * (elapsed % half)) & 0xFFFF
            return (n - (elapsed % n)) & 0xFFFF
        return (n - elapsed) & 0xFFFF

    def output(self, now: int) -> bool:
        self.settle(now)
        if not self.counting:
            return self.mode != 0
        elapsed = now - self.start
        n = self.reload
        if self.mode == 3:
            return (elapsed % n) < (n + 1) // 2
        if self.mode == 2:
            return (elapsed % n) != n - 1
        return elapsed >= n

    def frequency(self) -> float:
        return 1193182 / self.reload


class Pit8253:
    ports = (0x40, 0x41, 0x42, 0x43)

    def __init__(self, now: Callable[[], int],
                 on_channel0_change: Callable[[], None],
                 on_channel2_change: Callable[[], None],
                 schedule: Callable[[int, Callable[[], None]], None] | None = None) -> None:
        self._now = now                    # current PIT clock
        self.channels = [PitChannel(i) for i in range(3)]
        self._on_channel0_change = on_channel0_change
        self._on_channel2_change = on_channel2_change
        # calls back at a PIT clock (a deferred count of channel 2 loaded then); without it
        # channel 2 loads every count at once
        self._schedule = schedule

    def next_irq0_after(self, now: int) -> int | None:
        """PIT clock of channel 0's next rising edge strictly after ``now``."""
        ch = self.channels[0]
        ch.settle(now)
        if not ch.counting:
            return None
        if ch.mode in (2, 3):
            due = _edge_after(now, ch.start, ch.reload)
            pending = ch.pending
            if pending is None or due <= pending.at:
                return due
            return _edge_after(max(now, pending.at), pending.start, pending.reload)
        due = ch.start + ch.reload
        return due if due > now else None

    def set_gate2(self, on: bool) -> None:
        ch = self.channels[2]
        if on and not ch.gate:
            if ch.pending is not None:  # a rising gate restarts the count with the last written
                ch.reload, ch.pending = ch.pending.reload, None
            ch.start = self._now()
            ch.counting = True
        ch.gate = on
        self._on_channel2_change()

    def read(self, port: int) -> int:
        if port == 0x43:
            return 0xFF
        ch = self.channels[port - 0x40]
        if ch._latched is not None:
            value = ch._latched
            if ch.access == ACCESS_LOHI and not ch._latched_hi_next:
                ch._latched_hi_next = True
                return value & 0xFF
            ch._latched = None
            ch._latched_hi_next = False
            return (value >> 8) & 0xFF if ch.access in (ACCESS_HI, ACCESS_LOHI) else value & 0xFF
        value = ch.value(self._now())
        if ch.access == ACCESS_LO:
            return value & 0xFF
        if ch.access == ACCESS_HI:
            return value >> 8
        ch._read_hi_next = not ch._read_hi_next
        return value & 0xFF if ch._read_hi_next else value >> 8

    def write(self, port: int, value: int) -> None:
        if port == 0x43:
            index = value >> 6
            if index == 3:                       # 8254 read-back: latch counts
                for i in range(3):
                    if value & (2 << i) and not value & 0x20:
                        self._latch(self.channels[i])
                return
            ch = self.channels[index]
            access = (value >> 4) & 3
            if access == ACCESS_LATCH:
                self._latch(ch)
                return
            ch.access = access
            ch.mode = (value >> 1) & 7
            if ch.mode > 5:
                ch.mode -= 4
            ch.bcd = bool(value & 1)
            ch.control_written, ch.pending = True, None
            ch._write_hi_next = False
            ch._read_hi_next = False
            if ch.index != 2 or ch.mode == 0:
                ch.counting = False if ch.mode == 0 else ch.counting
            return
        ch = self.channels[port - 0x40]
        if ch.access == ACCESS_LO:
            self._load(ch, value)
        elif ch.access == ACCESS_HI:
            self._load(ch, value << 8)
        elif not ch._write_hi_next:
            ch._partial_lo = value
            ch._write_hi_next = True
        else:
            ch._write_hi_next = False
            self._load(ch, ch._partial_lo | (value << 8))

    def _channel2_loaded(self) -> None:
        self.channels[2].settle(self._now())
        self._on_channel2_change()

    def _latch(self, ch: PitChannel) -> None:
        if ch._latched is None:
            ch._latched = ch.value(self._now())
            ch._latched_hi_next = False

    def _load(self, ch: PitChannel, count: int) -> None:
        count, now = count or 0x10000, self._now()
        ch.settle(now)
        deferrable = ch.index == 0 or (ch.index == 2 and self._schedule is not None)
        if deferrable and ch.counting and ch.mode in (2, 3) and not ch.control_written:
            ch.pending = ch.defer(now, count)
            if ch.index == 0:
                self._on_channel0_change()
            else:
                self._schedule(ch.pending.at, self._channel2_loaded)
            return
        ch.control_written = False
        ch.reload, ch.start = count, now
        ch.counting = ch.gate
        if ch.index == 0:
            self._on_channel0_change()
        elif ch.index == 2:
            self._on_channel2_change()


def _edge_after(now: int, start: int, period: int) -> int:
    """The first rising edge (a cycle's end) of a count begun at ``start`` after ``now``."""
    return start + ((now - start) // period + 1) * period
