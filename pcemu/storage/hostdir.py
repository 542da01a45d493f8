"""A host folder mounted as a DOS drive.

Confinement: every path is resolved (symbolic links included) and must stay
inside the mounted folder; an entry that leads outside - a symlink to /etc,
say - is simply not there for DOS.  DOS names cannot contain ``/``, ``\\`` or
``..`` (see `pcemu.storage.names`), and resolution is checked again right
before each host call.

Names: a host file is visible only if its name is already a valid 8.3 name in
some case ("readme.txt" shows as README.TXT); longer names are invisible.
Lookup is case-insensitive; if two host names differ only in case, the first
in sorted order is the one DOS sees.  Files DOS creates get upper-case host
names.  Entries are listed in sorted host-name order (a host directory has no
order of its own), after the volume label (root) or ``.`` and ``..``
(subdirectories).

Dates come from the host mtime, in local time.  When DOS writes a file, its
mtime is set from the drive's clock on close (or from INT 21h 5701h), so what
DOS later reads back does not depend on the host's wall clock.  Attributes:
directory, archive, and read-only when the owner cannot write the host file;
hidden and system cannot be stored on the host and are ignored.
"""

from __future__ import annotations

import datetime as _dt
import errno
import os
import shutil
import stat as st
from pathlib import Path
from typing import BinaryIO

from . import errors as E
from .drive import (
    ATTR_ARCHIVE, ATTR_CHANGEABLE, ATTR_DIRECTORY, ATTR_READ_ONLY, ATTR_VOLUME, MAX_FILE_SIZE,
    Clock, DirEntry, Drive, DriveFile, check_path, dos_datetime_words, epoch_clock,
    words_to_datetime,
)
from .errors import DosError, MountError
from .names import from_fcb, is_83_name, to_fcb

# Free space as INT 21h AH=36h reports it, in 32 KB clusters and clamped to
# what its 16-bit registers can hold.
_SECTORS_PER_CLUSTER = 64
_BYTES_PER_SECTOR = 512
_CLUSTER = _SECTORS_PER_CLUSTER * _BYTES_PER_SECTOR


