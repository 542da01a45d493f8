"""IBM Monochrome Display Adapter and Hercules Graphics Card: B0000h, ports 3B4h-3BFh.

The Hercules card adds graphics pages (720x348) switched by the mode control
port 3B8h and enabled by the configuration switch 3BFh; its status port 3BAh
bit 7 is the vertical sync that Hercules detection routines watch change.
"""
from __future__ import annotations

from typing import Callable

from pcemu.devices.crtc import BeamClock, Crtc6845

MDA_MEMORY = 0xB0000
CRTC_MDA = [0x61, 0x50, 0x52, 0x0F, 0x19, 0x06, 0x19, 0x19, 0x02, 0x0D, 0x0B, 0x0C]
FRAME_HZ = 50.0


class MdaCard:
    ports = (0x3B4, 0x3B5, 0x3B8, 0x3BA, 0x3BF, 0x3B0, 0x3B1, 0x3B2, 0x3B3, 0x3B6, 0x3B7)
    memory_base = MDA_MEMORY

    def __init__(self, instructions_now: Callable[[], int], ips: int,
                 hercules: bool = False) -> None:
        self.crtc = Crtc6845(CRTC_MDA)
        self.hercules = hercules
        self.mode_register = 0x08 | 0x20
        self.config_switch = 0
        self.beam = BeamClock(instructions_now, ips / FRAME_HZ)

    @property
    def graphics(self) -> bool:
        return self.hercules and bool(self.mode_register & 0x02) and bool(self.config_switch & 0x01)

    @property
    def graphics_page(self) -> int:
        return 1 if (self.mode_register & 0x80) and (self.config_switch & 0x02) else 0

    def read(self, port: int) -> int:
        if port in (0x3B5, 0x3B1, 0x3B3, 0x3B7):
            return self.crtc.read_data()
        if port == 0x3BA:
            return self._status()
        return 0xFF

    def write(self, port: int, value: int) -> None:
        if port in (0x3B4, 0x3B0, 0x3B2, 0x3B6):
            self.crtc.select(value)
        elif port in (0x3B5, 0x3B1, 0x3B3, 0x3B7):
            self.crtc.write_data(value)
        elif port == 0x3B8:
            self.mode_register = value
        elif port == 0x3BF and self.hercules:
            self.config_switch = value

    def _status(self) -> int:
        phase = self.beam.phase()
        status = 0xF0 if not self.hercules else 0x70
        if self.beam.reads & 1:
            status |= 0x01                              # horizontal retrace
        if phase > 0.92:
            status |= 0x08                              # video / retrace
            if self.hercules:
                status &= 0x7F                          # bit 7 low during vsync on the HGC
        elif self.hercules:
            status |= 0x80
        return status
