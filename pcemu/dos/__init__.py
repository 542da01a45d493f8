"""A high-level DOS 3.30 kernel written in Python.

No DOS is booted.  INT 20h-2Fh point to ROM entry points whose traps reach the
services in this package, grouped by area: ``console`` (01h-0Ch),
``files`` (handles, find first/next, directories), ``fcb`` (the FCB calls),
``process`` (EXEC, terminate, PSP, memory, CALL 5), ``system`` (vectors, date
and time, version, drives) and ``critical`` (INT 24h for a drive with no
diskette, a write-protected disk or a bad medium).
Guest-visible structures (PSPs, MCBs, the DTA, environment blocks) live in guest
memory exactly where programs expect them.

The machine's diskette drives (`Machine.floppy_drives`: A: alone with one
drive, A: and B: with two) exist once anything is mounted; one without a
diskette is a `critical.EmptyDrive`, which answers "Not ready" through INT 24h.
A one-drive machine has no B: at all ("invalid drive"); DOS 3.30 on a real
one-drive PC would name the same drive B: as well and ask for the diskette,
which is not modelled.
"""
from __future__ import annotations

import datetime as _dt
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bios.services import ServiceTable
from pcemu.dos.memory import MemoryArena
from pcemu.storage.drive import Drive, pack_date, pack_time
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.machine import Machine

log = logging.getLogger("pcemu.dos")

DOS_VERSION = (3, 30)
DOS_DATA_SEGMENT = 0x0070        # kernel variables programs may ask for (InDOS flag ...)
FIRST_MCB = 0x0900               # leaves about 600 KB free, like DOS 3.3 with COMMAND.COM
SHELL_PARAGRAPHS = 0x0100

dos_services = ServiceTable(0x21, "DOS")


@dataclass
class OpenFile:
    """A system file table entry: one open file or device, shared by duplicated handles."""
    name: str
    device: str | None = None          # "CON", "PRN", "AUX", "NUL" for character devices
    file: object | None = None         # a storage DriveFile
    drive: str = ""
    path: list[str] = field(default_factory=list)
    mode: int = 2
    references: int = 1

    @property
    def is_device(self) -> bool:
        return self.device is not None


@dataclass
class Process:
    psp: int
    parent: int
    name: str
    # what the parent had at EXEC time, restored when this process ends
    return_registers: dict[str, int] = field(default_factory=dict)
    return_flags: int = 0x0202


