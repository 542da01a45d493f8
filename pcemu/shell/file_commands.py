"""COMMAND.COM 3.30's file commands: CD, MD, RD, DEL, REN, COPY and TYPE.

Each is a client of the DOS kernel (`pcemu.dos.kernel`), the same calls INT
21h's handlers make, so the shell and a program meet the same checks (an empty
drive's "Not ready" through INT 24h, read-only files, names DOS refuses) and
only the wording of the failure is the shell's own.  DEL and REN work as
COMMAND.COM's, through the FCB-style wildcard delete and rename.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pcemu.dos import kernel
from pcemu.storage import names
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.shell import Shell

COPIED = "{:>9} File(s) copied\r\n"
ALL_FILES = b"?" * 11
CHUNK = 0x8000


def _say(shell: "Shell", text: str) -> None:
    shell.console.write(text.encode("cp437", "replace"))


def _arguments(rest: str) -> list[str]:
    return [word for word in rest.split() if not word.startswith("/")]


# ---------------------------------------------------------------- directories
def cmd_cd(shell: "Shell", rest: str) -> None:
    dos = shell.ctx.dos
    target = rest.strip()
    if not target or (len(target) == 2 and target[1] == ":"):
        letter = target[0].upper() if target else dos.current_drive
        try:
            path = kernel.current_dir(dos, letter)
        except DosError:
            _say(shell, "Invalid drive specification\r\n")
            return
        _say(shell, f"{letter}:\\{path}\r\n")
        return
    try:
        kernel.change_dir(dos, target)
    except DosError as err:
        _say(shell, "Invalid drive specification\r\n" if err.code == 0x0F else "Invalid directory\r\n")


def cmd_md(shell: "Shell", rest: str) -> None:
    try:
        kernel.make_dir(shell.ctx.dos, rest.strip())
    except DosError:
        _say(shell, "Unable to create directory\r\n")


def cmd_rd(shell: "Shell", rest: str) -> None:
    try:
        kernel.remove_dir(shell.ctx.dos, rest.strip())
    except DosError:
        _say(shell, "Invalid path, not directory,\r\nor directory not empty\r\n")


# ---------------------------------------------------------------- DEL
def _search_failure(shell: "Shell", err: DosError) -> None:
    _say(shell, {0x0F: "Invalid drive specification\r\n",
                 0x03: "Path not found\r\n"}.get(err.code, "File not found\r\n"))


def _directory_spec(dos, text: str) -> tuple[str, list[str], bytes]:
    """A DEL/COPY argument as (drive, directory, pattern): a name that is a
    directory (or ends in ``\\`` or ``:``) means every file in it."""
    drive, directory, pattern = kernel.split_search(dos, text)
    if b"?" not in pattern and pattern != ALL_FILES:
        entry = dos.drives[drive].stat(directory + [names.from_fcb(pattern)])
        if entry is not None and entry.is_dir:
            return drive, directory + [entry.name], ALL_FILES
    return drive, directory, pattern


def cmd_del(shell: "Shell", rest: str) -> None:
    """DEL/ERASE: a name, a wildcard pattern or a directory (its files); hidden,
    system and read-only files are left alone; all files asks first."""
    dos = shell.ctx.dos
    args = _arguments(rest)
    if not args:
        _say(shell, "Required parameter missing\r\n")
        return
    try:
        drive, directory, pattern = _directory_spec(dos, args[0])
    except DosError as err:
        _search_failure(shell, err)
        return

    def erase() -> None:
        try:
            deleted, read_only = kernel.delete_matching(dos, drive, directory, pattern)
        except DosError as err:
            if err.code in _critical_codes():
                raise
            _say(shell, "Access denied\r\n")
            return
        if read_only and not deleted:
            _say(shell, "Access denied\r\n")
        elif not deleted:
            _say(shell, "File not found\r\n")

    if pattern == ALL_FILES:
        shell.ask_yes_no("Are you sure (Y/N)?", lambda yes: erase() if yes else None)
    else:
        erase()


def _critical_codes():
    from pcemu.dos.critical import CRITICAL_CODES
    return CRITICAL_CODES


# ---------------------------------------------------------------- REN
def cmd_ren(shell: "Shell", rest: str) -> None:
    """REN old new: ``new`` is a name only (no drive or path); ``?`` and ``*`` in it
    keep the old name's characters, so REN *.TXT *.BAK renames every .TXT."""
    dos = shell.ctx.dos
    args = rest.split()
    if len(args) != 2:
        _say(shell, "Invalid number of parameters\r\n")
        return
    if any(ch in args[1] for ch in ":\\/"):
        _say(shell, "Invalid parameter\r\n")
        return
    try:
        drive, directory, pattern = kernel.split_search(dos, args[0])
        template = names.pattern_to_fcb(args[1])
        kernel.rename_matching(dos, drive, directory, pattern, template)
    except DosError as err:
        if err.code in _critical_codes():
            raise
        _say(shell, "Invalid drive specification\r\n" if err.code == 0x0F
             else "Duplicate file name or File not found\r\n")
    except ValueError:
        _say(shell, "Duplicate file name or File not found\r\n")


