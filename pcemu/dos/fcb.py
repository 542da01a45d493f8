"""FCB file services, INT 21h 0Fh-17h, 21h-24h, 27h and 28h, as DOS 3.30 has them.

A file control block is the CP/M-era way to name and use a file: a 37-byte
record in the program's memory (offsets from its drive byte)::

    00 drive (0 = default, 1 = A:)   01 name (8)   09 extension (3)
    0C current block    0E record size    10 file size    14 date    16 time
    18 reserved for DOS (8)    20 current record (0-127)    21 random record

An *extended* FCB puts 7 bytes in front: FFh, five reserved bytes and an
attribute byte that lets the search, delete, rename and create calls reach
hidden, system and directory entries (and the volume label).

Records are numbered from 0: sequential calls use block * 128 + current record
and advance it; random calls use the random record field (4 bytes, or 3 when
records are 64 bytes or more).  A transfer goes through the DTA; a record cut
short by the end of the file is padded with zeros.  The return code is in AL:
00h done, 01h end of file / disk full, 02h the DTA would wrap its segment,
03h end of file inside the last (padded) record; FFh for the name functions.

FCBs have no path: they work in the current directory of their drive.  DOS
keeps its own state for an open FCB in the reserved bytes; here they hold a
number that finds the open file, and an FCB DOS does not recognise (copied or
never opened) is looked up again by its name, so an FCB keeps working as long
as its name does.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from bios.services import FunctionTable
from pcemu.dos import con, kernel
from pcemu.dos.critical import CRITICAL_CODES
from pcemu.storage import names
from pcemu.storage.drive import DirEntry
from pcemu.storage.errors import WRITE_PROTECT, DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("FCB")      # this area's INT 21h functions (int21.py)


DRIVE, NAME, BLOCK, RECORD_SIZE, FILE_SIZE, DATE, TIME = 0x00, 0x01, 0x0C, 0x0E, 0x10, 0x14, 0x16
RESERVED, CURRENT_RECORD, RANDOM_RECORD, NEW_NAME = 0x18, 0x20, 0x21, 0x11
DEFAULT_RECORD_SIZE = 128
OPEN_MARK, SEARCH_MARK = 0xF0, 0xF5          # first reserved byte: what the rest holds
ATTR_READ_ONLY, ATTR_HIDDEN, ATTR_SYSTEM, ATTR_VOLUME, ATTR_DIRECTORY = 0x01, 0x02, 0x04, 0x08, 0x10
DEVICES = {"CON", "PRN", "AUX", "NUL", "LPT1", "COM1", "CLOCK$"}
OK, EOF, WRAP, PARTIAL, FAILED = 0x00, 0x01, 0x02, 0x03, 0xFF


@dataclass
class FcbFile:
    """A file (or character device) opened through an FCB."""
    drive: str
    path: list[str] = field(default_factory=list)
    file: object | None = None          # a storage DriveFile
    device: str | None = None
    writable: bool = False


class Fcb:
    """A view of an FCB (normal or extended) in guest memory."""

    def __init__(self, ctx: "ServiceContext", seg: int, off: int) -> None:
        self.ctx = ctx
        self.seg = seg
        self.extended = ctx.memory.rb(seg, off) == 0xFF
        self.attributes = ctx.memory.rb(seg, off + 6) if self.extended else 0
        self.off = (off + 7) & 0xFFFF if self.extended else off
        self.console_output: tuple[int, int, bytes] | None = None   # (DTA seg, off, bytes) for CON

    def byte(self, at: int) -> int:
        return self.ctx.memory.rb(self.seg, self.off + at)

    def set_byte(self, at: int, value: int) -> None:
        self.ctx.memory.wb(self.seg, self.off + at, value)

    def word(self, at: int) -> int:
        return self.ctx.memory.rw(self.seg, self.off + at)

    def set_word(self, at: int, value: int) -> None:
        self.ctx.memory.ww(self.seg, self.off + at, value)

    def raw(self, at: int, size: int) -> bytes:
        return self.ctx.memory.read_far(self.seg, self.off + at, size)

    def write(self, at: int, data: bytes) -> None:
        self.ctx.memory.write_far(self.seg, self.off + at, data)

    # -- fields ---------------------------------------------------------------------
    def name(self, at: int = NAME) -> bytes:
        """The 11-byte name, upper-cased as DOS compares it."""
        return self.raw(at, 11).upper()

    @property
    def record_size(self) -> int:
        return self.word(RECORD_SIZE) or DEFAULT_RECORD_SIZE

    @property
    def sequential_record(self) -> int:
        return self.word(BLOCK) * 128 + (self.byte(CURRENT_RECORD) & 0x7F)

    def set_sequential_record(self, record: int) -> None:
        self.set_word(BLOCK, (record >> 7) & 0xFFFF)
        self.set_byte(CURRENT_RECORD, record & 0x7F)

    @property
    def random_record(self) -> int:
        value = struct.unpack("<I", self.raw(RANDOM_RECORD, 4))[0]
        return value if self.record_size < 64 else value & 0xFFFFFF

    def set_random_record(self, record: int) -> None:
        data = struct.pack("<I", record & 0xFFFFFFFF)
        self.write(RANDOM_RECORD, data if self.record_size < 64 else data[:3])

    def set_opened(self, drive: str, size: int, date: int, time: int, file_id: int) -> None:
        """What DOS fills in on open and create."""
        if self.byte(DRIVE) == 0:
            self.set_byte(DRIVE, ord(drive) - 64)
        self.set_word(BLOCK, 0)
        self.set_word(RECORD_SIZE, DEFAULT_RECORD_SIZE)
        self.write(FILE_SIZE, struct.pack("<IHH", size, date, time))
        self.write(RESERVED, bytes([OPEN_MARK]) + struct.pack("<H", file_id) + bytes(5))


# -- locating files -------------------------------------------------------------------------
def _drive_letter(ctx: "ServiceContext", fcb: Fcb) -> str:
    number = fcb.byte(DRIVE)
    letter = ctx.dos.current_drive if number == 0 else chr(64 + number) if number <= 26 else "?"
    if letter not in ctx.dos.drives:
        raise DosError(0x0F, "invalid drive")
    ctx.dos.last_drive = letter
    return letter


def _device(pattern: bytes) -> str | None:
    base = pattern[:8].rstrip(b" ").decode("latin-1")
    if base in DEVICES:
        return {"LPT1": "PRN", "COM1": "AUX"}.get(base, base)
    return None


def _entry_fcb(entry: DirEntry) -> bytes:
    return names.entry_fcb(entry.name)


def _matches(ctx: "ServiceContext", letter: str, pattern: bytes, attributes: int):
    """Directory entries of the current directory that an FCB call with this
    name and search attribute reaches, in directory order."""
    directory = ctx.dos.current_dirs.get(letter, [])
    for entry in kernel.fcb_matches(ctx.dos, letter, directory, pattern, attributes):
        yield directory, entry


def _first_file(ctx: "ServiceContext", letter: str, fcb: Fcb) -> tuple[list[str], DirEntry] | None:
    attributes = fcb.attributes & (ATTR_HIDDEN | ATTR_SYSTEM)
    for directory, entry in _matches(ctx, letter, fcb.name(), attributes):
        if not entry.is_dir:
            return directory, entry
    return None


def _new_id(ctx: "ServiceContext") -> int:
    files = ctx.dos.fcb_files
    number = max(files, default=0) + 1
    if number > 0xFFFF:
        number = next(n for n in range(1, 0x10000) if n not in files)
    return number


def _open(ctx: "ServiceContext", fcb: Fcb) -> FcbFile | None:
    """Open the file an FCB names; fills the FCB as DOS does.  None: not found."""
    letter = _drive_letter(ctx, fcb)
    _forget(ctx, fcb)
    device = _device(fcb.name())
    if device is not None:
        opened = FcbFile(letter, device=device, writable=True)
        size, (date, time) = 0, ctx.dos.file_clock()
    else:
        found = _first_file(ctx, letter, fcb)
        if found is None:
            return None
        directory, entry = found
        fs = ctx.dos.drives[letter]
        writable = not fs.read_only and not entry.attr & ATTR_READ_ONLY
        path = directory + [entry.name]
        opened = FcbFile(letter, path, fs.open(path, writable=writable), writable=writable)
        size, date, time = entry.size, entry.date, entry.time
    file_id = _new_id(ctx)
    ctx.dos.fcb_files[file_id] = opened
    fcb.set_opened(letter, size, date, time, file_id)
    return opened


def _forget(ctx: "ServiceContext", fcb: Fcb) -> FcbFile | None:
    """Close what this FCB had open, if DOS still knows it."""
    known = _known(ctx, fcb)
    if known is not None:
        file_id, opened = known
        del ctx.dos.fcb_files[file_id]
        if opened.file is not None:
            opened.file.close()
        return opened
    return None


def _known(ctx: "ServiceContext", fcb: Fcb) -> tuple[int, FcbFile] | None:
    reserved = fcb.raw(RESERVED, 3)
    if reserved[0] != OPEN_MARK:
        return None
    file_id = struct.unpack_from("<H", reserved, 1)[0]
    opened = ctx.dos.fcb_files.get(file_id)
    if opened is None:
        return None
    name = fcb.name()
    same = (opened.device == _device(name) if opened.device
            else names.fcb_matches(name, names.to_fcb(opened.path[-1])))
    return (file_id, opened) if same else None


def _file_for(ctx: "ServiceContext", fcb: Fcb) -> FcbFile | None:
    known = _known(ctx, fcb)
    if known is not None:
        ctx.dos.last_drive = known[1].drive
        return known[1]
    return _open_again(ctx, fcb)


def _open_again(ctx: "ServiceContext", fcb: Fcb) -> FcbFile | None:
    """An FCB DOS does not know (copied, or never opened): find its file by name,
    keeping the program's record fields."""
    fields = fcb.raw(BLOCK, 8)
    opened = _open(ctx, fcb)
    if opened is not None:
        fcb.write(BLOCK, fields[:4])              # current block and record size stay
    return opened


