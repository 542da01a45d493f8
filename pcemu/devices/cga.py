"""IBM Color Graphics Adapter: 16 KB of video memory at B8000h and ports 3D4h-3DAh.

The status port 3DAh is what programs poll to avoid snow; its bits must move or
they hang.  They are computed from virtual time plus the number of reads in the
current slice (a polling loop advances the beam), so they are deterministic and
a loop waiting for retrace always ends.
"""
from __future__ import annotations

from typing import Callable

from pcemu.devices.crtc import BeamClock, Crtc6845

CGA_MEMORY = 0xB8000
CGA_MEMORY_SIZE = 0x4000
FRAME_HZ = 59.92
SCANLINES = 262
VISIBLE_LINES = 200

MODE_80COL = 0x01
MODE_GRAPHICS = 0x02
MODE_BW = 0x04
MODE_ENABLE = 0x08
MODE_HIRES = 0x10
MODE_BLINK = 0x20

# the 6845 values the BIOS programs for 80x25 text
CRTC_80x25 = [0x71, 0x50, 0x5A, 0x0A, 0x1F, 0x06, 0x19, 0x1C, 0x02, 0x07, 0x06, 0x07]


class CgaCard:
    ports = (0x3D4, 0x3D5, 0x3D8, 0x3D9, 0x3DA, 0x3DB, 0x3DC, 0x3D0, 0x3D1, 0x3D2, 0x3D3)
    memory_base = CGA_MEMORY

    def __init__(self, instructions_now: Callable[[], int], ips: int) -> None:
        self.crtc = Crtc6845(CRTC_80x25)
        self.mode_register = MODE_80COL | MODE_ENABLE | MODE_BLINK
        self.color_register = 0
        self.beam = BeamClock(instructions_now, ips / FRAME_HZ)

    @property
    def border(self) -> int:
        """Border (overscan) colour in text modes, 0-15."""
        return self.color_register & 0x0F

    @property
    def columns(self) -> int:
        return 80 if self.mode_register & MODE_80COL else 40

    def read(self, port: int) -> int:
        if port in (0x3D5, 0x3D1, 0x3D3):
            return self.crtc.read_data()
        if port == 0x3DA:
            return self._status()
        return 0xFF

    def write(self, port: int, value: int) -> None:
        if port in (0x3D4, 0x3D0, 0x3D2):
            self.crtc.select(value)
        elif port in (0x3D5, 0x3D1, 0x3D3):
            self.crtc.write_data(value)
        elif port == 0x3D8:
            self.mode_register = value
        elif port == 0x3D9:
            self.color_register = value

    def _status(self) -> int:
        line_pos = self.beam.phase() * SCANLINES
        line = int(line_pos)
        status = 0
        if line >= VISIBLE_LINES or line_pos - line > 0.8:   # horizontal or vertical blanking
            status |= 0x01
        if VISIBLE_LINES + 24 <= line < VISIBLE_LINES + 40:
            status |= 0x08
        return status
