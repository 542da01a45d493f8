"""The processor: Unicorn's x86 in 16-bit real mode, made to behave like an AT's 80286.

Unicorn never vectors through the real-mode IVT itself: every ``INT n``, INT 3,
INTO and divide error reaches ``UC_HOOK_INTR``.  This wrapper does what the
286 does there: push FLAGS, CS and IP, clear IF and TF and load CS:IP from the
IVT, so handlers a program installs really run.  The machine decides, by the
address of the instruction that trapped, whether an interrupt is one of its own
ROM service traps (handled in Python) or an ordinary interrupt to deliver.

Time is counted in executed instructions: ``run(count)`` executes one slice
of ``count`` instructions unless something stops it early (HLT, an invalid
opcode, a trap handler that asked to stop, or a device event that fell due
sooner: ``end_slice_at``), and says how many ran.  A code hook counts every
instruction (C's in pcemu/native, or ``PythonCounter`` where the library cannot
be built), so ``slice_executed`` is the exact time of an IN, an OUT or a service
inside the slice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from unicorn import (UC_ARCH_X86, UC_ERR_FETCH_UNMAPPED, UC_ERR_INSN_INVALID, UC_HOOK_CODE,
                     UC_HOOK_INSN,
                     UC_HOOK_INTR, UC_MODE_16, UC_PROT_ALL, Uc, UcError)
from unicorn import x86_const as X

from pcemu.memory import MEGABYTE, WRAP_SIZE, Memory, linear

import ctypes
from unicorn.unicorn_py3.unicorn import uclib as _uclib

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
FLAGS_IOPL_NT = 0xF000

# The 286's prefix bytes: segment overrides, LOCK, REPNE, REP.
PREFIXES = frozenset((0x26, 0x2E, 0x36, 0x3E, 0xF0, 0xF2, 0xF3))
LOCK = 0xF0
# Faults whose IP is that of the faulting instruction and that QEMU counts as
# "contributory" (a second one becomes a double fault unless the context is renewed).
CONTRIBUTORY = frozenset((0, 12, 13))


def split_prefixes(code: bytes) -> int:
    """How many prefix bytes start ``code`` (the index of the opcode)."""
    n = 0
    while n < len(code) - 1 and code[n] in PREFIXES:
        n += 1
    return n


def is_divide(code: bytes) -> bool:
    """DIV, IDIV (F6/F7 reg 6-7) or AAM (D4): the instructions that raise #DE."""
    n = split_prefixes(code)
    op = code[n]
    if op == 0xD4:
        return True
    return op in (0xF6, 0xF7) and n + 1 < len(code) and (code[n + 1] >> 3) & 7 >= 6


def as_286_would_run(code: bytes) -> tuple[int, bytes] | None:
    """A form Unicorn accepts of an instruction the 286 runs but Unicorn rejects (#UD).

    Returns (bytes dropped from the front, replacement for the rest of
    ``code``'s prefixes, opcode and ModRM) or None when nothing applies.
    The replacement ends where the original prefixes-opcode-ModRM ended, so
    the instruction's end (the IP of what follows, relative jump targets,
    return addresses) is unchanged.
      * LOCK on any instruction: the 286 accepts it (a 386 raises #UD unless
        the instruction is a lockable read-modify-write); drop it.
      * F6/F7 with reg=1: an undocumented alias of TEST (reg=0) on the 286.
    """
    n = split_prefixes(code)
    if n + 1 >= len(code):
        return None
    prefixes = bytes(b for b in code[:n] if b != LOCK)
    opcode, modrm = code[n], code[n + 1]
    changed = len(prefixes) != n
    if opcode in (0xF6, 0xF7) and (modrm >> 3) & 7 == 1:
        modrm &= ~0x38
        changed = True
    if not changed:
        return None
    return n - len(prefixes), prefixes + bytes((opcode, modrm))

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
# byte register -> (the word register holding it, shift)
_SNAP_NAMES = tuple(REGISTERS)
_SNAP_INDEX = {name: i for i, name in enumerate(_SNAP_NAMES)}
_SNAP_CS, _SNAP_IP, _SNAP_FLAGS = _SNAP_INDEX["cs"], _SNAP_INDEX["ip"], _SNAP_INDEX["flags"]
# byte register -> (index of the word register holding it, shift)
_BYTE_OF = {name: (_SNAP_INDEX[name[0] + "x"], 8 if name[1] == "h" else 0) for name in BYTE_REGISTERS}
_SEGMENTS = {X.UC_X86_REG_CS, X.UC_X86_REG_DS, X.UC_X86_REG_ES, X.UC_X86_REG_SS}

