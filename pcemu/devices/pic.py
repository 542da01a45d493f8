"""Intel 8259A programmable interrupt controllers, master and slave as on the AT.

Edge-triggered, fully nested: an IRQ raised sets its IRR bit; the CPU takes the
highest-priority request that is unmasked (IMR) and not blocked by a request
in service (ISR); the handler ends it with an EOI on port 20h (A0h for the slave).
"""
from __future__ import annotations

import ctypes


class _InCell:
    """A register kept in a ctypes int (the attribute ``cell``), which pcemu/native shares."""

    def __init__(self, cell: str) -> None:
        self.cell = cell

    def __get__(self, pic, owner=None):
        return self if pic is None else getattr(pic, self.cell).value

    def __set__(self, pic, value: int) -> None:
        getattr(pic, self.cell).value = value


class Pic8259:
    isr = _InCell("isr_cell")               # in-service register
    imr = _InCell("imr_cell")               # interrupt mask register
    _init_step = _InCell("init_cell")

    def __init__(self, base_port: int, vector_base: int) -> None:
        self.base_port = base_port
        self.vector_base = vector_base
        self.irr = 0
        # In C ints: the native fast path ends interrupts (EOI on port 20h) and
        # reads and sets the mask (port 21h, outside initialisation) itself.
        self.isr_cell = ctypes.c_int(0)
        self.imr_cell = ctypes.c_int(0xFF)
        self.init_cell = ctypes.c_int(0)     # 0: running; 2..4: which ICW comes next
        self.read_isr = False
        self.auto_eoi = False
        self._needs_icw4 = False
        self._single = False

    @property
    def initialising(self) -> bool:
        """Between ICW1 and the last initialisation word."""
        return self._init_step != 0

    @property
    def ports(self) -> tuple[int, int]:
        return (self.base_port, self.base_port + 1)

    # -- lines ---------------------------------------------------------------
    def raise_irq(self, line: int) -> None:
        self.irr |= 1 << line

    def highest_pending(self) -> int | None:
        """The line the PIC would present to the CPU now, if any."""
        requests = self.irr & ~self.imr
        if not requests:
            return None
        in_service = self.isr
        for line in range(8):
            bit = 1 << line
            if in_service & bit:
                return None          # a higher or equal priority one is in service
            if requests & bit:
                return line
        return None

    def acknowledge(self, line: int) -> int:
        bit = 1 << line
        self.irr &= ~bit
        if not self.auto_eoi:
            self.isr |= bit
        return self.vector_base + line

    def end_of_interrupt(self, line: int | None = None) -> None:
        if line is None:
            for i in range(8):
                if self.isr & (1 << i):
                    self.isr &= ~(1 << i)
                    return
        else:
            self.isr &= ~(1 << line)

    # -- ports ---------------------------------------------------------------
    def read(self, port: int) -> int:
        if port == self.base_port:
            return self.isr if self.read_isr else self.irr
        return self.imr

    def write(self, port: int, value: int) -> None:
        if port == self.base_port:
            if value & 0x10:                          # ICW1
                self._needs_icw4 = bool(value & 0x01)
                self._single = bool(value & 0x02)
                self.imr = 0
                self.isr = 0
                self.irr = 0
                self.read_isr = False
                self._init_step = 2
            elif value & 0x08:                        # OCW3
                if value & 0x02:
                    self.read_isr = bool(value & 0x01)
            else:                                     # OCW2
                command = value >> 5
                if command == 1:                      # non-specific EOI
                    self.end_of_interrupt()
                elif command == 3:                    # specific EOI
                    self.end_of_interrupt(value & 7)
            return
        # data port: initialisation words, then the mask
        if self._init_step == 2:
            self.vector_base = value & 0xF8
            if not self._single:
                self._init_step = 3
            else:
                self._init_step = 4 if self._needs_icw4 else 0
        elif self._init_step == 3:
            self._init_step = 4 if self._needs_icw4 else 0
        elif self._init_step == 4:
            self.auto_eoi = bool(value & 0x02)
            self._init_step = 0
        else:
            self.imr = value


class InterruptControllers:
    """The AT's pair: IRQ 0-7 on the master, 8-15 on the slave cascaded on IRQ 2."""

    CASCADE_LINE = 2

    def __init__(self) -> None:
        self.master = Pic8259(0x20, 0x08)
        self.slave = Pic8259(0xA0, 0x70)

    @property
    def devices(self) -> tuple[Pic8259, Pic8259]:
        return (self.master, self.slave)

    def raise_irq(self, irq: int) -> None:
        if irq < 8:
            self.master.raise_irq(irq)
        else:
            self.slave.raise_irq(irq - 8)
            self.master.raise_irq(self.CASCADE_LINE)

    def pending(self) -> bool:
        return self.master.highest_pending() is not None

    def withheld(self) -> bool:
        """A request waits behind one in service: the CPU may take it after that one's EOI."""
        master = self.master
        return bool(master.irr & ~master.imr) and master.highest_pending() is None

    def acknowledge(self) -> int | None:
        """The vector of the interrupt the CPU takes now, or None."""
        line = self.master.highest_pending()
        if line is None:
            return None
        if line == self.CASCADE_LINE:
            slave_line = self.slave.highest_pending()
            self.master.acknowledge(line)
            if slave_line is None:            # spurious: the slave's request went away
                return self.slave.vector_base + 7
            if self.slave.irr & ~self.slave.imr & ~(1 << slave_line):
                self.master.raise_irq(self.CASCADE_LINE)
            return self.slave.acknowledge(slave_line)
        return self.master.acknowledge(line)
