"""The processor: Unicorn's x86 in 16-bit real mode, made to behave like an AT's 80286.

Unicorn never vectors through the real-mode IVT itself: every ``INT n``, INT 3,
INTO and divide error reaches ``UC_HOOK_INTR``.  This wrapper does what the
286 does there: push FLAGS, CS and IP, clear IF and TF and load CS:IP from the
IVT, so handlers a program installs really run.  The machine decides, by the
address of the instruction that trapped, whether an interrupt is one of its own
ROM service traps (handled in Python) or an ordinary interrupt to deliver.

Time is counted in executed instructions: ``run(count)`` executes one slice
of exactly ``count`` instructions unless something stops it early (HLT, an
invalid opcode, or a trap handler that asked to stop).  An early stop is
charged as a whole slice, which keeps the clock a deterministic function of
the program and its inputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from unicorn import (UC_ARCH_X86, UC_ERR_INSN_INVALID, UC_HOOK_INSN, UC_HOOK_INTR,
                     UC_MODE_16, UC_PROT_ALL, Uc, UcError)
from unicorn import x86_const as X

from pcemu.memory import MEGABYTE, WRAP_SIZE, Memory, linear

FLAG_CF = 0x0001
FLAG_PF = 0x0004
FLAG_AF = 0x0010
FLAG_ZF = 0x0040
FLAG_SF = 0x0080
FLAG_TF = 0x0100
FLAG_IF = 0x0200
FLAG_DF = 0x0400
FLAG_OF = 0x0800
# A 286 in real mode always reads bits 12-15 of FLAGS as 0 and bit 1 as 1.
FLAGS_286_MASK = 0x0FD5
FLAGS_286_FIXED = 0x0002

REGISTERS = {
    "ax": X.UC_X86_REG_AX, "bx": X.UC_X86_REG_BX, "cx": X.UC_X86_REG_CX,
    "dx": X.UC_X86_REG_DX, "si": X.UC_X86_REG_SI, "di": X.UC_X86_REG_DI,
    "bp": X.UC_X86_REG_BP, "sp": X.UC_X86_REG_SP, "ip": X.UC_X86_REG_IP,
    "cs": X.UC_X86_REG_CS, "ds": X.UC_X86_REG_DS, "es": X.UC_X86_REG_ES,
    "ss": X.UC_X86_REG_SS, "flags": X.UC_X86_REG_FLAGS,
}
BYTE_REGISTERS = {
    "al": X.UC_X86_REG_AL, "ah": X.UC_X86_REG_AH, "bl": X.UC_X86_REG_BL,
    "bh": X.UC_X86_REG_BH, "cl": X.UC_X86_REG_CL, "ch": X.UC_X86_REG_CH,
    "dl": X.UC_X86_REG_DL, "dh": X.UC_X86_REG_DH,
}
_ALL = {**REGISTERS, **BYTE_REGISTERS}

# Vectors the CPU itself raises (the IP pushed is that of the faulting instruction).
EXCEPTION_VECTORS = {0: "divide error", 5: "BOUND range exceeded", 6: "invalid opcode",
                     7: "no coprocessor", 8: "double fault", 12: "stack fault",
                     13: "general protection"}

STOP_COUNT = "count"          # the slice ran all its instructions
STOP_HALT = "halt"            # HLT executed
STOP_REQUESTED = "requested"  # a hook asked to stop (e.g. program ended)


@dataclass
class SliceResult:
    reason: str
    executed: int


class Cpu:
    """One 286-like CPU over a Memory, with interrupt delivery through the IVT."""

    def __init__(self, memory: Memory,
                 on_interrupt: Callable[[int], None],
                 on_port_in: Callable[[int, int], int],
                 on_port_out: Callable[[int, int, int], None]) -> None:
        self.memory = memory
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.uc.mem_map_ptr(0, MEGABYTE, UC_PROT_ALL, memory.address)
        # A20 off: the 64 KB above 1 MB is the first 64 KB again.
        self.uc.mem_map_ptr(MEGABYTE, WRAP_SIZE, UC_PROT_ALL, memory.address)
        self._on_interrupt = on_interrupt
        self._on_port_in = on_port_in
        self._on_port_out = on_port_out
        self.uc.hook_add(UC_HOOK_INTR, self._hook_interrupt)
        self.uc.hook_add(UC_HOOK_INSN, self._hook_in, None, 1, 0, X.UC_X86_INS_IN)
        self.uc.hook_add(UC_HOOK_INSN, self._hook_out, None, 1, 0, X.UC_X86_INS_OUT)
        self._stop_requested = False
        self._needs_fresh_context = False
        self._fresh_context = self.uc.context_save()
        self.instructions = 0
        # the x87 is always there in Unicorn; nothing to set up

    # -- registers ----------------------------------------------------------
    def __getattr__(self, name: str) -> int:
        reg = _ALL.get(name)
        if reg is None:
            raise AttributeError(name)
        return self.uc.reg_read(reg)

    def __setattr__(self, name: str, value: int) -> None:
        reg = _ALL.get(name)
        if reg is None:
            object.__setattr__(self, name, value)
        else:
            self.uc.reg_write(reg, value & (0xFF if name in BYTE_REGISTERS else 0xFFFF))

    def registers(self) -> dict[str, int]:
        return {name: self.uc.reg_read(reg) for name, reg in REGISTERS.items()}

    def set_registers(self, **values: int) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def set_flag(self, mask: int, on: bool) -> None:
        flags = self.uc.reg_read(X.UC_X86_REG_FLAGS)
        self.uc.reg_write(X.UC_X86_REG_FLAGS, (flags | mask) if on else (flags & ~mask))

    def jump(self, cs: int, ip: int) -> None:
        self.uc.reg_write(X.UC_X86_REG_CS, cs)
        self.uc.reg_write(X.UC_X86_REG_IP, ip)

    @property
    def linear_ip(self) -> int:
        return linear(self.cs, self.ip)

    # -- stack ----------------------------------------------------------------
    def push(self, value: int) -> None:
        sp = (self.sp - 2) & 0xFFFF
        self.sp = sp
        self.memory.ww(self.ss, sp, value)

    def pop(self) -> int:
        sp = self.sp
        value = self.memory.rw(self.ss, sp)
        self.sp = sp + 2
        return value

    # -- interrupts -----------------------------------------------------------
    def deliver_interrupt(self, vector: int, return_ip: int | None = None) -> None:
        """Enter interrupt ``vector`` as the 286 does: push FLAGS, CS, IP; clear IF, TF."""
        uc = self.uc
        flags = (uc.reg_read(X.UC_X86_REG_FLAGS) & FLAGS_286_MASK) | FLAGS_286_FIXED
        cs = uc.reg_read(X.UC_X86_REG_CS)
        ip = uc.reg_read(X.UC_X86_REG_IP) if return_ip is None else return_ip
        ss = uc.reg_read(X.UC_X86_REG_SS)
        sp = uc.reg_read(X.UC_X86_REG_SP)
        mem = self.memory
        mem.ww(ss, sp - 2, flags)
        mem.ww(ss, sp - 4, cs)
        mem.ww(ss, sp - 6, ip)
        uc.reg_write(X.UC_X86_REG_SP, (sp - 6) & 0xFFFF)
        uc.reg_write(X.UC_X86_REG_FLAGS, flags & ~(FLAG_IF | FLAG_TF))
        new_ip = mem.read_word(vector * 4)
        new_cs = mem.read_word(vector * 4 + 2)
        uc.reg_write(X.UC_X86_REG_CS, new_cs)
        uc.reg_write(X.UC_X86_REG_IP, new_ip)

    def interrupt_return(self) -> None:
        """What IRET does, for traps that finish a service without guest code."""
        ip = self.pop()
        cs = self.pop()
        flags = self.pop()
        self.jump(cs, ip)
        self.flags = (flags & FLAGS_286_MASK) | FLAGS_286_FIXED

    def exception_happened(self) -> None:
        """After a CPU exception, Unicorn keeps QEMU's 'previous exception' state,
        turning the next one into a double fault; ask for a clean context."""
        self._needs_fresh_context = True
        self.request_stop()

    def request_stop(self) -> None:
        self._stop_requested = True
        self.uc.emu_stop()

    # -- hooks -------------------------------------------------------------------
    def _hook_interrupt(self, uc: Uc, intno: int, _user) -> None:
        self._on_interrupt(intno)

    def _hook_in(self, uc: Uc, port: int, size: int, _user) -> int:
        return self._on_port_in(port, size)

    def _hook_out(self, uc: Uc, port: int, size: int, value: int, _user) -> None:
        self._on_port_out(port, size, value)

    # -- running ----------------------------------------------------------------
    def run(self, count: int) -> SliceResult:
        """Execute up to ``count`` instructions from CS:IP."""
        self._stop_requested = False
        start = self.linear_ip
        try:
            self.uc.emu_start(start, 0xFFFFFFFF, count=count)
        except UcError as err:
            if err.errno == UC_ERR_INSN_INVALID:
                self._raise_invalid_opcode()
                self.instructions += count
                return SliceResult(STOP_REQUESTED, count)
            raise
        if self._needs_fresh_context:
            self._refresh_context()
        self.instructions += count
        if self._stop_requested:
            return SliceResult(STOP_REQUESTED, count)
        if self._just_halted():
            return SliceResult(STOP_HALT, count)
        return SliceResult(STOP_COUNT, count)

    def _just_halted(self) -> bool:
        # Unicorn ends emu_start silently after HLT, leaving IP past it.
        return self.memory[linear(self.cs, self.ip - 1)] == 0xF4

    def _raise_invalid_opcode(self) -> None:
        """#UD: Unicorn aborts instead of vectoring; deliver INT 6 at the opcode."""
        self._refresh_context()
        ip = self.ip
        if self.memory.read(linear(self.cs, ip), 2) == b"\xcd\x06":
            # a software INT 6 is reported the same way, with IP still on it
            self.deliver_interrupt(6, return_ip=(ip + 2) & 0xFFFF)
        else:
            self.deliver_interrupt(6)

    def _refresh_context(self) -> None:
        regs = {name: self.uc.reg_read(reg) for name, reg in REGISTERS.items()}
        self.uc.context_restore(self._fresh_context)
        for name, reg in REGISTERS.items():
            self.uc.reg_write(reg, regs[name])
        self._needs_fresh_context = False

    def flush_translations(self) -> None:
        """Forget translated code: needed after new code is written where old code ran."""
        self.uc.ctl_flush_tb()