class HostDirDrive(Drive):
    """A DOS drive backed by the folder `root`."""

    def __init__(self, root: str | os.PathLike, *, read_only: bool = False,
                 clock: Clock = epoch_clock, label: str | None = None):
        path = Path(root)
        if not path.is_dir():
            raise MountError(f"cannot mount {path} as a drive: it is not an existing folder")
        self.root = Path(os.path.realpath(path))
        self.read_only = read_only
        self.clock = clock
        self._label = label.upper()[:11] if label else None

    # ------------------------------------------------------------- mapping
    def _inside(self, host: Path) -> bool:
        real = os.path.realpath(host)
        root = str(self.root)
        return real == root or real.startswith(root.rstrip(os.sep) + os.sep)

    def _may_open(self, host: Path) -> bool:
        return self._inside(host.parent) and (not host.exists() or self._inside(host))

    def _visible(self, host_dir: Path) -> list[tuple[str, Path]]:
        """(DOS name, host path) of the entries DOS can see, in listing order."""
        try:
            names = sorted(os.listdir(host_dir))
        except OSError:
            return []
        seen: set[str] = set()
        out = []
        for name in names:
            if not is_83_name(name):
                continue
            dos = from_fcb(to_fcb(name))
            host = host_dir / name
            if dos in seen or not self._inside(host):
                continue
            try:
                info = host.stat()
            except OSError:
                continue  # dangling link, permission trouble: not there for DOS
            if st.S_ISDIR(info.st_mode) or (st.S_ISREG(info.st_mode)
                                            and info.st_size <= MAX_FILE_SIZE):
                seen.add(dos)
                out.append((dos, host))
        return out

    def _find(self, host_dir: Path, name: str) -> Path | None:
        for dos, host in self._visible(host_dir):
            if dos == name:
                return host
        return None

    def _host_dir(self, dir_path: list[str]) -> Path:
        host = self.root
        for i, part in enumerate(dir_path):
            found = self._find(host, part)
            if found is None or not found.is_dir():
                raise DosError(E.PATH_NOT_FOUND, "path not found: \\" + "\\".join(dir_path[:i + 1]))
            host = found
        return host

    def _lookup(self, path: list[str]) -> tuple[Path, str, Path | None]:
        """(host parent folder, DOS name, host path or None)."""
        path = check_path(path)
        if not path:
            raise DosError(E.ACCESS_DENIED, "the root directory has no directory entry")
        parent = self._host_dir(path[:-1])
        return parent, path[-1], self._find(parent, path[-1])

    def _entry(self, name: str, host: Path, slot: int) -> DirEntry:
        info = host.stat()
        date, time = dos_datetime_words(_dt.datetime.fromtimestamp(info.st_mtime))
        if st.S_ISDIR(info.st_mode):
            return DirEntry(name, ATTR_DIRECTORY, 0, date, time, slot)
        attr = ATTR_ARCHIVE | (0 if info.st_mode & st.S_IWUSR else ATTR_READ_ONLY)
        return DirEntry(name, attr, info.st_size, date, time, slot)

    def _check_writable(self) -> None:
        if self.read_only:
            raise DosError(E.WRITE_PROTECT, "the drive is mounted read-only")

    # ------------------------------------------------------- Drive interface
    @property
    def volume_label(self) -> str | None:
        return self._label

    def _leading_entries(self, root: bool, here: Path, parent: Path) -> list[DirEntry]:
        """What DOS lists before a directory's files: the volume label in the root,
        . and .. (``here`` and ``parent`` on the host) anywhere else."""
        if not root:
            return [self._entry(".", here, 0), self._entry("..", parent, 1)]
        if not self._label:
            return []
        date, time = self.clock()
        return [DirEntry(self._label, ATTR_VOLUME | ATTR_ARCHIVE, 0, date, time, 0)]

    def listdir(self, dir_path: list[str]) -> list[DirEntry]:
        dir_path = check_path(dir_path)
        host = self._host_dir(dir_path)
        out = self._leading_entries(not dir_path, host, host.parent)
        for dos, child in self._visible(host):
            out.append(self._entry(dos, child, len(out)))
        return out

    def stat(self, path: list[str]) -> DirEntry | None:
        path = check_path(path)
        if not path:
            return DirEntry("", ATTR_DIRECTORY, 0, 0, 0)
        _parent, name, host = self._lookup(path)
        return self._entry(name, host, -1) if host is not None else None

    def open(self, path: list[str], writable: bool = False) -> "HostFile":
        _parent, name, host = self._lookup(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if host.is_dir():
            raise DosError(E.ACCESS_DENIED, f"{name} is a directory")
        if writable:
            self._check_writable()
            if not host.stat().st_mode & st.S_IWUSR:
                raise DosError(E.ACCESS_DENIED, f"{name} is read-only")
        return HostFile(self, host, "r+b" if writable else "rb", writable)

    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> "HostFile":
        self._check_writable()
        if attr & ~ATTR_CHANGEABLE:
            raise DosError(E.ACCESS_DENIED, f"cannot create a file with attribute {attr:#04x}")
        parent, name, host = self._lookup(path)
        if host is not None:
            if exclusive:
                raise DosError(E.FILE_EXISTS, f"file exists: {name}")
            if host.is_dir() or not host.stat().st_mode & st.S_IWUSR:
                raise DosError(E.ACCESS_DENIED, f"cannot re-create {name}")
            mode = "w+b"
        else:
            host, mode = parent / name, "x+b"
        f = HostFile(self, host, mode, True)
        f._modified = True
        f._make_read_only = bool(attr & ATTR_READ_ONLY)
        return f

    def remove(self, path: list[str]) -> None:
        self._check_writable()
        _parent, name, host = self._lookup(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if host.is_dir() or not host.stat().st_mode & st.S_IWUSR:
            raise DosError(E.ACCESS_DENIED, f"cannot delete {name}")
        self._host_call(os.unlink, host)

    def rename(self, old: list[str], new: list[str]) -> None:
        self._check_writable()
        old_parent, old_name, host = self._lookup(old)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {old_name}")
        new_parent, new_name, existing = self._lookup(new)
        if existing is not None:
            raise DosError(E.ACCESS_DENIED, f"{new_name} already exists")
        if host.is_dir() and new_parent != old_parent:
            raise DosError(E.ACCESS_DENIED, "DOS cannot move a directory to another directory")
        self._host_call(os.rename, host, new_parent / new_name)

    def mkdir(self, path: list[str]) -> None:
        self._check_writable()
        parent, name, host = self._lookup(path)
        if host is not None:
            raise DosError(E.ACCESS_DENIED, f"{name} already exists")
        self._host_call(os.mkdir, parent / name)

    def rmdir(self, path: list[str]) -> None:
        self._check_writable()
        _parent, name, host = self._lookup(path)
        if host is None or not host.is_dir():
            raise DosError(E.PATH_NOT_FOUND, f"no such directory: {name}")
        if os.listdir(host):
            hidden = "" if self._visible(host) else " (it holds host files DOS cannot see)"
            raise DosError(E.ACCESS_DENIED, f"directory {name} is not empty{hidden}")
        self._host_call(os.rmdir, host)

    def set_attr(self, path: list[str], attr: int) -> None:
        self._check_writable()
        _parent, name, host = self._lookup(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if attr & ~ATTR_CHANGEABLE or host.is_dir():
            raise DosError(E.ACCESS_DENIED, f"cannot set attribute {attr:#04x} on {name}")
        _set_read_only(host, bool(attr & ATTR_READ_ONLY))

    def free_space(self) -> tuple[int, int, int, int]:
        usage = shutil.disk_usage(self.root)
        total = min(usage.total // _CLUSTER, 0xFFFF)
        free = min(usage.free // _CLUSTER, total)
        return _SECTORS_PER_CLUSTER, _BYTES_PER_SECTOR, free, total

    def _host_call(self, fn, *paths: Path) -> None:
        for p in paths:
            if not self._inside(p.parent) or (p.exists() and not self._inside(p)):
                raise DosError(E.ACCESS_DENIED, f"{p.name} is outside the mounted folder")
        try:
            fn(*paths)
        except OSError as exc:
            raise DosError(E.ACCESS_DENIED, f"host error: {exc.strerror}") from None


def _set_read_only(host: Path, read_only: bool) -> None:
    mode = host.stat().st_mode
    writable = st.S_IWUSR | st.S_IWGRP | st.S_IWOTH
    os.chmod(host, (mode & ~writable) if read_only else (mode | st.S_IWUSR))


class HostFile(DriveFile):
    """An open host file seen through a DOS handle."""

    def __init__(self, drive: HostDirDrive, host: Path, mode: str, writable: bool):
        if not drive._may_open(host):
            raise DosError(E.ACCESS_DENIED, f"{host.name} is outside the mounted folder")
        self._drive = drive
        self._host = host
        try:
            self._f: BinaryIO = open(host, mode)
        except OSError as exc:
            raise DosError(E.ACCESS_DENIED, f"host error: {exc.strerror}") from None
        self.writable = writable
        self._modified = False
        self._stamp: tuple[int, int] | None = None
        self._make_read_only = False
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise DosError(E.INVALID_HANDLE, "the file is closed")

    def _check_write(self) -> None:
        self._check_open()
        self._drive._check_writable()
        if not self.writable:
            raise DosError(E.ACCESS_DENIED, "the file is open for reading only")

    def read(self, n: int) -> bytes:
        self._check_open()
        return self._f.read(max(n, 0))

    def write(self, data: bytes) -> int:
        self._check_write()
        room = MAX_FILE_SIZE - self._f.tell()
        data = data[:max(room, 0)]
        try:
            written = self._f.write(data)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                return 0  # disk full: DOS reports a short write, not an error
            raise DosError(E.ACCESS_DENIED, f"host error: {exc.strerror}") from None
        self._modified = True
        return written

    def seek(self, pos: int) -> None:
        self._check_open()
        if not 0 <= pos <= MAX_FILE_SIZE:
            raise ValueError(f"file position {pos} out of range")
        self._f.seek(pos)

    def tell(self) -> int:
        return self._f.tell()

    @property
    def size(self) -> int:
        self._f.flush()
        return os.fstat(self._f.fileno()).st_size

    def truncate(self) -> None:
        self._check_write()
        self._f.truncate(self._f.tell())
        self._modified = True

    def get_datetime(self) -> tuple[int, int]:
        if self._stamp:
            return self._stamp
        return dos_datetime_words(_dt.datetime.fromtimestamp(os.fstat(self._f.fileno()).st_mtime))

    def set_datetime(self, date: int, time: int) -> None:
        self._check_open()
        self._stamp = (date, time)

    def flush(self) -> None:
        self._check_open()
        self._f.flush()
        self._apply_stamp()

    def _apply_stamp(self) -> None:
        if not (self._modified or self._stamp):
            return
        moment = words_to_datetime(*(self._stamp or self._drive.clock()))
        if moment is not None:
            ts = moment.timestamp()
            target = self._f.fileno() if os.utime in os.supports_fd else self._host
            os.utime(target, (ts, ts))
        self._modified = False

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._f.flush()
            self._apply_stamp()
        except OSError:
            pass            # a full host disk: DOS's close does not fail either
        finally:
            self._f.close()
        if self._make_read_only:
            try:
                _set_read_only(self._host, True)
            except OSError:
                pass        # renamed or deleted while open (its folder moved): nothing to mark
