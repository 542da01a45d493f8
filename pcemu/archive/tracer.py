"""Traces of a running program as JSON Lines, one record per event.

Categories (``--trace int,dos,bios,port,video,sound,keys,files`` or ``all``):

* ``int``   - every software interrupt the program executes (``INT n``, INT 3),
  with AX-DX;
* ``dos``   - INT 20h-2Fh services with their arguments (paths and FCB names
  read from memory) and results (AX-DX, carry);
* ``bios``  - INT 10h-1Ah services, arguments and results;
* ``port``  - IN and OUT; a run of identical accesses from the same place is
  one record with ``repeat``;
* ``video`` - mode sets, mode and colour register changes, palette calls;
* ``sound`` - speaker notes (frequency, start, duration) and BIOS beeps;
* ``keys``  - scancodes sent by the host, read from port 60h, and taken by
  the BIOS keyboard interrupt;
* ``files`` - files opened, read, written (byte ranges), created, closed,
  renamed and deleted, and at the end the disk changes of the run.

Programs started (``process``) and services pcemu lacks (``unimplemented``)
are always recorded.  Every record has ``t`` (the machine's instruction
count: the start of the current CPU slice plus the time the devices charge
for port reads in it, which is what the program itself can observe), ``cat``
and, where a program's instruction caused it, ``at`` (its CS:IP).

The tracer only adds listeners; with none attached the machine does an empty
list check and nothing else.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, IO

from pcemu.archive import calls
from bios.rom import ServiceKind
from pcemu.events import KeyCodes
from pcemu.archive.keynames import describe_scancodes
from pcemu.errors import PcemuError
from pcemu.memory import linear

if TYPE_CHECKING:
    from pcemu.machine import Machine

CATEGORIES = ("int", "dos", "bios", "port", "video", "sound", "keys", "files")
VIDEO_PORTS = {0x3D8, 0x3D9, 0x3B8, 0x3BF}
FILE_FUNCTIONS = {0x3C, 0x3D, 0x3E, 0x56, 0x5A, 0x5B, 0x0F, 0x10, 0x14, 0x15, 0x17,
                  0x21, 0x22, 0x27, 0x28, 0x45, 0x46}
FCB_RECORD_IO = {0x14: "read", 0x15: "write", 0x21: "read", 0x22: "write", 0x27: "read", 0x28: "write"}


class TraceError(PcemuError):
    pass


def parse_categories(text: str) -> tuple[str, ...]:
    """'dos,files' -> ('dos', 'files'); 'all' -> every category; a clear error otherwise."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise TraceError("--trace needs categories: " + ",".join(CATEGORIES) + " or all")
    if "all" in names:
        return CATEGORIES
    unknown = [n for n in names if n not in CATEGORIES]
    if unknown:
        raise TraceError(f"unknown trace categor{'y' if len(unknown) == 1 else 'ies'} "
                         f"{', '.join(unknown)}: choose from {', '.join(CATEGORIES)} or all")
    return tuple(n for n in CATEGORIES if n in names)


