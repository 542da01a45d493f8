"""Equipment and memory (INT 11h, 12h), AT system services (INT 15h), serial (INT 14h).

There are no serial ports on this machine: INT 14h answers every port with a
time-out, as the BIOS does for a port address of 0.
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
    m.bios_wait_deadline = m.clock.now + m.clock.instructions_for_seconds(micro / 1_000_000)
    m.scheduler.at(m.bios_wait_deadline, lambda: None)      # a halt ends exactly then
    m.register_service("int15_wait", _wait_until_deadline)
    m.set_return_flag(0x01, False)
    m.cpu.jump(*m.rom.address("int15_wait"))


def _wait_until_deadline(m: "Machine") -> None:
    if m.clock.now < m.bios_wait_deadline:
        m.wait_for_input()                  # halt until the next interrupt, then look again


@system.function(0x90, 0x91)
def device_busy_or_done(m: "Machine") -> None:
    m.cpu.ah = 0
    m.set_return_flag(0x01, False)
