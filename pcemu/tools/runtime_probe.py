"""Call single routines of an original QuickBASIC runtime on Unicorn.

For checking reimplementations against the real code: the program is
unpacked and loaded (relocated) into a bare 1 MB machine with DS = ES = SS =
DGROUP, a routine found by signature is far-called with the registers given,
and the run ends when it returns.  No DOS and no BIOS: only INT 21h AH=2Ch
(get time, for TIMER) is answered, from ``self.time``.  A routine that
reaches the runtime's error exits (``ERROR n`` entries) stops there and
``call`` returns the BASIC error number.
"""
from __future__ import annotations

import struct

from unicorn import UC_ARCH_X86, UC_HOOK_CODE, UC_HOOK_INTR, UC_MODE_16, Uc
from unicorn import x86_const as regs

from pcemu.tools.exepack import find_exepack, unpack
from pcemu.tools.mz import ExeError, parse_mz
from pcemu.tools.qb_layout import analyse_layout
from pcemu.tools.signatures import locate_runtime

LOAD_SEGMENT = 0x1000
RETURN_ADDRESS = 0x0500          # a HLT at 0000:0500 that routines return to
STACK_TOP = 0xFFF0


class RuntimeProbe:
    def __init__(self, exe_bytes: bytes) -> None:
        mz = parse_mz(exe_bytes)
        if find_exepack(mz) is not None:
            mz, _ = unpack(mz)
        self.runtime = locate_runtime(mz.image)
        if self.runtime.segment is None or self.runtime.missing:
            raise ExeError("no QuickBASIC runtime recognised in this program")
        layout = analyse_layout(mz.image, self.runtime.segment)
        if layout is None:
            raise ExeError("the QuickBASIC startup code (DGROUP) was not recognised")
        image = bytearray(mz.image)
        for seg, off in mz.relocations:
            at = seg * 16 + off
            struct.pack_into("<H", image, at, (struct.unpack_from("<H", image, at)[0] + LOAD_SEGMENT) & 0xFFFF)
        self.dgroup = layout.dgroup + LOAD_SEGMENT
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.uc.mem_map(0, 0x100000)
        self.uc.mem_write(LOAD_SEGMENT * 16, bytes(image))
        # the constants the startup code would copy into DGROUP
        base = layout.constants_dgroup_offset
        self.write(base, mz.image[layout.constants_from * 16:layout.constants_to * 16])
        self.uc.mem_write(RETURN_ADDRESS, b"\xf4")
        self.time = (0, 0, 0, 0)                 # hour, minute, second, hundredths for INT 21h/2Ch
        self.error: int | None = None
        errors = [linear for name, linear in self.runtime.routines.items() if name.startswith("ERROR")]
        low = (min(errors) + LOAD_SEGMENT * 16) if errors else 0
        self.uc.hook_add(UC_HOOK_CODE, self._on_error_exit, begin=low, end=low + 0x60)
        self.uc.hook_add(UC_HOOK_INTR, self._on_interrupt)

    def _on_error_exit(self, uc, address, size, _data) -> None:
        opcode, value = uc.mem_read(address, 2)
        self.error = value if opcode == 0xB3 else -1          # entries are "mov bl, n"
        uc.emu_stop()

    def _on_interrupt(self, uc, number, _data) -> None:
        if number == 0x21 and uc.reg_read(regs.UC_X86_REG_AH) == 0x2C:
            hour, minute, second, hundredths = self.time
            uc.reg_write(regs.UC_X86_REG_CX, hour << 8 | minute)
            uc.reg_write(regs.UC_X86_REG_DX, second << 8 | hundredths)
            return
        self.error = -number
        uc.emu_stop()

    def write(self, offset: int, data: bytes) -> None:
        self.uc.mem_write(self.dgroup * 16 + offset, bytes(data))

    def read(self, offset: int, size: int) -> bytes:
        return bytes(self.uc.mem_read(self.dgroup * 16 + offset, size))

    def register(self, name: str) -> int:
        return self.uc.reg_read(getattr(regs, f"UC_X86_REG_{name.upper()}"))

    def call(self, routine: str, **registers: int) -> int | None:
        """Far-call ``routine`` (a signatures name); None, or the BASIC error it raised."""
        seg, off = self.runtime.seg_off(routine)
        uc = self.uc
        for name in ("DS", "ES", "SS"):
            uc.reg_write(getattr(regs, f"UC_X86_REG_{name}"), self.dgroup)
        sp = STACK_TOP - 4
        self.write(sp, struct.pack("<HH", RETURN_ADDRESS, 0))
        uc.reg_write(regs.UC_X86_REG_SP, sp)
        for name, value in registers.items():
            uc.reg_write(getattr(regs, f"UC_X86_REG_{name.upper()}"), value & 0xFFFF)
        uc.reg_write(regs.UC_X86_REG_CS, seg + LOAD_SEGMENT)
        self.error = None
        uc.emu_start((seg + LOAD_SEGMENT) * 16 + off, RETURN_ADDRESS, count=1_000_000)
        return self.error
