"""The runtime's own allocator (METEORS.EXE's BCOM30, 062B:82A9) and compaction (062B:8385)
run in a bare Unicorn over a string space laid out from a games_py.qbasic.string_space
model: the address it returns, the rover and the blocks after, and its instructions."""
from __future__ import annotations

from unicorn import UC_ARCH_X86, UC_HOOK_CODE, UC_MODE_16, Uc
from unicorn.x86_const import (UC_X86_REG_BX, UC_X86_REG_CS, UC_X86_REG_DS, UC_X86_REG_ES,
                               UC_X86_REG_SP, UC_X86_REG_SS)

from games_py.qbasic.string_space import END_MARK, StringSpace

CODE, DATA = 0x1000, 0x8000            # where the load module and DGROUP go (segments)
RUNTIME = 0x062B                       # the runtime's segment in the load module
ALLOCATE, RETURN = 0x82A9, 0xFFF0      # 062B:82A9; a HLT the call returns to
COMPACT = 0x8385                       # 062B:8385
DESCRIPTORS = 0xC000                   # the live blocks' descriptors (length, address)
ROVER_AT, START_AT, END_AT = 0x042A, 0x0428, 0x042C


class RuntimeAllocator:
    def __init__(self, module: bytes) -> None:
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.uc.mem_map(0, 0x100000)
        self.uc.mem_write(CODE * 16, module)
        self.uc.mem_write((CODE + RUNTIME) * 16 + RETURN, b"\xf4")
        self.count = 0
        self.uc.hook_add(UC_HOOK_CODE, self._count)

    def _count(self, _uc, _address, _size, _user) -> None:
        self.count += 1

    def _word(self, offset: int) -> int:
        return int.from_bytes(self.uc.mem_read(DATA * 16 + offset, 2), "little")

    def _put(self, offset: int, value: int) -> None:
        self.uc.mem_write(DATA * 16 + offset, value.to_bytes(2, "little"))

    def load(self, space: StringSpace) -> None:
        """The model's blocks into DGROUP: a live block's header points at a descriptor
        with its length (its size less 2, or 3 for an odd length: taken as even)."""
        self.uc.mem_write(DATA * 16, bytes(0x10000))
        self._put(START_AT, space.start)
        self._put(ROVER_AT, space.rover)
        self._put(END_AT, space.end)
        self._put(space.end, END_MARK)
        descriptor = DESCRIPTORS
        for at, size, live in space.blocks():
            if live:
                self._put(descriptor, size - 2)
                self._put(descriptor + 2, at + 2)
                self._put(at, descriptor)
                descriptor += 4
            else:
                self._put(at, size - 1)

    def _call(self, routine: int, bx: int) -> None:
        sp = 0xF000
        stack = DATA * 16 + sp - 2
        self.uc.mem_write(stack, RETURN.to_bytes(2, "little"))
        for reg, value in ((UC_X86_REG_CS, CODE + RUNTIME), (UC_X86_REG_DS, DATA), (UC_X86_REG_ES, DATA),
                           (UC_X86_REG_SS, DATA), (UC_X86_REG_SP, sp - 2), (UC_X86_REG_BX, bx)):
            self.uc.reg_write(reg, value)
        self.count = 0
        begin = (CODE + RUNTIME) * 16 + routine
        self.uc.emu_start(begin, (CODE + RUNTIME) * 16 + RETURN, count=2_000_000)

    def compact(self) -> int:
        """Call 062B:8385: its instructions to its RET (a REP MOVSW counted as the machine
        counts it: one more than its words)."""
        self._call(COMPACT, 0)
        return self.count

    def allocate(self, length: int) -> tuple[int, int]:
        """Call 062B:82A9 with BX = ``length``: (the block's address, instructions to its RET)."""
        self._call(ALLOCATE, length)
        at = self.uc.reg_read(UC_X86_REG_BX) - 2
        self._put(DESCRIPTORS - 4, length)              # the caller's part: the back pointer
        self._put(at, DESCRIPTORS - 4)
        return at, self.count

    def rover(self) -> int:
        return self._word(ROVER_AT)

    def blocks(self, space: StringSpace) -> list[tuple[int, int, bool]]:
        found, at = [], space.start
        while at < space.end:
            header = self._word(at)
            if header & 1:
                found.append((at, header + 1, False))
                at += header + 1
            else:
                size = (self._word(header) + 3) & ~1
                found.append((at, size, True))
                at += size
        return found
