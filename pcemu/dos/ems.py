"""A LIM EMS 4.0 expanded-memory manager, installed on request (``Machine(ems=KB)``).

What a program sees is what EMM386-era drivers give it:

* the character device EMMXXXX0: its name at offset 0Ah of the segment INT 67h
  points into (the classic test), and openable through INT 21h AH=3Dh, where
  IOCTL 4400h says "device" and 4407h "ready" (pcemu.dos.ioctl);
* INT 67h, with AH selecting the function (a table of handlers keyed by AH) and
  the status in AH (00h, or 80h-A4h as LIM 4.0 defines them);
* a 64 KB page frame at E000h: four 16 KB physical pages.

Logical pages are Python ``bytearray``s, created when allocated and bounded by
the size asked for.  Mapping a logical page into a physical page copies it into
the frame; the page it replaces is copied back first, so guest memory and the
store never disagree about a page that is not mapped.  The driver's header and
its jump to the ROM's INT 67h trap sit in DOS's own memory below the first MCB,
where CONFIG.SYS drivers live.

It is off unless asked for: the machine is an AT with DOS 3.30 and no EMS board,
and installing it changes what every program can see (the INT 67h vector, the
driver in low memory).  DOSBox installs EMS by default; a comparison with DOSBox
can ask for it.  On the 100-program training corpus no screen changes with 4 MB
of EMS installed.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from bios.services import FunctionTable

if TYPE_CHECKING:
    from bios.context import ServiceContext

PAGE = 0x4000
FRAME_SEGMENT = 0xE000
PHYSICAL_PAGES = 4
DRIVER_SEGMENT = 0x0080              # after DOS's data at 0070h, before the first MCB (0900h)
DEVICE_NAME = b"EMMXXXX0"
MAX_HANDLES = 255
MAX_KB = 32 * 1024                   # LIM 4.0 allows 32 MB
VERSION = 0x40

OK, SOFTWARE, HARDWARE, BAD_HANDLE, BAD_FUNCTION, NO_HANDLES, SAVE_IN_USE = (
    0x00, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86)
MORE_THAN_TOTAL, MORE_THAN_FREE, ZERO_PAGES, BAD_LOGICAL, BAD_PHYSICAL = 0x87, 0x88, 0x89, 0x8A, 0x8B
SAVE_EXISTS, NO_SAVE, BAD_SUBFUNCTION, UNSUPPORTED_FEATURE = 0x8D, 0x8E, 0x8F, 0x91
NAME_NOT_FOUND, NAME_EXISTS, ACCESS_DENIED = 0xA0, 0xA1, 0xA4


class EmsError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"EMS status {status:02X}h")
        self.status = status


@dataclass
class Handle:
    pages: list[int] = field(default_factory=list)      # logical page -> store index
    name: bytes = bytes(8)
    saved_map: list | None = None


class ExpandedMemory:
    """The manager's state: the store of 16 KB pages, the handles, the frame's mapping."""

    def __init__(self, ctx: "ServiceContext", kilobytes: int) -> None:
        if not 16 <= kilobytes <= MAX_KB:
            raise ValueError(f"expanded memory must be 16 KB to {MAX_KB} KB, not {kilobytes} KB")
        self.ctx = ctx
        self.total = kilobytes // 16
        self.store: dict[int, bytearray] = {}
        self.free_pages = list(range(self.total))
        self.handles: dict[int, Handle] = {0: Handle()}            # handle 0: the system's
        self.mapped: list[tuple[int, int] | None] = [None] * PHYSICAL_PAGES   # (handle, logical)

    # -- the frame ---------------------------------------------------------------
    def _frame(self, physical: int) -> int:
        return (FRAME_SEGMENT << 4) + physical * PAGE

    def _store_page(self, handle: int, logical: int) -> bytearray:
        index = self.handles[handle].pages[logical]
        return self.store.setdefault(index, bytearray(PAGE))

    def _write_back(self, physical: int) -> None:
        here = self.mapped[physical]
        if here is not None and here[0] in self.handles and here[1] < len(self.handles[here[0]].pages):
            self._store_page(*here)[:] = self.ctx.memory.read(self._frame(physical), PAGE)

    def map(self, physical: int, handle: int, logical: int) -> None:
        if not 0 <= physical < PHYSICAL_PAGES:
            raise EmsError(BAD_PHYSICAL)
        self._check_handle(handle)
        if logical != 0xFFFF and logical >= len(self.handles[handle].pages):
            raise EmsError(BAD_LOGICAL)
        self.sync()
        if logical == 0xFFFF:                      # LIM 4.0: unmap
            self.mapped[physical] = None
            return
        self.ctx.memory.write(self._frame(physical), bytes(self._store_page(handle, logical)))
        self.mapped[physical] = (handle, logical)
        self.ctx.cpu.flush_translations()            # code may run from the frame

    def sync(self) -> None:
        """Copy every mapped page back to the store (before the mapping changes)."""
        for physical in range(PHYSICAL_PAGES):
            self._write_back(physical)

    def set_map(self, mapping: list) -> None:
        self.sync()
        for physical, entry in enumerate(mapping):
            if entry is None or entry[0] not in self.handles or entry[1] >= len(self.handles[entry[0]].pages):
                self.mapped[physical] = None
                continue
            self.ctx.memory.write(self._frame(physical), bytes(self._store_page(*entry)))
            self.mapped[physical] = tuple(entry)
        self.ctx.cpu.flush_translations()

    # -- handles -----------------------------------------------------------------
    def _check_handle(self, handle: int) -> Handle:
        if handle not in self.handles:
            raise EmsError(BAD_HANDLE)
        return self.handles[handle]

    def allocate(self, count: int, allow_zero: bool) -> int:
        if count == 0 and not allow_zero:
            raise EmsError(ZERO_PAGES)
        if len(self.handles) >= MAX_HANDLES:
            raise EmsError(NO_HANDLES)
        if count > self.total:
            raise EmsError(MORE_THAN_TOTAL)
        if count > len(self.free_pages):
            raise EmsError(MORE_THAN_FREE)
        number = next(h for h in range(1, MAX_HANDLES + 1) if h not in self.handles)
        self.handles[number] = Handle(self._take(count))
        return number

    def _take(self, count: int) -> list[int]:
        taken, self.free_pages = self.free_pages[:count], self.free_pages[count:]
        for index in taken:
            self.store[index] = bytearray(PAGE)
        return taken

    def reallocate(self, handle: int, count: int) -> None:
        h = self._check_handle(handle)
        if count > self.total:
            raise EmsError(MORE_THAN_TOTAL)
        if count > len(h.pages) + len(self.free_pages):
            raise EmsError(MORE_THAN_FREE)
        self.sync()
        if count >= len(h.pages):
            h.pages += self._take(count - len(h.pages))
        else:
            self._release(h.pages[count:])
            del h.pages[count:]
            self._unmap_missing()

    def deallocate(self, handle: int) -> None:
        h = self._check_handle(handle)
        if h.saved_map is not None:
            raise EmsError(SAVE_IN_USE)
        self.sync()
        self._release(h.pages)
        if handle == 0:
            h.pages = []                           # the system handle stays, with no pages
        else:
            del self.handles[handle]
        self._unmap_missing()

    def _release(self, indices: list[int]) -> None:
        for index in indices:
            self.store.pop(index, None)
        self.free_pages = sorted(self.free_pages + list(indices))

    def _unmap_missing(self) -> None:
        for physical, entry in enumerate(self.mapped):
            if entry is not None and (entry[0] not in self.handles
                                      or entry[1] >= len(self.handles[entry[0]].pages)):
                self.mapped[physical] = None


# ---------------------------------------------------------------- installing
def install(ctx: "ServiceContext", kilobytes: int) -> ExpandedMemory:
    """Load the driver: its device header and name, INT 67h, the trap's service."""
    ems = ExpandedMemory(ctx, kilobytes)
    seg, off = ctx.vectors.rom.address("int67")
    header = struct.pack("<HHHHH", 0xFFFF, 0xFFFF, 0xC000, 0x0012, 0x0012) + DEVICE_NAME
    header += bytes([0xEA]) + struct.pack("<HH", off, seg)      # +12h: JMP FAR to the ROM's trap
    ctx.memory.write(DRIVER_SEGMENT << 4, header)
    ctx.vectors.set(0x67, DRIVER_SEGMENT, 0x0012)
    ctx.vectors.register_service("int67", dispatch)
    return ems


