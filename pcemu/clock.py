"""Virtual time: the machine's clock advances only with executed instructions.

The master clock counts instructions.  Inside a slice the time of an instruction is
``now`` plus the instructions the slice has executed so far (Machine._instr_now), so a
device a program reads or programs sees the very instruction count of that IN or OUT.
Every other notion of time (PIT input clocks, BIOS ticks, seconds, the time of day)
is derived from it, so two runs with the same inputs see exactly the same times.  ``Scheduler`` keeps device
events (timer interrupts, key arrivals) ordered by the instruction count at
which they fall due; the machine sizes each CPU slice to end on the next one.
"""
from __future__ import annotations

import heapq
import itertools
import math
from typing import Callable

from pcemu.errors import MachineError

PIT_HZ = 1193182                  # the 8253's input clock (14.31818 MHz / 12)
TICKS_PER_DAY = 0x1800B0          # what the BIOS counts from midnight to midnight
TICK_HZ = PIT_HZ / 65536          # 18.2065 BIOS ticks a second
DEFAULT_MIPS = 1.2                # an 8 MHz 80286 averages about 1.2 million instructions a second
MIN_MIPS, MAX_MIPS = 0.001, 10_000.0  # the speeds a machine may be given
MAX_RUN_TICKS = TICK_HZ * 86400 * 7   # the most virtual time one run or wait may ask for: a week


class Clock:
    def __init__(self, mips: float = DEFAULT_MIPS) -> None:
        try:
            speed = float(mips)
        except (TypeError, ValueError):
            speed = math.nan
        if not MIN_MIPS <= speed <= MAX_MIPS:           # also refuses nan and inf
            raise MachineError(f"a speed of {mips!r} MIPS is not one pcemu runs at: "
                               f"give {MIN_MIPS:g} to {MAX_MIPS:g}")
        self.ips = int(mips * 1_000_000)
        self.now = 0                     # instructions executed before the running slice

    # conversions ---------------------------------------------------------
    def seconds(self, instructions: int | None = None) -> float:
        return (self.now if instructions is None else instructions) / self.ips

    def pit_clocks(self, instructions: int | None = None) -> int:
        """PIT input clocks elapsed since power-on."""
        t = self.now if instructions is None else instructions
        return t * PIT_HZ // self.ips

    def instructions_for_pit(self, pit_clocks: int) -> int:
        """The first instruction count at which ``pit_clocks`` have elapsed."""
        return -(-pit_clocks * self.ips // PIT_HZ)

    def instructions_for_seconds(self, seconds: float) -> int:
        return int(round(seconds * self.ips))

    @property
    def ticks(self) -> float:
        """Virtual time since power-on in BIOS timer ticks (18.2065 a second)."""
        return self.now * TICK_HZ / self.ips

    def instructions_for_ticks(self, ticks: float) -> int:
        try:
            span = float(ticks)
        except (TypeError, ValueError):
            span = math.nan
        if not 0 <= span <= MAX_RUN_TICKS:              # also refuses nan and inf
            raise MachineError(f"{ticks!r} ticks is not a span of time pcemu can run: give 0 to "
                               f"{MAX_RUN_TICKS:.0f} (a week)")
        return int(round(ticks * self.ips / TICK_HZ))


class Scheduler:
    """Timed device events, fired in order of due time (then of scheduling)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._queue: list[tuple[int, int, Callable[[], None]]] = []
        self._seq = itertools.count()
        self._cancelled: set[int] = set()
        # told of every event scheduled (Machine: a running slice ends no later than it)
        self.on_schedule: Callable[[int], None] = lambda when: None

    def at(self, when: int, action: Callable[[], None]) -> int:
        seq = next(self._seq)
        when = max(when, self.clock.now)
        heapq.heappush(self._queue, (when, seq, action))
        self.on_schedule(when)
        return seq

    def cancel(self, handle: int | None) -> None:
        if handle is not None:
            self._cancelled.add(handle)

    def next_due(self) -> int | None:
        q = self._queue
        while q and q[0][1] in self._cancelled:
            self._cancelled.discard(heapq.heappop(q)[1])
        return q[0][0] if q else None

    def next_due_except(self, handle: int | None) -> int | None:
        """When the next event other than ``handle`` falls due, or None."""
        self.next_due()                 # drops cancelled events from the front of the queue
        cancelled = self._cancelled
        return min((when for when, seq, _ in self._queue if seq != handle and seq not in cancelled),
                   default=None)

    def fire_due(self) -> None:
        q = self._queue
        now = self.clock.now
        while q and q[0][0] <= now:
            _, seq, action = heapq.heappop(q)
            if seq in self._cancelled:
                self._cancelled.discard(seq)
                continue
            action()
