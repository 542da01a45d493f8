"""Motorola MC146818 real-time clock and CMOS RAM: ports 70h (index) and 71h (data).

The clock registers read the machine's virtual time of day and date, in BCD
as the AT BIOS configures it (status register B = 02h: 24-hour, BCD).
"""
from __future__ import annotations

from typing import Callable
import datetime


def bcd(value: int) -> int:
    return ((value // 10) << 4) | (value % 10)


class CmosRtc:
    ports = (0x70, 0x71)

    def __init__(self, now: Callable[[], datetime.datetime],
                 base_memory_kb: int = 640, floppy_types: int = 0x44) -> None:
        self._now = now
        self.index = 0
        self.ram = bytearray(64)
        self.ram[0x0A] = 0x26
        self.ram[0x0B] = 0x02
        self.ram[0x0D] = 0x80          # battery good
        self.ram[0x10] = floppy_types  # two 360 KB drives
        self.ram[0x14] = 0x21          # one... two floppies, CGA 80 columns, no FPU reported
        self.ram[0x15] = base_memory_kb & 0xFF
        self.ram[0x16] = base_memory_kb >> 8
        total = sum(self.ram[0x10:0x2E])
        self.ram[0x2E] = total >> 8
        self.ram[0x2F] = total & 0xFF

    def read(self, port: int) -> int:
        if port == 0x70:
            return 0xFF
        i = self.index
        if i <= 0x09 or i == 0x32:
            t = self._now()
            return bcd({0: t.second, 2: t.minute, 4: t.hour, 6: t.isoweekday() % 7 + 1,
                        7: t.day, 8: t.month, 9: t.year % 100,
                        0x32: t.year // 100}.get(i, 0))
        if i == 0x0C:
            return 0
        return self.ram[i]

    def write(self, port: int, value: int) -> None:
        if port == 0x70:
            self.index = value & 0x3F       # bit 7 masks NMI
        elif self.index > 0x0D:
            self.ram[self.index] = value
        elif self.index in (0x0A, 0x0B):
            self.ram[self.index] = value

