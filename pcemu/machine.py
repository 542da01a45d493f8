"""The machine: an IBM 5170-class AT with 640 KB, wired together and run in slices.

``Machine`` owns the CPU, memory, ROM, the devices on the I/O bus, the virtual
clock, the BIOS services and the DOS kernel.  It runs the CPU in slices that end
exactly when the next device event is due (a timer interrupt, a key arriving),
delivers hardware interrupts between slices through the PIC and the IVT, and
skips straight to the next event when the CPU halts waiting for one.
"""
from __future__ import annotations

import collections
import datetime as _dt
import hashlib
import logging
from pathlib import Path
from typing import Callable, Iterable

from bios import bda, rom as romlib
from bios import disk as bios_disk, keyboard as bios_keyboard, printer as bios_printer
from bios import system as bios_system, timer as bios_timer, video as bios_video
from bios.context import CallControl, Devices, ServiceContext, Time, Vectors
from bios.font import install_rom_font
from bios.state import BiosState
from pcemu.bus import IoBus
from pcemu.clock import DEFAULT_MIPS, PIT_HZ, Clock, Scheduler
from pcemu.cpu import FLAG_CF, FLAG_IF, STOP_HALT, Cpu
from pcemu.devices.cga import CgaCard
from pcemu.devices.cmos import CmosRtc
from pcemu.devices.gameport import GamePort
from pcemu.devices.kbc import KeyboardController
from pcemu.devices.mda import MdaCard
from pcemu.devices.mouse import IRQ as MOUSE_IRQ, Mouse
from pcemu.devices.pic import InterruptControllers
from pcemu.devices.pit import Pit8253
from pcemu.devices.printer import Printer
from pcemu.devices.speaker import Speaker
from pcemu.devices.uart import Uart8250
from pcemu.dos import Dos, boot as dos_boot
from pcemu.shell import Shell
from pcemu.timeofday import DosClock
from pcemu.errors import MachineError, ScriptTimeout, UnimplementedService
from pcemu.guest import GUEST_RETURN, GuestCalls, is_suspendable
from pcemu import keys as keylib
from pcemu.events import (InputEvent, KeyCodes, MachineEvents, MouseButton, MouseMove,
                           MouseMoveBy)
from pcemu.memory import Memory, linear
from pcemu.storage.mount import diskette_drives, mount_disks
from pcemu.native import sync
from pcemu.native.sync import ALL_VECTORS
from pcemu.native.layout import PURE_PER_PASS
from pcemu import screen as screenlib

log = logging.getLogger("pcemu")

WAIT, LIVE = romlib.ServiceKind.WAIT, romlib.ServiceKind.LIVE
MAX_SLICE = 20_000                 # instructions; bounds the latency of host requests
UNIMPLEMENTED_LOG_LIMIT = 1000     # records of missing services kept (counts are kept for all)
KEY_GAP_SECONDS = 0.002            # between scancodes on the keyboard's serial line
IDLE_POLLS = 4                     # polls in a row that mean "only waiting" (inexact skip only)
# Listener channels that see services: while any listens, no call counts as pure (each
# call must reach them, so the C hooks may not skip passes that make one).
SERVICE_OBSERVERS = ("service", "dos", "time_read")
PURE_LOG = PURE_PER_PASS           # pure calls remembered: as many as a skipped pass may make
# The polling services C answers (fastcpu.c, service_calls, in its order): what each
# call counts in Machine.service_counts (None: nothing) and whether it polls the keyboard.
NATIVE_SERVICES = (("INT 16h key available", None, True), ("INT 1Ah ticks", None, False),
                   ("INT 21h AH=2Ch", "INT 21h AH=2Ch", False),
                   ("INT 21h AH=2Ah", "INT 21h AH=2Ah", False),
                   ("INT 10h AH=01h, the same shape", None, False))
KEY_HOLD_SECONDS = 0.03            # a key is held this long before its break code
PIC_PORTS = frozenset((0x20, 0x21, 0xA0, 0xA1))


