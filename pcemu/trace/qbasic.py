"""Watching a QuickBASIC 3.0 program run in the machine, without changing it.

The compiler put an ``INT 3`` before every statement (the runtime's event
trap for ON KEY) and gave the runtime a table of (code offset, BASIC line)
pairs.  pcemu already sees every software interrupt (the ``"interrupt"``
listener), so a statement boundary is an INT 3 from the program's code
segment, and the offset it came from names the BASIC line.  That gives
breakpoints at BASIC statements for free: the program runs exactly as it
would unwatched (the listener reads memory, it writes nothing).  Once the
program's segment is known, the CPU's native hook delivers the INT 3s of
statements without a breakpoint itself (``Cpu.statement_breakpoints``), so
only the watched statements cost a Python call.

``QuickBasicImage`` is what static analysis knows about the executable
(pcemu.tools: unpacking, runtime signatures, statement table);
``QuickBasicProcess`` attaches it to a running machine: it finds where DOS
loaded the program, calls back at chosen statements, reads variables,
arrays and strings in DGROUP, and offers a hook at the INT 21h AH=2Ch read
that feeds ``RANDOMIZE TIMER``.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Callable

from pcemu.errors import PcemuError
from pcemu.tools.exe import analyse

INT3, INT21 = 0x03, 0x21
GET_TIME = 0x2C
SIGNATURE_BYTES = 16          # the first bytes of the program's code, to recognise its segment


class ProgramNotRecognised(PcemuError):
    """The executable is not the QuickBASIC 3.0 program the tracer expects."""


@dataclass(frozen=True)
class QuickBasicImage:
    """Static facts about one QuickBASIC 3.0 executable."""

    code: bytes                       # the unpacked load module
    dgroup: int                       # DGROUP segment, relative to the load segment
    line_offsets: dict[int, int]      # statement offset (main module) -> BASIC line
    randomize_timer_return: int | None   # return offset of the TIMER call feeding RANDOMIZE

    @classmethod
    def from_exe(cls, data: bytes) -> "QuickBasicImage":
        report = analyse(data)
        layout = report.layout
        runtime = report.runtime
        if layout is None or runtime is None or runtime.segment is None or not layout.lines:
            raise ProgramNotRecognised("not a QuickBASIC 3.0 program with a statement table")
        code = bytes(report.program.image)
        return cls(code, layout.dgroup, dict(layout.lines), _randomize_timer_return(code, runtime))

    def first_offset(self, line: int) -> int:
        """The offset of BASIC line ``line``'s first statement."""
        offsets = [off for off, number in self.line_offsets.items() if number == line]
        if not offsets:
            raise ProgramNotRecognised(f"the program has no BASIC line {line}")
        return min(offsets)


def _far_call(segment: int, offset: int) -> bytes:
    return b"\x9a" + struct.pack("<HH", offset, segment)


def _randomize_timer_return(code: bytes, runtime) -> int | None:
    """Where ``RANDOMIZE TIMER`` calls TIMER: a far call to TIMER followed, after
    passing the FAC (``mov bx, offset FAC``), by a far call to RANDOMIZE."""
    if "TIMER" not in runtime.routines or "RANDOMIZE" not in runtime.routines:
        return None
    timer = _far_call(*runtime.seg_off("TIMER"))
    randomize = _far_call(*runtime.seg_off("RANDOMIZE"))
    at = code.find(timer)
    while at >= 0:
        after = at + len(timer)
        if code[after] == 0xBB and code[after + 3:after + 3 + len(randomize)] == randomize:
            return after
        at = code.find(timer, at + 1)
    return None