# Vectors the CPU itself raises (the IP pushed is that of the faulting instruction).
EXCEPTION_VECTORS = {0: "divide error", 5: "BOUND range exceeded", 6: "invalid opcode",
                     7: "no coprocessor", 8: "double fault", 12: "stack fault",
                     13: "general protection"}

# Unicorn's translation buffer (QEMU's code_gen_buffer), 1 GiB unless set before the
# engine's first use.  Translations are only ever appended to it, and each write into
# translated code (a program that patches itself, or writes new code) discards theirs
# and makes new ones, so such a program grows the process towards 1.1 GB.  A full
# buffer is flushed and code translated again as it runs: never a change to what runs
# or how many instructions (tests/test_memory_bound.py), only to the host's work.
# None: Unicorn's default.
TCG_BUFFER_SIZE: int | None = 32 * 1024 * 1024

STOP_COUNT = "count"          # the slice ran all its instructions
STOP_HALT = "halt"            # HLT executed
STOP_REQUESTED = "requested"  # a hook asked to stop (e.g. program ended)


@dataclass
class SliceResult:
    reason: str
    executed: int


def halted_at(memory, last_address: int, before: int) -> bool:
    """Did a slice that left IP at ``before`` + 1 end on a HLT?  Only if the last instruction
    the counter saw, at ``last_address``, was the HLT at ``before`` with its prefixes, if
    any (LOCK HLT): a slice that ends on its count right after an instruction whose last
    byte is F4h (JNE -12 is 75 F4) is no HLT.  Unicorn's addresses above 1 MB are the
    first 64 KB again (A20 is off).  (fastcpu.c halted_at is the same.)"""
    start = last_address & 0xFFFFF
    if memory[before] != 0xF4 or not 0 <= before - start <= 14:
        return False
    return all(memory[at] in PREFIXES for at in range(start, before))


STI = 0xFB


def follows_sti(memory, last_address: int) -> bool:
    """The instruction that ran last, at ``last_address`` (-1: none known), was an STI: the
    286 takes an interrupt only after the one that follows it (fastcpu.c follows_sti)."""
    return last_address >= 0 and memory[last_address & 0xFFFFF] == STI