# -- transfers ------------------------------------------------------------------------------
def _dta_room(ctx: "ServiceContext", size: int) -> bool:
    _seg, off = ctx.dos.dta
    return off + size <= 0x10000


def _read(ctx: "ServiceContext", opened: FcbFile, record: int, count: int, size: int) -> tuple[int, int]:
    """Read ``count`` records into the DTA: (AL, records transferred)."""
    if count == 0:
        return OK, 0
    if not _dta_room(ctx, count * size):
        return WRAP, 0
    if opened.device is not None:
        return EOF, 0                                # devices give no records through FCBs
    opened.file.seek(record * size)
    data = opened.file.read(count * size)
    if not data:
        return EOF, 0
    full, partial = divmod(len(data), size)
    if partial:
        data += bytes(size - partial)
    ctx.memory.write_far(*ctx.dos.dta, data)
    if partial:
        return PARTIAL, full + 1
    return (OK if full == count else EOF), full


def _write(ctx: "ServiceContext", fcb: Fcb, opened: FcbFile, record: int, count: int,
           size: int) -> tuple[int, int]:
    """Write ``count`` records from the DTA: (AL, records transferred)."""
    if not _dta_room(ctx, count * size):
        return WRAP, 0
    data = ctx.memory.read_far(*ctx.dos.dta, count * size)
    if opened.device is not None:
        if opened.device == "PRN":
            for b in data:
                ctx.devices.printer.print_byte(b)
        elif opened.device == "CON":      # written through INT 29h once the call's AL is set
            fcb.console_output = (*ctx.dos.dta, data)
        return OK, count
    if not opened.writable:
        if ctx.dos.drives[opened.drive].read_only:
            raise DosError(WRITE_PROTECT, "the disk is write-protected")
        return EOF, 0                                # a read-only file: nothing is written
    opened.file.seek(record * size)
    written = opened.file.write(data)
    fcb.write(FILE_SIZE, struct.pack("<I", opened.file.size))
    fcb.write(DATE, struct.pack("<HH", *ctx.dos.file_clock()))
    return (OK if written == len(data) else EOF), written // size


