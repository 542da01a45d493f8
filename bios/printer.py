"""INT 17h, the printer BIOS, for LPT1 (printing into the machine's printer capture)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios.services import ServiceTable

if TYPE_CHECKING:
    from pcemu.machine import Machine

printer = ServiceTable(0x17, "printer")
NO_PRINTER = 0x30          # time-out and I/O error bits for a port that isn't there


def _status(m: "Machine") -> int:
    return m.printer.status & 0xF8 ^ 0x48   # BIOS status inverts ACK and error


@printer.function(0x00)
def print_char(m: "Machine") -> None:
    if m.cpu.dx != 0:
        m.cpu.ah = NO_PRINTER
        return
    m.printer.print_byte(m.cpu.al)
    m.cpu.ah = _status(m)


@printer.function(0x01, 0x02)
def status(m: "Machine") -> None:
    m.cpu.ah = _status(m) if m.cpu.dx == 0 else NO_PRINTER
