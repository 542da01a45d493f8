"""Python services that call a guest interrupt and go on when it returns.

DOS's console functions reach the screen and the keyboard through the
interrupt vectors, as on a real PC: output through INT 29h (whose ROM handler
calls INT 10h AH=0Eh), input through INT 16h.  A program or TSR that hooks
those vectors sees DOS's own console traffic.

A service that needs that is written as a generator: it yields
``GuestInterrupt(vector, ax=...)`` (or ``GuestWrite``: a run of bytes in guest
memory, each through INT 29h by a ROM loop) and gets back the registers the
guest code returned.  The machine then saves every register (the service's
results so far, and CS:IP just after its trap), loads the call's registers and
jumps to the ROM's trampoline for that vector, ``INT n`` followed by the trap
``guest_return``.  The guest code runs as any other code does, instruction by
instruction on the virtual clock (interrupts, hooks, waits with HLT), so the
whole is exact and deterministic.  At ``guest_return`` the machine restores the
saved registers (the INT n left the stack as it found it) and resumes the
generator with the returned ones; when the generator ends, the CPU goes on
after the service's trap as after any service, or wherever the service jumped.

Suspended services form a stack: a hook that itself calls DOS nests.  A guest
call that never comes back (a hook that ends the program) leaves its entry
behind; the next ``guest_return`` finds its own entry by the stack pointer, the
one the trampoline's INT found, and drops the abandoned ones above it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import GeneratorType
from typing import TYPE_CHECKING, Generator, Union

if TYPE_CHECKING:
    from pcemu.machine import Machine

from bios.rom import GUEST_VECTORS, ServiceKind   # a ROM trampoline for each: "guest_intNN"

GUEST_RETURN = "guest_return"        # the trap after each trampoline's INT n
# Services suspended at once.  Honest nesting (DOS -> a hook -> DOS ...) stays shallow;
# a hook that never returns (it drops its frame and jumps on) leaves its entry behind on
# every call, so past this the oldest, surely abandoned, are dropped: a guest program
# must not grow the host's memory without bound.
MAX_SUSPENDED = 64


@dataclass(frozen=True)
class GuestInterrupt:
    """INT ``vector`` from guest code with these registers (the others as they are)."""
    vector: int
    registers: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.vector not in GUEST_VECTORS:
            raise ValueError(f"no ROM trampoline for INT {self.vector:02X}h")

    @property
    def label(self) -> str:
        return f"guest_int{self.vector:02x}"


@dataclass(frozen=True)
class GuestWrite:
    """CX bytes from DS:SI, each through INT 29h, by the ROM's loop ``guest_write``
    (one Python call for a run of characters instead of one each)."""
    registers: dict[str, int]
    label = "guest_write"


def interrupt(vector: int, **registers: int) -> GuestInterrupt:
    return GuestInterrupt(vector, registers)


def write(segment: int, offset: int, count: int) -> GuestWrite:
    return GuestWrite({"ds": segment, "si": offset, "cx": count})


GuestCall = Union[GuestInterrupt, GuestWrite]
# what a service generator is: it yields calls and is sent their returned registers
ServiceCalls = Generator[GuestCall, dict, None]


def is_suspendable(result: object) -> bool:
    return isinstance(result, GeneratorType)


@dataclass
class Suspended:
    calls: ServiceCalls
    registers: dict[str, int]        # as the service left them when it made the call
    name: str                        # the service's trap name and kind, for listeners and flags
    kind: ServiceKind


class GuestCalls:
    """The machine's suspended services and the trampolines they run."""

    def __init__(self, machine: "Machine") -> None:
        self.m = machine
        self.suspended: list[Suspended] = []

    def drive(self, calls: ServiceCalls, sent: dict | None, name: str, kind) -> bool:
        """Run ``calls`` to its next guest call (True: suspended) or its end (False)."""
        try:
            call = calls.send(sent)
        except StopIteration:
            return False
        m = self.m
        cpu = m.cpu
        if len(self.suspended) >= MAX_SUSPENDED:
            self.suspended.pop(0).calls.close()
        self.suspended.append(Suspended(calls, cpu.save_registers(), name, kind))
        cpu.set_registers(**call.registers)
        cpu.jump(*m.rom.address(call.label))
        return True

    def returned(self) -> Suspended | None:
        """At ``guest_return``: the suspended service this return belongs to, with the
        registers restored as it left them; None if no service waits for it."""
        cpu = self.m.cpu
        ss, sp = cpu.ss, cpu.sp
        while self.suspended:
            entry = self.suspended.pop()
            if entry.registers["ss"] == ss and entry.registers["sp"] == sp:
                return entry
            entry.calls.close()              # abandoned: its guest call never came back
        return None

    def restore(self, entry: Suspended) -> dict[str, int]:
        """The registers the guest interrupt returned; the service's own put back."""
        cpu = self.m.cpu
        returned = cpu.save_registers()
        cpu.load_registers(entry.registers)
        return returned
