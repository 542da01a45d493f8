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
    from bios.context import ServiceContext

system = ServiceTable(0x15, "system services", on_unknown=lambda ctx: _unsupported(ctx))
serial = ServiceTable(0x14, "serial", on_unknown=lambda ctx: _serial_timeout(ctx))


def equipment(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = ctx.memory.read_word(bda.BDA + bda.EQUIPMENT)


def memory_size(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = ctx.memory.read_word(bda.BDA + bda.MEMORY_KB)


def _unsupported(ctx: "ServiceContext") -> None:
    ctx.cpu.ah = 0x86
    ctx.call.set_return_flag(0x01, True)


def _serial_timeout(ctx: "ServiceContext") -> None:
    ctx.cpu.ah = 0x80
    ctx.cpu.al = 0


def _serial_base(ctx: "ServiceContext") -> int:
    return ctx.memory.read_word(bda.BDA + bda.COM_PORTS + 2 * ctx.cpu.dx) if ctx.cpu.dx < 4 else 0


def _serial_status(ctx: "ServiceContext", base: int) -> tuple[int, int]:
    return ctx.devices.bus.read(base + 5), ctx.devices.bus.read(base + 6)       # line status, modem status


@serial.function(0x00)
def serial_init(ctx: "ServiceContext") -> None:
    """AL: baud (bits 7-5, 110 to 9600), parity (4-3), stop bits (2), word length (1-0)."""
    base = _serial_base(ctx)
    if not base:
        return _serial_timeout(ctx)
    params = ctx.cpu.al
    divisor = (0x417, 0x300, 0x180, 0xC0, 0x60, 0x30, 0x18, 0x0C)[params >> 5]
    ctx.devices.bus.write(base + 3, 1, 0x80)                           # DLAB
    ctx.devices.bus.write(base, 1, divisor & 0xFF)
    ctx.devices.bus.write(base + 1, 1, divisor >> 8)
    ctx.devices.bus.write(base + 3, 1, params & 0x1F)
    ctx.devices.bus.write(base + 1, 1, 0)                              # no interrupts
    ctx.cpu.ah, ctx.cpu.al = _serial_status(ctx, base)


@serial.function(0x01, 0x02)
def serial_transfer(ctx: "ServiceContext") -> None:
    """Send (01h) raises DTR and RTS and waits for DSR and CTS; receive (02h) raises DTR
    and waits for DSR: with no cable they never come, so the call times out."""
    base = _serial_base(ctx)
    if not base:
        return _serial_timeout(ctx)
    sending = ctx.cpu.ah == 0x01
    ctx.devices.bus.write(base + 4, 1, 0x03 if sending else 0x01)
    line, modem = _serial_status(ctx, base)
    wanted = 0x30 if sending else 0x20
    if modem & wanted == wanted and (not sending or line & 0x20):
        if sending:
            ctx.devices.bus.write(base, 1, ctx.cpu.al)
        elif line & 0x01:
            ctx.cpu.al = ctx.devices.bus.read(base)
        ctx.cpu.ah = ctx.devices.bus.read(base + 5) & (0x1E if not sending else 0xFF)
        return
    ctx.cpu.ah = line | 0x80


@serial.function(0x03)
def serial_status(ctx: "ServiceContext") -> None:
    base = _serial_base(ctx)
    if not base:
        return _serial_timeout(ctx)
    ctx.cpu.ah, ctx.cpu.al = _serial_status(ctx, base)


@system.function(0x4F)
def keyboard_intercept(ctx: "ServiceContext") -> None:
    ctx.call.set_return_flag(0x01, True)       # process the scancode normally


@system.function(0x88)
def extended_memory(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = 0                        # 640 KB machine: no memory above 1 MB
    ctx.call.set_return_flag(0x01, False)


GAME_PORT = 0x201


@system.function(0x84)
def joystick(ctx: "ServiceContext") -> None:
    """The game port, as the AT BIOS's JOY_STICK reads it (the model byte is FCh, so programs
    such as the QuickBASIC runtime's ON STRIG ask it at every tick).  DX=0: the four buttons,
    AX = port 201h AND F0h (a 1 is not pressed) and DX = 201h, which the ROM loads; DX=1: the
    four resistive inputs in AX, BX, CX, DX, measured by the ROM's own count loops
    (``Rom.joystick_axes``), which the program waits out.  CF clear; another DX is an
    unknown function."""
    if ctx.cpu.dx not in (0, 1):
        return _unsupported(ctx)
    ctx.call.set_return_flag(0x01, False)
    if ctx.cpu.dx == 0:
        ctx.cpu.ax = ctx.devices.bus.read(GAME_PORT) & 0xF0
        ctx.cpu.dx = GAME_PORT
    else:
        ctx.cpu.jump(*ctx.vectors.rom.address("int15.joystick"))


@system.function(0xC0)
def configuration(ctx: "ServiceContext") -> None:
    seg, off = ctx.vectors.rom.address("configuration_table")
    ctx.cpu.es, ctx.cpu.bx = seg, off
    ctx.cpu.ah = 0
    ctx.call.set_return_flag(0x01, False)


@system.function(0x86)
def wait_microseconds(ctx: "ServiceContext") -> None:
    """Wait CX:DX microseconds of virtual time, interrupts enabled, as the AT BIOS does:
    the timer keeps ticking and keys keep arriving while the program waits (in the
    ROM's loop ``int15_wait``, whose trap is ``wait_until_deadline``)."""
    micro = (ctx.cpu.cx << 16) | ctx.cpu.dx
    ctx.bios.wait_deadline = ctx.time.clock.now + ctx.time.clock.instructions_for_seconds(micro / 1_000_000)
    ctx.time.scheduler.at(ctx.bios.wait_deadline, lambda: None)      # a halt ends exactly then
    ctx.call.set_return_flag(0x01, False)
    ctx.cpu.jump(*ctx.vectors.rom.address("int15_wait"))


def wait_until_deadline(ctx: "ServiceContext") -> None:
    if ctx.time.clock.now < ctx.bios.wait_deadline:
        ctx.call.wait_for_input()                  # halt until the next interrupt, then look again


@system.function(0x90, 0x91)
def device_busy_or_done(ctx: "ServiceContext") -> None:
    ctx.cpu.ah = 0
    ctx.call.set_return_flag(0x01, False)
