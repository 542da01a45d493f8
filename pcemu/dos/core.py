"""The DOS kernel's state: drives, current directories, the open-file table, processes.

One ``Dos`` object holds what DOS 3.30 keeps in its own memory and is not seen by
programs; the services (the INT 21h areas, the kernel API in ``kernel.py``) read
and change it.  Booting it is ``boot.py``.
"""
from __future__ import annotations

import datetime as _dt
import logging
from typing import TYPE_CHECKING

from pcemu.dos.critical import NOT_READY, CriticalError, EmptyDrive
from pcemu.dos.memory import MemoryArena
from pcemu.dos.single_drive import LETTERS, LogicalDrive, SharedUnit
from pcemu.dos.structures import OpenFile, Process
from pcemu.storage.drive import Drive, pack_date, pack_time
from pcemu.storage.errors import DosError
from pcemu.storage.names import normalize_name

if TYPE_CHECKING:
    from bios.context import ServiceContext

log = logging.getLogger("pcemu.dos")


class Dos:
    def __init__(self, ctx: "ServiceContext") -> None:
        self.ctx = ctx
        self.drives: dict[str, Drive] = {}
        self.floppies = ctx.devices.floppies     # the diskette drives' images, by number
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
        self.shared_unit: SharedUnit | None = None   # a one-drive machine's A: and B:

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
        if not self.drives:
            return
        for letter in "AB"[:self.ctx.devices.diskette_drives]:
            if letter not in self.drives:
                self.drives[letter] = EmptyDrive(letter)
                self.current_dirs[letter] = []
        if self.ctx.devices.diskette_drives == 1 and self.ctx.options.get("one_drive_b"):
            self._name_the_one_drive_twice()

    def _name_the_one_drive_twice(self) -> None:
        """A one-drive machine's A: and B: are one drive (single_drive.py)."""
        self.shared_unit = SharedUnit(self.ctx.memory)
        self.shared_unit.select("A")                 # IO.SYS's start: the diskette is A:
        physical = self.drives["A"]
        for letter in LETTERS:
            own = EmptyDrive(letter) if isinstance(physical, EmptyDrive) else physical
            self.drives[letter] = LogicalDrive(self.shared_unit, letter, own)
            self.current_dirs.setdefault(letter, [])

    def has_media(self, letter: str) -> bool:
        drive = self.drives.get(letter)
        return drive is not None and not isinstance(getattr(drive, "physical", drive), EmptyDrive)

    def check_ready(self, letter: str) -> None:
        """What DOS's media check does: the one drive's other name asks for the diskette
        (single_drive), an empty drive raises "Not ready" (INT 24h)."""
        drive = self.drives.get(letter)
        if isinstance(drive, LogicalDrive):
            drive.check()
        if drive is not None and not self.has_media(letter):
            raise CriticalError(letter, NOT_READY)

    def floppy_image(self, number: int):
        return self.floppies.get(number)

    def unit_of(self, letter: str) -> int:
        """The diskette drive a letter names (a one-drive machine's B: is drive 0)."""
        return 0 if self.shared_unit is not None and letter in LETTERS else ord(letter) - 65

    def file_clock(self) -> tuple[int, int]:
        now = self.ctx.time.now()
        return pack_date(now.year, now.month, now.day), pack_time(now.hour, now.minute, now.second)

    # ---------------------------------------------------------------- paths
    def resolve(self, text: str) -> tuple[str, list[str]]:
        """A DOS path as a program gives it -> (drive letter, components from the root)."""
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
        mem = self.ctx.memory
        size = mem.rw(psp, 0x32) or 20
        off, seg = mem.rw(psp, 0x34), mem.rw(psp, 0x36)
        if seg == 0 and off == 0:
            seg, off = psp, 0x18
        return seg, off, size

    def handle_file(self, handle: int) -> OpenFile:
        seg, off, size = self.psp_handle_table()
        if handle >= size:
            raise DosError(0x06, "invalid handle")
        index = self.ctx.memory.rb(seg, off + handle)
        if index == 0xFF or index >= len(self.files) or self.files[index] is None:
            raise DosError(0x06, "invalid handle")
        entry = self.files[index]
        self.last_drive = entry.drive or None
        return entry

    def new_handle(self, entry: OpenFile) -> int:
        seg, off, size = self.psp_handle_table()
        mem = self.ctx.memory
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
        index = self.ctx.memory.rb(seg, off + handle)
        self.ctx.memory.wb(seg, off + handle, 0xFF)
        entry.references -= 1
        if entry.references <= 0:
            if entry.file is not None:
                entry.file.close()
            self.files[index] = None

    # ---------------------------------------------------------------- helpers
    def succeed(self) -> None:
        self.ctx.call.set_return_flag(0x01, False)

    def fail(self, code: int) -> None:
        """Error return: AX = code, CF set; remembered for function 59h."""
        self.ctx.cpu.ax = code
        self.extended_error = (code, {2: 8, 3: 8, 5: 3, 8: 1}.get(code, 7), 1, 2)
        self.ctx.call.set_return_flag(0x01, True)

    def control_break_seen(self) -> None:
        self.ctrl_break_pending = True

    def now(self) -> _dt.datetime:
        return self.ctx.time.now()
