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

from pcemu.dos import console, dos_services, kernel
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.machine import Machine

def _path(m: "Machine", seg: int, off: int) -> str:
    return m.memory.read_asciiz(seg, off, 128).decode("cp437")   # names are CP437, as on disk


# -- open, create, close -------------------------------------------------------------------
@dos_services.function(0x3C, 0x5B)
def create_file(m: "Machine") -> None:
    cpu = m.cpu
    cpu.ax = kernel.create(m.dos, _path(m, cpu.ds, cpu.dx), cpu.cx, exclusive=cpu.ah == 0x5B)
    m.dos.succeed()


@dos_services.function(0x5A)
def create_unique(m: "Machine") -> None:
    cpu = m.cpu
    directory = _path(m, cpu.ds, cpu.dx)
    cpu.ax, name = kernel.create_unique(m.dos, directory, cpu.cx)
    suffix = ("" if directory.endswith("\\") or not directory else "\\") + name + "\0"
    m.memory.write_far(cpu.ds, cpu.dx + len(directory), suffix.encode())
    m.dos.succeed()


@dos_services.function(0x3D)
def open_file(m: "Machine") -> None:
    cpu = m.cpu
    cpu.ax = kernel.open_file(m.dos, _path(m, cpu.ds, cpu.dx), cpu.al)
    m.dos.succeed()


@dos_services.function(0x3E)
def close_file(m: "Machine") -> None:
    kernel.close(m.dos, m.cpu.bx)
    m.dos.succeed()


# -- read, write, seek ----------------------------------------------------------------------------
@dos_services.function(0x3F)
def read_file(m: "Machine") -> None:
    cpu = m.cpu
    data = kernel.read(m.dos, cpu.bx, cpu.cx)
    if data is None:
        return                                   # waiting for a line on CON
    m.memory.write_far(cpu.ds, cpu.dx, data)
    cpu.ax = len(data)
    m.dos.succeed()


@dos_services.function(0x40)
def write_file(m: "Machine") -> None:
    cpu = m.cpu
    cpu.ax = kernel.write(m.dos, cpu.bx, m.memory.read_far(cpu.ds, cpu.dx, cpu.cx))
    m.dos.succeed()


@dos_services.function(0x42)
def seek_file(m: "Machine") -> None:
    cpu = m.cpu
    offset = (cpu.cx << 16) | cpu.dx
    if offset & 0x80000000:
        offset -= 1 << 32
    position = kernel.seek(m.dos, cpu.bx, offset, cpu.al)
    cpu.dx, cpu.ax = position >> 16, position & 0xFFFF
    m.dos.succeed()


@dos_services.function(0x45)
def duplicate_handle(m: "Machine") -> None:
    m.cpu.ax = kernel.duplicate(m.dos, m.cpu.bx)
    m.dos.succeed()


@dos_services.function(0x46)
def force_duplicate(m: "Machine") -> None:
    kernel.force_duplicate(m.dos, m.cpu.bx, m.cpu.cx)
    m.dos.succeed()


@dos_services.function(0x57)
def file_date_time(m: "Machine") -> None:
    cpu = m.cpu
    if cpu.al == 0:
        cpu.dx, cpu.cx = kernel.get_file_time(m.dos, cpu.bx)
    elif cpu.al == 1:
        kernel.set_file_time(m.dos, cpu.bx, cpu.dx, cpu.cx)
    else:
        kernel.get_file_time(m.dos, cpu.bx)         # a bad handle is reported first
        raise DosError(0x01, "invalid function")
    m.dos.succeed()


# -- names: delete, rename, attributes -------------------------------------------------------------
@dos_services.function(0x41)
def delete_file(m: "Machine") -> None:
    kernel.delete(m.dos, _path(m, m.cpu.ds, m.cpu.dx))
    m.dos.succeed()


@dos_services.function(0x56)
def rename_file(m: "Machine") -> None:
    cpu = m.cpu
    kernel.rename(m.dos, _path(m, cpu.ds, cpu.dx), _path(m, cpu.es, cpu.di))
    m.dos.succeed()


@dos_services.function(0x43)
def file_attributes(m: "Machine") -> None:
    cpu = m.cpu
    text = _path(m, cpu.ds, cpu.dx)
    if cpu.al == 0:
        cpu.cx = kernel.get_attributes(m.dos, text)
    elif cpu.al == 1:
        kernel.set_attributes(m.dos, text, cpu.cx)
    else:
        raise DosError(0x01, "invalid function")
    m.dos.succeed()


# -- directories ----------------------------------------------------------------------------------
@dos_services.function(0x39)
def make_directory(m: "Machine") -> None:
    kernel.make_dir(m.dos, _path(m, m.cpu.ds, m.cpu.dx))
    m.dos.succeed()


@dos_services.function(0x3A)
def remove_directory(m: "Machine") -> None:
    kernel.remove_dir(m.dos, _path(m, m.cpu.ds, m.cpu.dx))
    m.dos.succeed()


@dos_services.function(0x3B)
def change_directory(m: "Machine") -> None:
    kernel.change_dir(m.dos, _path(m, m.cpu.ds, m.cpu.dx))
    m.dos.succeed()


@dos_services.function(0x47)
def current_directory(m: "Machine") -> None:
    cpu = m.cpu
    letter = m.dos.current_drive if cpu.dl == 0 else chr(64 + cpu.dl)
    text = kernel.current_dir(m.dos, letter).encode("cp437", "replace")
    m.memory.write_far(cpu.ds, cpu.si, text + b"\0")
    cpu.ax = 0x0100
    m.dos.succeed()


# -- FINDFIRST / FINDNEXT ------------------------------------------------------------------------
# The DTA's first 21 bytes are DOS's own: we keep the search there (drive, the
# 11-byte pattern, attributes, the directory slot reached and a search id).


def _find_from(m: "Machine", drive: str, directory: list[str], pattern: bytes, attributes: int,
               start_slot: int, search_id: int) -> None:
    dos = m.dos
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
    m.memory.write_far(*dos.dta, bytes(record))
    m.cpu.ax = 0
    dos.succeed()


@dos_services.function(0x4E)
def find_first(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    drive, directory, pattern = kernel.split_search(dos, _path(m, cpu.ds, cpu.dx))
    search_id = len(dos.searches) + 1
    dos.searches[search_id] = (drive, directory)
    _find_from(m, drive, directory, pattern, cpu.cx & 0xFF, -1, search_id)


@dos_services.function(0x4F)
def find_next(m: "Machine") -> None:
    dos = m.dos
    record = m.memory.read_far(*dos.dta, 21)
    drive = chr(record[0] + 64)
    slot, search_id = struct.unpack_from("<HH", record, 13)
    search = dos.searches.get(search_id)
    if search is None or search[0] != drive:
        raise DosError(0x12, "no more files")
    _find_from(m, drive, search[1], bytes(record[1:12]), record[12], slot, search_id)