class PythonCounter:
    """The instruction counter where the native library cannot be built: a Python code
    hook on every instruction, exact and slow (the C one, fastcpu.c hook_count, does
    the same).  The slice ends before the instruction that would exceed ``budget``, or,
    with ``if_watch`` set (an IRQ waits for IF), before the first instruction that runs
    with IF set, unless the one before was an STI (the 286 takes the IRQ only after the
    instruction that follows an STI)."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.budget = 0
        self.executed = 0
        self.last_address = -1
        self.if_watch = 0

    def hook(self, uc: Uc, address: int, _size: int, _user) -> None:
        before = self.last_address
        if self.if_watch and uc.reg_read(X.UC_X86_REG_EFLAGS) & FLAG_IF and not follows_sti(
                self.memory, before):
            uc.emu_stop()                 # (last_address stays the last that ran)
            return
        if self.executed >= self.budget:
            uc.emu_stop()
            return
        self.last_address = address
        self.executed += 1


class Cpu:
    """One 286-like CPU over a Memory, with interrupt delivery through the IVT."""

    def __init__(self, memory: Memory,
                 on_interrupt: Callable[[int], None],
                 on_port_in: Callable[[int, int], int],
                 on_port_out: Callable[[int, int, int], None],
                 accelerator: Callable[["Cpu"], object] | None = None,
                 counter: Callable[["Cpu"], object] | None = None) -> None:
        """``accelerator``: installs C hooks on this CPU and returns their state (``fast``),
        or None where they cannot be built (pcemu.native.sync.install_native).
        ``counter``: without an accelerator, installs the C instruction counter and
        returns its state, or None (pcemu.native.sync.install_counter); else the
        counter is a PythonCounter."""
        self.memory = memory
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        if TCG_BUFFER_SIZE:                   # before the first mem_map: it sizes the buffer
            self.uc.ctl_set_tcg_buffer_size(TCG_BUFFER_SIZE)
        self._uch = self.uc._uch
        self._regbuf = ctypes.c_uint64(0)
        self._regptr = ctypes.cast(ctypes.byref(self._regbuf), ctypes.c_void_p)
        self.uc.mem_map_ptr(0, MEGABYTE, UC_PROT_ALL, memory.address)
        # A20 off: the 64 KB above 1 MB is the first 64 KB again.
        self.uc.mem_map_ptr(MEGABYTE, WRAP_SIZE, UC_PROT_ALL, memory.address)
        self._on_interrupt = on_interrupt
        self._on_port_in = on_port_in
        self._on_port_out = on_port_out
        # registers read in one call, during a service (values only ever hold 16 bits,
        # so the upper bytes a 16-bit read leaves alone stay zero)
        n = len(_SNAP_NAMES)
        self._snap_ids = (ctypes.c_int * n)(*(REGISTERS[name] for name in _SNAP_NAMES))
        self._snap_values = (ctypes.c_uint64 * n)()
        self._snap = None
        self._halted = ctypes.c_int(0)
        self._halted_ref = ctypes.byref(self._halted)
        self._snap_ptrs = (ctypes.c_void_p * n)(*(ctypes.addressof(self._snap_values) + 8 * i
                                                   for i in range(n)))
        self._load_values = (ctypes.c_uint64 * n)()          # load_registers' one batch write
        self._load_ptrs = (ctypes.c_void_p * n)(*(ctypes.addressof(self._load_values) + 8 * i
                                                   for i in range(n)))
        self.fast = accelerator(self) if accelerator is not None else None
        # budget, executed (in this slice) and last_address: the C hooks' own counting,
        # or the reference machine's counter
        self.counter = self.fast
        if self.fast is None:
            self.uc.hook_add(UC_HOOK_INTR, self._hook_interrupt)
            self.uc.hook_add(UC_HOOK_INSN, self._hook_in, None, 1, 0, X.UC_X86_INS_IN)
            self.uc.hook_add(UC_HOOK_INSN, self._hook_out, None, 1, 0, X.UC_X86_INS_OUT)
            self.counter = counter(self) if counter is not None else None
            if self.counter is None:
                self.counter = PythonCounter(memory)
                self.uc.hook_add(UC_HOOK_CODE, self.counter.hook)
        self._in_slice = False
        self._stop_requested = False
        self._needs_fresh_context = False
        self._fresh_context = self.uc.context_save()
        self.instructions = 0
        # The machine's: take in the slices C ran on by itself (absorb_chain), and after
        # a Python handler say again what C may do (run on: fast.chain; services).
        self.on_chain_absorb: Callable[[object], None] = lambda fast: None
        self.on_python_returned: Callable[[object], None] = lambda fast: None
        # The machine's: passes with pure Python calls were skipped (their counters move)
        self.on_pure_calls_skipped: Callable[[int, int], None] = lambda calls, passes: None
        # The machine's: C delivers a hardware interrupt (while fast.irq_watch is set)
        self.on_irq_delivered: Callable[[int, int], None] = lambda vector, now: None
        # the x87 is always there in Unicorn; nothing to set up

    def native_vectors(self, vectors) -> None:
        """Deliver these software-interrupt vectors in C (an empty set: all through Python)."""
        table = self.fast.native
        wanted = set(vectors)
        for vector in range(256):
            table[vector] = vector in wanted

    def statement_breakpoints(self, segment: int | None, offsets=()) -> None:
        """Let C deliver the INT 3s from code segment ``segment`` itself, except those at
        ``offsets``, which still reach Python (``segment`` None: all of them do).

        A compiled QuickBASIC program runs an INT 3 before each statement; a tracer
        that stops at a few statements need not pay a Python call for every one.
        Without the native library every INT 3 goes through Python as before.
        """
        if self.fast is None:
            return
        bits = self.fast.int3_break
        ctypes.memset(bits, 0, ctypes.sizeof(bits))
        for offset in offsets:
            bits[(offset & 0xFFFF) >> 3] |= 1 << (offset & 7)
        self.fast.int3_segment = -1 if segment is None else segment & 0xFFFF

    @property
    def int3_passed(self) -> int:
        """INT 3s that ``statement_breakpoints`` let C deliver, since the CPU was made."""
        return self.fast.int3_passed if self.fast is not None else 0

    @property
    def has_python_hooks(self) -> bool:
        """Hooks added through the Unicorn binding (a debugger's, or this class's own without
        the native library): they see every slice.  (A binding without the private
        ``_callbacks`` table is taken to have some.)"""
        return bool(getattr(self.uc, "_callbacks", True))

    def absorb_chain(self) -> None:
        """Take in the slices C ran on by itself (see pcemu_run_slice): count their
        instructions and let the machine bring its clock and timer up to date."""
        done = self.fast.chain_instructions
        if done:
            self.instructions += done
            self.fast.chain_instructions = 0
            self.on_chain_absorb(self.fast)

    def _from_c(self, handler: Callable, *args):
        """Run a Python handler for a C hook: the machine brought up to date before,
        asked after whether C may still run on; an exception is kept and re-raised
        after emu_start, as the binding's own hook wrapper does (the result is None)."""
        fast = self.fast
        try:
            if fast.chain_instructions:
                self.absorb_chain()
            result = handler(*args)
            self.on_python_returned(fast)
            return result
        except BaseException as exc:          # noqa: BLE001 - re-raised after emu_start
            fast.chain = 0
            if self.uc._hook_exception is None:
                self.uc._hook_exception = exc
            self.uc.emu_stop()
            return None

    def _native_interrupt_fallback(self, _uc, intno: int, _user) -> None:
        self._from_c(self._on_interrupt, intno)

    def _native_in_fallback(self, _uc, port: int, size: int, _user) -> int:
        value = self._from_c(self._on_port_in, port, size)
        return 0xFF if value is None else value & 0xFFFFFFFF

    def _native_skip(self, pure_per_pass: int, passes: int) -> None:
        try:
            self.on_pure_calls_skipped(pure_per_pass, passes)
        except BaseException as exc:          # noqa: BLE001 - re-raised after emu_start
            if self.uc._hook_exception is None:
                self.uc._hook_exception = exc
            self.uc.emu_stop()

    def _native_irq(self, vector: int) -> None:
        try:
            self.on_chain_absorb(self.fast)   # the machine's clock at this slice's start
            self.on_irq_delivered(vector, self.fast.clock_now)
        except BaseException as exc:          # noqa: BLE001 - re-raised after emu_start
            if self.uc._hook_exception is None:
                self.uc._hook_exception = exc
            self.uc.emu_stop()

    def log_guest_write(self, address: int, size: int) -> None:
        """A write Python makes during a pure call: the idle-loop probe must know the old value."""
        if self.fast is not None:
            self._native_lib.pcemu_log_write(self._fast_ref, address, size)

    def _native_out_fallback(self, _uc, port: int, size: int, value: int, _user) -> None:
        self._from_c(self._on_port_out, port, size, value)

    @property
    def slice_executed(self) -> int:
        """Instructions executed so far in the running slice (counting the one running,
        whose IN, OUT or INT a hook is handling); 0 between slices."""
        return self.counter.executed if self._in_slice else 0

    @property
    def after_sti(self) -> bool:
        """The last instruction of the slice that just ended was an STI: the 286 runs one
        more before it takes an interrupt."""
        return follows_sti(self.memory, self.counter.last_address)

    def watch_interrupt_flag(self, on: bool) -> None:
        """An IRQ waits for IF (set before a slice, or during one by an EOI): the slice ends
        before the first instruction that runs with IF set, where the 286 takes it."""
        self.counter.if_watch = int(on)

    def end_slice_at(self, executed: int) -> None:
        """Something falls due ``executed`` instructions after the running slice's start,
        sooner than its end: the slice ends there (after the running instruction, if
        that moment has passed).  Nothing between slices."""
        counter = self.counter
        if self._in_slice and executed < counter.budget:
            counter.budget = max(executed, counter.executed)

    # -- registers ----------------------------------------------------------
    # The binding's reg_read/reg_write cost several microseconds each in Python;
    # these go straight to the C API with one preallocated buffer, since every
    # interrupt and service touches a dozen registers.
    def _reg(self, reg: int) -> int:
        buf = self._regbuf
        buf.value = 0                 # 8- and 16-bit reads fill only the low bytes
        _uclib.uc_reg_read(self._uch, reg, self._regptr)
        return buf.value

    def _set_reg(self, reg: int, value: int) -> None:
        self._snap = None
        self._regbuf.value = value
        _uclib.uc_reg_write(self._uch, reg, self._regptr)

    def snapshot(self) -> None:
        """Read every register in one C call; reads come from it until ``forget_snapshot``.

        A service reads a dozen registers; one batch read is cheaper than a
        dozen single ones.  Writes go to Unicorn and into the snapshot; anything
        that changes registers another way (jumps, interrupt delivery, running)
        drops it.
        """
        _uclib.uc_reg_read_batch(self._uch, self._snap_ids, self._snap_ptrs, len(_SNAP_NAMES))
        self._snap = self._snap_values

    def forget_snapshot(self) -> None:
        self._snap = None

    def __getattr__(self, name: str) -> int:
        reg = _ALL.get(name)
        if reg is None:
            raise AttributeError(name)
        snap = self.__dict__.get("_snap")
        if snap is not None:
            index = _SNAP_INDEX.get(name)
            if index is not None:
                return snap[index]
            index, shift = _BYTE_OF[name]
            return (snap[index] >> shift) & 0xFF
        return self._reg(reg)

    def __setattr__(self, name: str, value: int) -> None:
        reg = _ALL.get(name)
        if reg is None:
            object.__setattr__(self, name, value)
            return
        if reg in _SEGMENTS:
            value &= 0xFFFF
            self.uc.reg_write(reg, value)            # the binding keeps segment caches right
        else:
            value &= 0xFF if name in BYTE_REGISTERS else 0xFFFF
            self._regbuf.value = value
            _uclib.uc_reg_write(self._uch, reg, self._regptr)
        snap = self._snap
        if snap is not None:
            index = _SNAP_INDEX.get(name)
            if index is not None:
                snap[index] = value
            else:
                index, shift = _BYTE_OF[name]
                snap[index] = (snap[index] & ~(0xFF << shift)) | (value << shift)

    def registers(self) -> dict[str, int]:
        self._snap = None                 # callers may write through uc next
        return {name: self.uc.reg_read(reg) for name, reg in REGISTERS.items()}

    def save_registers(self) -> dict[str, int]:
        """Every register of ``REGISTERS``, read in one C call (for ``load_registers``)."""
        self.snapshot()
        return dict(zip(_SNAP_NAMES, self._snap_values))

    def load_registers(self, values: dict[str, int]) -> None:
        """Write back every register ``save_registers`` read, in one C call."""
        self._snap = None
        loaded = self._load_values
        for i, name in enumerate(_SNAP_NAMES):
            loaded[i] = values[name]
        _uclib.uc_reg_write_batch(self._uch, self._snap_ids, self._load_ptrs, len(_SNAP_NAMES))

    def set_registers(self, **values: int) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def set_flag(self, mask: int, on: bool) -> None:
        self._snap = None
        flags = self.uc.reg_read(X.UC_X86_REG_FLAGS)
        self.uc.reg_write(X.UC_X86_REG_FLAGS, (flags | mask) if on else (flags & ~mask))

    def jump(self, cs: int, ip: int) -> None:
        self._snap = None
        self.uc.reg_write(X.UC_X86_REG_CS, cs)
        self.uc.reg_write(X.UC_X86_REG_IP, ip)

    @property
    def linear_ip(self) -> int:
        snap = self._snap
        if snap is not None:                  # after a slice: no Unicorn call
            return ((snap[_SNAP_CS] << 4) + snap[_SNAP_IP]) & 0xFFFFF
        return linear(self.cs, self.ip)

    @property
    def interrupts_enabled(self) -> bool:
        """FLAGS.IF (from the snapshot when there is one)."""
        snap = self._snap
        flags = snap[_SNAP_FLAGS] if snap is not None else self._reg(X.UC_X86_REG_FLAGS)
        return bool(flags & FLAG_IF)

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
        self._snap = None
        if return_ip is None and self.fast is not None:
            self._native_lib.pcemu_deliver(self._uch, self._fast_ref, vector)   # the same, in C
            return
        reg = self._reg
        flags = (reg(X.UC_X86_REG_FLAGS) & FLAGS_286_MASK) | FLAGS_286_FIXED
        cs = reg(X.UC_X86_REG_CS)
        ip = reg(X.UC_X86_REG_IP) if return_ip is None else return_ip
        ss = reg(X.UC_X86_REG_SS)
        sp = reg(X.UC_X86_REG_SP)
        view = self.memory.view
        base = ss << 4
        for offset, word in ((2, flags), (4, cs), (6, ip)):
            address = (base + ((sp - offset) & 0xFFFF)) & 0xFFFFF
            view[address] = word & 0xFF
            view[(base + ((sp - offset + 1) & 0xFFFF)) & 0xFFFFF] = word >> 8
        set_reg = self._set_reg
        set_reg(X.UC_X86_REG_SP, (sp - 6) & 0xFFFF)
        set_reg(X.UC_X86_REG_FLAGS, flags & ~(FLAG_IF | FLAG_TF))
        new_ip = view[vector * 4] | (view[vector * 4 + 1] << 8)
        new_cs = view[vector * 4 + 2] | (view[vector * 4 + 3] << 8)
        self.uc.reg_write(X.UC_X86_REG_CS, new_cs)
        set_reg(X.UC_X86_REG_IP, new_ip)

    def deliver_exception(self, intno: int) -> bool:
        """If Unicorn's interrupt ``intno`` is a fault the CPU raised, deliver it.

        Unicorn reports INT n, INT 3, INTO and CPU faults alike; a fault has IP
        on the faulting instruction (the 286 pushes that address), INT n has IP
        past it.  Returns False for a software interrupt, which the caller
        delivers (after whatever it does with INT n).
        """
        if not self._is_fault(intno):
            return False
        self.deliver_interrupt(intno)
        self.exception_happened()
        return True

    def take_interrupt(self, intno: int) -> None:
        """Deliver what Unicorn reported, fault or INT n, through the IVT."""
        if not self.deliver_exception(intno):
            self.deliver_interrupt(intno)

    def _is_fault(self, intno: int) -> bool:
        if intno not in CONTRIBUTORY and intno != 5:
            return False
        mem = self.memory
        cs, ip = self._reg(X.UC_X86_REG_CS), self._reg(X.UC_X86_REG_IP)
        here = mem.read_far(cs, ip, 12)
        if intno == 5:                        # BOUND: IP stays on the BOUND
            return here[split_prefixes(here)] == 0x62
        if intno == 0 and is_divide(here):
            return True
        # otherwise a fault unless the two bytes before IP are the INT n that ran
        return not (mem.rb(cs, ip - 2) == 0xCD and mem.rb(cs, ip - 1) == intno)

    def exception_happened(self) -> None:
        """After a CPU exception, Unicorn keeps QEMU's 'previous exception' state,
        turning the next one into a double fault; ask for a clean context."""
        self._needs_fresh_context = True
        self.request_stop()

    def request_stop(self) -> None:
        self._stop_requested = True
        if self.fast is not None:
            self.fast.chain = 0               # and C runs no further slice
        self.uc.emu_stop()

    # -- hooks -------------------------------------------------------------------
    def _hook_interrupt(self, uc: Uc, intno: int, _user) -> None:
        self._on_interrupt(intno)

    def _hook_in(self, uc: Uc, port: int, size: int, _user) -> int:
        return self._on_port_in(port, size)

    def _hook_out(self, uc: Uc, port: int, size: int, value: int, _user) -> None:
        self._on_port_out(port, size, value)

    # -- running ----------------------------------------------------------------
    def run(self, count: int, keep_snapshot: bool = False, idle_watch: int | None = None) -> SliceResult:
        """Execute up to ``count`` instructions from CS:IP; the result says how many ran.

        With ``keep_snapshot`` the registers read in one call after the slice
        stay as the snapshot (the caller reads FLAGS, CS, IP next and must call
        ``forget_snapshot`` when done); otherwise it is dropped.  ``idle_watch``
        (a linear address, native library only) is where the C hooks look for
        an idle loop to skip in this slice (see ``pcemu/native/fastcpu.c``).
        """
        self._snap = None
        self._stop_requested = False
        self._in_slice = True
        try:
            return self._run(count, keep_snapshot, idle_watch)
        finally:
            self._in_slice = False

    def _run(self, count: int, keep_snapshot: bool, idle_watch: int | None) -> SliceResult:
        fast, counter = self.fast, self.counter
        halted = False                        # a HLT that ended a recovery from an error
        try:
            if fast is not None:
                if self._run_native(count, idle_watch):
                    executed = fast.executed      # the last slice's, when C ran several
                    self.instructions += executed
                    reason = (STOP_REQUESTED if self._stop_requested
                              else STOP_HALT if self._halted.value else STOP_COUNT)
                    if not keep_snapshot:
                        self._snap = None
                    return SliceResult(reason, executed)
            else:
                counter.budget, counter.executed, counter.last_address = count, 0, -1
                self.uc.emu_start(self.linear_ip, 0xFFFFFFFF)
        except UcError as err:
            wrapped = err.errno == UC_ERR_FETCH_UNMAPPED and self._wrap_top_of_segment()
            if wrapped:
                halted = wrapped == "halt"
                self._stop_requested = self._stop_requested or not halted
            elif err.errno != UC_ERR_INSN_INVALID:
                raise
            elif self._invalid_instruction():
                halted = True                 # a LOCK HLT ran as HLT
            else:
                self._stop_requested = True
        if self._needs_fresh_context:
            self._refresh_context()
        self.snapshot()                       # FLAGS, CS, IP for what follows, in one call
        try:
            self._clear_iopl_nt()
            executed = counter.executed
            self.instructions += executed
            if self._stop_requested:
                return SliceResult(STOP_REQUESTED, executed)
            if halted or self._just_halted():
                return SliceResult(STOP_HALT, executed)
            return SliceResult(STOP_COUNT, executed)
        finally:
            if not keep_snapshot:
                self._snap = None

    def _wrap_top_of_segment(self) -> bool | str:
        """Unicorn could not fetch above 10FFFFh: code in segment FFFF runs off its top.

        A 286 wraps IP to 0000 within the segment; Unicorn does not wrap and fails the
        whole translation block that reaches past 10FFFFh, running none of it.  So run
        that block's instructions one at a time (a page mapped above 10FFFFh for the
        while, so that translating one instruction does not fail) until IP passes FFFF,
        then IP &= FFFF.  Not exact for an instruction that straddles FFFF:FFFF: it
        reads its last bytes from 10FFF0h (0000:FFF0 with A20 off), not FFFF:0000.
        Returns "halt" when a HLT ended the steps (the slice ends as after any HLT),
        True when done, False if the failed fetch was not in segment FFFF.
        """
        self._refresh_context()
        if self.cs != 0xFFFF:
            return False
        top = MEGABYTE + WRAP_SIZE
        self.uc.mem_map(top, 0x1000, UC_PROT_ALL)
        try:
            for _ in range(WRAP_SIZE):
                ip = self._reg(X.UC_X86_REG_EIP)
                if self.cs != 0xFFFF:
                    break
                if ip > 0xFFFF:
                    self._set_reg(X.UC_X86_REG_EIP, ip & 0xFFFF)
                    break
                halt = self.memory[(0xFFFF0 + ip) & 0xFFFFF] == 0xF4
                try:
                    self._run_one(0xFFFF0 + ip)
                except UcError as err:
                    if err.errno != UC_ERR_INSN_INVALID:
                        raise
                    self._invalid_instruction()
                    break
                if halt:
                    ip = self._reg(X.UC_X86_REG_EIP)
                    self._set_reg(X.UC_X86_REG_EIP, ip & 0xFFFF)
                    return "halt"
        finally:
            self.uc.mem_unmap(top, 0x1000)
            self.uc.ctl_remove_cache(top - 0x1000, top + 0x1000)
        return True

    def _run_native(self, count: int, idle_watch: int | None) -> bool:
        """The slice through pcemu_run_slice (C): True when it also took the snapshot,
        cleared FLAGS' bits 12-15 and told whether a HLT ended it (the common case)."""
        uc = self.uc
        uc._hook_exception = None
        self.fast.executed = 0                # (C sets it too: an error before its start)
        err = self._native_lib.pcemu_run_slice(
            self._uch, self._fast_ref, count, -1 if idle_watch is None else idle_watch,
            self._snap_ids, self._snap_values, len(_SNAP_NAMES), self._halted_ref)
        self.fast.chain = 0                   # a caller that did not allow it runs one slice
        if self.fast.chain_instructions:
            self.absorb_chain()
        if err:
            raise UcError(err)
        if uc._hook_exception is not None:
            raise uc._hook_exception
        if self._needs_fresh_context:
            return False
        self._snap = self._snap_values
        return True

    def _just_halted(self) -> bool:
        """Did the slice end on a HLT?  Unicorn ends emu_start silently after one, IP past it."""
        before = ((self.cs << 4) + ((self.ip - 1) & 0xFFFF)) & 0xFFFFF
        return halted_at(self.memory, self.counter.last_address, before)

    def _clear_iopl_nt(self) -> None:
        """A real-mode 286 cannot set FLAGS bits 12-15; Unicorn's POPF and IRET can.

        Done at the end of each slice (no per-instruction hook): a PUSHF in the
        same slice as the POPF still sees the bits (see docs/cpu.md).
        """
        flags = self.flags
        if flags & FLAGS_IOPL_NT:
            self._set_reg(X.UC_X86_REG_FLAGS, flags & ~FLAGS_IOPL_NT)

    def _invalid_instruction(self) -> bool:
        """Unicorn aborted on an instruction it calls invalid: do what a 286 does.

        Either the 286 runs it (LOCK on any instruction, the F6/F7 reg=1 TEST
        alias: run an equivalent form Unicorn accepts), or it is a software
        INT 6 (Unicorn reports those as invalid, IP still on the INT), or it
        is #UD: INT 6 with the instruction's own address pushed.  True when
        what ran was a HLT (LOCK HLT): the CPU halts there.
        """
        self._refresh_context()
        cs, ip = self.cs, self.ip
        code = self.memory.read_far(cs, ip, 12)
        n = split_prefixes(code)
        if code[n] == 0xCD and n + 1 < len(code) and code[n + 1] == 0x06:
            self.deliver_interrupt(6, return_ip=(ip + n + 2) & 0xFFFF)
            return False
        substitute = as_286_would_run(code)
        if substitute is None or not self._run_substitute(cs, ip, *substitute):
            self.deliver_interrupt(6)
            return False
        return substitute[1][-2] == 0xF4          # the opcode the replacement ends with

    def _run_substitute(self, cs: int, ip: int, skip: int, replacement: bytes) -> bool:
        """Run one instruction with its leading bytes replaced, in place.

        The replacement is written over the original so that it ends where the
        original's ModRM ended, run for one instruction from ``ip + skip``,
        and the original bytes are put back.  False if Unicorn rejects the
        replacement too (the 286 would raise #UD as well).
        """
        mem = self.memory
        original = mem.read_far(cs, ip, skip + len(replacement))
        start = (ip + skip) & 0xFFFF
        mem.write_far(cs, start, replacement)
        self._forget_code(cs, ip, len(original))
        try:
            self._run_one(linear(cs, start))
        except UcError as err:
            if err.errno != UC_ERR_INSN_INVALID:
                raise
            self.jump(cs, ip)
            self._refresh_context()
            return False
        finally:
            if mem.read_far(cs, start, len(replacement)) == replacement:
                mem.write_far(cs, ip, original)
            self._forget_code(cs, ip, len(original))
        if self.cs == cs and self.ip == start:
            self.ip = ip                      # a REP stopped after one iteration: resume at the prefixes
        return True

    def _run_one(self, start: int) -> None:
        """One instruction, counted in the slice as any other."""
        counter = self.counter
        counter.budget = counter.executed + 1
        watching, counter.if_watch = counter.if_watch, 0
        if self.fast is not None:
            self._native_lib.pcemu_probe_start(self._fast_ref, -1)
        try:
            self.uc.emu_start(start, 0xFFFFFFFF)
        finally:
            counter.if_watch = watching

    def _forget_code(self, cs: int, ip: int, size: int) -> None:
        start = linear(cs, ip)
        self.uc.ctl_remove_cache(start, start + size)

    def _refresh_context(self) -> None:
        self._snap = None
        regs = {name: self.uc.reg_read(reg) for name, reg in REGISTERS.items()}
        self.uc.context_restore(self._fresh_context)
        for name, reg in REGISTERS.items():
            self.uc.reg_write(reg, regs[name])
        self._needs_fresh_context = False

    def flush_translations(self) -> None:
        """Forget translated code: needed after new code is written where old code ran."""
        self.uc.ctl_flush_tb()
