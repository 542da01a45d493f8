"""DOS file services: handles (3Ch-46h, 56h, 57h, 5Ah, 5Bh), FINDFIRST/FINDNEXT,
directories (39h-3Bh, 47h) and attributes (43h).

Files live on the mounted drives (``pcemu.storage``); character devices (CON,
PRN, AUX, NUL) are found by name as DOS finds them.  Every failure returns the
DOS error code with CF set.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pcemu.dos import OpenFile, dos_services
from pcemu.dos import console
from pcemu.storage.errors import DosError
from pcemu.storage import names

if TYPE_CHECKING:
    from pcemu.machine import Machine

ATTR_VOLUME, ATTR_DIRECTORY = 0x08, 0x10


def _path(m: "Machine", seg: int, off: int) -> str:
    return m.memory.read_asciiz(seg, off, 128).decode("cp437")   # names are CP437, as on disk


def _notify(m: "Machine", event: str, drive: str, parts: list[str], detail) -> None:
    """Tell file listeners (traces, the archivists' file report) what a program did."""
    watchers = m.events.file.listeners
    if watchers:
        path = f"{drive}:\\" + "\\".join(parts)
        for watch in watchers:
            watch(event, path, detail)


def _open_device(m: "Machine", device: str) -> int:
    return m.dos.new_handle(OpenFile(device, device=device))


# -- open, create, close -------------------------------------------------------------------
@dos_services.function(0x3C, 0x5B)
def create_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    text = _path(m, cpu.ds, cpu.dx)
    device = dos.device_name(text)
    if device:
        cpu.ax = _open_device(m, device)
        dos.succeed()
        return
    drive, parts = dos.resolve(text)
    fs = dos.drives[drive]
    handle_file = fs.create(parts, cpu.cx & 0x27, exclusive=cpu.ah == 0x5B)
    try:
        cpu.ax = dos.new_handle(OpenFile(text, file=handle_file, drive=drive, path=parts, mode=2))
    except DosError:
        handle_file.close()
        raise
    _notify(m, "create", drive, parts, 0)
    dos.succeed()


@dos_services.function(0x5A)
def create_unique(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    directory = _path(m, cpu.ds, cpu.dx)
    drive, parts = dos.resolve(directory or ".")
    fs = dos.drives[drive]
    counter = m.clock.now
    for attempt in range(1000):
        name = f"{(counter + attempt) & 0xFFFFFFFF:08X}"[:8]
        if fs.stat(parts + [name]) is None:
            break
    handle_file = fs.create(parts + [name], cpu.cx & 0x27, exclusive=True)
    cpu.ax = dos.new_handle(OpenFile(name, file=handle_file, drive=drive, path=parts + [name]))
    suffix = ("" if directory.endswith("\\") or not directory else "\\") + name + "\0"
    m.memory.write_far(cpu.ds, cpu.dx + len(directory), suffix.encode())
    dos.succeed()


@dos_services.function(0x3D)
def open_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    text = _path(m, cpu.ds, cpu.dx)
    mode = cpu.al
    device = dos.device_name(text)
    if device:
        cpu.ax = _open_device(m, device)
        dos.succeed()
        return
    drive, parts = dos.resolve(text)
    fs = dos.drives[drive]
    entry = fs.stat(parts)
    if entry is None or entry.is_dir or entry.is_label:
        raise DosError(0x02, f"{text}: file not found")
    access = mode & 0x07
    if access > 2:
        raise DosError(0x0C, "invalid access mode")
    if access != 0 and entry.attr & 0x01:
        raise DosError(0x05, f"{text} is read-only")
    opened = fs.open(parts, writable=access != 0)
    try:
        cpu.ax = dos.new_handle(OpenFile(text, file=opened, drive=drive, path=parts, mode=mode))
    except DosError:
        opened.close()
        raise
    _notify(m, "open", drive, parts, mode)
    dos.succeed()


@dos_services.function(0x3E)
def close_file(m: "Machine") -> None:
    m.dos.close_handle(m.cpu.bx)
    m.dos.succeed()


# -- read, write, seek ----------------------------------------------------------------------------
@dos_services.function(0x3F)
def read_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    entry = dos.handle_file(cpu.bx)
    count = cpu.cx
    if entry.is_device and entry.device == "CON":
        return console.read_con(m, count)        # a line through INT 16h, as DOS reads CON
    if entry.is_device:
        data = b""                               # NUL, AUX, PRN: end of file at once
    else:
        if entry.mode & 0x07 == 1:
            raise DosError(0x05, "file opened for writing only")
        position = entry.file.tell()
        data = entry.file.read(count)
        _notify(m, "read", entry.drive, entry.path, (position, len(data)))
    m.memory.write_far(cpu.ds, cpu.dx, data)
    cpu.ax = len(data)
    dos.succeed()


@dos_services.function(0x40)
def write_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    entry = dos.handle_file(cpu.bx)
    data = m.memory.read_far(cpu.ds, cpu.dx, cpu.cx)
    if entry.is_device:
        cpu.ax = len(data)
        dos.succeed()
        if entry.device == "CON":
            return console.put_from(m, cpu.ds, cpu.dx, data)   # through INT 29h, as DOS does
        if entry.device == "PRN":
            for b in data:
                m.printer.print_byte(b)
        return None
    if entry.mode & 0x07 == 0:
        raise DosError(0x05, "file opened for reading only")
    position = entry.file.tell()
    if not data:
        entry.file.truncate()
        written = 0
    else:
        written = entry.file.write(data)
    _notify(m, "write", entry.drive, entry.path, (position, written))
    cpu.ax = written
    dos.succeed()


@dos_services.function(0x42)
def seek_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    entry = dos.handle_file(cpu.bx)
    offset = (cpu.cx << 16) | cpu.dx
    if offset & 0x80000000:
        offset -= 1 << 32
    if entry.is_device:
        cpu.dx, cpu.ax = 0, 0
        dos.succeed()
        return
    whence = cpu.al
    if whence > 2:
        raise DosError(0x01, "invalid seek origin")
    base = (0, entry.file.tell(), entry.file.size)[whence]
    position = (base + offset) & 0xFFFFFFFF
    entry.file.seek(position)
    cpu.dx, cpu.ax = position >> 16, position & 0xFFFF
    dos.succeed()


@dos_services.function(0x45)
def duplicate_handle(m: "Machine") -> None:
    dos = m.dos
    entry = dos.handle_file(m.cpu.bx)
    entry.references += 1
    handle = _place(m, entry)
    m.cpu.ax = handle
    dos.succeed()


def _place(m: "Machine", entry: OpenFile) -> int:
    dos = m.dos
    index = dos.files.index(entry)
    seg, off, size = dos.psp_handle_table()
    for handle in range(size):
        if m.memory.rb(seg, off + handle) == 0xFF:
            m.memory.wb(seg, off + handle, index)
            return handle
    entry.references -= 1
    raise DosError(0x04, "too many open files")


@dos_services.function(0x46)
def force_duplicate(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    entry = dos.handle_file(cpu.bx)
    target = cpu.cx
    seg, off, size = dos.psp_handle_table()
    if target >= size:
        raise DosError(0x06, "invalid handle")
    if m.memory.rb(seg, off + target) != 0xFF:
        dos.close_handle(target)
    entry.references += 1
    m.memory.wb(seg, off + target, dos.files.index(entry))
    dos.succeed()


@dos_services.function(0x44)
def ioctl(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    sub = cpu.al
    if sub == 0x00:
        entry = dos.handle_file(cpu.bx)
        if entry.is_device:
            info = 0x80 | {"CON": 0x03 | 0x10, "NUL": 0x04, "CLOCK$": 0x08}.get(entry.device, 0)
            if entry.device == "CON" and getattr(entry, "raw", False):
                info |= 0x20
        else:
            info = ord(entry.drive) - ord("A")
        cpu.dx = info
        cpu.ax = info
        dos.succeed()
    elif sub == 0x01:
        entry = dos.handle_file(cpu.bx)
        if entry.is_device:
            entry.raw = bool(cpu.dl & 0x20)
        dos.succeed()
    elif sub in (0x06, 0x07):
        entry = dos.handle_file(cpu.bx)
        if entry.is_device:
            ready = entry.device != "CON" or sub == 0x07 or console._key_waiting(m)
        else:
            ready = sub == 0x07 or entry.file.tell() < entry.file.size
        cpu.al = 0xFF if ready else 0x00
        dos.succeed()
    elif sub == 0x08:
        drive = cpu.bl
        letter = dos.current_drive if drive == 0 else chr(64 + drive)
        if letter not in dos.drives:
            raise DosError(0x0F, "invalid drive")
        cpu.ax = 0 if letter in ("A", "B") else 1
        dos.succeed()
    elif sub == 0x09:
        drive = cpu.bl
        letter = dos.current_drive if drive == 0 else chr(64 + drive)
        if letter not in dos.drives:
            raise DosError(0x0F, "invalid drive")
        cpu.dx = 0x1000 if dos.floppy_image(ord(letter) - 65) is None else 0
        dos.succeed()
    elif sub == 0x0E:
        cpu.al = 0
        dos.succeed()
    else:
        m.unimplemented(0x21, f"IOCTL subfunction {sub:02X}h")
        dos.fail(0x01)


@dos_services.function(0x57)
def file_date_time(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    entry = dos.handle_file(cpu.bx)
    if entry.is_device:
        raise DosError(0x06, "invalid handle")
    if cpu.al == 0:
        cpu.dx, cpu.cx = entry.file.get_datetime()
    elif cpu.al == 1:
        entry.file.set_datetime(cpu.dx, cpu.cx)
    else:
        raise DosError(0x01, "invalid function")
    dos.succeed()


# -- names: delete, rename, attributes -------------------------------------------------------------
@dos_services.function(0x41)
def delete_file(m: "Machine") -> None:
    dos = m.dos
    text = _path(m, m.cpu.ds, m.cpu.dx)
    drive, parts = dos.resolve(text)
    fs = dos.drives[drive]
    entry = fs.stat(parts)
    if entry is None or entry.is_dir:
        raise DosError(0x02, f"{text}: file not found")
    if entry.attr & 0x01:
        raise DosError(0x05, f"{text} is read-only")
    fs.remove(parts)
    _notify(m, "delete", drive, parts, 0)
    dos.succeed()


@dos_services.function(0x56)
def rename_file(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    old_drive, old = dos.resolve(_path(m, cpu.ds, cpu.dx))
    new_drive, new = dos.resolve(_path(m, cpu.es, cpu.di))
    if old_drive != new_drive:
        raise DosError(0x11, "not same device")
    dos.drives[old_drive].rename(old, new)
    dos.succeed()


@dos_services.function(0x43)
def file_attributes(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    drive, parts = dos.resolve(_path(m, cpu.ds, cpu.dx))
    fs = dos.drives[drive]
    if cpu.al == 0:
        if not parts:
            cpu.cx = ATTR_DIRECTORY
        else:
            entry = fs.stat(parts)
            if entry is None:
                raise DosError(0x02, "file not found")
            cpu.cx = entry.attr
        dos.succeed()
    elif cpu.al == 1:
        fs.set_attr(parts, cpu.cx)
        dos.succeed()
    else:
        raise DosError(0x01, "invalid function")


# -- directories ----------------------------------------------------------------------------------
@dos_services.function(0x39)
def make_directory(m: "Machine") -> None:
    drive, parts = m.dos.resolve(_path(m, m.cpu.ds, m.cpu.dx))
    m.dos.drives[drive].mkdir(parts)
    m.dos.succeed()


@dos_services.function(0x3A)
def remove_directory(m: "Machine") -> None:
    dos = m.dos
    drive, parts = dos.resolve(_path(m, m.cpu.ds, m.cpu.dx))
    if parts == dos.current_dirs.get(drive):
        raise DosError(0x10, "attempt to remove the current directory")
    dos.drives[drive].rmdir(parts)
    dos.succeed()


@dos_services.function(0x3B)
def change_directory(m: "Machine") -> None:
    dos = m.dos
    text = _path(m, m.cpu.ds, m.cpu.dx)
    drive, parts = dos.resolve(text)
    dos.check_ready(drive)
    if parts:
        entry = dos.drives[drive].stat(parts)
        if entry is None or not entry.is_dir:
            raise DosError(0x03, f"{text}: path not found")
    dos.current_dirs[drive] = parts
    dos.succeed()


@dos_services.function(0x47)
def current_directory(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    letter = dos.current_drive if cpu.dl == 0 else chr(64 + cpu.dl)
    if letter not in dos.drives:
        raise DosError(0x0F, "invalid drive")
    dos.check_ready(letter)               # DOS checks the medium of a removable drive
    text = "\\".join(dos.current_dirs.get(letter, [])).encode("cp437", "replace")
    m.memory.write_far(cpu.ds, cpu.si, text + b"\0")
    cpu.ax = 0x0100
    dos.succeed()


# -- FINDFIRST / FINDNEXT ------------------------------------------------------------------------
# The DTA's first 21 bytes are DOS's own: we keep the search there (drive, the
# 11-byte pattern, attributes, the directory slot reached and a search id).


def _find_from(m: "Machine", drive: str, directory: list[str], pattern: bytes, attributes: int,
               start_slot: int, search_id: int) -> None:
    dos = m.dos
    fs = dos.drives[drive]
    seg, off = dos.dta
    if attributes == ATTR_VOLUME:
        entries = [e for e in fs.listdir([]) if e.is_label] if not directory else []
    else:
        entries = fs.listdir(directory)
    for entry in entries:
        if entry.slot <= start_slot:
            continue
        if entry.is_label and not attributes & ATTR_VOLUME:
            continue
        if attributes != ATTR_VOLUME and entry.is_label and attributes & ATTR_VOLUME == 0:
            continue
        hidden_bits = entry.attr & (0x02 | 0x04 | ATTR_DIRECTORY)
        if hidden_bits & ~attributes and not entry.is_label:
            continue
        if not names.fcb_matches(pattern, names.entry_fcb(entry.name)):
            continue
        record = bytearray(43)
        record[0] = ord(drive) - 64
        record[1:12] = pattern
        record[12] = attributes
        struct.pack_into("<HH", record, 13, entry.slot & 0xFFFF, search_id)
        record[0x15] = entry.attr
        struct.pack_into("<HHI", record, 0x16, entry.time, entry.date, entry.size)
        name = entry.name.encode("cp437", "replace")[:12]
        record[0x1E:0x1E + len(name)] = name
        m.memory.write_far(seg, off, bytes(record))
        m.cpu.ax = 0
        dos.succeed()
        return
    raise DosError(0x12, "no more files")


@dos_services.function(0x4E)
def find_first(m: "Machine") -> None:
    dos = m.dos
    cpu = m.cpu
    text = _path(m, cpu.ds, cpu.dx)
    directory_text, _, pattern_text = text.replace("/", "\\").rpartition("\\")
    if len(text) >= 2 and text[1] == ":" and not directory_text:
        directory_text, pattern_text = text[:2], text[2:]
    elif directory_text == "" and text.startswith("\\"):
        directory_text = "\\"
    drive, directory = dos.resolve(directory_text if directory_text else ".")
    if directory:
        entry = dos.drives[drive].stat(directory)
        if entry is None or not entry.is_dir:
            raise DosError(0x03, f"{text}: path not found")
    try:
        pattern = names.pattern_to_fcb(pattern_text or "*.*")
    except (DosError, ValueError):
        raise DosError(0x02, f"{text}: file not found") from None
    search_id = len(m.dos.searches) + 1
    m.dos.searches[search_id] = (drive, directory)
    try:
        _find_from(m, drive, directory, pattern, cpu.cx & 0xFF, -1, search_id)
    except DosError as err:
        raise DosError(0x12 if err.code == 0x12 else err.code, "no more files") from None


@dos_services.function(0x4F)
def find_next(m: "Machine") -> None:
    dos = m.dos
    seg, off = dos.dta
    record = m.memory.read_far(seg, off, 21)
    drive = chr(record[0] + 64)
    slot, search_id = struct.unpack_from("<HH", record, 13)
    search = m.dos.searches.get(search_id)
    if search is None or search[0] != drive:
        raise DosError(0x12, "no more files")
    _find_from(m, drive, search[1], bytes(record[1:12]), record[12], slot, search_id)
