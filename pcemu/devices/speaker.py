"""Port 61h (system control port B) and the PC speaker behind it.

Bit 0 gates PIT channel 2, bit 1 lets its output reach the speaker.  Reads
return bit 4, the DRAM refresh toggle (flips every 15 us; some programs time
short delays on it), and bit 5, channel 2's output.  Every change of what the
speaker plays is logged as (time in seconds, frequency or 0) for the sound
output and for traces.
"""
from __future__ import annotations

from typing import Callable

from pcemu.devices.pit import Pit8253

REFRESH_PERIOD_PIT = 18          # 15.08 us in PIT clocks
KEPT_EVENTS = 100_000            # changes kept when nobody asked for the whole log (about 7 MB)


class Speaker:
    ports = (0x61,)

    def __init__(self, pit: Pit8253, pit_now: Callable[[], int],
                 seconds_now: Callable[[], float]) -> None:
        self.pit = pit
        self._pit_now = pit_now
        self._seconds_now = seconds_now
        self.control = 0
        self.events: list[tuple[float, float]] = []   # (time s, frequency Hz; 0 = silent)
        # Only a WAV of the whole run or a live sound stream needs every change since power-on
        # (``--wav`` and the window set this); otherwise the log keeps the last KEPT_EVENTS
        # to KEPT_EVENTS * 2 changes, so a long run's memory does not grow with its music.
        self.keep_all = False
        self.events_dropped = 0
        self._playing = 0.0
        self.listeners: list[Callable[[float, float], None]] = []

    def read(self, port: int) -> int:
        now = self._pit_now()
        value = self.control & 0x0F
        if (now // REFRESH_PERIOD_PIT) & 1:
            value |= 0x10
        if self.pit.channels[2].output(now):
            value |= 0x20
        return value

    def write(self, port: int, value: int) -> None:
        old = self.control
        self.control = value
        if (old ^ value) & 0x01:
            self.pit.set_gate2(bool(value & 0x01))
        else:
            self.channel2_changed()

    @property
    def frequency(self) -> float:
        """What the speaker is sounding now, in Hz (0 when silent)."""
        ch = self.pit.channels[2]
        if (self.control & 0x03) == 0x03 and ch.mode == 3 and ch.counting:
            return ch.frequency()
        return 0.0

    def channel2_changed(self) -> None:
        freq = self.frequency
        if freq != self._playing:
            self._playing = freq
            t = self._seconds_now()
            self.events.append((t, freq))
            if not self.keep_all and len(self.events) > 2 * KEPT_EVENTS:
                del self.events[:KEPT_EVENTS]
                self.events_dropped += KEPT_EVENTS
            for listener in self.listeners:
                listener(t, freq)
