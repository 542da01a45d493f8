"""The mouse: a three-button pointing device on IRQ 12, as a PS/2-style port has it.

The host (a front end, a test) moves it and presses its buttons through this
class; every change is queued as a packet and IRQ 12 is raised, and the mouse
driver's interrupt handler (``bios/mouse.py``) takes the packets between two
instructions, as it would read them from the port.  Nothing here reads the host
clock or the host mouse: packets arrive only when the host calls, between CPU
slices, so a run with the same calls is the same run.

Positions given to `move` are absolute, in the driver's virtual screen
(0-639 x 0-199 in every CGA and MDA mode), the way an emulator with mouse
integration feeds a tablet-like device; `move_by` moves by raw mickeys.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

IRQ = 12
LEFT, RIGHT, MIDDLE = 0, 1, 2


class Mouse:
    ports = ()                         # the driver is high-level: no port traffic

    def __init__(self, raise_irq: Callable[[], None]) -> None:
        self._raise_irq = raise_irq
        self.packets: deque[tuple] = deque()
        self.buttons = 0               # bit 0 left, bit 1 right, bit 2 middle

    # -- what the host does ---------------------------------------------------------------
    def move(self, x: int, y: int) -> None:
        """Put the pointer at (x, y) of the driver's virtual screen."""
        self._send(("to", int(x), int(y)))

    def move_by(self, dx: int, dy: int) -> None:
        """Move by raw mickeys (the units the mouse itself counts)."""
        self._send(("by", int(dx), int(dy)))

    def button(self, number: int, down: bool) -> None:
        """Press (down=True) or release button 0 (left), 1 (right) or 2 (middle)."""
        if number not in (LEFT, RIGHT, MIDDLE):
            raise ValueError(f"mouse button {number!r}: use 0 (left), 1 (right) or 2 (middle)")
        bit = 1 << number
        state = (self.buttons | bit) if down else (self.buttons & ~bit)
        if state != self.buttons:
            self.buttons = state
            self._send(("buttons", state))

    def click(self, number: int = LEFT) -> None:
        self.button(number, True)
        self.button(number, False)

    # -- what the driver does -------------------------------------------------------------
    def take(self) -> list[tuple]:
        """All packets that arrived since the last interrupt, oldest first."""
        packets = list(self.packets)
        self.packets.clear()
        return packets

    def _send(self, packet: tuple) -> None:
        self.packets.append(packet)
        self._raise_irq()