class Machine:
    """A deterministic DOS PC.  See the README for the API; boots to the DOS prompt."""

    def __init__(self, disks: Iterable[str | Path] | str | Path | None = None, *,
                 date: str | _dt.date | None = None, time: str | _dt.time | None = None,
                 mips: float = DEFAULT_MIPS, video: str = "cga", mouse: bool = False,
                 strict: bool = False, printer_capture: str | Path | None = None,
                 host_dirs: dict[str, str | Path] | None = None, boot: bool = True,
                 inexact_idle_skip: bool = False, accelerate: bool = True,
                 ems: int | bool = False, floppy_drives: int | None = None,
                 one_drive_b: bool = False) -> None:
        self.strict = strict
        # LIM 4.0 expanded memory (pcemu.dos.ems): off, True for 4 MB, or the size in KB
        self.ems_kilobytes = (4096 if ems is True else int(ems or 0))
        # Opt-in and INEXACT: after IDLE_POLLS fruitless polls in a row, jump virtual time to
        # the next device event.  A program that counts its polls computes something else
        # than on an AT; never on for traces, sweeps, replays or tests of faithfulness.
        self.inexact_idle_skip = inexact_idle_skip
        # Accelerations compute exactly what the plain path computes, only faster:
        # C hooks for software interrupts and the CGA status port (pcemu/native).
        self.accelerate = accelerate
        self._native_watched: frozenset[int] | None = None
        self._interrupt_vectors: dict[Callable, frozenset[int]] = {}
        self._status_native = False
        self._service_serial = 0
        self._last_poll_serial = -2
        self._idle_streak = 0
        self._idle_stop = False              # the slice ended because the program only waits
        self._resume_at: int | None = None   # CS:IP where the last slice ended
        self._sti_shadow = False             # a slice ended right after an STI, IRQ waiting
        self._time_bound_steps = False       # step()'s caller tests only the time after it
        self._now_cache: tuple | None = None
        # Pure calls (see pure_answer): this call's verdict, the counters it moved, and
        # the last PURE_LOG pure calls' counters, for passes the C hooks skip.
        self._call_pure: bool | None = None
        self._call_counted: list[str] = []
        self._pure_log: collections.deque = collections.deque(maxlen=PURE_LOG)
        self.memory = Memory()
        self.clock = Clock(mips)
        self.scheduler = Scheduler(self.clock)
        self.bus = IoBus()
        self.unimplemented_log: list[dict] = []     # the first UNIMPLEMENTED_LOG_LIMIT calls
        self.unimplemented_calls: dict[tuple[int, int], int] = {}   # (INT, AH) -> calls
        self._service_counts: dict[str, int] = {}        # counted in Python (C counts its own)
        self.events = MachineEvents()
        self._start = _parse_datetime(date, time)
        self.dos_clock = DosClock(self._start)
        self._rtc_offset = _dt.timedelta(0)
        self._poll_count = 0
        self._stopped: str | None = None
        self._build_devices(video, printer_capture)
        self._guest = GuestCalls(self)
        self.cpu = Cpu(self.memory, self._on_interrupt, self._port_in, self._port_out,
                       accelerator=sync.install_native if accelerate else None,
                       counter=sync.install_counter)
        self.scheduler.on_schedule = self._event_scheduled
        if self.cpu.fast is not None:
            sync.wire(self, self.cpu.fast, MAX_SLICE)
        self.mouse_enabled = mouse
        self.mouse = Mouse(lambda: self.pic.raise_irq(MOUSE_IRQ)) if mouse else None
        self.floppies: dict[int, object] = {}       # drive number -> diskette image
        mounted = mount_disks(disks, host_dirs or {})
        # INT 11h, the BDA, INT 13h and DOS's drive letters all follow this count
        self.floppy_drives = diskette_drives(mounted, floppy_drives, one_drive_b)
        # DOS 3.30's second name for the one drive (pcemu.dos.single_drive); off by
        # default, as DOSBox, which has no B: then, is the reference for screens
        self.one_drive_b = one_drive_b
        self._build_firmware()
        self.dos = self.services.dos = Dos(self.services)
        for letter, drive in mounted.items():
            self.dos.mount(letter, drive)
        if boot:
            self.boot()

    def boot(self, wait_text: str | None = "the DOS prompt") -> None:
        """Start DOS and its command interpreter, and run to the prompt (a machine made
        with ``boot=False`` can mount more drives first)."""
        dos_boot.boot(self.dos)
        self.dos.shell = Shell(self.services)        # COMMAND.COM's part, above DOS
        self.dos.shell.start()
        self.run_until(condition=lambda m: m.dos.shell.at_prompt, max_ticks=18.2, text=wait_text)

    # ------------------------------------------------------------------ wiring
    def _build_devices(self, video: str, printer_capture) -> None:
        clock = self.clock
        self.pic = InterruptControllers()
        self.pit = Pit8253(self._pit_now, self._reschedule_timer, self._channel2_changed,
                           self._at_pit_clock)
        self.kbc = KeyboardController(lambda: self.pic.raise_irq(1), self._schedule_after,
                                      clock.instructions_for_seconds(KEY_GAP_SECONDS))
        self.speaker = Speaker(self.pit, self._pit_now, lambda: self._instr_now() / clock.ips)
        self.video_profile = video
        if video == "cga":
            self.video_card = CgaCard(self._instr_now, clock.ips)
        elif video in ("mda", "hercules"):
            self.video_card = MdaCard(self._instr_now, clock.ips, hercules=video == "hercules")
        else:
            raise MachineError(f"unknown video card {video!r}: choose cga, mda or hercules")
        self.cmos = CmosRtc(self.rtc_datetime)
        self.printer = Printer(Path(printer_capture) if printer_capture else None)
        self.serial_ports = [Uart8250(0x3F8, lambda: self._device_irq(4)),
                             Uart8250(0x2F8, lambda: self._device_irq(3))]
        for device in (*self.pic.devices, self.pit, self.kbc, self.speaker, self.video_card,
                       self.cmos, GamePort(), self.printer, *self.serial_ports):
            self.bus.attach(device)
        self._timer_event: int | None = None
        self._timer_due: int | None = None     # when _timer_event falls due

    def _build_firmware(self) -> None:
        self.bios = BiosState()                 # the firmware's own bookkeeping (bios/state.py)
        self.rom = romlib.Rom().build()
        self.services = self._service_context()
        self.memory.write(romlib.ROM_BASE, bytes(self.rom.image))
        install_rom_font(self.memory)
        self.traps: dict[int, str] = dict(self.rom.traps)
        self._services = self._service_table()
        trap = {name: at for at, name in self.traps.items()}
        self._video_trap, self._keyboard_trap = trap["int10"], trap["int16"]
        self._timeofday_trap, self._dos_trap = trap["int1a"], trap["int21"]
        self._time_cache_for: tuple | None = None
        self._native_crtc = None
        self._install_vectors()
        ticks = self.dos_clock.start_ticks
        bda.initialise(self.memory, mono=self.video_profile != "cga", floppies=self.floppy_drives,
                       ticks=ticks)
        bios_video.blank_text_buffer(self.memory, mono=self.video_profile != "cga")   # POST's mode set
        self.pic.master.imr = 0xB8          # IRQ 0, 1, 2 (cascade) and 6 enabled
        self.pic.slave.imr = 0xFF
        self._reschedule_timer()
        # Start where POST hands over: the shell's loop will be set up by DOS.
        self.cpu.set_registers(ss=0x0030, sp=0x0100, flags=0x0202)
        self.cpu.jump(romlib.ROM_SEGMENT, self.rom.labels["dummy_iret"])

    def _service_context(self) -> ServiceContext:
        """What services may touch (bios/context.py): parts of this machine, never itself."""
        return ServiceContext(
            cpu=self.cpu, memory=self.memory, events=self.events, bios=self.bios,
            call=CallControl(
                set_return_flag=self.set_return_flag, return_live_flag=self.return_live_flag,
                wait_for_input=self.wait_for_input, pure_answer=self.pure_answer,
                impure=self.impure, idle_poll=self.idle_poll, idle_neutral=self.idle_neutral,
                keyboard_polled=self.keyboard_polled, count_service=self.count_service,
                unimplemented=self.unimplemented, note_unloadable=self._note_unloadable,
                halt=self.halt, reboot_requested=self.reboot_requested, caller=self.caller,
                is_strict=lambda: self.strict),
            devices=Devices(
                bus=self.bus, pic=self.pic, pit=self.pit, kbc=self.kbc, speaker=self.speaker,
                video_card=self.video_card, cmos=self.cmos, printer=self.printer,
                serial_ports=self.serial_ports, mouse=self.mouse, floppies=self.floppies,
                diskette_drives=self.floppy_drives),
            vectors=Vectors(
                rom=self.rom, set=self.set_vector, get=self.get_vector,
                point_installed_by=self.point_vectors, point_entry=self.point_vector,
                register_service=self.register_service),
            time=Time(
                clock=self.clock, scheduler=self.scheduler, dos_clock=self.dos_clock,
                now=self.now_datetime, rtc_now=self.rtc_datetime,
                set_time_of_day=self.set_time_of_day, set_date=self.set_date,
                set_rtc_time=self.set_rtc_time, set_rtc_date=self.set_rtc_date),
            options={"ems_kilobytes": self.ems_kilobytes, "mouse": self.mouse_enabled,
                     "one_drive_b": self.one_drive_b})

    def _service_table(self) -> dict[str, tuple[Callable, romlib.ServiceKind]]:
        """Trap name -> (handler, how results return: from the ROM's ENTRIES)."""
        handlers = {
            "timer_tick": bios_timer.timer_tick,
            "keyboard_scancode": bios_keyboard.handle_scancode,
            "int10": bios_video.video.dispatch,
            "int11": bios_system.equipment,
            "int12": bios_system.memory_size,
            "int13": bios_disk.diskette.dispatch,
            "int14": bios_system.serial.dispatch,
            "int15": bios_system.system.dispatch,
            "int15_wait": bios_system.wait_until_deadline,
            "int16": bios_keyboard.keyboard.dispatch,
            "int17": bios_printer.printer.dispatch,
            "int1a": bios_timer.time_of_day.dispatch,
            "int05": lambda ctx: ctx.call.count_service("print screen"),
            "int1b": lambda ctx: None,          # the BIOS's own Ctrl-Break handler: IRET (DOS hooks it)
            "int18": lambda ctx: ctx.call.halt("INT 18h: no ROM BASIC in this machine"),
            "int19": lambda ctx: ctx.call.reboot_requested(),
        }
        return {name: (handler, romlib.TRAP_KINDS[name]) for name, handler in handlers.items()}

    def _install_vectors(self) -> None:
        mem = self.memory
        seg = romlib.ROM_SEGMENT
        dummy = self.rom.labels["dummy_iret"]
        for vector in range(256):
            mem.write_word(vector * 4, dummy)
            mem.write_word(vector * 4 + 2, seg)
        for irq in range(8):
            self.set_vector(0x08 + irq, seg, self.rom.labels["irq_master"])
            self.set_vector(0x70 + irq, seg, self.rom.labels["irq_slave"])
        self.point_vectors(romlib.Installer.POST)
        self.set_vector(0x1D, seg, self.rom.labels["video_parameters"])
        self.set_vector(0x1E, seg, self.rom.labels["diskette_parameters"])
        self.set_vector(0x1F, 0, 0)          # no extended graphics font until a program sets one
        for vector in range(0x60, 0x68):     # user vectors start out empty
            self.set_vector(vector, 0, 0)

    def set_vector(self, vector: int, seg: int, off: int) -> None:
        self.memory.write_word(vector * 4, off)
        self.memory.write_word(vector * 4 + 2, seg)

    def get_vector(self, vector: int) -> tuple[int, int]:
        return self.memory.read_word(vector * 4 + 2), self.memory.read_word(vector * 4)

    def point_vectors(self, installer: romlib.Installer) -> None:
        """Point the vectors of the ROM entries ``installer`` installs at them."""
        for vector, label in romlib.vectors_installed_by(installer).items():
            self.set_vector(vector, *self.rom.address(label))

    def point_vector(self, label: str) -> None:
        """Point one entry's vector at it (a driver or option being installed)."""
        entry = next(e for e in romlib.ENTRIES if e.label == label)
        self.set_vector(entry.vector, *self.rom.address(label))

    def register_service(self, name: str, handler: Callable) -> None:
        """The Python service behind trap ``name`` (declared in bios/rom.py's ENTRIES)."""
        kind = romlib.TRAP_KINDS.get(name)
        if kind is None:
            raise MachineError(f"no ROM trap called {name!r}")
        self._services[name] = (handler, kind)

    def rom_bytes(self, offset: int, size: int) -> bytes:
        return self.memory.read(romlib.ROM_BASE + offset, size)

    # ------------------------------------------------------------------ time
    def _instr_now(self) -> int:
        """Now, to the instruction: inside a slice, its start plus what it has executed."""
        return self.clock.now + self.cpu.slice_executed

    def _event_scheduled(self, when: int) -> None:
        """A device event was scheduled (during a slice: by an OUT, an IN or a service):
        if it falls due before the running slice would end, the slice ends then, so
        that it happens at its instruction (a PIT reload's first IRQ 0, a key's)."""
        self.cpu.end_slice_at(when - self.clock.now)

    def _pit_now(self) -> int:
        return self._instr_now() * PIT_HZ // self.clock.ips

    def _at_pit_clock(self, pit_clock: int, action: Callable[[], None]) -> None:
        self.scheduler.at(self.clock.instructions_for_pit(pit_clock), action)

    def _schedule_after(self, delay: int, action: Callable[[], None]) -> None:
        self.scheduler.at(self._instr_now() + delay, action)

    def _reschedule_timer(self) -> None:
        self.scheduler.cancel(self._timer_event)
        self._schedule_timer(self.pit.next_irq0_after(self._pit_now()))

    def _timer_fired(self) -> None:
        self.pic.raise_irq(0)
        self._schedule_timer(self.pit.next_irq0_after(self._pit_now()))

    def _schedule_timer(self, due_pit: int | None) -> None:
        """IRQ 0 at PIT clock ``due_pit`` (None: channel 0 is not counting)."""
        self._timer_event = self._timer_due = None
        if due_pit is not None:
            self._timer_due = max(self.clock.instructions_for_pit(due_pit), self.clock.now)
            self._timer_event = self.scheduler.at(self._timer_due, self._timer_fired)

    def _channel2_changed(self) -> None:
        self.speaker.channel2_changed()

    def now_datetime(self) -> _dt.datetime:
        """The date and time of day DOS reports now (it follows the BIOS tick count)."""
        ticks = self.memory.read_dword(bda.BDA + bda.TIMER_COUNT)
        clock = self.dos_clock
        key = (ticks, clock.date, clock.offset)      # polling loops ask many times a tick
        if self._now_cache is None or self._now_cache[0] != key:
            self._now_cache = (key, clock.now(ticks))
        return self._now_cache[1]

    def rtc_datetime(self) -> _dt.datetime:
        """The CMOS real-time clock: runs from virtual time, to the hundredth."""
        hundredths = self._instr_now() * 100 // self.clock.ips
        return self._start + self._rtc_offset + _dt.timedelta(milliseconds=10 * hundredths)

    def set_time_of_day(self, hour: int, minute: int, second: int, hundredths: int) -> None:
        """What DOS function 2Dh does: the tick count and the sub-tick offset change."""
        ticks = self.dos_clock.set_time(hour, minute, second, hundredths)
        self.memory.write_dword(bda.BDA + bda.TIMER_COUNT, ticks)

    def set_rtc_time(self, hour: int, minute: int, second: int) -> None:
        now = self.rtc_datetime()
        self._rtc_offset += now.replace(hour=hour, minute=minute, second=second, microsecond=0) - now

    def set_date(self, year: int, month: int, day: int) -> None:
        self.dos_clock.date = _dt.date(year, month, day)

    def set_rtc_date(self, year: int, month: int, day: int) -> None:
        now = self.rtc_datetime()
        self._rtc_offset += now.replace(year=year, month=month, day=day) - now

    @property
    def ticks(self) -> float:
        """Virtual time since power-on in BIOS timer ticks (18.2065 a second)."""
        return self.clock.ticks

    # ------------------------------------------------------------------ ports
    def _port_in(self, port: int, size: int) -> int:
        if self._status_native and (port == 0x3DA or (size == 2 and port == 0x3D9)):
            return sync.status_word_read(self, port, size)
        return self.bus.read(port, size)

    def _port_out(self, port: int, size: int, value: int) -> None:
        self.bus.write(port, size, value)
        if port in PIC_PORTS:
            self._pic_written()

    def _pic_written(self) -> None:
        """An EOI, a mask or a command was written to an 8259 during a slice: a request it
        now presents is taken after this OUT if IF is set (the slice ends there), else
        where the CPU sets IF (as fastcpu.c request_let_through does for its own)."""
        if not self.pic.pending():
            return
        if self.cpu.flags & FLAG_IF:
            self.cpu.end_slice_at(self.cpu.slice_executed)
        else:
            self.cpu.watch_interrupt_flag(True)

    # ------------------------------------------------------------------ interrupts
    def _on_interrupt(self, intno: int) -> None:
        cpu = self.cpu
        cpu.snapshot()
        try:
            self._interrupt(cpu, intno)
        finally:
            cpu.forget_snapshot()

    def _interrupt(self, cpu: Cpu, intno: int) -> None:
        cs, ip = cpu.cs, cpu.ip
        trap_at = linear(cs, ip - 2)
        name = self.traps.get(trap_at)
        if name is not None and intno == 0xFE:
            self._run_service(name, trap_at)
            return
        if cpu.deliver_exception(intno):      # #DE, BOUND, #GP: IP on the faulting instruction
            return
        for watch in self.events.interrupt.listeners:
            watch(intno)
        cpu.deliver_interrupt(intno)

    def watch_interrupts(self, callback: Callable[[int], None],
                         vectors: Iterable[int] | None = None) -> None:
        """Call ``callback(intno)`` before software interrupt ``intno`` is delivered.

        ``vectors`` names the interrupts the watcher needs (None: all).  The others
        may be delivered in C without a Python call, so the callback can also hear
        of other vectors and must check ``intno`` itself.  Watching again with the
        same callback changes its vectors.
        """
        listeners = self.events.interrupt.listeners
        if callback not in listeners:
            listeners.append(callback)
        self._interrupt_vectors.pop(callback, None)
        if vectors is not None:
            self._interrupt_vectors[callback] = frozenset(vectors)

    def unwatch_interrupts(self, callback: Callable[[int], None]) -> None:
        self.events.interrupt.disconnect(callback)
        self._interrupt_vectors.pop(callback, None)

    def _watched_vectors(self) -> frozenset[int]:
        """The software interrupts some watcher must see in Python."""
        watched: frozenset[int] = frozenset()
        for callback in self.events.interrupt.listeners:
            vectors = self._interrupt_vectors.get(callback)
            if vectors is None:
                return ALL_VECTORS
            watched |= vectors
        return watched

    def _run_service(self, name: str, trap_at: int) -> None:
        resumed = None
        if name == GUEST_RETURN:                      # a service's guest interrupt came back
            resumed = self._guest.returned()
            if resumed is None:
                self.halt("a guest interrupt returned to the ROM's trampoline, "
                          "but no service was waiting for it")
                return
            name, kind = resumed.name, resumed.kind
        else:
            handler, kind = self._services[name]
        self._service_serial += 1
        self._service_kind = kind
        self._call_pure = None
        self._call_counted = []
        polls = self._poll_count
        if kind is WAIT and resumed is None:
            self.cpu.set_flag(FLAG_CF, False)
        watchers = self.events.service.listeners     # tracers: arguments before, results after
        if watchers and resumed is None:
            for watch in watchers:
                watch(name, kind, False)
        suspended = False
        try:
            if resumed is None:
                calls = handler(self.services)
                if is_suspendable(calls):
                    suspended = self._guest.drive(calls, None, name, kind)
            else:
                returned = self._guest.restore(resumed)
                suspended = self._guest.drive(resumed.calls, returned, name, kind)
        except MachineError:
            raise
        except UnimplementedService:
            raise
        except Exception as exc:                      # a bug of ours: never a bare traceback
            log.exception("internal error in %s", name)
            self.halt(f"internal error in {name}: {exc}")
        if watchers and not suspended:                # results once the service has ended
            for watch in watchers:
                watch(name, kind, True)
        fast = self.cpu.fast
        if self._call_pure and fast is not None and not self._services_observed():
            fast.pure_call = 1
            self._pure_log.append((tuple(self._call_counted), self._poll_count - polls))

    def pure_answer(self) -> None:
        """The service now running changed nothing (or only logged writes, see
        set_return_flag) and answered from what cannot change before the slice ends
        (guest memory, device state that moves only at device events; never the time
        within a slice).  Asked again with the same registers and memory it would
        answer the same, so the C hooks may skip passes of a loop that calls it
        (pcemu/native: probe_visit), exactly."""
        if self._call_pure is None:
            self._call_pure = True

    def impure(self) -> None:
        """This call did something a pure one may not (whatever its handler says)."""
        self._call_pure = False

    def _services_observed(self) -> bool:
        events = self.events
        return any(getattr(events, channel).listeners for channel in SERVICE_OBSERVERS)

    def _pure_calls_skipped(self, per_pass: int, passes: int) -> None:
        """C skipped ``passes`` passes of a loop, each making the last ``per_pass`` pure
        calls: move the counters those calls would have moved."""
        calls = list(self._pure_log)[-per_pass:]
        if len(calls) != per_pass:
            raise MachineError("pure calls skipped that the machine did not see")
        self._service_serial += per_pass * passes
        for counted, polls in calls:
            for what in counted:
                self._service_counts[what] += passes
            self._poll_count += polls * passes

    def set_return_flag(self, mask: int, on: bool) -> None:
        """Set or clear a flag in what the caller gets back from its INT."""
        if self._service_kind is LIVE:
            self.cpu.set_flag(mask, on)
            return
        cpu = self.cpu
        address = linear(cpu.ss, cpu.sp + 4)
        cpu.log_guest_write(address, 2)
        flags = self.memory.read_word(address)
        self.memory.write_word(address, (flags | mask) if on else (flags & ~mask))

    def return_live_flag(self, mask: int, on: bool) -> None:
        self.cpu.set_flag(mask, on)

    def wait_for_input(self) -> None:
        """Inside a waiting service: nothing to return yet; halt until an interrupt, then retry."""
        self.cpu.set_flag(FLAG_CF, True)

    def caller(self) -> tuple[int, int]:
        """CS:IP of the INT instruction's return address, for logs."""
        cpu = self.cpu
        return self.memory.rw(cpu.ss, cpu.sp + 2), self.memory.rw(cpu.ss, cpu.sp)

    def unimplemented(self, interrupt: int, what: str) -> None:
        cs, ip = self.caller()
        ah, al = self.cpu.ah, self.cpu.al
        message = (f"unimplemented: INT {interrupt:02X}h AH={ah:02X}h AL={al:02X}h ({what}) "
                   f"called from {cs:04X}:{ip:04X}")
        self.impure()
        key = (interrupt, ah)
        calls = self.unimplemented_calls
        if key not in calls:
            log.warning(message)
        calls[key] = calls.get(key, 0) + 1
        record = {"key": key, "message": message, "interrupt": interrupt,
                  "ah": ah, "al": al, "cs": cs, "ip": ip}
        # a program looping on a missing service must not grow the host's memory: the
        # log keeps the first calls, the counts every call
        if len(self.unimplemented_log) < UNIMPLEMENTED_LOG_LIMIT:
            self.unimplemented_log.append(record)
        self.events.unimplemented.emit(record)
        if self.strict:
            raise UnimplementedService(message)

    def _note_unloadable(self, record: dict) -> None:
        """A program the shell could not load, in the same bounded log as missing services."""
        if len(self.unimplemented_log) < UNIMPLEMENTED_LOG_LIMIT:
            self.unimplemented_log.append(record)

    def count_service(self, what: str) -> None:
        self._service_counts[what] = self._service_counts.get(what, 0) + 1
        self._call_counted.append(what)

    @property
    def service_counts(self) -> dict[str, int]:
        """How often each counted service was asked for (in Python or answered in C)."""
        counts = dict(self._service_counts)
        fast = self.cpu.fast
        if fast is not None:
            for calls, (_what, counted, _poll) in zip(fast.service_calls, NATIVE_SERVICES):
                if calls and counted is not None:
                    counts[counted] = counts.get(counted, 0) + calls
        return counts

    @property
    def keyboard_polls(self) -> int:
        """How often the program has asked for a key (in Python or answered in C)."""
        fast = self.cpu.fast
        if fast is None:
            return self._poll_count
        return self._poll_count + sum(calls for calls, (_what, _counted, poll)
                                      in zip(fast.service_calls, NATIVE_SERVICES) if poll)

    def halt(self, reason: str) -> None:
        self.impure()
        self._stopped = reason
        self.cpu.request_stop()

    def reboot_requested(self) -> None:
        log.warning("the program asked to reboot the machine; stopping")
        self.halt("reboot requested")

    def beep(self) -> None:
        self.events.beep.emit()

    def keyboard_event(self, scancode: int) -> None:
        self.events.scancode.emit(scancode)

    def keyboard_polled(self) -> None:
        self._poll_count += 1

    def idle_poll(self, idle: bool) -> None:
        """A program asked for a key or the time and found nothing new.

        After IDLE_POLLS such calls in a row with no other service between them,
        the program is only waiting: with the opt-in inexact skip the slice ends at
        once and virtual time jumps to the next device event, as after a HLT.
        DOS time moves in whole ticks, so a waiting loop reads the same values
        either way.
        """
        if not idle:
            self._idle_streak = 0
            return
        serial = self._services_run()
        if self._last_poll_serial == serial - 1:
            self._idle_streak += 1
        else:
            self._idle_streak = 1
        self._last_poll_serial = serial
        if self.inexact_idle_skip and self._idle_streak >= IDLE_POLLS:
            self._idle_streak = 0
            self._idle_stop = True
            self.cpu.request_stop()

    def idle_neutral(self) -> None:
        """A service that changed nothing and told nothing new (the same cursor shape
        set again): it does not break a streak of idle polls around it."""
        serial = self._services_run()
        if self._last_poll_serial == serial - 1:
            self._last_poll_serial = serial

    def _services_run(self) -> int:
        """Services run so far, in Python or in C (INT 10h AH=02h/08h/09h, see native.sync)."""
        fast = self.cpu.fast
        return self._service_serial + (fast.native_services if fast is not None else 0)

    def bios_tick(self) -> None:
        self.events.tick.emit()

    def video_mode_changed(self, mode: int) -> None:
        self.events.video_mode.emit(mode)

    # ------------------------------------------------------------------ running
    def step(self) -> None:
        """Run one slice of the CPU and service what fell due."""
        if self._stopped:
            raise MachineError(f"the machine has stopped: {self._stopped}")
        clock = self.clock
        due = self.scheduler.next_due()
        budget = MAX_SLICE if due is None else max(1, min(MAX_SLICE, due - clock.now))
        if self._sti_shadow:              # the instruction after an STI, then the IRQ
            budget, self._sti_shadow = 1, False
        # An IRQ the PIC presents while IF is clear is taken where the CPU sets IF (after
        # the instruction that follows an STI); one behind another in service, after the
        # EOI that lets it through (_pic_written, fastcpu.c request_let_through).
        cpu = self.cpu
        cpu.watch_interrupt_flag(not cpu.interrupts_enabled and self.pic.pending())
        if cpu.fast is not None:
            sync.prepare_slice(self, cpu.fast)
        try:
            self._run_slice(cpu, budget)
        finally:
            cpu.forget_snapshot()

    def _run_slice(self, cpu: Cpu, budget: int) -> None:
        clock = self.clock
        # Where the last slice left the program (before any IRQ handler it now enters)
        # is where a waiting program's loop most likely runs: the C hooks watch it.
        result = cpu.run(budget, keep_snapshot=True, idle_watch=self._resume_at)
        if self._status_native:
            sync.beam_from_c(self, cpu.fast)
        clock.now += result.executed           # (C may have run slices before it: absorb_chain)
        idle, self._idle_stop = self._idle_stop, False
        if idle and result.reason != STOP_HALT and not self.pic.pending():
            # only polling with nothing due: on to the next device event, as a HLT would
            due = self.scheduler.next_due()
            if due is not None and due > clock.now:
                clock.now = due
        if result.reason == STOP_HALT:
            if not self.cpu.flags & FLAG_IF:
                cs, ip = self.cpu.cs, (self.cpu.ip - 1) & 0xFFFF
                self.halt(f"the CPU halted with interrupts disabled (HLT at {cs:04X}:{ip:04X}): "
                          "nothing but a reset or an NMI wakes it")
            elif not self.pic.pending():
                # waiting for an interrupt: skip straight to the next device event
                due = self.scheduler.next_due()
                if due is not None and due > clock.now:
                    clock.now = due
        self._resume_at = cpu.linear_ip
        self.scheduler.fire_due()
        self._deliver_hardware_interrupt()
        if self._stopped:
            raise MachineError(f"the machine has stopped: {self._stopped}")

    def _device_irq(self, line: int) -> None:
        """A device raised its line during an instruction (a port write): the slice ends
        after that instruction, so the CPU takes it next."""
        self.pic.raise_irq(line)
        self.impure()
        self.cpu.request_stop()

    def _deliver_hardware_interrupt(self) -> None:
        if not self.cpu.interrupts_enabled:
            return
        if self.cpu.after_sti and self.pic.pending():
            self._sti_shadow = True       # the 286 runs one more instruction first
            return
        vector = self.pic.acknowledge()
        if vector is not None:
            self._irq_delivered(vector, self.clock.now)
            self.cpu.deliver_interrupt(vector)

    def _irq_delivered(self, vector: int, now: int) -> None:
        """A hardware interrupt is about to enter its handler (in Python or in C):
        ``irq`` listeners hear (vector, virtual time) with the CPU as it was."""
        self.events.irq.emit(vector, now)

    def run(self, ticks: float) -> None:
        """Let ``ticks`` BIOS ticks of virtual time pass."""
        end = self.clock.now + self.clock.instructions_for_ticks(ticks)
        self._run_until_instruction(end)

    def _run_until_instruction(self, end: int) -> None:
        # A host-chosen slice end is part of the timeline: recorded sessions keep them.
        self.events.run_to.emit(end)
        handle = self.scheduler.at(end, lambda: None)    # make a slice end exactly there
        outer, self._time_bound_steps = self._time_bound_steps, True
        try:
            while self.clock.now < end:
                self.step()
        finally:
            self._time_bound_steps = outer
            self.scheduler.cancel(handle)

    def run_until(self, text: str | None = None, max_ticks: float = 182.0,
                  condition: Callable[["Machine"], bool] | None = None) -> None:
        """Run until ``text`` is on screen (or ``condition`` holds); a clear error after max_ticks."""
        if text is None and condition is None:
            raise ValueError("run_until needs text or a condition")
        test = condition or (lambda m: text in m.screen_text_flat())
        deadline = self.clock.now + self.clock.instructions_for_ticks(max_ticks)
        check_every = self.clock.instructions_for_ticks(0.5)
        while not test(self):
            if self.clock.now >= deadline:
                what = f"text {text!r}" if text is not None else "the condition"
                raise ScriptTimeout(f"{what} did not appear within {max_ticks:g} ticks "
                                    f"({max_ticks / 18.2065:.1f} s of virtual time). Screen:\n"
                                    + self.screen_text())
            self._run_until_instruction(min(deadline, self.clock.now + check_every))

    def type(self, script: str, max_ticks_per_wait: float = 18.2065 * 120) -> None:
        """Deliver a key script (see pcemu.keys) and satisfy its waits."""
        for action in keylib.parse_script(script):
            if isinstance(action, keylib.WaitText):
                self.run_until(text=action.text, max_ticks=max_ticks_per_wait)
                polls = self.keyboard_polls   # ...and the program has polled the keyboard since
                self.run_until(text=action.text, max_ticks=max_ticks_per_wait,
                               condition=lambda m, p=polls: m.keyboard_polls > p)
            elif isinstance(action, keylib.WaitTicks):
                self.run(action.ticks)
            else:
                self.press(action.codes, max_ticks_per_wait)

    def press(self, codes: Iterable[int], max_ticks: float = 18.2065 * 120) -> None:
        """Send scancodes and run until the program has read them all from port 60h."""
        codes = list(codes)
        hold = self.clock.instructions_for_seconds(KEY_HOLD_SECONDS)
        self.send_keys(codes)
        deadline = self.clock.now + self.clock.instructions_for_ticks(max_ticks)
        while not self.kbc.idle():
            if self.clock.now >= deadline:
                if not self.cpu.interrupts_enabled:
                    raise ScriptTimeout(
                        f"the program runs with interrupts disabled (at {self.cpu.cs:04X}:"
                        f"{self.cpu.ip:04X}), so the keys typed are never read")
                raise ScriptTimeout("the program stopped reading the keyboard (port 60h) "
                                    "while keys were being typed")
            self.step()
        self._run_until_instruction(self.clock.now + hold)

    # ------------------------------------------------------------------ host input
    def input(self, event: InputEvent) -> None:
        """Hand one host input to its device: the one way keys and the mouse reach the
        machine (key scripts, the window, the terminal, session replay).  ``input``
        listeners hear it first, at the present virtual time."""
        if isinstance(event, KeyCodes):
            self.events.input.emit(self.clock.now, event)
            self.kbc.send_scancodes(list(event.codes))
            return
        if not isinstance(event, (MouseMove, MouseMoveBy, MouseButton)):
            raise TypeError(f"not a machine input: {event!r}")
        if self.mouse is None:
            raise MachineError("this machine has no mouse (start it with mouse=True)")
        self.events.input.emit(self.clock.now, event)
        getattr(self.mouse, event.method)(*event.args())

    def send_keys(self, codes: Iterable[int]) -> None:
        """Queue scancodes on the keyboard's line (``input`` with ``KeyCodes``)."""
        self.input(KeyCodes(tuple(codes)))

    # ------------------------------------------------------------------ screen
    def screen_cells(self) -> list[list[tuple[int, int]]]:
        return screenlib.text_cells(self)

    def screen_text(self) -> str:
        return screenlib.text(self)

    def screen_text_flat(self) -> str:
        return screenlib.text(self).replace("\n", "")

    def state_hash(self) -> str:
        """Hash of RAM (conventional and video) and the CPU registers: equal runs, equal hashes."""
        digest = hashlib.sha256(self.memory.read(0, 0xC0000))
        digest.update(repr(sorted(self.cpu.registers().items())).encode())
        return digest.hexdigest()


