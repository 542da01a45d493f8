"""The DOS kernel's file API: one function per thing DOS does with names, handles
and directories, shared by INT 21h's handlers and the command interpreter.

DOSBox's INT 21h AH=3Bh and its shell's CD both call one DOS_ChangeDir; here
both `pcemu.dos.files` (registers in, registers out) and `pcemu.shell` call
`change_dir`.  Every function takes Python values (DOS path strings, handles)
and returns a result or raises: `DosError` with the code INT 21h returns in AX,
or `critical.CriticalError` for a device error DOS reports through INT 24h (an
empty drive's "Not ready", checked here, so the shell's CD meets it too).
Write-protected media surface from the storage layer as a `DosError` with a
code of `critical.CRITICAL_CODES`; each caller's boundary (the INT 21h
dispatcher, the shell's guard) turns those into INT 24h, since what "Ignore"
means depends on the call.

Handles are those of the current process's job file table (the PSP), so the
shell's own handles 0 and 1, duplicated over a file, are what a program it
starts inherits: that is how redirection reaches a guest program.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from pcemu.dos import con
from pcemu.dos.structures import OpenFile
from pcemu.storage import names
from pcemu.storage.drive import DirEntry
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.dos.core import Dos

ATTR_READ_ONLY, ATTR_HIDDEN, ATTR_SYSTEM, ATTR_VOLUME, ATTR_DIRECTORY = 0x01, 0x02, 0x04, 0x08, 0x10
CREATE_ATTRIBUTES = 0x27                 # read-only, hidden, system, archive


def notify(dos: "Dos", event: str, drive: str, parts: list[str], detail) -> None:
    """Tell file listeners (traces, the archivists' file report) what was done."""
    watchers = dos.ctx.events.file.listeners
    if watchers:
        path = f"{drive}:\\" + "\\".join(parts)
        for watch in watchers:
            watch(event, path, detail)


def full_name(drive: str, parts: list[str]) -> str:
    return f"{drive}:\\" + "\\".join(parts)


# -- directories ----------------------------------------------------------------------------
def change_dir(dos: "Dos", text: str) -> None:
    """INT 21h AH=3Bh and CD: the drive must be ready and the path a directory.
    A name DOS cannot make (``*.*``) is "path not found" too: 3Bh returns only 03h."""
    try:
        drive, parts = dos.resolve(text)
    except DosError as err:
        if err.code == 0x02:
            raise DosError(0x03, f"{text}: path not found") from None
        raise
    dos.check_ready(drive)
    if parts:
        entry = dos.drives[drive].stat(parts)
        if entry is None or not entry.is_dir:
            raise DosError(0x03, f"{text}: path not found")
    dos.current_dirs[drive] = parts


def current_dir(dos: "Dos", letter: str | None = None) -> str:
    """INT 21h AH=47h and CD with no argument: the path without drive or leading
    backslash.  DOS checks the medium of a removable drive first."""
    letter = (letter or dos.current_drive).upper()
    if letter not in dos.drives:
        raise DosError(0x0F, "invalid drive")
    dos.check_ready(letter)
    return "\\".join(dos.current_dirs.get(letter, []))


def make_dir(dos: "Dos", text: str) -> None:
    drive, parts = dos.resolve(text)
    dos.drives[drive].mkdir(parts)


def remove_dir(dos: "Dos", text: str) -> None:
    drive, parts = dos.resolve(text)
    if parts == dos.current_dirs.get(drive):
        raise DosError(0x10, "attempt to remove the current directory")
    dos.drives[drive].rmdir(parts)


# -- handles --------------------------------------------------------------------------------
def _open_device(dos: "Dos", device: str) -> int:
    return dos.new_handle(OpenFile(device, device=device))


def create(dos: "Dos", text: str, attributes: int = 0, *, exclusive: bool = False) -> int:
    """AH=3Ch (and 5Bh, ``exclusive``): a new empty file, or an existing one cut to 0."""
    device = dos.device_name(text)
    if device:
        return _open_device(dos, device)
    drive, parts = dos.resolve(text)
    opened = dos.drives[drive].create(parts, attributes & CREATE_ATTRIBUTES, exclusive=exclusive)
    try:
        handle = dos.new_handle(OpenFile(text, file=opened, drive=drive, path=parts, mode=2))
    except DosError:
        opened.close()
        raise
    notify(dos, "create", drive, parts, 0)
    return handle


def create_unique(dos: "Dos", directory: str, attributes: int = 0) -> tuple[int, str]:
    """AH=5Ah: a file with a new name (eight hex digits from the clock) in ``directory``."""
    drive, parts = dos.resolve(directory or ".")
    fs = dos.drives[drive]
    counter = dos.ctx.time.clock.now
    for attempt in range(1000):
        name = f"{(counter + attempt) & 0xFFFFFFFF:08X}"
        if fs.stat(parts + [name]) is None:
            break
    opened = fs.create(parts + [name], attributes & CREATE_ATTRIBUTES, exclusive=True)
    try:
        handle = dos.new_handle(OpenFile(name, file=opened, drive=drive, path=parts + [name]))
    except DosError:
        opened.close()
        raise
    return handle, name


def open_file(dos: "Dos", text: str, mode: int = 0) -> int:
    """AH=3Dh: ``mode``'s low three bits are the access (0 read, 1 write, 2 both)."""
    device = dos.device_name(text)
    if device:
        return _open_device(dos, device)
    drive, parts = dos.resolve(text)
    fs = dos.drives[drive]
    entry = fs.stat(parts)
    if entry is None or entry.is_dir or entry.is_label:
        raise DosError(0x02, f"{text}: file not found")
    access = mode & 0x07
    if access > 2:
        raise DosError(0x0C, "invalid access mode")
    if access != 0 and entry.attr & ATTR_READ_ONLY:
        raise DosError(0x05, f"{text} is read-only")
    opened = fs.open(parts, writable=access != 0)
    try:
        handle = dos.new_handle(OpenFile(text, file=opened, drive=drive, path=parts, mode=mode))
    except DosError:
        opened.close()
        raise
    notify(dos, "open", drive, parts, mode)
    return handle


def close(dos: "Dos", handle: int) -> None:
    dos.close_handle(handle)


def read(dos: "Dos", handle: int, count: int) -> bytes | None:
    """AH=3Fh.  None: a read from CON is waiting for the rest of its line."""
    entry = dos.handle_file(handle)
    if entry.is_device:
        if entry.device == "CON":
            return _read_con(dos, count)
        return b""                               # NUL, AUX, PRN: end of file at once
    if entry.mode & 0x07 == 1:
        raise DosError(0x05, "file opened for writing only")
    position = entry.file.tell()
    data = entry.file.read(count)
    notify(dos, "read", entry.drive, entry.path, (position, len(data)))
    return data


def _read_con(dos: "Dos", count: int) -> bytes | None:
    """CON in cooked mode: a whole line is read with echo and backspace, then handed
    out ``count`` bytes at a time (Enter ends it with CR LF, Ctrl-Z with 1Ah)."""
    ctx = dos.ctx
    pending = getattr(dos, "con_pending", b"")
    if not pending:
        line = getattr(dos, "con_line", None)
        if line is None:
            line = dos.con_line = bytearray()
        while True:
            key = con.next_key(ctx)
            if key is None:
                ctx.call.wait_for_input()
                return None
            if key == 0:
                con.next_key(ctx)
                continue
            if key == 0x0D:
                con.write_bytes(ctx, b"\r\n")
                pending = bytes(line) + b"\r\n"
                dos.con_line = None
                break
            if key == 0x1A:
                pending = bytes(line) + b"\x1a"
                dos.con_line = None
                break
            if key in (0x08, 0x7F):
                if line:
                    line.pop()
                    con.write_bytes(ctx, b"\x08 \x08")
                continue
            if len(line) < 127:
                line.append(key)
                con.write_char(ctx, key)
    data, dos.con_pending = pending[:count], pending[count:]
    return data


def write(dos: "Dos", handle: int, data: bytes) -> int:
    """AH=40h: the bytes written; writing none cuts the file at its position."""
    entry = dos.handle_file(handle)
    if entry.is_device:
        if entry.device == "CON":
            con.write_bytes(dos.ctx, data)
        elif entry.device == "PRN":
            for b in data:
                dos.ctx.devices.printer.print_byte(b)
        return len(data)
    if entry.mode & 0x07 == 0:
        raise DosError(0x05, "file opened for reading only")
    position = entry.file.tell()
    if not data:
        entry.file.truncate()
        written = 0
    else:
        written = entry.file.write(data)
    notify(dos, "write", entry.drive, entry.path, (position, written))
    return written


def _redirected(dos: "Dos", handle: int) -> OpenFile | None:
    """The current process's standard handle when it is not CON (``< FILE``, ``> FILE``)."""
    try:
        entry = dos.handle_file(handle)
    except DosError:
        return None
    return None if entry.device == "CON" else entry


def write_redirected(dos: "Dos", data: bytes) -> bool:
    """The console output functions (02h, 06h, 09h) write to standard output: when
    the current process's handle 1 is not CON (``PROG > FILE``) the bytes go there
    and this is True; otherwise the caller writes to the screen as CON does."""
    if _redirected(dos, 1) is None:
        return False
    write(dos, 1, data)
    return True


def read_redirected(dos: "Dos") -> bytes | None:
    """The console input functions (01h, 06h-08h, 0Ah) read standard input: when the
    current process's handle 0 is not CON (``PROG < FILE``) one byte comes from it
    (b"" at its end) and this returns it; None: the caller reads the keyboard."""
    if _redirected(dos, 0) is None:
        return None
    return read(dos, 0, 1) or b""


def input_waiting_redirected(dos: "Dos") -> bool | None:
    """Function 0Bh's answer for a redirected standard input (a byte left to read), or
    None when handle 0 is CON."""
    entry = _redirected(dos, 0)
    if entry is None:
        return None
    return entry.file is not None and entry.file.tell() < entry.file.size


def seek(dos: "Dos", handle: int, offset: int, whence: int) -> int:
    """AH=42h: the new position (32-bit, wrapping as DOS's does); devices stay at 0."""
    entry = dos.handle_file(handle)
    if entry.is_device:
        return 0
    if whence > 2:
        raise DosError(0x01, "invalid seek origin")
    base = (0, entry.file.tell(), entry.file.size)[whence]
    position = (base + offset) & 0xFFFFFFFF
    entry.file.seek(position)
    return position


def duplicate(dos: "Dos", handle: int) -> int:
    """AH=45h: a second handle for the same open file (sharing its position)."""
    entry = dos.handle_file(handle)
    index = dos.files.index(entry)
    seg, off, size = dos.psp_handle_table()
    memory = dos.ctx.memory
    for new in range(size):
        if memory.rb(seg, off + new) == 0xFF:
            memory.wb(seg, off + new, index)
            entry.references += 1
            return new
    raise DosError(0x04, "too many open files")


def force_duplicate(dos: "Dos", handle: int, target: int) -> None:
    """AH=46h: ``target`` (closed first if open) becomes a copy of ``handle``."""
    entry = dos.handle_file(handle)
    seg, off, size = dos.psp_handle_table()
    if target >= size:
        raise DosError(0x06, "invalid handle")
    if target == handle:
        return
    if dos.ctx.memory.rb(seg, off + target) != 0xFF:
        dos.close_handle(target)
    entry.references += 1
    dos.ctx.memory.wb(seg, off + target, dos.files.index(entry))


def get_file_time(dos: "Dos", handle: int) -> tuple[int, int]:
    """AH=5700h: (date, time) words of an open file."""
    entry = dos.handle_file(handle)
    if entry.is_device:
        raise DosError(0x06, "invalid handle")
    return entry.file.get_datetime()


def set_file_time(dos: "Dos", handle: int, date: int, time: int) -> None:
    """AH=5701h: the stamp the file gets when it is closed."""
    entry = dos.handle_file(handle)
    if entry.is_device:
        raise DosError(0x06, "invalid handle")
    entry.file.set_datetime(date, time)


# -- names ----------------------------------------------------------------------------------
def delete(dos: "Dos", text: str) -> None:
    """AH=41h: one file, no wildcards; read-only files are "access denied"."""
    drive, parts = dos.resolve(text)
    fs = dos.drives[drive]
    entry = fs.stat(parts) if parts else None
    if entry is None or entry.is_dir:
        raise DosError(0x02, f"{text}: file not found")
    if entry.attr & ATTR_READ_ONLY:
        raise DosError(0x05, f"{text} is read-only")
    fs.remove(parts)
    notify(dos, "delete", drive, parts, 0)


def rename(dos: "Dos", old_text: str, new_text: str) -> None:
    """AH=56h: a file or directory to a new name, maybe in another directory of its drive."""
    old_drive, old = dos.resolve(old_text)
    new_drive, new = dos.resolve(new_text)
    if old_drive != new_drive:
        raise DosError(0x11, "not same device")
    if not old or not new:
        raise DosError(0x03, "path not found")
    dos.drives[old_drive].rename(old, new)


def get_attributes(dos: "Dos", text: str) -> int:
    drive, parts = dos.resolve(text)
    if not parts:
        return ATTR_DIRECTORY
    entry = dos.drives[drive].stat(parts)
    if entry is None:
        raise DosError(0x02, "file not found")
    return entry.attr


def set_attributes(dos: "Dos", text: str, attributes: int) -> None:
    drive, parts = dos.resolve(text)
    dos.drives[drive].set_attr(parts, attributes)


# -- searching ------------------------------------------------------------------------------
def split_search(dos: "Dos", text: str) -> tuple[str, list[str], bytes]:
    """A search spec (``B:\\SUB\\*.DOC``, ``*.*``, ``A:``) -> (drive, directory, 11-byte
    pattern).  A directory that is not there is "path not found"; a pattern that
    cannot be an 8.3 name is "file not found"."""
    directory_text, _, pattern_text = text.replace("/", "\\").rpartition("\\")
    if len(text) >= 2 and text[1] == ":" and not directory_text:
        directory_text, pattern_text = text[:2], text[2:]
    elif directory_text == "" and text.startswith("\\"):
        directory_text = "\\"
    elif directory_text[-1:] == ":":
        directory_text += "\\"
    drive, directory = dos.resolve(directory_text if directory_text else ".")
    if directory:
        entry = dos.drives[drive].stat(directory)
        if entry is None or not entry.is_dir:
            raise DosError(0x03, f"{text}: path not found")
    if pattern_text in (".", ".."):
        pattern_text = "*.*"                 # DOS searches the directory itself: all its files
    try:
        pattern = names.pattern_to_fcb(pattern_text or "*.*")
    except (DosError, ValueError):
        raise DosError(0x02, f"{text}: file not found") from None
    return drive, directory, pattern


def find(dos: "Dos", drive: str, directory: list[str], pattern: bytes, attributes: int,
         after_slot: int = -1) -> DirEntry:
    """FINDFIRST/FINDNEXT's rule (AH=4Eh/4Fh): the first entry past ``after_slot``
    that ``pattern`` and the search ``attributes`` reach; "no more files" if none."""
    fs = dos.drives[drive]
    if attributes == ATTR_VOLUME:
        entries = [e for e in fs.listdir([]) if e.is_label] if not directory else []
    else:
        entries = fs.listdir(directory)
    for entry in entries:
        if entry.slot <= after_slot:
            continue
        if entry.is_label and not attributes & ATTR_VOLUME:
            continue
        if (entry.attr & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_DIRECTORY)) & ~attributes and not entry.is_label:
            continue
        if names.fcb_matches(pattern, names.entry_fcb(entry.name)):
            return entry
    raise DosError(0x12, "no more files")


