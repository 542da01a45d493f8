"""Intel 8042 keyboard controller: ports 60h (data) and 64h (status/command).

Keys arrive as the keyboard sends them, set-1 make and break scancodes, one
byte at a time in the output buffer with IRQ 1.  The next byte is offered only
after the program has read the previous one from port 60h and a short gap of
virtual time has passed, as with a real keyboard's serial line.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

STATUS_OUTPUT_FULL = 0x01
STATUS_SYSTEM = 0x04
STATUS_UNLOCKED = 0x10


class KeyboardController:
    ports = (0x60, 0x64)

    def __init__(self, raise_irq1: Callable[[], None],
                 schedule: Callable[[int, Callable[[], None]], None],
                 gap_instructions: int) -> None:
        self._raise_irq1 = raise_irq1
        self._schedule = schedule
        self.gap = gap_instructions
        self.pending: deque[int] = deque()
        self.output = 0
        self.output_full = False
        self._command_byte = 0x45         # IRQ 1 enabled, system flag, translate
        self._awaiting: int | None = None  # a controller command waiting for its data byte
        self.a20_enabled = False
        self.keyboard_enabled = True
        self._offer_scheduled = False
        self.bytes_read = 0                # how many bytes the program took from port 60h
        self.on_output_port: Callable[[int], None] | None = None

    # -- the keyboard side -------------------------------------------------------
    def send_scancodes(self, codes: list[int]) -> None:
        self.pending.extend(codes)
        self._offer_soon(0)

    def idle(self) -> bool:
        """True when every key sent has been read by the program."""
        return not self.pending and not self.output_full

    def _offer_soon(self, delay: int) -> None:
        if not self._offer_scheduled and self.pending:
            self._offer_scheduled = True
            self._schedule(delay, self._offer)

    def _offer(self) -> None:
        self._offer_scheduled = False
        if self.output_full or not self.pending or not self.keyboard_enabled:
            return
        self._put(self.pending.popleft())

    def _put(self, byte: int) -> None:
        self.output = byte
        self.output_full = True
        if self._command_byte & 0x01:
            self._raise_irq1()

    # -- ports --------------------------------------------------------------------
    def read(self, port: int) -> int:
        if port == 0x60:
            value = self.output
            was_full = self.output_full
            self.output_full = False
            if was_full:
                self.bytes_read += 1
                self._offer_soon(self.gap)      # may put the next byte in at once
            return value
        status = STATUS_SYSTEM | STATUS_UNLOCKED
        if self.output_full:
            status |= STATUS_OUTPUT_FULL
        return status

    def write(self, port: int, value: int) -> None:
        if port == 0x64:
            self._controller_command(value)
            return
        if self._awaiting is not None:
            command, self._awaiting = self._awaiting, None
            if command == 0x60:
                self._command_byte = value
            elif command == 0xD1:
                self.a20_enabled = bool(value & 0x02)
                if self.on_output_port:
                    self.on_output_port(value)
            return
        self._keyboard_command(value)

    def _controller_command(self, value: int) -> None:
        if value in (0x60, 0xD1):
            self._awaiting = value
        elif value == 0x20:
            self._put(self._command_byte)
        elif value == 0xAA:
            self._put(0x55)                 # self-test passed
        elif value == 0xAB:
            self._put(0x00)                 # interface test passed
        elif value == 0xAD:
            self.keyboard_enabled = False
        elif value == 0xAE:
            self.keyboard_enabled = True
            self._offer_soon(0)
        elif value == 0xD0:
            self._put(0x01 | (0x02 if self.a20_enabled else 0))
        # FEh (pulse reset) and the rest are accepted and ignored

    def _keyboard_command(self, value: int) -> None:
        """Bytes to the keyboard itself: it acknowledges each with FAh."""
        if value == 0xFF:
            self.pending.appendleft(0xAA)     # reset: ACK, then self-test passed
            self.pending.appendleft(0xFA)
        elif value == 0xEE:
            self.pending.appendleft(0xEE)
        else:
            self.pending.appendleft(0xFA)
        self._offer_soon(0)