# ---------------------------------------------------------------- reading whole files
def read_file(shell: "Shell", path: str) -> bytes | None:
    """The whole file through the kernel's handle calls; None if it cannot be read."""
    read = read_file_and_stamp(shell, path)
    return None if read is None else read[0]


def read_file_and_stamp(shell: "Shell", path: str) -> tuple[bytes, tuple[int, int]] | None:
    """The whole file and its (date, time) words, from one open; None if it cannot be read."""
    dos = shell.ctx.dos
    if dos.device_name(path):
        return None
    try:
        handle = kernel.open_file(dos, path, 0)
    except DosError as err:
        if err.code in _critical_codes():
            raise
        return None
    try:
        return _read_all(dos, handle), kernel.get_file_time(dos, handle)
    finally:
        kernel.close(dos, handle)


def _read_all(dos, handle: int) -> bytes:
    data = bytearray()
    while True:
        chunk = kernel.read(dos, handle, CHUNK)
        if not chunk:
            return bytes(data)
        data += chunk


def exists(shell: "Shell", spec: str) -> bool:
    """IF EXIST: does FINDFIRST find a file (wildcards allowed) for ``spec``?"""
    dos = shell.ctx.dos
    try:
        return bool(kernel.list_matching(dos, *kernel.split_search(dos, spec)))
    except DosError as err:
        if err.code in _critical_codes():
            raise
        return False


def cmd_type(shell: "Shell", rest: str) -> None:
    name = rest.strip()
    if not name:
        _say(shell, "Required parameter missing\r\n")
        return
    data = read_file(shell, name.split()[0])
    if data is None:
        _say(shell, f"File not found - {name}\r\n")
        return
    shell.console.write(data.split(b"\x1a")[0])


# ---------------------------------------------------------------- COPY
def _copy_arguments(rest: str) -> tuple[list[str], str | None]:
    """``A+B C`` / ``A + B C`` -> (['A', 'B'], 'C'); switches (/A /B /V) are dropped."""
    text = rest
    while " +" in text or "+ " in text:
        text = text.replace(" +", "+").replace("+ ", "+")
    words = _arguments(text)
    if not words:
        return [], None
    sources = [s for s in words[0].split("+") if s]
    return sources, (words[1] if len(words) > 1 else None)


def _prefix(text: str) -> str:
    """What the user typed before the file name (``B:``, ``SUB\\``), upper-cased."""
    cut = max(text.rfind("\\"), text.rfind("/"), text.rfind(":"))
    return text[:cut + 1].upper()


class _CopyTarget:
    """Where COPY writes: a device, a directory (files keep their names), a name
    with wildcards (each file renamed after it) or a single file."""

    def __init__(self, dos, text: str | None):
        self.dos = dos
        self.device = dos.device_name(text) if text else None
        self.directory: tuple[str, list[str]] | None = None
        self.template: bytes | None = None
        self.file: tuple[str, list[str]] | None = None
        if self.device:
            return
        if text is None or text.endswith(("\\", ":", "/")):
            self.directory = dos.resolve(text or ".")
            return
        last = text.replace("/", "\\").rsplit("\\", 1)[-1].split(":")[-1]
        if names.has_wildcards(last):
            self.directory = dos.resolve(text[:len(text) - len(last)] or ".")
            self.template = names.pattern_to_fcb(last)
            return
        drive, parts = dos.resolve(text)
        entry = dos.drives[drive].stat(parts) if parts else None
        if not parts or (entry is not None and entry.is_dir):
            self.directory = (drive, parts)
        else:
            self.file = (drive, parts)

    def path_for(self, name: str) -> str:
        if self.device:
            return self.device
        if self.file is not None:
            return kernel.full_name(*self.file)
        drive, parts = self.directory
        if self.template is not None:
            name = kernel.renamed(name, self.template)
        return kernel.full_name(drive, parts + [name])


