"""An 8250 UART (COM1 at 3F8h on IRQ 4, COM2 at 2F8h on IRQ 3) with nothing on its line.

No modem or cable is attached: nothing is ever received, the modem-status lines
(CTS, DSR, RI, DCD) are all low, and a byte written to the transmitter leaves at
once (the holding and shift registers read empty again).  Everything a program
can find out about the chip itself behaves as on the hardware: the divisor latch
behind DLAB, the scratch register, the loopback mode (MCR bit 4 feeds DTR, RTS,
OUT1 and OUT2 back as DSR, CTS, RI and DCD, and transmitted bytes come back as
received ones), and the transmitter-empty interrupt on the IRQ line when enabled
and OUT2 lets it through.  Programs detect ports this way and then run.
"""
from __future__ import annotations

from typing import Callable

LSR_DATA_READY, LSR_THR_EMPTY, LSR_IDLE = 0x01, 0x20, 0x40
IER_RECEIVED, IER_THR_EMPTY = 0x01, 0x02
MCR_LOOPBACK, MCR_OUT2 = 0x10, 0x08
IIR_NONE, IIR_THR_EMPTY, IIR_RECEIVED = 0x01, 0x02, 0x04


class Uart8250:
    def __init__(self, base: int, raise_irq: Callable[[], None]) -> None:
        self.base = base
        self.ports = tuple(range(base, base + 8))
        self._raise_irq = raise_irq
        self.divisor = 0x0C                    # 9600 baud, until a program sets it
        self.ier = self.lcr = self.mcr = self.scratch = 0
        self.received: int | None = None       # a byte looped back, waiting to be read
        self.thr_empty_pending = False
        self.msr_delta = 0

    @property
    def _dlab(self) -> bool:
        return bool(self.lcr & 0x80)

    def _modem_lines(self) -> int:
        """MSR bits 4-7 (CTS, DSR, RI, DCD): low with no line; MCR's outputs in loopback."""
        if not self.mcr & MCR_LOOPBACK:
            return 0
        m = self.mcr
        return ((m & 0x02) << 3) | ((m & 0x01) << 5) | ((m & 0x04) << 4) | ((m & 0x08) << 4)

    def _interrupt(self) -> int:
        if self.ier & IER_RECEIVED and self.received is not None:
            return IIR_RECEIVED
        if self.ier & IER_THR_EMPTY and self.thr_empty_pending:
            return IIR_THR_EMPTY
        return IIR_NONE

    def _update_irq(self) -> None:
        if self._interrupt() != IIR_NONE and self.mcr & MCR_OUT2 and not self.mcr & MCR_LOOPBACK:
            self._raise_irq()

    def read(self, port: int) -> int:
        register = port - self.base
        if register == 0:
            if self._dlab:
                return self.divisor & 0xFF
            value, self.received = (self.received or 0), None
            return value
        if register == 1:
            return self.divisor >> 8 if self._dlab else self.ier
        if register == 2:
            cause = self._interrupt()
            if cause == IIR_THR_EMPTY:
                self.thr_empty_pending = False          # reading IIR acknowledges it
            return cause
        if register == 3:
            return self.lcr
        if register == 4:
            return self.mcr
        if register == 5:
            return LSR_THR_EMPTY | LSR_IDLE | (LSR_DATA_READY if self.received is not None else 0)
        if register == 6:
            lines = self._modem_lines()
            value, self.msr_delta = lines | self.msr_delta, 0
            return value
        return self.scratch

    def write(self, port: int, value: int) -> None:
        register = port - self.base
        value &= 0xFF
        if register == 0:
            if self._dlab:
                self.divisor = (self.divisor & 0xFF00) | value
                return
            if self.mcr & MCR_LOOPBACK:
                self.received = value
            self.thr_empty_pending = True                 # the byte leaves at once
            self._update_irq()
        elif register == 1:
            if self._dlab:
                self.divisor = (self.divisor & 0x00FF) | (value << 8)
                return
            if value & IER_THR_EMPTY and not self.ier & IER_THR_EMPTY:
                self.thr_empty_pending = True             # enabling it with THR empty interrupts
            self.ier = value & 0x0F
            self._update_irq()
        elif register == 3:
            self.lcr = value
        elif register == 4:
            before = self._modem_lines()
            self.mcr = value & 0x1F
            after = self._modem_lines()
            # delta CTS, delta DSR, trailing edge of RI, delta DCD
            changed = before ^ after
            self.msr_delta |= ((changed >> 4) & 0x0B) | (0x04 if before & 0x40 and not after & 0x40 else 0)
            self._update_irq()
        elif register == 7:
            self.scratch = value
