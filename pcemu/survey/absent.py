"""Calls to drivers the machine does not have: INT 67h (EMS) and INT 33h (the mouse driver,
unless the machine has a mouse) while their vector is still empty (0000:0000, as the
BIOS leaves INT 67h) or leads to the ROM's bare IRET.

pcemu's DOS installs no expanded-memory manager and, without ``mouse=True``, no mouse
driver, so these calls return with nothing done; DOSBox provides both.  They are
services the program asked for and pcemu lacks, so the survey lists them with the
services the BIOS and DOS tables report (``Machine.unimplemented_log``).  Only these
vectors are watched: watching a vector makes the C hooks hand its interrupts to
Python, which computes the same, but watching all of them would slow every INT 3 of
a compiled BASIC program.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from pcemu.machine import Machine

DRIVERS = {0x67: "no EMS driver (LIM expanded memory) is installed",
           0x33: "no mouse driver is installed"}


def watch_absent_drivers(m: "Machine") -> list[str]:
    """Start listening; the list returned fills with one line per distinct call."""
    found: list[str] = []
    bare = m.rom.address("dummy_iret")

    def heard(intno: int) -> None:
        vector = m.get_vector(intno) if intno in DRIVERS else None
        if vector not in (bare, (0, 0)):
            return
        where = "is 0000:0000" if vector == (0, 0) else "leads to the ROM's IRET"
        line = f"INT {intno:02X}h AH={m.cpu.ah:02X}h, but {DRIVERS[intno]} (the vector {where})"
        if line not in found:
            found.append(line)

    m.watch_interrupts(heard, DRIVERS)
    return found