# -- registration -----------------------------------------------------------------------------
def _fcb_function(number: int, failed: int) -> Callable:
    """Register an FCB service whose handler returns AL; a DOS error becomes ``failed``
    (device errors go on to INT 24h)."""
    def register(handler: Callable[["ServiceContext", Fcb], int]) -> Callable:
        def service(ctx: "ServiceContext"):
            fcb = Fcb(ctx, ctx.cpu.ds, ctx.cpu.dx)
            try:
                result = handler(ctx, fcb)
            except DosError as err:
                if err.code in CRITICAL_CODES:
                    raise
                result = failed
            ctx.cpu.al = result
            if fcb.console_output is not None:      # CON output through the vectors, as DOS's
                return con.put_from(ctx, *fcb.console_output)
            return None
        functions.function(number)(service)
        return handler
    return register


@_fcb_function(0x0F, FAILED)
def open_file(ctx: "ServiceContext", fcb: Fcb) -> int:
    return OK if _open(ctx, fcb) is not None else FAILED


@_fcb_function(0x10, FAILED)
def close_file(ctx: "ServiceContext", fcb: Fcb) -> int:
    if _forget(ctx, fcb) is not None:
        return OK
    letter = _drive_letter(ctx, fcb)              # never opened: DOS looks for the entry
    return OK if _device(fcb.name()) or _first_file(ctx, letter, fcb) else FAILED