def cmd_copy(shell: "Shell", rest: str) -> None:
    dos = shell.ctx.dos
    sources, target_text = _copy_arguments(rest)
    if not sources:
        _say(shell, "Required parameter missing\r\n")
        return
    try:
        target = _CopyTarget(dos, target_text)
    except DosError as err:
        _say(shell, "Invalid drive specification\r\n" if err.code == 0x0F else "File creation error\r\n")
        _say(shell, COPIED.format(0))
        return
    found: list[tuple[str, str]] = []          # (what to show, full path) for each source file
    wildcards = False
    device = dos.device_name(sources[0]) if len(sources) == 1 else None
    if device == "CON" and target_text:
        _copy_from_console(shell, target)
        return
    if device is not None:                     # NUL, AUX, PRN read as empty: COPY NUL X makes X empty
        _say(shell, COPIED.format(1 if _write_whole(shell, target.path_for(device), b"") else 0))
        return
    for source in sources:
        if dos.device_name(source):
            continue                           # nothing to read from it
        try:
            drive, directory, pattern = _directory_spec(dos, source)
            wildcards |= b"?" in pattern            # a pattern, or a directory's files
            entries = kernel.list_matching(dos, drive, directory, pattern)
        except DosError as err:
            if err.code in _critical_codes():
                raise
            entries = []
        if not entries and len(sources) == 1:
            _say(shell, f"File not found - {source}\r\n")
            _say(shell, COPIED.format(0))
            return
        shown = _prefix(source)
        for entry in entries:
            found.append((shown + entry.name, kernel.full_name(drive, directory + [entry.name])))
    combine = len(sources) > 1 or (wildcards and target.file is not None)
    if combine:
        copied = _concatenate(shell, found, target)
    else:
        copied = _copy_each(shell, found, target, show=wildcards)
    _say(shell, COPIED.format(copied))


def _copy_from_console(shell: "Shell", target: _CopyTarget) -> None:
    """COPY CON NAME: the lines typed until Ctrl-Z (F6) become the file."""
    def typed(text: bytes) -> None:
        copied = _write_whole(shell, target.path_for("CON"), text)
        _say(shell, COPIED.format(1 if copied else 0))

    shell.read_console_text(typed)


def _same(dos, one: str, other: str) -> bool:
    return dos.resolve(one) == dos.resolve(other)


def _copy_each(shell: "Shell", found: list[tuple[str, str]], target: _CopyTarget, show: bool) -> int:
    dos = shell.ctx.dos
    copied = 0
    for shown, path in found:
        destination = target.path_for(path.rsplit("\\", 1)[-1])
        if show:
            _say(shell, shown + "\r\n")
        if not target.device and _same(dos, path, destination):
            _say(shell, "File cannot be copied onto itself\r\n")
            continue
        read = read_file_and_stamp(shell, path)
        if read is None:
            continue
        if not _write_whole(shell, destination, read[0], stamp=read[1]):
            return copied
        copied += 1
    return copied


def _concatenate(shell: "Shell", found: list[tuple[str, str]], target: _CopyTarget) -> int:
    """ASCII mode: each source up to its first Ctrl-Z, one Ctrl-Z at the end; a
    target that is also a later source would be lost before it is read."""
    dos = shell.ctx.dos
    destination = target.path_for(found[0][1].rsplit("\\", 1)[-1]) if found else None
    if destination is None:
        return 0
    data = bytearray()
    for number, (shown, path) in enumerate(found):
        _say(shell, shown + "\r\n")
        if not target.device and _same(dos, path, destination) and number > 0:
            _say(shell, "Content of destination lost before copy\r\n")
            continue
        content = read_file(shell, path) or b""
        data += content.split(b"\x1a")[0]
    data += b"\x1a"
    return 1 if _write_whole(shell, destination, bytes(data)) else 0


def _write_whole(shell: "Shell", destination: str, data: bytes,
                 stamp: tuple[int, int] | None = None) -> bool:
    """Create ``destination`` and write ``data``; a short write removes the partial
    file ("Insufficient disk space").  A plain copy keeps the source's date and time."""
    dos = shell.ctx.dos
    try:
        handle = kernel.create(dos, destination)
    except DosError as err:
        if err.code in _critical_codes():
            raise
        _say(shell, "File creation error\r\n")
        return False
    try:
        written = kernel.write(dos, handle, data)
        if stamp is not None and written == len(data) and not dos.device_name(destination):
            kernel.set_file_time(dos, handle, *stamp)
    finally:
        kernel.close(dos, handle)
    if written < len(data):
        kernel.delete(dos, destination)
        _say(shell, "Insufficient disk space\r\n")
        return False
    return True
