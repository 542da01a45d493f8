"""What the firmware keeps between calls outside guest memory, in one object of its own.

Most BIOS state lives where a real BIOS keeps it, in the BIOS data area (``bda.py``), so
programs see it.  What remains is the ROM's own bookkeeping: the end of an INT 15h AH=86h
wait, and the INT 33h mouse driver once loaded.  The machine holds one ``BiosState`` as
``machine.bios``; the services read and write it there, never attributes of the machine.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bios.mouse import MouseDriver


@dataclass
class BiosState:
    wait_deadline: int = 0                       # INT 15h AH=86h: the instruction it ends at
    mouse_driver: "MouseDriver | None" = None     # INT 33h, installed only with a mouse
