"""INT 17h, the printer BIOS, for LPT1 (printing into the machine's printer capture)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios.services import ServiceTable

if TYPE_CHECKING:
    from bios.context import ServiceContext

printer = ServiceTable(0x17, "printer")
NO_PRINTER = 0x30          # time-out and I/O error bits for a port that isn't there


def _status(ctx: "ServiceContext") -> int:
    return ctx.devices.printer.status & 0xF8 ^ 0x48   # BIOS status inverts ACK and error


@printer.function(0x00)
def print_char(ctx: "ServiceContext") -> None:
    if ctx.cpu.dx != 0:
        ctx.cpu.ah = NO_PRINTER
        return
    ctx.devices.printer.print_byte(ctx.cpu.al)
    ctx.cpu.ah = _status(ctx)


@printer.function(0x01, 0x02)
def status(ctx: "ServiceContext") -> None:
    ctx.cpu.ah = _status(ctx) if ctx.cpu.dx == 0 else NO_PRINTER
