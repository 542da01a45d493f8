"""What a BIOS or DOS service may touch: the service context, not the machine.

Every handler (a ROM trap's service, a function of a service table, DOS's
kernel and shell) receives one ``ServiceContext``.  It names, in a few groups,
exactly what firmware on a real PC reaches: the CPU's registers, memory, the
chips and cards on the bus, the ROM and the vector table, the clocks, the call
in progress (its return flags, waits and bookkeeping), the machine's events,
the BIOS's own state and, once DOS has booted, DOS's kernel.  It holds no
reference to the machine: what a service can do is what this file lists.

The machine (``pcemu.machine``) builds the context once and passes it to each
service; its parts are the machine's own objects and bound methods, so the
context costs nothing per call.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import datetime as _dt

    from bios.rom import Installer, Rom
    from bios.state import BiosState
    from pcemu.clock import Clock, Scheduler
    from pcemu.cpu import Cpu
    from pcemu.events import MachineEvents
    from pcemu.memory import Memory
    from pcemu.timeofday import DosClock


@dataclass(frozen=True, slots=True)
class CallControl:
    """The service call in progress: how results return, waits, and what it counts."""
    set_return_flag: Callable[[int, bool], None]    # a flag in the FLAGS the INT pushed
    return_live_flag: Callable[[int, bool], None]   # a flag in the CPU's FLAGS (live traps)
    wait_for_input: Callable[[], None]              # nothing yet: halt until an IRQ, retry
    pure_answer: Callable[[], None]                 # answered from state a loop cannot change
    impure: Callable[[], None]
    idle_poll: Callable[[bool], None]               # asked for a key or the time (idle: none)
    idle_neutral: Callable[[], None]
    keyboard_polled: Callable[[], None]
    count_service: Callable[[str], None]
    unimplemented: Callable[[int, str], None]       # a function this PC does not have
    note_unloadable: Callable[[dict], None]         # a program the shell could not load
    halt: Callable[[str], None]                     # stop the machine with a reason
    reboot_requested: Callable[[], None]
    caller: Callable[[], tuple]                     # CS:IP after the caller's INT
    is_strict: Callable[[], bool]                   # unimplemented services stop the run


@dataclass(frozen=True, slots=True)
class Devices:
    """The chips and cards on the bus (pcemu.devices), and the diskette drives."""
    bus: Any
    pic: Any
    pit: Any
    kbc: Any
    speaker: Any
    video_card: Any
    cmos: Any
    printer: Any
    serial_ports: list
    mouse: Any                                      # None without a mouse
    floppies: dict                                  # drive number -> its diskette image
    diskette_drives: int                            # 1 (A:) or 2 (A: and B:): INT 11h, INT 13h, DOS


@dataclass(frozen=True, slots=True)
class Vectors:
    """The interrupt vector table and the ROM's entry points."""
    rom: "Rom"
    set: Callable[[int, int, int], None]            # (vector, segment, offset)
    get: Callable[[int], tuple[int, int]]           # vector -> (segment, offset)
    point_installed_by: Callable[["Installer"], None]   # an installer's entries (POST, DOS)
    point_entry: Callable[[str], None]              # one entry, by its ROM label
    register_service: Callable[[str, Callable], None]   # the Python service behind a trap


@dataclass(frozen=True, slots=True)
class Time:
    """The instruction clock and the clocks of the day built on it."""
    clock: "Clock"
    scheduler: "Scheduler"
    dos_clock: "DosClock"
    now: Callable[[], "_dt.datetime"]                # DOS's date and time (BIOS ticks)
    rtc_now: Callable[[], "_dt.datetime"]            # the CMOS clock
    set_time_of_day: Callable[[int, int, int, int], None]
    set_date: Callable[[int, int, int], None]
    set_rtc_time: Callable[[int, int, int], None]
    set_rtc_date: Callable[[int, int, int], None]


@dataclass(slots=True)
class ServiceContext:
    cpu: "Cpu"                  # registers and flags
    memory: "Memory"
    call: CallControl
    devices: Devices
    vectors: Vectors
    time: Time
    events: "MachineEvents"
    bios: "BiosState"
    options: dict               # what the machine was built with: ems_kilobytes, mouse
    dos: Any = None             # DOS's kernel (pcemu.dos.Dos), once DOS has booted