def list_matching(dos: "Dos", drive: str, directory: list[str], pattern: bytes,
                  attributes: int = 0) -> list[DirEntry]:
    """Every entry FINDFIRST and FINDNEXT would return, in directory order."""
    found: list[DirEntry] = []
    slot = -1
    while True:
        try:
            entry = find(dos, drive, directory, pattern, attributes, slot)
        except DosError as err:
            if err.code == 0x12:
                return found
            raise
        found.append(entry)
        slot = entry.slot


def fcb_matches(dos: "Dos", drive: str, directory: list[str], pattern: bytes,
                attributes: int) -> Iterator[DirEntry]:
    """The entries an FCB call (search, delete, rename) reaches with this name and
    search attribute, in directory order."""
    for entry in dos.drives[drive].listdir(directory):
        if attributes == ATTR_VOLUME:
            if entry.is_label and not directory:
                yield entry
            continue
        if entry.is_label:
            continue
        if entry.attr & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_DIRECTORY) & ~attributes:
            continue
        if names.fcb_matches(pattern, names.entry_fcb(entry.name)):
            yield entry


def delete_matching(dos: "Dos", drive: str, directory: list[str], pattern: bytes,
                    attributes: int = 0) -> tuple[int, int]:
    """FCB delete (AH=13h), which COMMAND.COM's DEL uses: every file the pattern
    matches, but read-only ones.  Returns (deleted, left because read-only)."""
    fs = dos.drives[drive]
    matched = [e for e in fcb_matches(dos, drive, directory, pattern, attributes & (ATTR_HIDDEN | ATTR_SYSTEM))
               if not e.is_dir]
    deleted = 0
    for entry in matched:
        if entry.attr & ATTR_READ_ONLY:
            continue
        fs.remove(directory + [entry.name])
        notify(dos, "delete", drive, directory + [entry.name], 0)
        deleted += 1
    return deleted, len(matched) - deleted


