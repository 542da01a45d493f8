"""The CPU faults DOS 3.30 and the AT BIOS answer, and the reset vector (issue 18).

* INT 0, divide error: DOS 3.30 installs a handler at boot that prints
  "Divide overflow" and ends the program as Ctrl-C does (termination type 1,
  return code 0).  Without it the 286 would return to the DIV, which faults
  again for ever (the BIOS's vector 0 is a plain IRET).
* INT 6, invalid opcode: neither DOS 3.30 nor the AT BIOS does anything but
  IRET, so a real AT hangs on the instruction (the 286 pushes its own address);
  pcemu does the same, which costs nothing (the idle-loop skip sees the state
  repeat), and ``--strict`` stops there with the instruction and its address.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bios.context import ServiceContext

DIVIDE_OVERFLOW = b"\r\nDivide overflow\r\n"


def install(ctx: "ServiceContext") -> None:
    ctx.vectors.register_service("post", restart)
    ctx.vectors.register_service("int00_divide", divide_overflow)
    ctx.vectors.point_entry("int00_divide")
    if ctx.call.is_strict():
        ctx.vectors.register_service("int06_strict", invalid_opcode_strict)
        ctx.vectors.point_entry("int06_strict")


def restart(ctx: "ServiceContext") -> None:
    """The program jumped to the reset vector (JMP FFFF:0000, or to F000:E05B): a real AT
    runs its power-on self test and boots again."""
    ctx.call.halt("the program restarted the machine (it jumped to the reset vector, FFFF:0000, "
           "where an AT runs its power-on self test and boots again)")


def divide_overflow(ctx: "ServiceContext") -> None:
    from pcemu.dos.process import terminate
    ctx.dos.shell.console.write(DIVIDE_OVERFLOW)
    terminate(ctx, 0, 1)


def invalid_opcode_strict(ctx: "ServiceContext") -> None:
    cpu, mem = ctx.cpu, ctx.memory
    ip, cs = mem.rw(cpu.ss, cpu.sp), mem.rw(cpu.ss, cpu.sp + 2)   # the faulting instruction
    code = " ".join(f"{b:02X}" for b in mem.read_far(cs, ip, 4))
    ctx.call.halt(f"invalid opcode at {cs:04X}:{ip:04X} ({code} ...): a real AT hangs here, its "
           "INT 6 returning to the same instruction (--strict stops)")