@_fcb_function(0x16, FAILED)
def create_file(ctx: "ServiceContext", fcb: Fcb) -> int:
    letter = _drive_letter(ctx, fcb)
    name = fcb.name()
    if fcb.attributes & ATTR_VOLUME:
        return _create_label(ctx, letter, name)
    if _device(name):
        return OK if _open(ctx, fcb) is not None else FAILED
    if b"?" in name:
        return FAILED
    _forget(ctx, fcb)
    fs = ctx.dos.drives[letter]
    path = ctx.dos.current_dirs.get(letter, []) + [names.from_fcb(name)]
    created = fs.create(path, fcb.attributes & (ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | 0x20))
    file_id = _new_id(ctx)
    ctx.dos.fcb_files[file_id] = FcbFile(letter, path, created, writable=True)
    date, time = created.get_datetime()
    fcb.set_opened(letter, 0, date, time, file_id)
    for watch in ctx.events.file.listeners:
        watch("create", f"{letter}:\\" + "\\".join(path), 0)
    return OK


def _create_label(ctx: "ServiceContext", letter: str, name: bytes) -> int:
    fs = ctx.dos.drives[letter]
    if not hasattr(fs, "set_volume_label"):
        return FAILED
    fs.set_volume_label(name.decode("latin-1").rstrip())
    return OK


@_fcb_function(0x11, FAILED)
def find_first(ctx: "ServiceContext", fcb: Fcb) -> int:
    return _search(ctx, fcb, after=-1)


@_fcb_function(0x12, FAILED)
def find_next(ctx: "ServiceContext", fcb: Fcb) -> int:
    state = fcb.raw(RESERVED, 5)
    if state[0] != SEARCH_MARK:
        return FAILED
    return _search(ctx, fcb, after=struct.unpack_from("<h", state, 1)[0],
                   drive_number=state[3])


def _search(ctx: "ServiceContext", fcb: Fcb, after: int, drive_number: int | None = None) -> int:
    if drive_number is None:
        letter = _drive_letter(ctx, fcb)
    else:                                           # FINDNEXT goes on where the search began
        letter = chr(64 + drive_number)
        if letter not in ctx.dos.drives:
            return FAILED
        ctx.dos.last_drive = letter
    for _directory, entry in _matches(ctx, letter, fcb.name(), fcb.attributes):
        if entry.slot <= after:
            continue
        record = bytearray()
        if fcb.extended:
            record += bytes([0xFF, 0, 0, 0, 0, 0, fcb.attributes])
        record.append(ord(letter) - 64)
        record += _entry_fcb(entry) if not entry.is_label else entry.name.encode("cp437", "replace").ljust(11)[:11]
        record.append(entry.attr)
        record += bytes(10)
        record += struct.pack("<HHHI", entry.time, entry.date, 0, entry.size)
        ctx.memory.write_far(*ctx.dos.dta, bytes(record))
        fcb.write(RESERVED, bytes([SEARCH_MARK]) + struct.pack("<hB", entry.slot, ord(letter) - 64))
        return OK
    return FAILED


