"""A debugger for programs running in the machine, usable from Python and from ``pcemu debug``.

Breakpoints:

* on an address: a Unicorn code hook on that one address;
* on an interrupt service (``INT 21h``, optionally AH and AL): the machine's
  ``interrupt`` listener, at the program's INT instruction;
* on a port (IN, OUT or both): the I/O bus watchers, at the IN/OUT instruction;
* on writes to a memory range: a Unicorn write hook on that range (writes
  made by the instructions of the program; the BIOS and DOS written in
  Python change memory without instructions and are not seen).

Addresses may name things of the program being debugged, resolved when DOS
loads it: ``RND`` (a runtime routine found by signature), ``line:10650`` (a
BASIC line), ``module:0C88:3885`` (an address in the load module, as
``pcemu exe-info`` and ``pcemu disasm`` show them) and ``dgroup:0850``.

Hooks exist only while a breakpoint needs them.  A stop pauses the CPU *inside*
the hook: ``on_stop(stop)`` is called there and returns what to do next
(``"continue"``, ``"step"``/``("step", n)`` or ``"quit"``).  Nothing is
charged to the virtual clock while stopped, so a debugged run keeps the
timeline of the same run undebugged.  Stepping uses one code hook on every
address (the per-address hooks are removed meanwhile, so no instruction is
reported twice).  Unicorn also calls a hook added during an instruction's own
hook calls for that same instruction; such first calls are skipped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from unicorn import UC_HOOK_CODE, UC_HOOK_MEM_WRITE

from pcemu.archive.program_map import MapError, ProgramMap
from pcemu.errors import PcemuError
from pcemu.memory import linear

if TYPE_CHECKING:
    from pcemu.machine import Machine

SEGMENT_REGISTERS = ("cs", "ds", "es", "ss")
OFFSET_REGISTERS = ("ip", "ax", "bx", "cx", "dx", "si", "di", "bp", "sp")


class DebuggerError(PcemuError):
    """A breakpoint or address that can't be understood; the message says why."""


class DebuggerQuit(PcemuError):
    """Raised out of the running machine when the user quits the debugger."""


@dataclass
class Breakpoint:
    number: int
    kind: str                       # "code", "interrupt", "port", "write"
    spec: str
    address: int | None = None      # code: linear address; write: first byte
    length: int = 1                 # write: bytes watched
    interrupt: int | None = None
    ah: int | None = None
    al: int | None = None
    port: int | None = None
    direction: str | None = None    # "in", "out" or None for both
    pending: str | None = None      # what it waits for ("the program to load")
    hits: int = 0
    hook: int | None = None
    target: object = None           # the address as given, resolved when the program loads

    def describe(self) -> str:
        state = f" (waiting for {self.pending})" if self.pending else ""
        if self.kind == "code":
            where = f" at {self.address:05X}h" if self.address is not None else ""
            return f"#{self.number} {self.spec}{where}, {self.hits} hits{state}"
        return f"#{self.number} {self.kind} {self.spec}, {self.hits} hits{state}"


@dataclass
class Stop:
    """Why and where the CPU stopped; read the machine for everything else."""

    reason: str                     # "breakpoint" or "step"
    cs: int
    ip: int
    t: int                          # instruction count (the current slice's start)
    breakpoint: Breakpoint | None = None
    detail: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def linear(self) -> int:
        return linear(self.cs, self.ip)


# ---------------------------------------------------------------------------- address syntax
_HEX = r"[0-9A-Fa-f]+"


def parse_number(text: str) -> int:
    text = text.strip()
    try:
        if text.lower().startswith("0x"):
            return int(text, 16)
        if text.lower().endswith("h"):
            return int(text[:-1], 16)
        return int(text, 16)
    except ValueError:
        raise DebuggerError(f"{text!r} is not a hexadecimal number") from None


