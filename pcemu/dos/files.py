"""DOS file services: handles (3Ch-43h, 45h, 46h, 56h, 57h, 5Ah, 5Bh), FINDFIRST/FINDNEXT,
directories (39h-3Bh, 47h) and attributes (43h).

Each handler only turns registers into a call of the DOS kernel
(`pcemu.dos.kernel`, which the command interpreter calls too) and its result
into registers; a `DosError` the kernel raises becomes the error code in AX
with CF set (`process.dos_entry`), a critical error goes to INT 24h.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from bios.services import FunctionTable
from pcemu.dos import con, console, kernel
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("files")      # this area's INT 21h functions (int21.py)


def _path(ctx: "ServiceContext", seg: int, off: int) -> str:
    return ctx.memory.read_asciiz(seg, off, 128).decode("cp437")   # names are CP437, as on disk


# -- open, create, close -------------------------------------------------------------------
@functions.function(0x3C, 0x5B)
def create_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.ax = kernel.create(ctx.dos, _path(ctx, cpu.ds, cpu.dx), cpu.cx, exclusive=cpu.ah == 0x5B)
    ctx.dos.succeed()


@functions.function(0x5A)
def create_unique(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    directory = _path(ctx, cpu.ds, cpu.dx)
    cpu.ax, name = kernel.create_unique(ctx.dos, directory, cpu.cx)
    suffix = ("" if directory.endswith("\\") or not directory else "\\") + name + "\0"
    ctx.memory.write_far(cpu.ds, cpu.dx + len(directory), suffix.encode())
    ctx.dos.succeed()


@functions.function(0x3D)
def open_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.ax = kernel.open_file(ctx.dos, _path(ctx, cpu.ds, cpu.dx), cpu.al)
    ctx.dos.succeed()


@functions.function(0x3E)
def close_file(ctx: "ServiceContext") -> None:
    kernel.close(ctx.dos, ctx.cpu.bx)
    ctx.dos.succeed()


# -- read, write, seek ----------------------------------------------------------------------------
@functions.function(0x3F)
def read_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    entry = ctx.dos.handle_file(cpu.bx)
    if entry.is_device and entry.device == "CON":
        return console.read_con(ctx, cpu.cx)       # a line through INT 16h, as DOS reads CON
    data = kernel.read(ctx.dos, cpu.bx, cpu.cx)
    ctx.memory.write_far(cpu.ds, cpu.dx, data)
    cpu.ax = len(data)
    ctx.dos.succeed()


@functions.function(0x40)
def write_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    entry = ctx.dos.handle_file(cpu.bx)
    data = ctx.memory.read_far(cpu.ds, cpu.dx, cpu.cx)
    if entry.is_device and entry.device == "CON":
        cpu.ax = len(data)
        ctx.dos.succeed()
        return con.put_from(ctx, cpu.ds, cpu.dx, data)   # through INT 29h, as DOS does
    cpu.ax = kernel.write(ctx.dos, cpu.bx, data)
    ctx.dos.succeed()


@functions.function(0x42)
def seek_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    offset = (cpu.cx << 16) | cpu.dx
    if offset & 0x80000000:
        offset -= 1 << 32
    position = kernel.seek(ctx.dos, cpu.bx, offset, cpu.al)
    cpu.dx, cpu.ax = position >> 16, position & 0xFFFF
    ctx.dos.succeed()


@functions.function(0x45)
def duplicate_handle(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = kernel.duplicate(ctx.dos, ctx.cpu.bx)
    ctx.dos.succeed()


@functions.function(0x46)
def force_duplicate(ctx: "ServiceContext") -> None:
    kernel.force_duplicate(ctx.dos, ctx.cpu.bx, ctx.cpu.cx)
    ctx.dos.succeed()


@functions.function(0x57)
def file_date_time(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    if cpu.al == 0:
        cpu.dx, cpu.cx = kernel.get_file_time(ctx.dos, cpu.bx)
    elif cpu.al == 1:
        kernel.set_file_time(ctx.dos, cpu.bx, cpu.dx, cpu.cx)
    else:
        kernel.get_file_time(ctx.dos, cpu.bx)         # a bad handle is reported first
        raise DosError(0x01, "invalid function")
    ctx.dos.succeed()


# -- names: delete, rename, attributes -------------------------------------------------------------
@functions.function(0x41)
def delete_file(ctx: "ServiceContext") -> None:
    kernel.delete(ctx.dos, _path(ctx, ctx.cpu.ds, ctx.cpu.dx))
    ctx.dos.succeed()


@functions.function(0x56)
def rename_file(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    kernel.rename(ctx.dos, _path(ctx, cpu.ds, cpu.dx), _path(ctx, cpu.es, cpu.di))
    ctx.dos.succeed()


@functions.function(0x43)
def file_attributes(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    text = _path(ctx, cpu.ds, cpu.dx)
    if cpu.al == 0:
        cpu.cx = kernel.get_attributes(ctx.dos, text)
    elif cpu.al == 1:
        kernel.set_attributes(ctx.dos, text, cpu.cx)
    else:
        raise DosError(0x01, "invalid function")
    ctx.dos.succeed()


# -- directories ----------------------------------------------------------------------------------
@functions.function(0x39)
def make_directory(ctx: "ServiceContext") -> None:
    kernel.make_dir(ctx.dos, _path(ctx, ctx.cpu.ds, ctx.cpu.dx))
    ctx.dos.succeed()


@functions.function(0x3A)
def remove_directory(ctx: "ServiceContext") -> None:
    kernel.remove_dir(ctx.dos, _path(ctx, ctx.cpu.ds, ctx.cpu.dx))
    ctx.dos.succeed()


@functions.function(0x3B)
def change_directory(ctx: "ServiceContext") -> None:
    kernel.change_dir(ctx.dos, _path(ctx, ctx.cpu.ds, ctx.cpu.dx))
    ctx.dos.succeed()


@functions.function(0x47)
def current_directory(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    letter = ctx.dos.current_drive if cpu.dl == 0 else chr(64 + cpu.dl)
    text = kernel.current_dir(ctx.dos, letter).encode("cp437", "replace")
    ctx.memory.write_far(cpu.ds, cpu.si, text + b"\0")
    cpu.ax = 0x0100
    ctx.dos.succeed()


# -- FINDFIRST / FINDNEXT ------------------------------------------------------------------------
# The DTA's first 21 bytes are DOS's own: we keep the search there (drive, the
# 11-byte pattern, attributes, the directory slot reached and a search id).


def _find_from(ctx: "ServiceContext", drive: str, directory: list[str], pattern: bytes, attributes: int,
               start_slot: int, search_id: int) -> None:
    dos = ctx.dos
    entry = kernel.find(dos, drive, directory, pattern, attributes, start_slot)
    record = bytearray(43)
    record[0] = ord(drive) - 64
    record[1:12] = pattern
    record[12] = attributes
    struct.pack_into("<HH", record, 13, entry.slot & 0xFFFF, search_id)
    record[0x15] = entry.attr
    struct.pack_into("<HHI", record, 0x16, entry.time, entry.date, entry.size)
    name = entry.name.encode("cp437", "replace")[:12]
    record[0x1E:0x1E + len(name)] = name
    ctx.memory.write_far(*dos.dta, bytes(record))
    ctx.cpu.ax = 0
    dos.succeed()


@functions.function(0x4E)
def find_first(ctx: "ServiceContext") -> None:
    dos = ctx.dos
    cpu = ctx.cpu
    drive, directory, pattern = kernel.split_search(dos, _path(ctx, cpu.ds, cpu.dx))
    search_id = len(dos.searches) + 1
    dos.searches[search_id] = (drive, directory)
    _find_from(ctx, drive, directory, pattern, cpu.cx & 0xFF, -1, search_id)


@functions.function(0x4F)
def find_next(ctx: "ServiceContext") -> None:
    dos = ctx.dos
    record = ctx.memory.read_far(*dos.dta, 21)
    drive = chr(record[0] + 64)
    slot, search_id = struct.unpack_from("<HH", record, 13)
    search = dos.searches.get(search_id)
    if search is None or search[0] != drive:
        raise DosError(0x12, "no more files")
    _find_from(ctx, drive, search[1], bytes(record[1:12]), record[12], slot, search_id)