@_fcb_function(0x13, FAILED)
def delete_file(ctx: "ServiceContext", fcb: Fcb) -> int:
    letter = _drive_letter(ctx, fcb)
    deleted, _read_only = kernel.delete_matching(ctx.dos, letter, ctx.dos.current_dirs.get(letter, []),
                                                 fcb.name(), fcb.attributes)
    return OK if deleted else FAILED


@_fcb_function(0x17, FAILED)
def rename_file(ctx: "ServiceContext", fcb: Fcb) -> int:
    letter = _drive_letter(ctx, fcb)
    kernel.rename_matching(ctx.dos, letter, ctx.dos.current_dirs.get(letter, []), fcb.name(),
                           fcb.name(NEW_NAME), fcb.attributes)
    return OK


@_fcb_function(0x14, EOF)
def sequential_read(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        return EOF
    record = fcb.sequential_record
    result, count = _read(ctx, opened, record, 1, fcb.record_size)
    if result != WRAP:
        fcb.set_sequential_record(record + count)
    return result


@_fcb_function(0x15, EOF)
def sequential_write(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        return EOF
    record = fcb.sequential_record
    result, count = _write(ctx, fcb, opened, record, 1, fcb.record_size)
    fcb.set_sequential_record(record + count)
    return result


@_fcb_function(0x21, EOF)
def random_read(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        return EOF
    record = fcb.random_record
    fcb.set_sequential_record(record)
    return _read(ctx, opened, record, 1, fcb.record_size)[0]


@_fcb_function(0x22, EOF)
def random_write(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        return EOF
    record = fcb.random_record
    fcb.set_sequential_record(record)
    return _write(ctx, fcb, opened, record, 1, fcb.record_size)[0]


@_fcb_function(0x23, FAILED)
def file_size(ctx: "ServiceContext", fcb: Fcb) -> int:
    letter = _drive_letter(ctx, fcb)
    found = _first_file(ctx, letter, fcb)
    if found is None:
        return FAILED
    size = fcb.record_size
    fcb.set_random_record(-(-found[1].size // size))
    return OK


@functions.function(0x24)
def set_random_record(ctx: "ServiceContext") -> None:
    fcb = Fcb(ctx, ctx.cpu.ds, ctx.cpu.dx)
    fcb.set_random_record(fcb.sequential_record)


@_fcb_function(0x27, EOF)
def random_block_read(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        ctx.cpu.cx = 0
        return EOF
    record = fcb.random_record
    result, count = _read(ctx, opened, record, ctx.cpu.cx, fcb.record_size)
    _after_block(ctx, fcb, record + count, count)
    return result


@_fcb_function(0x28, EOF)
def random_block_write(ctx: "ServiceContext", fcb: Fcb) -> int:
    opened = _file_for(ctx, fcb)
    if opened is None:
        ctx.cpu.cx = 0
        return EOF
    record = fcb.random_record
    size = fcb.record_size
    if ctx.cpu.cx == 0:                       # no records: the file is cut (or grown) to here
        if opened.device is None:
            if not opened.writable:
                if ctx.dos.drives[opened.drive].read_only:
                    raise DosError(WRITE_PROTECT, "the disk is write-protected")
                return EOF
            opened.file.seek(record * size)
            opened.file.truncate()
            fcb.write(FILE_SIZE, struct.pack("<I", opened.file.size))
        return OK
    result, count = _write(ctx, fcb, opened, record, ctx.cpu.cx, size)
    _after_block(ctx, fcb, record + count, count)
    return result


def _after_block(ctx: "ServiceContext", fcb: Fcb, next_record: int, count: int) -> None:
    """Block transfers leave both record fields just after the last record moved."""
    ctx.cpu.cx = count
    fcb.set_random_record(next_record)
    fcb.set_sequential_record(next_record)


def flush_all(ctx: "ServiceContext") -> None:
    """Disk reset (0Dh): write out what FCB files hold."""
    for opened in ctx.dos.fcb_files.values():
        if opened.file is not None:
            opened.file.flush()