class Dos:
    def __init__(self, machine: "Machine") -> None:
        self.m = machine
        self.drives: dict[str, Drive] = {}
        self.floppies: dict[int, object] = {}
        self.current_drive = "A"
        self.current_dirs: dict[str, list[str]] = {}
        self.files: list[OpenFile | None] = []
        self.processes: dict[int, Process] = {}
        self.current_psp = 0
        self.dta = (0, 0x80)
        self.return_code = 0
        self.termination_type = 0
        self.verify = False
        self.break_check = False
        self.ctrl_break_pending = False
        self.pending_scan: int | None = None     # second half of an extended key for 01h/07h/08h
        self.extended_error = (0, 0, 0, 0)
        self.switch_char = "/"
        self.searches: dict[int, tuple[str, list[str]]] = {}   # FINDFIRST id -> (drive, directory)
        self.arena: MemoryArena | None = None
        self.shell = None
        self.critical = None                     # the INT 24h in progress (critical.Pending)
        self.last_drive: str | None = None       # the drive the current call works on
        self.fcb_files: dict[int, object] = {}   # files opened through FCBs (fcb.FcbFile)
        self.ctrl_c_sp: int | None = None        # SP before DOS's INT 23h, to see how it returned
        self.ems = None                          # the expanded-memory manager (pcemu.dos.ems)
        from pcemu.dos import console, fcb, files, ioctl, process, system   # noqa: F401  (register services)

    # ---------------------------------------------------------------- drives
    def mount(self, letter: str, drive) -> None:
        letter = letter.upper()
        self.drives[letter] = drive.filesystem if hasattr(drive, "filesystem") else drive
        if hasattr(drive, "filesystem"):
            self.floppies[ord(letter) - ord("A")] = drive
        self.current_dirs[letter] = []
        fs = self.drives[letter]
        fs.clock = self.file_clock

    def add_empty_floppies(self) -> None:
        """The diskette drives exist (A:, and B: on a two-drive machine); a drive with
        no diskette answers "Not ready".

        Only when something is mounted at all: a machine with no disks has no
        drive to boot from, and keeps no drives (every path is "invalid drive").
        """
        from pcemu.dos.critical import EmptyDrive
        if not self.drives:
            return
        for letter in "AB"[:self.m.floppy_drives]:
            if letter not in self.drives:
                self.drives[letter] = EmptyDrive(letter)
                self.current_dirs[letter] = []

    def has_media(self, letter: str) -> bool:
        from pcemu.dos.critical import EmptyDrive
        return letter in self.drives and not isinstance(self.drives[letter], EmptyDrive)

    def check_ready(self, letter: str) -> None:
        """What DOS's media check does: an empty drive raises "Not ready" (INT 24h)."""
        from pcemu.dos.critical import NOT_READY, CriticalError
        if letter in self.drives and not self.has_media(letter):
            raise CriticalError(letter, NOT_READY)

    def floppy_image(self, number: int):
        return self.floppies.get(number)

    def file_clock(self) -> tuple[int, int]:
        now = self.m.now_datetime()
        return pack_date(now.year, now.month, now.day), pack_time(now.hour, now.minute, now.second)

    # ---------------------------------------------------------------- boot
    def boot(self) -> None:
        m = self.m
        mem = m.memory
        mem.fill(DOS_DATA_SEGMENT << 4, 0x100, 0)
        self.arena = MemoryArena(mem, FIRST_MCB)
        from bios.rom import Installer
        m.point_vectors(Installer.DOS)
        m.set_vector(0x28, *m.rom.address("dummy_iret"))
        m.set_vector(0x2A, *m.rom.address("dummy_iret"))
        from pcemu.dos import critical, faults, process
        process.register_traps(m)
        critical.install(m)
        faults.install(m)
        process.install_cpm_entry(m)
        if m.ems_kilobytes:
            from pcemu.dos import ems
            self.ems = ems.install(m, m.ems_kilobytes)
        if m.mouse_enabled:
            from bios import mouse
            mouse.install(m)
        self.files = [OpenFile("AUX", device="AUX"), OpenFile("CON", device="CON", references=3),
                      OpenFile("PRN", device="PRN")]
        self.add_empty_floppies()
        with_media = [letter for letter in self.drives if self.has_media(letter)]
        self.current_drive = min(with_media) if with_media else "A"
        from pcemu.shell import Shell
        self.shell = Shell(m)
        self.shell.start()
        m.register_service("int23_returned", process.ctrl_c_returned)

    # ---------------------------------------------------------------- paths
    def resolve(self, text: str) -> tuple[str, list[str]]:
        """A DOS path as a program gives it -> (drive letter, components from the root)."""
        from pcemu.storage.names import normalize_name
        text = text.replace("/", "\\")
        drive = self.current_drive
        if len(text) >= 2 and text[1] == ":":
            drive = text[0].upper()
            text = text[2:]
        if drive not in self.drives:
            raise DosError(0x0F, f"invalid drive {drive}:")
        self.last_drive = drive
        parts = [] if text.startswith("\\") else list(self.current_dirs.get(drive, []))
        for piece in text.split("\\"):
            if piece in ("", "."):
                continue
            if piece == "..":
                if parts:
                    parts.pop()
                continue
            try:
                parts.append(normalize_name(piece))
            except DosError:
                raise
            except ValueError:
                raise DosError(0x03, f"bad path {text!r}") from None
        return drive, parts

    def device_name(self, text: str) -> str | None:
        """DOS finds devices by name in any directory, with or without an extension."""
        base = text.replace("/", "\\").split("\\")[-1].split(":")[-1].upper().split(".")[0]
        if base in ("CON", "PRN", "AUX", "NUL", "LPT1", "COM1", "CLOCK$"):
            return {"LPT1": "PRN", "COM1": "AUX"}.get(base, base)
        if base == "EMMXXXX0" and self.ems is not None:    # the expanded-memory manager
            return base
        return None

    # ---------------------------------------------------------------- handles
    def psp_handle_table(self, psp: int | None = None) -> tuple[int, int, int]:
        """(segment, offset, size) of the job file table of a PSP."""
        psp = self.current_psp if psp is None else psp
        mem = self.m.memory
        size = mem.rw(psp, 0x32) or 20
        off, seg = mem.rw(psp, 0x34), mem.rw(psp, 0x36)
        if seg == 0 and off == 0:
            seg, off = psp, 0x18
        return seg, off, size

    def handle_file(self, handle: int) -> OpenFile:
        seg, off, size = self.psp_handle_table()
        if handle >= size:
            raise DosError(0x06, "invalid handle")
        index = self.m.memory.rb(seg, off + handle)
        if index == 0xFF or index >= len(self.files) or self.files[index] is None:
            raise DosError(0x06, "invalid handle")
        entry = self.files[index]
        self.last_drive = entry.drive or None
        return entry

    def new_handle(self, entry: OpenFile) -> int:
        seg, off, size = self.psp_handle_table()
        mem = self.m.memory
        for handle in range(size):
            if mem.rb(seg, off + handle) == 0xFF:
                break
        else:
            raise DosError(0x04, "too many open files")
        for index, existing in enumerate(self.files):
            if existing is None:
                self.files[index] = entry
                break
        else:
            index = len(self.files)
            if index >= 0xFE:
                raise DosError(0x04, "too many open files")
            self.files.append(entry)
        mem.wb(seg, off + handle, index)
        return handle

    def close_handle(self, handle: int) -> None:
        entry = self.handle_file(handle)
        seg, off, _size = self.psp_handle_table()
        index = self.m.memory.rb(seg, off + handle)
        self.m.memory.wb(seg, off + handle, 0xFF)
        entry.references -= 1
        if entry.references <= 0:
            if entry.file is not None:
                entry.file.close()
            self.files[index] = None

    # ---------------------------------------------------------------- helpers
    def succeed(self) -> None:
        self.m.set_return_flag(0x01, False)

    def fail(self, code: int) -> None:
        """Error return: AX = code, CF set; remembered for function 59h."""
        self.m.cpu.ax = code
        self.extended_error = (code, {2: 8, 3: 8, 5: 3, 8: 1}.get(code, 7), 1, 2)
        self.m.set_return_flag(0x01, True)

    def control_break_seen(self) -> None:
        self.ctrl_break_pending = True

    def now(self) -> _dt.datetime:
        return self.m.now_datetime()
