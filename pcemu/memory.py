"""The PC's 1 MB real-mode address space, shared with Unicorn.

One host buffer backs the whole megabyte; Unicorn maps it with
``mem_map_ptr`` so Python reads and writes guest memory directly, without a
Unicorn call.  The first 64 KB is mapped a second time at 100000h: with A20
off, FFFF:0010 and up wrap to address 0, which EXEPACK's unpacker relies on.
"""
from __future__ import annotations

import ctypes

MEGABYTE = 0x100000
WRAP_SIZE = 0x10000
CONVENTIONAL_TOP = 0xA0000          # 640 KB
ROM_SEGMENT = 0xF000


def linear(segment: int, offset: int) -> int:
    """Real-mode address of segment:offset, wrapped at 1 MB (A20 off)."""
    return ((segment << 4) + (offset & 0xFFFF)) & 0xFFFFF


class Memory:
    """Guest RAM as a bytearray-like object with word and string helpers."""

    def __init__(self) -> None:
        self._buffer = (ctypes.c_ubyte * MEGABYTE)()
        self.address = ctypes.addressof(self._buffer)
        # memoryview gives fast slicing without copying through ctypes
        self.view = memoryview(self._buffer).cast("B")
        # Unmapped adapter space reads as FFh on a real AT.
        self.view[CONVENTIONAL_TOP + 0x20000:ROM_SEGMENT << 4] = b"\xff" * (
            (ROM_SEGMENT << 4) - CONVENTIONAL_TOP - 0x20000)

    # -- bytes -----------------------------------------------------------
    def read(self, addr: int, size: int) -> bytes:
        addr &= 0xFFFFF
        end = addr + size
        if end <= MEGABYTE:
            return bytes(self.view[addr:end])
        return bytes(self.view[addr:]) + bytes(self.view[: end - MEGABYTE])

    def write(self, addr: int, data: bytes) -> None:
        addr &= 0xFFFFF
        end = addr + len(data)
        if end <= MEGABYTE:
            self.view[addr:end] = data
        else:
            split = MEGABYTE - addr
            self.view[addr:] = data[:split]
            self.view[: end - MEGABYTE] = data[split:]

    def fill(self, addr: int, size: int, value: int) -> None:
        self.write(addr, bytes([value & 0xFF]) * size)

    def __getitem__(self, addr: int) -> int:
        return self.view[addr & 0xFFFFF]

    def __setitem__(self, addr: int, value: int) -> None:
        self.view[addr & 0xFFFFF] = value & 0xFF

    # -- words -----------------------------------------------------------
    def read_word(self, addr: int) -> int:
        v = self.view
        return v[addr & 0xFFFFF] | (v[(addr + 1) & 0xFFFFF] << 8)

    def write_word(self, addr: int, value: int) -> None:
        v = self.view
        v[addr & 0xFFFFF] = value & 0xFF
        v[(addr + 1) & 0xFFFFF] = (value >> 8) & 0xFF

    def read_dword(self, addr: int) -> int:
        return self.read_word(addr) | (self.read_word(addr + 2) << 16)

    def write_dword(self, addr: int, value: int) -> None:
        self.write_word(addr, value & 0xFFFF)
        self.write_word(addr + 2, (value >> 16) & 0xFFFF)

    # -- segment:offset helpers (offsets wrap within the segment) --------
    def rb(self, seg: int, off: int) -> int:
        return self.view[linear(seg, off)]

    def wb(self, seg: int, off: int, value: int) -> None:
        self.view[linear(seg, off)] = value & 0xFF

    def rw(self, seg: int, off: int) -> int:
        return self.rb(seg, off) | (self.rb(seg, off + 1) << 8)

    def ww(self, seg: int, off: int, value: int) -> None:
        self.wb(seg, off, value)
        self.wb(seg, off + 1, value >> 8)

    def read_far(self, seg: int, off: int, size: int) -> bytes:
        """``size`` bytes at seg:off, the offset wrapping inside the segment."""
        if (off & 0xFFFF) + size <= 0x10000:
            return self.read(linear(seg, off), size)
        return bytes(self.rb(seg, off + i) for i in range(size))

    def write_far(self, seg: int, off: int, data: bytes) -> None:
        if (off & 0xFFFF) + len(data) <= 0x10000:
            self.write(linear(seg, off), data)
        else:
            for i, b in enumerate(data):
                self.wb(seg, off + i, b)

    def read_asciiz(self, seg: int, off: int, limit: int = 256) -> bytes:
        out = bytearray()
        for i in range(limit):
            b = self.rb(seg, off + i)
            if b == 0:
                break
            out.append(b)
        return bytes(out)

    def read_until(self, seg: int, off: int, terminator: int, limit: int = 0x10000) -> bytes:
        out = bytearray()
        for i in range(limit):
            b = self.rb(seg, off + i)
            if b == terminator:
                break
            out.append(b)
        return bytes(out)