def renamed(old_name: str, template: bytes) -> str:
    """FCB rename's rule (DOS 3.30's REN): a ``?`` in the new name (a ``*`` is ``?``
    to the end of its field) keeps the old name's character at that place."""
    old = names.entry_fcb(old_name)
    new = bytes(o if t == ord("?") else t for o, t in zip(old, template))
    return names.normalize_name(names.from_fcb(new), truncate=False)


def rename_matching(dos: "Dos", drive: str, directory: list[str], pattern: bytes, template: bytes,
                    attributes: int = 0) -> int:
    """FCB rename (AH=17h), which COMMAND.COM's REN uses: each match renamed after
    ``template``; a new name that exists, or none matching, is "file not found"
    (after the renames already done, as DOS stops there).  Returns how many."""
    fs = dos.drives[drive]
    matched = [e for e in fcb_matches(dos, drive, directory, pattern,
                                      attributes & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_DIRECTORY))
               if e.name not in (".", "..")]
    if not matched:
        raise DosError(0x02, "file not found")
    count = 0
    for entry in matched:
        try:
            new_name = renamed(entry.name, template)
        except (DosError, ValueError):
            raise DosError(0x02, "bad new name") from None
        if new_name == entry.name:
            continue
        if fs.stat(directory + [new_name]) is not None:
            raise DosError(0x05, f"{new_name} exists")
        fs.rename(directory + [entry.name], directory + [new_name])
        count += 1
    return count