def dispatch(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    ctx.call.count_service(f"INT 67h AH={cpu.ah:02X}h")
    ems = ctx.dos.ems
    handler = FUNCTIONS.get(cpu.ah)
    try:
        if ems is None:
            raise EmsError(SOFTWARE)
        if handler is None:
            raise EmsError(BAD_FUNCTION)
        handler(ctx, ems)
        cpu.ah = OK
    except EmsError as err:
        cpu.ah = err.status


FUNCTIONS = FunctionTable("EMS")               # AH -> handler


function = FUNCTIONS.function


# ---------------------------------------------------------------- LIM 3.2 (40h-4Eh)
@function(0x40)
def status(ctx, ems) -> None:
    pass


@function(0x41)
def page_frame(ctx, ems) -> None:
    ctx.cpu.bx = FRAME_SEGMENT


@function(0x42)
def page_counts(ctx, ems) -> None:
    ctx.cpu.bx = len(ems.free_pages)
    ctx.cpu.dx = ems.total


@function(0x43)
def allocate(ctx, ems) -> None:
    ctx.cpu.dx = ems.allocate(ctx.cpu.bx, allow_zero=False)


@function(0x44)
def map_page(ctx, ems) -> None:
    ems.map(ctx.cpu.al, ctx.cpu.dx, ctx.cpu.bx)


@function(0x45)
def deallocate(ctx, ems) -> None:
    ems.deallocate(ctx.cpu.dx)


@function(0x46)
def version(ctx, ems) -> None:
    ctx.cpu.al = VERSION


@function(0x47)
def save_map(ctx, ems) -> None:
    h = ems._check_handle(ctx.cpu.dx)
    if h.saved_map is not None:
        raise EmsError(SAVE_EXISTS)
    h.saved_map = list(ems.mapped)


@function(0x48)
def restore_map(ctx, ems) -> None:
    h = ems._check_handle(ctx.cpu.dx)
    if h.saved_map is None:
        raise EmsError(NO_SAVE)
    ems.set_map(h.saved_map)
    h.saved_map = None


@function(0x4B)
def handle_count(ctx, ems) -> None:
    ctx.cpu.bx = len(ems.handles)


@function(0x4C)
def handle_pages(ctx, ems) -> None:
    ctx.cpu.bx = len(ems._check_handle(ctx.cpu.dx).pages)


@function(0x4D)
def all_handle_pages(ctx, ems) -> None:
    data = b"".join(struct.pack("<HH", number, len(h.pages)) for number, h in sorted(ems.handles.items()))
    ctx.memory.write_far(ctx.cpu.es, ctx.cpu.di, data)
    ctx.cpu.bx = len(ems.handles)


# A page map as programs store it: per physical page, the handle and logical page
# (FFFFh, FFFFh when unmapped).
MAP_SIZE = PHYSICAL_PAGES * 4


def _pack_map(mapping: list) -> bytes:
    return b"".join(struct.pack("<HH", *(entry or (0xFFFF, 0xFFFF))) for entry in mapping)


def _unpack_map(data: bytes) -> list:
    entries = [struct.unpack_from("<HH", data, 4 * i) for i in range(PHYSICAL_PAGES)]
    return [None if entry == (0xFFFF, 0xFFFF) else entry for entry in entries]


@function(0x4E)
def page_map(ctx, ems) -> None:
    cpu = ctx.cpu
    sub = cpu.al
    if sub > 3:
        raise EmsError(BAD_SUBFUNCTION)
    if sub == 3:
        cpu.al = MAP_SIZE
        return
    if sub in (0, 2):
        ctx.memory.write_far(cpu.es, cpu.di, _pack_map(ems.mapped))
    if sub in (1, 2):
        ems.set_map(_unpack_map(ctx.memory.read_far(cpu.ds, cpu.si, MAP_SIZE)))


# ---------------------------------------------------------------- LIM 4.0 (4Fh-59h)
@function(0x4F)
def partial_page_map(ctx, ems) -> None:
    """Save or restore the mapping of the segments listed at DS:SI (a count, then segments)."""
    cpu = ctx.cpu
    mem = ctx.memory
    sub = cpu.al
    if sub == 0x02:
        cpu.al = 2 + cpu.bx * 6
        return
    if sub == 0x00:
        count = mem.rw(cpu.ds, cpu.si)
        data = struct.pack("<H", count)
        for i in range(count):
            segment = mem.rw(cpu.ds, cpu.si + 2 + 2 * i)
            physical = _physical_from_segment(segment)
            data += struct.pack("<H", segment) + struct.pack("<HH", *(ems.mapped[physical] or (0xFFFF, 0xFFFF)))
        mem.write_far(cpu.es, cpu.di, data)
    elif sub == 0x01:
        mapping = list(ems.mapped)
        count = mem.rw(cpu.ds, cpu.si)
        for i in range(count):
            segment, handle, logical = struct.unpack_from("<HHH", mem.read_far(cpu.ds, cpu.si + 2 + 6 * i, 6))
            mapping[_physical_from_segment(segment)] = None if handle == 0xFFFF else (handle, logical)
        ems.set_map(mapping)
    else:
        raise EmsError(BAD_SUBFUNCTION)


def _physical_from_segment(segment: int) -> int:
    physical, rest = divmod(segment - FRAME_SEGMENT, PAGE >> 4)
    if rest or not 0 <= physical < PHYSICAL_PAGES:
        raise EmsError(BAD_PHYSICAL)
    return physical


@function(0x50)
def map_multiple(ctx, ems) -> None:
    cpu = ctx.cpu
    if cpu.al > 1:
        raise EmsError(BAD_SUBFUNCTION)
    for i in range(cpu.cx):
        logical, where = struct.unpack_from("<HH", ctx.memory.read_far(cpu.ds, cpu.si + 4 * i, 4))
        physical = where if cpu.al == 0 else _physical_from_segment(where)
        ems.map(physical, cpu.dx, logical)


@function(0x51)
def reallocate(ctx, ems) -> None:
    ems.reallocate(ctx.cpu.dx, ctx.cpu.bx)
    ctx.cpu.bx = len(ems.handles[ctx.cpu.dx].pages)


@function(0x52)
def handle_attribute(ctx, ems) -> None:
    cpu = ctx.cpu
    if cpu.al == 0x00:
        ems._check_handle(cpu.dx)
        cpu.al = 0                                 # volatile
    elif cpu.al == 0x01:
        ems._check_handle(cpu.dx)
        if cpu.bl != 0:
            raise EmsError(UNSUPPORTED_FEATURE)   # no non-volatile handles
    elif cpu.al == 0x02:
        cpu.al = 0                                 # only volatile handles are supported
    else:
        raise EmsError(BAD_SUBFUNCTION)


@function(0x53)
def handle_name(ctx, ems) -> None:
    cpu = ctx.cpu
    h = ems._check_handle(cpu.dx)
    if cpu.al == 0x00:
        ctx.memory.write_far(cpu.es, cpu.di, h.name)
    elif cpu.al == 0x01:
        name = ctx.memory.read_far(cpu.ds, cpu.si, 8)
        if name != bytes(8) and any(o.name == name for n, o in ems.handles.items() if n != cpu.dx):
            raise EmsError(NAME_EXISTS)
        h.name = name
    else:
        raise EmsError(BAD_SUBFUNCTION)


@function(0x54)
def handle_directory(ctx, ems) -> None:
    cpu = ctx.cpu
    if cpu.al == 0x00:
        data = b"".join(struct.pack("<H", n) + h.name for n, h in sorted(ems.handles.items()))
        ctx.memory.write_far(cpu.es, cpu.di, data)
        cpu.al = len(ems.handles)
    elif cpu.al == 0x01:
        name = ctx.memory.read_far(cpu.ds, cpu.si, 8)
        found = [n for n, h in sorted(ems.handles.items()) if h.name == name and name != bytes(8)]
        if not found:
            raise EmsError(NAME_NOT_FOUND)
        cpu.dx = found[0]
    elif cpu.al == 0x02:
        cpu.bx = MAX_HANDLES
    else:
        raise EmsError(BAD_SUBFUNCTION)


@function(0x57)
def move_exchange(ctx, ems) -> None:
    """Move (AL=0) or exchange (AL=1) a region described at DS:SI between conventional
    memory (type 0: segment:offset) and expanded memory (type 1: handle, page, offset)."""
    cpu = ctx.cpu
    if cpu.al > 1:
        raise EmsError(BAD_SUBFUNCTION)
    block = ctx.memory.read_far(cpu.ds, cpu.si, 18)
    length = struct.unpack_from("<I", block, 0)[0]
    if length > 0x100000:
        raise EmsError(0x96)                       # region longer than 1 MB
    ems.sync()
    source = _region(ems, block[4:11])
    target = _region(ems, block[11:18])
    data = source.read(length)
    if cpu.al == 1:
        target_data = target.read(length)
        source.write(target_data)
    target.write(data)
    ems.set_map(list(ems.mapped))                  # the frame shows what the store now holds


class _Region:
    def __init__(self, read: Callable[[int], bytes], write: Callable[[bytes], None]) -> None:
        self.read, self.write = read, write


def _region(ems: ExpandedMemory, spec: bytes) -> _Region:
    kind, handle, offset, segment_or_page = struct.unpack("<BHHH", spec)
    mem = ems.ctx.memory
    if kind == 0:
        start = ((segment_or_page << 4) + offset) & 0xFFFFF
        return _Region(lambda n: mem.read(start, n), lambda data: mem.write(start, data))
    if kind != 1:
        raise EmsError(0x98)                       # invalid memory source type
    h = ems._check_handle(handle)
    if offset >= PAGE:
        raise EmsError(0x95)

    def read(n: int) -> bytes:
        out = bytearray()
        page, at = segment_or_page, offset
        while len(out) < n:
            if page >= len(h.pages):
                raise EmsError(0x93)               # region goes past the handle's pages
            chunk = ems._store_page(handle, page)[at:at + n - len(out)]
            out += chunk
            page, at = page + 1, 0
        return bytes(out)

    def write(data: bytes) -> None:
        page, at, done = segment_or_page, offset, 0
        while done < len(data):
            if page >= len(h.pages):
                raise EmsError(0x93)
            store = ems._store_page(handle, page)
            piece = data[done:done + PAGE - at]
            store[at:at + len(piece)] = piece
            done += len(piece)
            page, at = page + 1, 0
    return _Region(read, write)


@function(0x58)
def mappable_addresses(ctx, ems) -> None:
    cpu = ctx.cpu
    if cpu.al == 0x00:
        data = b"".join(struct.pack("<HH", FRAME_SEGMENT + i * (PAGE >> 4), i) for i in range(PHYSICAL_PAGES))
        ctx.memory.write_far(cpu.es, cpu.di, data)
    elif cpu.al != 0x01:
        raise EmsError(BAD_SUBFUNCTION)
    cpu.cx = PHYSICAL_PAGES


@function(0x59)
def hardware_information(ctx, ems) -> None:
    cpu = ctx.cpu
    if cpu.al == 0x00:
        raise EmsError(ACCESS_DENIED)              # the operating system keeps this to itself
    if cpu.al != 0x01:
        raise EmsError(BAD_SUBFUNCTION)
    cpu.bx = len(ems.free_pages)
    cpu.dx = ems.total


@function(0x5A)
def allocate_raw(ctx, ems) -> None:
    if ctx.cpu.al > 1:
        raise EmsError(BAD_SUBFUNCTION)
    ctx.cpu.dx = ems.allocate(ctx.cpu.bx, allow_zero=True)
