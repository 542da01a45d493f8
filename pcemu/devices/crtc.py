"""Motorola 6845 CRT controller, the heart of both the CGA and the MDA.

Only what software can see or what changes the picture is modelled: the
register file behind the index/data port pair, the display start address
(registers 0Ch/0Dh), the cursor shape (0Ah/0Bh) and position (0Eh/0Fh).
"""
from __future__ import annotations

from typing import Callable

INSTRUCTIONS_PER_STATUS_READ = 4     # a typical IN/TEST/JZ polling loop


class BeamClock:
    """Where the beam is, for the status port, at the instruction reading it.

    ``instructions_now`` is exact to the instruction (Machine._instr_now), so a
    polling loop sees the beam move pass by pass.  Reads at one same instant (a
    service of ours reading twice) each see it INSTRUCTIONS_PER_STATUS_READ further
    on, as a polling loop would; a read from a program is always at a new instant,
    and sees the beam as at now + INSTRUCTIONS_PER_STATUS_READ (fastcpu.c cga_status
    computes the same).
    """

    def __init__(self, instructions_now: Callable[[], int], frame_instructions: float) -> None:
        self._now = instructions_now
        self.frame = frame_instructions
        self.reads = 0
        self._base = -1

    def phase(self) -> float:
        """The position in the current frame, 0.0 (top) to 1.0, after one more read."""
        now = self._now()
        if now != self._base:
            self._base = now
            self.reads = 0
        self.reads += 1
        t = now + self.reads * INSTRUCTIONS_PER_STATUS_READ
        return (t % self.frame) / self.frame


class Crtc6845:
    READABLE = range(0x0C, 0x12)     # start address, cursor, light pen

    def __init__(self, defaults: list[int]) -> None:
        # bytes, shared with the C fast path of INT 10h (pcemu/native)
        self.registers = bytearray(defaults) + bytearray(18 - len(defaults))
        self.index = 0

    def select(self, value: int) -> None:
        self.index = value & 0x1F

    def write_data(self, value: int) -> None:
        if self.index < 18:
            self.registers[self.index] = value & 0xFF

    def read_data(self) -> int:
        if self.index in self.READABLE:
            return self.registers[self.index]
        return 0

    @property
    def start_address(self) -> int:
        """First character shown, in character cells (words) from the card's memory."""
        return (self.registers[0x0C] << 8) | self.registers[0x0D]

    @property
    def cursor_address(self) -> int:
        return (self.registers[0x0E] << 8) | self.registers[0x0F]

    @property
    def cursor_shape(self) -> tuple[int, int, bool]:
        """(start line, end line, visible)."""
        start = self.registers[0x0A]
        visible = (start & 0x60) != 0x20
        return start & 0x1F, self.registers[0x0B] & 0x1F, visible
