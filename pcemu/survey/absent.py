"""Calls to a driver the machine does not have: INT 67h, the expanded-memory manager
(EMS), while its vector is still empty (0000:0000, as the BIOS leaves it) or leads to
the ROM's bare IRET.

pcemu's DOS installs no EMS manager; DOSBox provides one (LIM 4.0), and a program
that calls INT 67h without looking for it first runs the vector table as code here.
The call is a service the program asked for and pcemu lacks, so the survey lists it
with those the BIOS and DOS tables report (``Machine.unimplemented_log``).  (INT 33h
is not listed: the survey's machine has no mouse, and programs probe for a mouse
driver with INT 33h AX=0 and go on without one.)  Only this vector is watched:
watching a vector makes the C hooks hand its interrupts to Python, which computes
the same, but watching all of them would slow every INT 3 of compiled BASIC.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.machine import Machine

DRIVERS = {0x67: "no EMS driver (LIM expanded memory) is installed"}


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