def _parse_datetime(date, time) -> _dt.datetime:
    if date is None:
        day = _dt.date(1988, 1, 1)
    elif isinstance(date, _dt.date):
        day = date
    else:
        try:
            day = _dt.date.fromisoformat(str(date))
        except ValueError:
            try:
                day = _dt.datetime.strptime(str(date), "%m-%d-%Y").date()
            except ValueError:
                raise MachineError(f"bad date {date!r}: use YYYY-MM-DD") from None
    if not 1980 <= day.year <= 2099:                 # DOS dates (INT 21h AH=2Bh) span 1980-2099
        raise MachineError(f"bad date {day.isoformat()}: DOS keeps dates from 1980 to 2099")
    if time is None:
        clock = _dt.time(12, 0, 0)
    elif isinstance(time, _dt.time):
        clock = time
    else:
        clock = parse_time(str(time))
    return _dt.datetime.combine(day, clock)


def parse_time(text: str) -> _dt.time:
    """HH:MM[:SS[.hh]] to a time, to the hundredth of a second."""
    try:
        parts = text.split(":")
        if len(parts) not in (2, 3):
            raise ValueError
        hour, minute = int(parts[0]), int(parts[1])
        second, hundredths = 0, 0
        if len(parts) == 3:
            sec_text, _, frac = parts[2].partition(".")
            second = int(sec_text)
            if frac:
                if len(frac) > 2 or not frac.isdigit():
                    raise ValueError
                hundredths = int(frac.ljust(2, "0"))
        return _dt.time(hour, minute, second, hundredths * 10_000)
    except ValueError:
        raise MachineError(f"bad time {text!r}: use HH:MM:SS.hh (24-hour)") from None
