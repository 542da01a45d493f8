"""The time-of-day services: INT 08h (the 18.2 Hz tick) and INT 1Ah (clock).

The tick count at 0040:006Ch is kept by INT 08h as on the AT: incremented on
every IRQ 0 that reaches the BIOS, rolled over at 1800B0h with the midnight
flag at 0040:0070h set.  The RTC functions read the CMOS clock, which follows
the machine's virtual time of day.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda
from bios.services import ServiceTable
from pcemu.clock import TICKS_PER_DAY
from pcemu.devices.cmos import bcd

if TYPE_CHECKING:
    from bios.context import ServiceContext

time_of_day = ServiceTable(0x1A, "time of day")


def timer_tick(ctx: "ServiceContext") -> None:
    """The body of INT 08h, between its pushes and its INT 1Ch."""
    mem = ctx.memory
    ticks = mem.read_dword(bda.BDA + bda.TIMER_COUNT) + 1
    if ticks >= TICKS_PER_DAY:
        ticks = 0
        mem[bda.BDA + bda.TIMER_OVERFLOW] = 1
        ctx.time.dos_clock.midnight()
    mem.write_dword(bda.BDA + bda.TIMER_COUNT, ticks)
    motor = mem[bda.BDA + bda.DISK_MOTOR_COUNT]
    if motor:
        mem[bda.BDA + bda.DISK_MOTOR_COUNT] = motor - 1
        if motor == 1:
            mem[bda.BDA + bda.DISK_MOTOR] &= 0xF0
    ctx.events.tick.emit()


@time_of_day.function(0x00)
def read_ticks(ctx: "ServiceContext") -> None:
    mem = ctx.memory
    ticks = mem.read_dword(bda.BDA + bda.TIMER_COUNT)
    cpu = ctx.cpu
    cpu.cx, cpu.dx = ticks >> 16, ticks & 0xFFFF
    cpu.al = mem[bda.BDA + bda.TIMER_OVERFLOW]
    if cpu.al:
        mem[bda.BDA + bda.TIMER_OVERFLOW] = 0    # the midnight flag is read once
    else:
        ctx.call.pure_answer()
    ctx.call.idle_poll(True)


@time_of_day.function(0x01)
def set_ticks(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    ctx.memory.write_dword(bda.BDA + bda.TIMER_COUNT, (cpu.cx << 16) | cpu.dx)
    ctx.memory[bda.BDA + bda.TIMER_OVERFLOW] = 0


@time_of_day.function(0x02)
def read_rtc_time(ctx: "ServiceContext") -> None:
    t = ctx.time.rtc_now()
    cpu = ctx.cpu
    cpu.ch, cpu.cl, cpu.dh, cpu.dl = bcd(t.hour), bcd(t.minute), bcd(t.second), 0
    ctx.call.set_return_flag(0x01, False)
    ctx.call.idle_poll(True)


@time_of_day.function(0x04)
def read_rtc_date(ctx: "ServiceContext") -> None:
    t = ctx.time.rtc_now()
    cpu = ctx.cpu
    cpu.ch, cpu.cl, cpu.dh, cpu.dl = bcd(t.year // 100), bcd(t.year % 100), bcd(t.month), bcd(t.day)
    ctx.call.set_return_flag(0x01, False)


def _from_bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


@time_of_day.function(0x03)
def set_rtc_time(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    ctx.time.set_rtc_time(_from_bcd(cpu.ch), _from_bcd(cpu.cl), _from_bcd(cpu.dh))
    ctx.call.set_return_flag(0x01, False)


@time_of_day.function(0x05)
def set_rtc_date(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    year = _from_bcd(cpu.ch) * 100 + _from_bcd(cpu.cl)
    ctx.time.set_rtc_date(year, _from_bcd(cpu.dh), _from_bcd(cpu.dl))
    ctx.call.set_return_flag(0x01, False)


@time_of_day.function(0x06, 0x07)
def alarm(ctx: "ServiceContext") -> None:
    ctx.call.set_return_flag(0x01, True)      # no alarm interrupt is wired (IRQ 8 unused)