class QuickBasicProcess:
    """A QuickBASIC program running in ``machine``, watched at its statements."""

    def __init__(self, machine, image: QuickBasicImage) -> None:
        self.machine = machine
        self.memory = machine.memory
        self.image = image
        self.load_segment: int | None = None
        self._signature = image.code[:SIGNATURE_BYTES]
        self._breakpoints: dict[int, list[Callable[[], None]]] = {}
        self._time_read: Callable[[], None] | None = None
        self._statements = 0
        self._passed_before = machine.cpu.int3_passed
        machine.watch_interrupts(self._on_interrupt, (INT3,))

    def detach(self) -> None:
        self.machine.unwatch_interrupts(self._on_interrupt)
        self.machine.cpu.statement_breakpoints(None)

    @property
    def statements(self) -> int:
        """Statements the program has started since it was attached (its INT 3s)."""
        return self._statements + self.machine.cpu.int3_passed - self._passed_before

    def _sync_breakpoints(self) -> None:
        """Only the statements with a breakpoint need a Python call (pcemu/native)."""
        if self.load_segment is not None:
            self.machine.cpu.statement_breakpoints(self.load_segment, self._breakpoints)

    # -- hooks ----------------------------------------------------------------------
    def at_line(self, line: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` each time line ``line``'s first statement is about to run."""
        self.at_offset(self.image.first_offset(line), callback)

    def at_offset(self, offset: int, callback: Callable[[], None]) -> None:
        self._breakpoints.setdefault(offset, []).append(callback)
        self._sync_breakpoints()

    def before_randomize_timer(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` just before DOS answers the time read of ``RANDOMIZE TIMER``
        (INT 21h AH=2Ch inside TIMER, called from the statement that feeds RANDOMIZE)."""
        if self.image.randomize_timer_return is None:
            raise ProgramNotRecognised("the program has no RANDOMIZE TIMER")
        self._time_read = callback
        self.machine.watch_interrupts(self._on_interrupt, (INT3, INT21))

    def _on_interrupt(self, intno: int) -> None:
        cpu = self.machine.cpu
        if intno == INT3:
            cs = cpu.cs
            if cs != self.load_segment:
                if self.load_segment is not None or not self._recognise(cs):
                    return
            self._statements += 1
            callbacks = self._breakpoints.get(cpu.ip - 1)
            if callbacks:
                for callback in callbacks:
                    callback()
        elif intno == INT21 and self._time_read is not None and cpu.ah == GET_TIME:
            self._maybe_randomize_timer(cpu)

    def _recognise(self, cs: int) -> bool:
        if self.memory.read(cs * 16, SIGNATURE_BYTES) != self._signature:
            return False
        self.load_segment = cs
        self._sync_breakpoints()
        return True

    def _maybe_randomize_timer(self, cpu) -> None:
        if self.load_segment is None:
            return
        # TIMER pushed AX, BX, CX, DX; above them is its far return address
        ss, sp = cpu.ss, cpu.sp
        ret_ip = self.memory.rw(ss, sp + 8)
        ret_cs = self.memory.rw(ss, sp + 10)
        if ret_cs == self.load_segment and ret_ip == self.image.randomize_timer_return:
            callback, self._time_read = self._time_read, None
            self.machine.watch_interrupts(self._on_interrupt, (INT3,))   # DOS calls: C again
            callback()

    # -- reading the program's data ------------------------------------------------------
    @property
    def dgroup(self) -> int:
        if self.load_segment is None:
            raise ProgramNotRecognised("the program is not running yet")
        return self.load_segment + self.image.dgroup

    def word(self, offset: int, segment: int | None = None) -> int:
        return self.memory.rw(self.dgroup if segment is None else segment, offset)

    def integer(self, offset: int, segment: int | None = None) -> int:
        """A BASIC integer (signed 16 bits)."""
        value = self.word(offset, segment)
        return value - 0x10000 if value & 0x8000 else value

    def bytes_at(self, offset: int, size: int) -> bytes:
        return self.memory.read_far(self.dgroup, offset, size)

    def string(self, descriptor: int) -> str:
        """A string variable: its descriptor is (length, offset in DGROUP)."""
        length, where = self.word(descriptor), self.word(descriptor + 2)
        return self.memory.read_far(self.dgroup, where, length).decode("cp437")

    def array(self, descriptor: int, size: int) -> list[int]:
        """Elements 0..size of a dynamic one-dimensional integer array."""
        segment = self.word(descriptor)
        return [self.integer(2 * i, segment) for i in range(size + 1)]

    def array2(self, descriptor: int, first: int, second: int) -> list[list[int]]:
        """A(i, j) for i in 0..first, j in 0..second of ``DIM A(first, second)``
        (column major: A(i, j) is element j * (first + 1) + i)."""
        segment = self.word(descriptor)
        data = self.memory.read_far(segment, 0, 2 * (first + 1) * (second + 1))
        values = struct.unpack(f"<{(first + 1) * (second + 1)}h", data)
        return [[values[j * (first + 1) + i] for j in range(second + 1)] for i in range(first + 1)]
