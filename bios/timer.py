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
    from pcemu.machine import Machine

time_of_day = ServiceTable(0x1A, "time of day")


def timer_tick(m: "Machine") -> None:
    """The body of INT 08h, between its pushes and its INT 1Ch."""
    mem = m.memory
    ticks = mem.read_dword(bda.BDA + bda.TIMER_COUNT) + 1
    if ticks >= TICKS_PER_DAY:
        ticks = 0
        mem[bda.BDA + bda.TIMER_OVERFLOW] = 1
        m.dos_clock.midnight()
    mem.write_dword(bda.BDA + bda.TIMER_COUNT, ticks)
    motor = mem[bda.BDA + bda.DISK_MOTOR_COUNT]
    if motor:
        mem[bda.BDA + bda.DISK_MOTOR_COUNT] = motor - 1
        if motor == 1:
            mem[bda.BDA + bda.DISK_MOTOR] &= 0xF0
    m.bios_tick()


@time_of_day.function(0x00)
def read_ticks(m: "Machine") -> None:
    mem = m.memory
    ticks = mem.read_dword(bda.BDA + bda.TIMER_COUNT)
    cpu = m.cpu
    cpu.cx, cpu.dx = ticks >> 16, ticks & 0xFFFF
    cpu.al = mem[bda.BDA + bda.TIMER_OVERFLOW]
    if cpu.al:
        mem[bda.BDA + bda.TIMER_OVERFLOW] = 0    # the midnight flag is read once
    else:
        m.pure_answer()
    m.idle_poll(True)


@time_of_day.function(0x01)
def set_ticks(m: "Machine") -> None:
    cpu = m.cpu
    m.memory.write_dword(bda.BDA + bda.TIMER_COUNT, (cpu.cx << 16) | cpu.dx)
    m.memory[bda.BDA + bda.TIMER_OVERFLOW] = 0


@time_of_day.function(0x02)
def read_rtc_time(m: "Machine") -> None:
    t = m.rtc_datetime()
    cpu = m.cpu
    cpu.ch, cpu.cl, cpu.dh, cpu.dl = bcd(t.hour), bcd(t.minute), bcd(t.second), 0
    m.set_return_flag(0x01, False)
    m.idle_poll(True)


@time_of_day.function(0x04)
def read_rtc_date(m: "Machine") -> None:
    t = m.rtc_datetime()
    cpu = m.cpu
    cpu.ch, cpu.cl, cpu.dh, cpu.dl = bcd(t.year // 100), bcd(t.year % 100), bcd(t.month), bcd(t.day)
    m.set_return_flag(0x01, False)


def _from_bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


@time_of_day.function(0x03)
def set_rtc_time(m: "Machine") -> None:
    cpu = m.cpu
    m.set_rtc_time(_from_bcd(cpu.ch), _from_bcd(cpu.cl), _from_bcd(cpu.dh))
    m.set_return_flag(0x01, False)


@time_of_day.function(0x05)
def set_rtc_date(m: "Machine") -> None:
    cpu = m.cpu
    year = _from_bcd(cpu.ch) * 100 + _from_bcd(cpu.cl)
    m.set_rtc_date(year, _from_bcd(cpu.dh), _from_bcd(cpu.dl))
    m.set_return_flag(0x01, False)


@time_of_day.function(0x06, 0x07)
def alarm(m: "Machine") -> None:
    m.set_return_flag(0x01, True)      # no alarm interrupt is wired (IRQ 8 unused)