class Tracer:
    """Attach to a machine; records go to ``out`` (a text file) and to ``sinks`` (callables)."""

    def __init__(self, machine: "Machine", categories: tuple[str, ...] | str = CATEGORIES,
                 out: IO[str] | None = None, sinks: list[Callable[[dict], None]] | None = None,
                 keep: bool = False, max_bytes: int | None = None) -> None:
        if isinstance(categories, str):
            categories = parse_categories(categories)
        self.m = machine
        self.categories = set(categories)
        self.out = out
        self.path = None                    # the file ``out`` writes, when there is one
        self.max_bytes: int | None = max_bytes   # ``out`` gets no more than this
        self.written = 0
        self.problem: str | None = None     # why ``out`` stopped taking records
        self.truncated = False              # ``out`` reached ``max_bytes`` (it still gets "end")
        self.sinks = list(sinks or [])
        self.records: list[dict] | None = [] if keep else None
        self._listeners: list[tuple[str, Callable]] = []
        self._pending_calls: dict[int, tuple] = {}       # nesting depth -> call being traced
        self._depth = 0
        self._port_run: dict | None = None
        self._note: tuple[float, float, str] | None = None   # (start s, frequency, at)
        self._handles: dict[tuple[int, int], str] = {}   # (PSP, handle) -> path
        self._last_opened: str | None = None
        self._kernel_ops: set[str] = set()               # "file" events DOS sent during a call
        self._video = self._video_state()
        self._closed = False
        self.emit({"t": self._now(), "cat": "start", "ips": machine.clock.ips,
                   "categories": sorted(self.categories)})
        self._attach()

    # ------------------------------------------------------------------ plumbing
    def _listen(self, event: str, listener: Callable) -> None:
        self.m.events.channel(event).connect(listener)
        self._listeners.append((event, listener))

    def _attach(self) -> None:
        m = self.m
        cats = self.categories
        self._listen("exec", self._on_exec)
        self._listen("exit", self._on_exit)
        self._listen("unimplemented", self._on_unimplemented)
        if cats & {"dos", "bios", "video", "files", "keys"}:
            self._listen("service", self._on_service)
        if "int" in cats:
            self._listen("interrupt", self._on_interrupt)
        if "files" in cats:
            self._listen("file", self._on_file)
        if "video" in cats:
            self._listen("video_mode", self._on_video_mode)
        if "sound" in cats:
            m.speaker.listeners.append(self._on_speaker)
            self._listen("beep", self._on_beep)
        if "keys" in cats:
            self._listen("input", self._on_input)
            self._listen("scancode", self._on_scancode)
        if cats & {"port", "video", "keys"}:
            m.bus.watchers.append(self._on_port)

    def detach(self) -> None:
        m = self.m
        for event, listener in self._listeners:
            m.events.channel(event).disconnect(listener)
        self._listeners.clear()
        if self._on_speaker in m.speaker.listeners:
            m.speaker.listeners.remove(self._on_speaker)
        if self._on_port in m.bus.watchers:
            m.bus.watchers.remove(self._on_port)

    def emit(self, record: dict) -> None:
        if self.out is not None and (self.problem is None
                                     or (self.truncated and record.get("cat") == "end")):
            line = json.dumps(record, separators=(",", ":")) + "\n"
            if self.max_bytes is not None and self.written + len(line) > self.max_bytes \
                    and record.get("cat") != "end":
                self._stop_writing(f"the trace reached its limit of {self.max_bytes:,} bytes at "
                                   f"instruction {record.get('t', 0):,}; later records are "
                                   "not in it (raise the limit with --trace-limit)",
                                   {"t": record.get("t", 0), "cat": "truncated",
                                    "limit": self.max_bytes})
                self.truncated = True
            else:
                try:
                    self.out.write(line)
                    self.written += len(line)
                except OSError as exc:
                    self._stop_writing(f"cannot write the trace: {exc.strerror or exc}", None)
        if self.records is not None:
            self.records.append(record)
        for sink in self.sinks:
            sink(record)

    def _now(self) -> int:
        return self.m._instr_now()

    def _base(self, cat: str, at: str | None = None) -> dict:
        record = {"t": self._now(), "cat": cat}
        if at is not None:
            record["at"] = at
        return record

    def _here(self) -> str:
        cpu = self.m.cpu
        return f"{cpu.cs:04X}:{cpu.ip:04X}"

    def _caller(self) -> str:
        """CS:IP of the INT instruction that called the service now running."""
        cs, ip = self.m.caller()
        return f"{cs:04X}:{(ip - 2) & 0xFFFF:04X}"

    # ------------------------------------------------------------------ interrupts
    def _on_interrupt(self, intno: int) -> None:
        cpu = self.m.cpu
        cs, ip = cpu.cs, cpu.ip
        mem = self.m.memory
        size = 2 if mem[linear(cs, ip - 2)] == 0xCD and mem[linear(cs, ip - 1)] == intno else 1
        record = self._base("int", f"{cs:04X}:{(ip - size) & 0xFFFF:04X}")
        record.update(int=intno, ax=cpu.ax, bx=cpu.bx, cx=cpu.cx, dx=cpu.dx)
        self.emit(record)

    def _on_service(self, name: str, kind: str, after: bool) -> None:
        if name in calls.HARDWARE:
            if not after and name == "timer_tick" and "video" in self.categories:
                self._check_video()
            return
        if calls.interrupt_number(name) is None and name not in calls.WHOLE_SERVICES:
            return                                     # the shell's and kernel's own traps
        m = self.m
        if not after:
            self._depth += 1
            cpu = m.cpu
            number = calls.interrupt_number(name)
            ah, al, ax = cpu.ah, cpu.al, cpu.ax
            if number == 0x21:
                args = calls.dos_arguments(m)
                self._file_call_before(ah, args)
            else:
                args = calls.register_snapshot(m)
            self._pending_calls[self._depth] = (name, number, ah, al, ax, args, self._caller(),
                                                self._now())
            return
        pending = self._pending_calls.pop(self._depth, None)
        self._depth = max(0, self._depth - 1)
        if pending is None:
            return
        name, number, ah, al, ax, args, at, t = pending
        cpu = m.cpu
        if kind is ServiceKind.WAIT and cpu.flags & 0x01:
            return                                 # nothing yet: the ROM halts and calls again
        cat = "dos" if number is not None and (0x20 <= number <= 0x2F or number == 0x33) else "bios"
        if number == 0x10 and "video" in self.categories:
            self._video_call(ah, al, args, at, t)
        if number == 0x21:
            if ah in calls.NO_RETURN:
                result = None
            else:
                result = calls.dos_results(m, self._returned_carry(kind))
                self._file_call_after(ah, args, result, at, t)
        elif name in calls.NO_RETURN_SERVICES:
            result = None
        else:
            result = calls.register_snapshot(m)
            result["cf"] = int(self._returned_carry(kind))
        if number == 0x16 and "keys" in self.categories and ah in (0x00, 0x10) and result:
            key = result["ax"]
            self.emit({"t": t, "cat": "keys", "at": at, "what": "bios key", "ascii": key & 0xFF,
                       "scan": key >> 8})
        if cat not in self.categories:
            return
        record = {"t": t, "cat": cat, "at": at,
                  "service": calls.service_key(name, ah, al, ax), "args": args}
        if result is not None:
            record["result"] = result
        self.emit(record)

    def _returned_carry(self, kind: str) -> bool:
        """The carry flag the caller gets back (in its IRET frame unless the service is 'live')."""
        m = self.m
        cpu = m.cpu
        if kind is ServiceKind.LIVE:
            return bool(cpu.flags & 0x01)
        return bool(m.memory.read_word(linear(cpu.ss, cpu.sp + 4)) & 0x01)

    # ------------------------------------------------------------------ processes
    def _on_exec(self, path: str, psp: int) -> None:
        record = self._base("process")
        record.update(what="exec", path=str(path), psp=psp)
        try:                 # where the load module starts and the program's memory ends
            from pcemu.archive.debugger import read_dos_file
            is_exe = read_dos_file(self.m, path)[:2] in (b"MZ", b"ZM")
            record["load_segment"] = psp + 0x10 if is_exe else psp
            record["end_segment"] = psp + self.m.memory.rw(psp - 1, 3)    # the MCB's size
        except Exception:                                                 # noqa: BLE001
            pass
        self.emit(record)
        if "files" in self.categories:
            self.emit({"t": record["t"], "cat": "files", "op": "exec", "path": str(path)})

    def _on_exit(self, name: str, code: int, kind: int) -> None:
        record = self._base("process")
        record.update(what="exit", name=str(name), code=code, kind=kind)
        self.emit(record)

    def _on_unimplemented(self, entry: dict) -> None:
        record = self._base("unimplemented", f"{entry['cs']:04X}:{entry['ip']:04X}")
        record.update(interrupt=entry["interrupt"], ah=entry["ah"], al=entry["al"],
                      message=entry["message"])
        self.emit(record)

    # ------------------------------------------------------------------ files
    def _on_file(self, action: str, path: str, detail) -> None:
        self._kernel_ops.add(action)
        record = self._base("files", self._caller())
        record.update(op=action, path=path)
        if action in ("open", "create"):
            self._last_opened = path           # the handle comes back in AX after the call
        if action in ("read", "write"):
            position, count = detail
            record.update(start=position, count=count)
        elif action == "open":
            record["mode"] = detail
        self.emit(record)

    def _psp(self) -> int:
        return self.m.dos.current_psp

    def _file_call_before(self, ah: int, args: dict) -> None:
        if "files" not in self.categories or ah not in FILE_FUNCTIONS:
            return
        self._kernel_ops = set()                 # what DOS itself reports during this call
        if ah == 0x3E:
            args["_closing"] = self._handles.pop((self._psp(), args["bx"]), None)
        elif ah in FCB_RECORD_IO or ah in (0x0F, 0x10, 0x17):
            args["_fcb_position"] = self._fcb_position(ah)

    def _file_call_after(self, ah: int, args: dict, result: dict, at: str, t: int) -> None:
        if "files" not in self.categories or ah not in FILE_FUNCTIONS:
            return
        position = args.pop("_fcb_position", None)
        closing = args.pop("_closing", None)
        if result["cf"] and ah >= 0x30:
            return
        psp = self._psp()
        reported = self._kernel_ops                  # never report an operation twice
        if ah == 0x3E and closing is not None and "close" not in reported:
            self.emit({"t": t, "cat": "files", "at": at, "op": "close", "path": closing})
        elif ah in (0x3C, 0x3D, 0x5A, 0x5B):
            path = self._last_opened or args.get("path", "?")
            self._handles[(psp, result["ax"])] = path
            self._last_opened = None
        elif ah in (0x45, 0x46):
            path = self._handles.get((psp, args["bx"]))
            if path is not None:
                self._handles[(psp, result["ax"] if ah == 0x45 else args["cx"])] = path
        elif ah == 0x56 and "rename" not in reported:
            self.emit({"t": t, "cat": "files", "at": at, "op": "rename", "path": args["path"],
                       "new_path": args["new_path"]})
        elif ah in (0x0F, 0x10, 0x17) and result["ax"] & 0xFF == 0:
            op = {0x0F: "open", 0x10: "close", 0x17: "rename"}[ah]
            if op not in reported:
                self.emit({"t": t, "cat": "files", "at": at, "op": op, "path": args["fcb"], "fcb": True})
        elif ah in FCB_RECORD_IO and position is not None and FCB_RECORD_IO[ah] not in reported:
            status = result["ax"] & 0xFF
            start, size, records = position
            if ah in (0x27, 0x28):
                done = result["cx"]
            else:
                done = 0 if status in (1, 2) else 1
            if done:
                self.emit({"t": t, "cat": "files", "at": at, "op": FCB_RECORD_IO[ah],
                           "path": args["fcb"], "start": start, "count": done * size, "fcb": True})

    def _fcb_position(self, ah: int) -> tuple[int, int, int] | None:
        """(byte offset, record size, records asked) an FCB read or write will use."""
        m = self.m
        cpu = m.cpu
        seg, off = cpu.ds, cpu.dx
        if m.memory.rb(seg, off) == 0xFF:
            off += 7
        size = m.memory.rw(seg, off + 0x0E) or 128
        if ah in (0x14, 0x15):
            record = m.memory.rw(seg, off + 0x0C) * 128 + m.memory.rb(seg, off + 0x20)
        else:
            record = m.memory.rw(seg, off + 0x21) | (m.memory.rb(seg, off + 0x23) << 16)
            if size < 64:
                record |= m.memory.rb(seg, off + 0x24) << 24
        count = cpu.cx if ah in (0x27, 0x28) else 1
        return record * size, size, count

    # ------------------------------------------------------------------ video
    def _video_state(self) -> tuple[int, int]:
        card = self.m.video_card
        return card.mode_register, getattr(card, "color_register", 0)

    def _check_video(self) -> None:
        now = self._video_state()
        if now != self._video:
            old, self._video = self._video, now
            record = self._base("video")
            record.update(what="registers", mode_register=now[0], colour_register=now[1])
            if old[0] != now[0]:
                record["was_mode_register"] = old[0]
            if old[1] != now[1]:
                record["was_colour_register"] = old[1]
            self.emit(record)

    def _on_video_mode(self, mode: int) -> None:
        record = self._base("video", self._caller())
        record.update(what="mode", mode=mode)
        self.emit(record)
        self._check_video()

    def _video_call(self, ah: int, al: int, args: dict, at: str, t: int) -> None:
        if ah in (0x0B, 0x10):
            self.emit({"t": t, "cat": "video", "at": at, "what": "palette", "ah": ah, "al": al,
                       "bh": args["bx"] >> 8, "bl": args["bx"] & 0xFF})
        if ah in (0x00, 0x05, 0x0B):
            self._check_video()

    # ------------------------------------------------------------------ ports
    def _on_port(self, direction: str, port: int, value: int) -> None:
        cats = self.categories
        if "keys" in cats and port == 0x60 and direction == "in":
            record = self._base("keys", self._here())
            record.update(what="port 60h", code=value)
            self.emit(record)
        if "video" in cats and direction == "out" and port in VIDEO_PORTS:
            self._check_video()
        if "port" not in cats:
            return
        at = self._here()
        run = self._port_run
        if run is not None and run["dir"] == direction and run["port"] == port \
                and run["value"] == value and run["at"] == at:
            run["repeat"] = run.get("repeat", 1) + 1
            return
        self._flush_port_run()
        self._port_run = {"t": self._now(), "cat": "port", "at": at, "dir": direction,
                          "port": port, "value": value}

    def _flush_port_run(self) -> None:
        if self._port_run is not None:
            run, self._port_run = self._port_run, None
            self.emit(run)

    # ------------------------------------------------------------------ sound
    def _on_speaker(self, seconds: float, frequency: float) -> None:
        self._flush_note(seconds)
        if frequency > 0:
            self._note = (seconds, frequency, self._here())

    def _flush_note(self, seconds: float) -> None:
        if self._note is not None:
            start, frequency, at = self._note
            self._note = None
            ips = self.m.clock.ips
            self.emit({"t": int(round(start * ips)), "cat": "sound", "at": at, "what": "note",
                       "frequency": round(frequency, 2), "start": round(start, 6),
                       "duration": round(seconds - start, 6)})

    def _on_beep(self) -> None:
        record = self._base("sound", self._caller())
        record["what"] = "beep"
        self.emit(record)

    # ------------------------------------------------------------------ keys
    def _on_input(self, t: int, event) -> None:
        if not isinstance(event, KeyCodes):
            return
        codes = list(event.codes)
        self.emit({"t": t, "cat": "keys", "what": "sent", "codes": codes,
                   "keys": describe_scancodes(codes)})

    def _on_scancode(self, code: int) -> None:
        record = self._base("keys")
        record.update(what="int 09h", code=code)
        self.emit(record)

    def _stop_writing(self, problem: str, last: dict | None) -> None:
        """``out`` takes no more records (a size limit, a full disk); the run goes on."""
        self.problem = problem
        try:
            if last is not None:
                self.out.write(json.dumps(last, separators=(",", ":")) + "\n")
            self.out.flush()
        except OSError:
            pass

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        """Flush what is pending, record the run's disk changes and the end, and detach."""
        if self._closed:
            return
        self._closed = True
        self._flush_port_run()
        self._flush_note(self.m.clock.seconds())
        self.detach()
        if "files" in self.categories:
            from pcemu.archive.files_report import disk_changes
            for change in disk_changes(self.m):
                self.emit({"t": self._now(), "cat": "change", **change})
        self.emit({"t": self._now(), "cat": "end", "seconds": round(self.m.clock.seconds(), 6),
                   "categories": sorted(self.categories)})
        if self.out is not None and self.problem is None:
            try:
                self.out.flush()
            except OSError as exc:
                self.problem = f"cannot write the trace: {exc.strerror or exc}"
