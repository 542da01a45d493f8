"""The BIOS data area at 0040:0000, initialised as an AT's POST leaves it.

Offsets are named as in the IBM AT Technical Reference.  Services read and
write the BDA in guest memory (never a Python copy), because programs read and
poke it directly: the tick count at 6Ch, the key buffer at 1Eh, the cursor at 50h.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.memory import Memory

BDA = 0x400
COM_PORTS = 0x00
LPT_PORTS = 0x08
EQUIPMENT = 0x10
MEMORY_KB = 0x13
KB_FLAGS = 0x17
KB_FLAGS2 = 0x18
KB_ALT_INPUT = 0x19
KB_HEAD = 0x1A
KB_TAIL = 0x1C
KB_BUFFER = 0x1E
KB_BUFFER_END = 0x3E
DISK_RECALIBRATE = 0x3E
DISK_MOTOR = 0x3F
DISK_MOTOR_COUNT = 0x40
DISK_STATUS = 0x41
VIDEO_MODE = 0x49
VIDEO_COLUMNS = 0x4A
VIDEO_PAGE_SIZE = 0x4C
VIDEO_PAGE_OFFSET = 0x4E
CURSOR_POSITIONS = 0x50
CURSOR_SHAPE = 0x60
ACTIVE_PAGE = 0x62
CRTC_BASE = 0x63
CRT_MODE_REGISTER = 0x65
CRT_PALETTE = 0x66
TIMER_COUNT = 0x6C
TIMER_OVERFLOW = 0x70
BREAK_FLAG = 0x71
RESET_FLAG = 0x72
HARD_DISK_COUNT = 0x75
LPT_TIMEOUT = 0x78
COM_PORTS = 0x00
COM_BASES = (0x3F8, 0x2F8)            # COM1 (IRQ 4) and COM2 (IRQ 3), as POST finds them
COM_TIMEOUT = 0x7C
KB_BUFFER_START_PTR = 0x80
KB_BUFFER_END_PTR = 0x82
VIDEO_ROWS = 0x84
KB_FLAGS3 = 0x96
KB_LEDS = 0x97


def initialise(memory: "Memory", *, mono: bool, floppies: int, ticks: int,
               fpu: bool = True) -> None:
    memory.fill(BDA, 0x100, 0)
    for i, port in enumerate(COM_BASES):
        memory.write_word(BDA + COM_PORTS + 2 * i, port)
    memory.write_word(BDA + LPT_PORTS, 0x378)
    equipment = 0x0001 if floppies else 0
    equipment |= (max(floppies, 1) - 1) << 6
    equipment |= 0x0030 if mono else 0x0020          # initial video: mono or 80x25 colour
    if fpu:
        equipment |= 0x0002
    equipment |= len(COM_BASES) << 9                 # serial ports
    equipment |= 0x4000                              # one parallel printer
    memory.write_word(BDA + EQUIPMENT, equipment)
    memory.write_word(BDA + MEMORY_KB, 640)
    memory.write_word(BDA + KB_HEAD, KB_BUFFER)
    memory.write_word(BDA + KB_TAIL, KB_BUFFER)
    memory.write_word(BDA + KB_BUFFER_START_PTR, KB_BUFFER)
    memory.write_word(BDA + KB_BUFFER_END_PTR, KB_BUFFER_END)
    memory[BDA + VIDEO_MODE] = 7 if mono else 3
    memory.write_word(BDA + VIDEO_COLUMNS, 80)
    memory.write_word(BDA + VIDEO_PAGE_SIZE, 0x1000)
    memory.write_word(BDA + CURSOR_SHAPE, 0x0B0C if mono else 0x0607)
    memory.write_word(BDA + CRTC_BASE, 0x3B4 if mono else 0x3D4)
    memory[BDA + CRT_MODE_REGISTER] = 0x29
    memory[BDA + CRT_PALETTE] = 0x30
    memory.write_dword(BDA + TIMER_COUNT, ticks)
    memory[BDA + LPT_TIMEOUT] = 0x14
    for i in range(4):
        memory[BDA + COM_TIMEOUT + i] = 0x01
    memory[BDA + KB_FLAGS3] = 0x10                   # enhanced keyboard present