class Debugger:
    """Breakpoints, stops and stepping on one machine (see the module docstring)."""

    def __init__(self, machine: "Machine", on_stop: Callable[[Stop], object] | None = None) -> None:
        self.m = machine
        self.on_stop = on_stop or (lambda stop: "continue")
        self.breakpoints: dict[int, Breakpoint] = {}
        self.program: ProgramMap | None = None
        self.stops = 0
        self._next_number = 1
        self._code_hooks: dict[int, int] = {}        # linear -> hook handle (when not stepping)
        self._step_hook: int | None = None
        self._step_left = 0
        self._in_code_stop: int | None = None        # address of the code stop being handled
        self._skip_once: set[int] = set()            # bp hooks added during their own instruction
        self._skip_step_at: int | None = None
        self._listening_interrupts = False
        self._watching_ports = False
        machine.events.exec.connect(self._on_exec)

    # ------------------------------------------------------------------ breakpoints
    def add(self, spec: str) -> Breakpoint:
        """A breakpoint from text: ADDRESS, int:21[/AH[/AL]], port:61[/in|/out], write:ADDRESS[+LEN]."""
        spec = spec.strip()
        kind, _, rest = spec.partition(":")
        kind = kind.lower()
        if kind == "int" and rest:
            parts = rest.split("/")
            if len(parts) > 3:
                raise DebuggerError(f"{spec!r}: use int:NN, int:NN/AH or int:NN/AH/AL")
            values = [parse_number(p) for p in parts]
            return self.break_on_interrupt(*values, spec=spec)
        if kind == "port" and rest:
            port_text, _, direction = rest.partition("/")
            if direction and direction.lower() not in ("in", "out"):
                raise DebuggerError(f"{spec!r}: the direction is in or out")
            return self.break_on_port(parse_number(port_text), direction.lower() or None, spec=spec)
        if kind == "write" and rest:
            where, _, length = rest.partition("+")
            return self.watch_writes(where, parse_number(length) if length else 1, spec=spec)
        return self.break_at(spec)

    def _new(self, kind: str, spec: str, **fields) -> Breakpoint:
        bp = Breakpoint(self._next_number, kind, spec, **fields)
        self._next_number += 1
        self.breakpoints[bp.number] = bp
        return bp

    def break_at(self, where: str | int | tuple[int, int]) -> Breakpoint:
        """Stop before the instruction at an address (see ``resolve`` for the forms)."""
        spec = where if isinstance(where, str) else _format_where(where)
        bp = self._new("code", spec, target=where)
        self._place_code(bp, where)
        return bp

    def _place_code(self, bp: Breakpoint, where) -> None:
        address = self.resolve(where, defer=True)
        if address is None:
            bp.pending = "the program to load"
            return
        bp.pending = None
        bp.address = address
        if self._step_hook is None:
            self._install_code_hook(address)

    def _install_code_hook(self, address: int) -> None:
        if address in self._code_hooks:
            return
        self._code_hooks[address] = self.m.cpu.uc.hook_add(
            UC_HOOK_CODE, self._on_code, None, address, address)
        if self._in_code_stop == address:
            self._skip_once.add(address)          # Unicorn calls it for this instruction too

    def _remove_code_hooks(self) -> None:
        for address, handle in self._code_hooks.items():
            self.m.cpu.uc.hook_del(handle)
            self._skip_once.discard(address)
        self._code_hooks.clear()

    def break_on_interrupt(self, interrupt: int, ah: int | None = None, al: int | None = None,
                           spec: str | None = None) -> Breakpoint:
        """Stop at a program's ``INT n`` (with AH, and AL, when given)."""
        if not 0 <= interrupt <= 0xFF or (ah is not None and not 0 <= ah <= 0xFF) \
                or (al is not None and not 0 <= al <= 0xFF):
            raise DebuggerError("interrupt numbers and AH/AL are bytes (00-FF)")
        text = spec or f"int:{interrupt:02X}" + (f"/{ah:02X}" if ah is not None else "") + (
            f"/{al:02X}" if al is not None else "")
        bp = self._new("interrupt", text, interrupt=interrupt, ah=ah, al=al)
        if not self._listening_interrupts:
            self.m.events.interrupt.connect(self._on_interrupt)
            self._listening_interrupts = True
        return bp

    def break_on_port(self, port: int, direction: str | None = None, spec: str | None = None) -> Breakpoint:
        if not 0 <= port <= 0xFFFF:
            raise DebuggerError(f"port {port:X}h is outside 0-FFFFh")
        bp = self._new("port", spec or f"port:{port:X}" + (f"/{direction}" if direction else ""),
                       port=port, direction=direction)
        if not self._watching_ports:
            self.m.bus.watchers.append(self._on_port)
            self._watching_ports = True
        return bp

    def watch_writes(self, where: str | int | tuple[int, int], length: int = 1,
                     spec: str | None = None) -> Breakpoint:
        """Stop when an instruction writes into [where, where + length)."""
        if length < 1:
            raise DebuggerError("a watched range is at least one byte long")
        bp = self._new("write", spec or f"write:{_format_where(where)}+{length:X}", length=length,
                       target=where)
        self._place_write(bp, where)
        return bp

    def _place_write(self, bp: Breakpoint, where) -> None:
        address = self.resolve(where, defer=True)
        if address is None:
            bp.pending = "the program to load"
            return
        bp.pending = None
        bp.address = address
        bp.hook = self.m.cpu.uc.hook_add(UC_HOOK_MEM_WRITE, self._on_write, bp,
                                         address, address + bp.length - 1)

    def delete(self, number: int) -> None:
        bp = self.breakpoints.pop(number, None)
        if bp is None:
            raise DebuggerError(f"there is no breakpoint #{number}")
        uc = self.m.cpu.uc
        if bp.kind == "code" and bp.address is not None:
            still = any(b.kind == "code" and b.address == bp.address for b in self.breakpoints.values())
            if not still and bp.address in self._code_hooks:
                uc.hook_del(self._code_hooks.pop(bp.address))
                self._skip_once.discard(bp.address)
        elif bp.kind == "write" and bp.hook is not None:
            uc.hook_del(bp.hook)
        if self._listening_interrupts and not self._of_kind("interrupt"):
            self.m.events.interrupt.disconnect(self._on_interrupt)
            self._listening_interrupts = False
        if self._watching_ports and not self._of_kind("port"):
            self.m.bus.watchers.remove(self._on_port)
            self._watching_ports = False

    def _of_kind(self, kind: str) -> list[Breakpoint]:
        return [b for b in self.breakpoints.values() if b.kind == kind]

    def close(self) -> None:
        """Remove every hook and listener: the machine runs as if never debugged."""
        for number in list(self.breakpoints):
            self.delete(number)
        self._stop_stepping()
        self.m.events.exec.disconnect(self._on_exec)

    # ------------------------------------------------------------------ addresses
    def resolve(self, where, defer: bool = False) -> int | None:
        """A linear address from: an int, (seg, off), 'SEG:OFF' (SEG hex or cs/ds/es/ss),
        'module:SEG:OFF', 'dgroup:OFF', 'line:N' or a runtime routine name such as 'RND'.
        Program-relative forms give None (with ``defer``) until the program is loaded."""
        if isinstance(where, int):
            return where & 0xFFFFF
        if isinstance(where, tuple):
            return linear(*where)
        text = where.strip()
        prefix, _, rest = text.partition(":")
        prefix_l = prefix.lower()
        if prefix_l in ("module", "line", "dgroup", "routine") or (":" not in text and not _is_hex(text)):
            if self.program is None:
                if defer:
                    return None
                raise DebuggerError(f"{text!r} names a place in the program, and no program "
                                    "has been loaded yet")
            return self._program_address(prefix_l, rest, text)
        if ":" not in text:
            return parse_number(text) & 0xFFFFF
        segment, offset = self._seg_off(prefix, rest)
        return linear(segment, offset)

    def _seg_off(self, segment_text: str, offset_text: str) -> tuple[int, int]:
        """SEG:OFF where either part may be hex or a register name (cs:ip, ds:dx, ss:sp)."""
        return self._value(segment_text, SEGMENT_REGISTERS), self._value(offset_text, OFFSET_REGISTERS)

    def _value(self, text: str, registers: tuple[str, ...]) -> int:
        name = text.strip().lower()
        if name in registers:
            return getattr(self.m.cpu, name)
        return parse_number(text)

    def _program_address(self, prefix: str, rest: str, text: str) -> int:
        pm = self.program
        try:
            if prefix == "module":
                seg, _, off = rest.partition(":")
                if not off:
                    raise DebuggerError(f"{text!r}: use module:SEG:OFF")
                return linear(pm.load_segment + parse_number(seg), parse_number(off))
            if prefix == "dgroup":
                if pm.dgroup is None:
                    raise DebuggerError(f"{pm.name} has no DGROUP that pcemu recognises")
                return linear(pm.dgroup, parse_number(rest))
            if prefix == "line":
                try:
                    number = int(rest)
                except ValueError:
                    raise DebuggerError(f"{text!r}: a BASIC line number is decimal") from None
                return pm.line_range(number)[0]
            return pm.routine(rest if prefix == "routine" else text)
        except MapError as exc:
            raise DebuggerError(str(exc)) from None

    def _on_exec(self, path: str, psp: int) -> None:
        """DOS loaded a program: map it, and place the breakpoints that named it."""
        data = read_dos_file(self.m, path)
        is_exe = data[:2] in (b"MZ", b"ZM")
        name = str(path).replace("/", "\\").split("\\")[-1]
        try:
            self.program = ProgramMap.from_exe(data, psp + 0x10 if is_exe else psp, name)
        except MapError:
            self.program = ProgramMap(name, psp + 0x10 if is_exe else psp)
        for bp in self.breakpoints.values():
            if bp.pending:
                try:
                    if bp.kind == "code":
                        self._place_code(bp, bp.target)
                    elif bp.kind == "write":
                        self._place_write(bp, bp.target)
                except DebuggerError as exc:
                    bp.pending = f"a program that has it ({exc})"

    # ------------------------------------------------------------------ hooks
    def _on_code(self, uc, address: int, size: int, _data) -> None:
        if address in self._skip_once:
            self._skip_once.discard(address)
            return
        hits = [b for b in self.breakpoints.values() if b.kind == "code" and b.address == address]
        if hits:
            self._code_stop(address, "breakpoint", hits[0])

    def _on_step(self, uc, address: int, size: int, _data) -> None:
        if self._skip_step_at is not None:
            skip, self._skip_step_at = self._skip_step_at == address, None
            if skip:
                return                              # the instruction the step started at
        hits = [b for b in self.breakpoints.values() if b.kind == "code" and b.address == address]
        self._step_left -= 1
        if hits or self._step_left <= 0:
            self._code_stop(address, "breakpoint" if hits else "step", hits[0] if hits else None)

    def _code_stop(self, address: int, reason: str, bp: Breakpoint | None) -> None:
        cpu = self.m.cpu
        self._in_code_stop = address
        try:
            self._stop(Stop(reason, cpu.cs, cpu.ip, self.m.clock.now, bp))
        finally:
            self._in_code_stop = None

    def _on_interrupt(self, intno: int) -> None:
        cpu = self.m.cpu
        for bp in self._of_kind("interrupt"):
            if bp.interrupt == intno and (bp.ah is None or bp.ah == cpu.ah) \
                    and (bp.al is None or bp.al == cpu.al):
                size = 2 if self.m.memory[linear(cpu.cs, cpu.ip - 2)] == 0xCD else 1
                self._stop(Stop("breakpoint", cpu.cs, (cpu.ip - size) & 0xFFFF, self.m.clock.now, bp,
                                f"INT {intno:02X}h AH={cpu.ah:02X}h AL={cpu.al:02X}h",
                                {"interrupt": intno}))
                return

    def _on_port(self, direction: str, port: int, value: int) -> None:
        for bp in self._of_kind("port"):
            if bp.port == port and bp.direction in (None, direction):
                cpu = self.m.cpu
                arrow = "->" if direction == "in" else "<-"
                self._stop(Stop("breakpoint", cpu.cs, cpu.ip, self.m.clock.now, bp,
                                f"{direction.upper()} {port:X}h {arrow} {value:02X}h",
                                {"port": port, "direction": direction, "value": value}))
                return

    def _on_write(self, uc, access, address: int, size: int, value: int, bp: Breakpoint) -> None:
        cpu = self.m.cpu
        old = self.m.memory.read(address, size)
        self._stop(Stop("breakpoint", cpu.cs, cpu.ip, self.m.clock.now, bp,
                        f"writes {value & ((1 << (8 * size)) - 1):0{2 * size}X}h to {address:05X}h "
                        f"({size} byte{'s' if size > 1 else ''}, was {old[::-1].hex().upper()}h)",
                        {"address": address, "size": size, "value": value}))

    # ------------------------------------------------------------------ stopping
    def _stop(self, stop: Stop) -> None:
        if stop.breakpoint is not None:
            stop.breakpoint.hits += 1
        self.stops += 1
        action = self.on_stop(stop)
        count = 1
        if isinstance(action, tuple):
            action, count = action
        if action == "quit":
            raise DebuggerQuit("quit in the debugger")
        if action == "step":
            self.step(count)
        else:
            self._stop_stepping()

    def step(self, count: int = 1) -> None:
        """Stop again after ``count`` more instructions (from a stop, or before running)."""
        if count < 1:
            raise DebuggerError("step at least one instruction")
        self._step_left = count
        if self._step_hook is None:
            self._remove_code_hooks()              # the step hook checks breakpoints itself
            self._step_hook = self.m.cpu.uc.hook_add(UC_HOOK_CODE, self._on_step)
            self._skip_step_at = self._in_code_stop

    def _stop_stepping(self) -> None:
        if self._step_hook is not None:
            self.m.cpu.uc.hook_del(self._step_hook)
            self._step_hook = None
            self._skip_step_at = None
            for bp in self._of_kind("code"):
                if bp.address is not None:
                    self._install_code_hook(bp.address)
        self._step_left = 0

    # ------------------------------------------------------------------ looking
    def registers(self) -> dict[str, int]:
        return self.m.cpu.registers()

    def read(self, where, size: int) -> bytes:
        return self.m.memory.read(self.resolve(where), size)

    def where(self, address: int) -> str:
        """What an address is: a routine, a BASIC line, a module offset."""
        if self.program is None:
            return ""
        return self.program.describe(address)

    def disassemble(self, where=None, count: int = 10) -> list[str]:
        """``count`` instructions from an address (default CS:IP), names and strings shown."""
        cpu = self.m.cpu
        if where is None:
            segment, offset = cpu.cs, cpu.ip
        else:
            address = self.resolve(where)
            segment, offset = self._segment_of(where, address)
        image = self.m.memory.read(0, 0x100000)
        if self.program is not None:
            data = None
            if self.program.dgroup is not None:
                data = self.m.memory.read(self.program.dgroup * 16, 0x10000)
            elif self.program.report is None:           # a .COM: code and data share a segment
                data = self.m.memory.read(self.program.load_segment * 16, 0x10000)
            dis = self.program.disassembler(image + image[:0x10000], data, absolute=True)
        else:
            from pcemu.tools.disasm import Disassembler
            dis = Disassembler(image + image[:0x10000])
        lines = dis.lines(segment, offset, min(offset + count * 8, 0x10000 + 16))
        return [str(line) for line in lines[:count]]

    def _segment_of(self, where, address: int) -> tuple[int, int]:
        """A segment:offset pair for showing ``address`` (the one given, else one that fits)."""
        if isinstance(where, tuple):
            return where
        if isinstance(where, str) and ":" in where:
            prefix, rest = where.split(":", 1)
            if prefix.lower() in SEGMENT_REGISTERS or _is_hex(prefix):
                return self._seg_off(prefix, rest)
        pm = self.program
        if pm is not None and pm.runtime_segment is not None \
                and pm.runtime_segment * 16 <= address < pm.runtime_segment * 16 + 0x10000:
            return pm.runtime_segment, address - pm.runtime_segment * 16
        if pm is not None and pm.load_segment * 16 <= address < pm.load_segment * 16 + 0x10000:
            return pm.load_segment, address - pm.load_segment * 16
        return address >> 4, address & 0x0F


def _is_hex(text: str) -> bool:
    return bool(re.fullmatch(_HEX + "h?", text.strip())) or text.strip().lower().startswith("0x")


def _format_where(where) -> str:
    if isinstance(where, tuple):
        return f"{where[0]:04X}:{where[1]:04X}"
    if isinstance(where, int):
        return f"{where:05X}h"
    return str(where)


def read_dos_file(m: "Machine", path: str) -> bytes:
    """A file's bytes as DOS sees them (for mapping the program EXEC just loaded)."""
    drive, parts = m.dos.resolve(str(path))
    fs = m.dos.drives[drive]
    entry = fs.stat(parts)
    handle = fs.open(parts)
    try:
        return handle.read(entry.size if entry is not None else 1 << 20)
    finally:
        close = getattr(handle, "close", None)
        if close:
            close()
