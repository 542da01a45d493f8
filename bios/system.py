"""Equipment and memory (INT 11h, 12h), AT system services (INT 15h), serial (INT 14h).

INT 14h drives the 8250s POST found (pcemu.devices.uart: COM1 and COM2, nothing on
their lines).  Sending and receiving wait for DSR (and CTS), which no cable ever
raises, so they end in the time-out (AH bit 7) as the BIOS's do; a port whose
address in the BIOS data area is 0 answers with the time-out too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda
from bios.services import ServiceTable

if TYPE_CHECKING:
    from pcemu.machine import Machine

system = ServiceTable(0x15, "system services", on_unknown=lambda m: _unsupported(m))
serial = ServiceTable(0x14, "serial", on_unknown=lambda m: _serial_timeout(m))


def equipment(m: "Machine") -> None:
    m.cpu.ax = m.memory.read_word(bda.BDA + bda.EQUIPMENT)


def memory_size(m: "Machine") -> None:
    m.cpu.ax = m.memory.read_word(bda.BDA + bda.MEMORY_KB)


def _unsupported(m: "Machine") -> None:
    m.cpu.ah = 0x86
    m.set_return_flag(0x01, True)


def _serial_timeout(m: "Machine") -> None:
    m.cpu.ah = 0x80
    m.cpu.al = 0


def _serial_base(m: "Machine") -> int:
    return m.memory.read_word(bda.BDA + bda.COM_PORTS + 2 * m.cpu.dx) if m.cpu.dx < 4 else 0


def _serial_status(m: "Machine", base: int) -> tuple[int, int]:
    return m.bus.read(base + 5), m.bus.read(base + 6)       # line status, modem status


@serial.function(0x00)
def serial_init(m: "Machine") -> None:
    """AL: baud (bits 7-5, 110 to 9600), parity (4-3), stop bits (2), word length (1-0)."""
    base = _serial_base(m)
    if not base:
        return _serial_timeout(m)
    params = m.cpu.al
    divisor = (0x417, 0x300, 0x180, 0xC0, 0x60, 0x30, 0x18, 0x0C)[params >> 5]
    m.bus.write(base + 3, 1, 0x80)                           # DLAB
    m.bus.write(base, 1, divisor & 0xFF)
    m.bus.write(base + 1, 1, divisor >> 8)
    m.bus.write(base + 3, 1, params & 0x1F)
    m.bus.write(base + 1, 1, 0)                              # no interrupts
    m.cpu.ah, m.cpu.al = _serial_status(m, base)


@serial.function(0x01, 0x02)
def serial_transfer(m: "Machine") -> None:
    """Send (01h) raises DTR and RTS and waits for DSR and CTS; receive (02h) raises DTR
    and waits for DSR: with no cable they never come, so the call times out."""
    base = _serial_base(m)
    if not base:
        return _serial_timeout(m)
    sending = m.cpu.ah == 0x01
    m.bus.write(base + 4, 1, 0x03 if sending else 0x01)
    line, modem = _serial_status(m, base)
    wanted = 0x30 if sending else 0x20
    if modem & wanted == wanted and (not sending or line & 0x20):
        if sending:
            m.bus.write(base, 1, m.cpu.al)
        elif line & 0x01:
            m.cpu.al = m.bus.read(base)
        m.cpu.ah = m.bus.read(base + 5) & (0x1E if not sending else 0xFF)
        return
    m.cpu.ah = line | 0x80


@serial.function(0x03)
def serial_status(m: "Machine") -> None:
    base = _serial_base(m)
    if not base:
        return _serial_timeout(m)
    m.cpu.ah, m.cpu.al = _serial_status(m, base)


@system.function(0x4F)
def keyboard_intercept(m: "Machine") -> None:
    m.set_return_flag(0x01, True)       # process the scancode normally


@system.function(0x88)
def extended_memory(m: "Machine") -> None:
    m.cpu.ax = 0                        # 640 KB machine: no memory above 1 MB
    m.set_return_flag(0x01, False)


@system.function(0xC0)
def configuration(m: "Machine") -> None:
    seg, off = m.rom.address("configuration_table")
    m.cpu.es, m.cpu.bx = seg, off
    m.cpu.ah = 0
    m.set_return_flag(0x01, False)


@system.function(0x86)
def wait_microseconds(m: "Machine") -> None:
    """Wait CX:DX microseconds of virtual time, interrupts enabled, as the AT BIOS does:
    the timer keeps ticking and keys keep arriving while the program waits."""
    micro = (m.cpu.cx << 16) | m.cpu.dx
    m.bios.wait_deadline = m.clock.now + m.clock.instructions_for_seconds(micro / 1_000_000)
    m.scheduler.at(m.bios.wait_deadline, lambda: None)      # a halt ends exactly then
    m.register_service("int15_wait", _wait_until_deadline)
    m.set_return_flag(0x01, False)
    m.cpu.jump(*m.rom.address("int15_wait"))


def _wait_until_deadline(m: "Machine") -> None:
    if m.clock.now < m.bios.wait_deadline:
        m.wait_for_input()                  # halt until the next interrupt, then look again


@system.function(0x90, 0x91)
def device_busy_or_done(m: "Machine") -> None:
    m.cpu.ah = 0
    m.set_return_flag(0x01, False)
