"""A host folder mounted copy-on-write: programs change a private copy, never the folder.

`HostDirOverlay` shows DOS a folder exactly as `HostDirDrive` does (the same 8.3
names, listing order, dates and attributes; links out of the folder are not there)
and keeps every change a program makes in a private temporary folder, made at the
first change and removed when the drive is dropped or the process ends:

* reads fall through to the folder until a file is changed;
* the first change of a file (opening it for writing, a new date or attribute)
  copies it into the temporary folder; creates and MKDIRs go there directly;
* deletions and renames of the folder's own entries are recorded (the entry is
  hidden); a renamed directory is copied whole under its new name;
* the copy is bounded like a host folder's manifest (docs/security.md): at most
  `MAX_FILES` entries and `MAX_BYTES` bytes.  Past them a create or a copy is
  "access denied" and a write is short, as on a full disk.

Open handles see each other's changes as on one disk: a handle reading a folder
file goes on in the copy once another handle has changed it.  ``changed`` tells
whether the program changed anything.  Nothing is ever written into the folder.
"""

from __future__ import annotations

import os
import shutil
import stat as st
import tempfile
import weakref
from pathlib import Path

from . import errors as E
from .drive import (
    ATTR_CHANGEABLE, ATTR_DIRECTORY, ATTR_READ_ONLY, Clock, DirEntry,
    check_path, epoch_clock,
)
from .errors import DosError
from .hostdir import _CLUSTER, HostDirDrive, HostFile, _set_read_only

MAX_FILES = 10_000                  # entries in the copy (files and folders)
MAX_BYTES = 256 * 1024 * 1024       # bytes of file data in the copy

Dos = tuple  # a DOS path: upper-case 8.3 components from the root


class HostDirOverlay(HostDirDrive):
    """The folder `root` as a DOS drive whose changes go to a private copy."""

    def __init__(self, root: str | os.PathLike, *, clock: Clock = epoch_clock,
                 label: str | None = None, max_files: int = MAX_FILES,
                 max_bytes: int = MAX_BYTES):
        super().__init__(root, read_only=False, clock=clock, label=label)
        self.max_files = max_files
        self.max_bytes = max_bytes
        self.changed = False
        self._upper: Path | None = None        # the private copy, made at the first change
        self._hidden: set[Dos] = set()          # the folder's entries deleted or renamed away
        self._opaque: set[Dos] = set()          # directories of the copy that hide the folder's
        self._files = 0
        self._bytes = 0
        self._readers: dict[Dos, weakref.WeakSet] = {}   # open handles reading a folder file
        self._finalizer: weakref.finalize | None = None

    def discard(self) -> None:
        """Remove the private copy now (it goes anyway when the drive is dropped)."""
        if self._finalizer is not None:
            self._finalizer()

    # ------------------------------------------------------------ the two layers
    def _upper_root(self) -> Path:
        if self._upper is None:
            self._upper = Path(os.path.realpath(tempfile.mkdtemp(prefix="pcemu-overlay-")))
            self._finalizer = weakref.finalize(self, shutil.rmtree, str(self._upper), True)
        return self._upper

    def _in_upper(self, host: Path) -> bool:
        if self._upper is None:
            return False
        up = str(self._upper)
        return str(host) == up or str(host).startswith(up + os.sep)

    def _may_open(self, host: Path) -> bool:
        return self._in_upper(host) or super()._may_open(host)

    def _up(self, p: Dos) -> Path | None:
        """The copy's host path of `p` if it exists."""
        if self._upper is None:
            return None
        host = self._upper.joinpath(*p)
        return host if os.path.lexists(host) else None

    def _lower(self, p: Dos) -> Path | None:
        """The folder's host path of `p`, unless deleted, renamed or hidden by the copy."""
        if any(p[:i] in self._hidden for i in range(1, len(p) + 1)) or \
                any(p[:i] in self._opaque for i in range(1, len(p))):
            return None
        host = self.root
        for part in p:
            found = self._find(host, part)
            if found is None:
                return None
            host = found
        return host

    def _lower_dir(self, d: Dos) -> Path | None:
        """The folder's directory whose entries show in directory `d`."""
        if d in self._opaque:
            return None
        low = self._lower(d)
        return low if low is not None and low.is_dir() else None

    def _resolve(self, p: Dos) -> tuple[Path | None, bool]:
        """(host path `p` is read from, whether it is a directory): the copy first."""
        host = self._up(p)
        if host is None:
            host = self._lower(p)
        if host is None:
            return None, False
        return host, host.is_dir()

    def _dir_host(self, d: Dos) -> Path:
        """The host folder whose date directory `d` shows (the folder's, if it has one)."""
        if not d:
            return self.root
        low = self._lower_dir(d)
        return low if low is not None else self._upper_root().joinpath(*d)

    def _check_dir(self, d: Dos) -> None:
        for i in range(1, len(d) + 1):
            host, is_dir = self._resolve(d[:i])
            if host is None or not is_dir:
                raise DosError(E.PATH_NOT_FOUND, "path not found: \\" + "\\".join(d[:i]))

    def _where(self, path: list[str]) -> tuple[Dos, str, Path | None, bool]:
        p = tuple(check_path(path))
        if not p:
            raise DosError(E.ACCESS_DENIED, "the root directory has no directory entry")
        self._check_dir(p[:-1])
        host, is_dir = self._resolve(p)
        return p, p[-1], host, is_dir

    def _children(self, d: Dos) -> list[tuple[str, Path, Path]]:
        """(DOS name, host path to read, host path to date) of directory `d`, in the order
        the folder would list them had the changes been made in it."""
        merged: dict[str, tuple[str, Path, Path]] = {}
        low = self._lower_dir(d)
        if low is not None:
            for dos, host in self._visible(low):
                if d + (dos,) not in self._hidden:
                    merged[dos] = (host.name, host, host)
        up = self._up(d)
        if up is not None and up.is_dir():
            for name in os.listdir(up):
                host = up / name
                key, _, dated = merged.get(name, (name, None, host))
                if not (host.is_dir() and dated.is_dir() and d + (name,) not in self._opaque):
                    dated = host
                merged[name] = (key, host, dated)
        return [(dos, host, dated) for dos, (_, host, dated)
                in sorted(merged.items(), key=lambda item: item[1][0])]

    # ------------------------------------------------------------ the copy's bounds
    def _reserve(self, files: int, size: int) -> None:
        if self._files + files > self.max_files or self._bytes + size > self.max_bytes:
            raise DosError(E.ACCESS_DENIED, f"the copy of {self.root} is full ({self.max_files:,} "
                           f"entries, {self.max_bytes // 2**20} MB)")

    def _make_parents(self, p: Dos) -> Path:
        host = self._upper_root()
        for part in p[:-1]:
            host = host / part
            if not os.path.lexists(host):
                self._reserve(1, 0)
                _host_call(os.mkdir, host)
                self._files += 1
        return host

    def _copy_file(self, source: Path, p: Dos) -> Path:
        size = source.stat().st_size
        self._reserve(1, size)
        dest = self._make_parents(p) / p[-1]
        _host_call(shutil.copy2, source, dest)
        self._files += 1
        self._bytes += size
        return dest

    def _copy_up(self, p: Dos, host: Path) -> Path:
        """`p`'s file in the copy (copied there first if it is the folder's)."""
        if self._in_upper(host):
            return host
        dest = self._copy_file(host, p)
        for reader in list(self._readers.pop(p, ())):
            reader._switch(dest)
        return dest

    def _hide(self, p: Dos) -> None:
        if self._lower(p) is not None:
            self._hidden.add(p)
        for key in [k for k in self._readers if k[:len(p)] == p]:
            del self._readers[key]

    def _copy_lower_into(self, src: Dos, dest: Path | None, tally: list[int]) -> None:
        """Copy what the folder adds to directory `src` into `dest`, the copy's directory
        (None: only count into `tally`, [entries, bytes], and check the bounds)."""
        low = self._lower_dir(src)
        if low is None:
            return
        for dos, host in self._visible(low):
            child = src + (dos,)
            if child in self._hidden:
                continue
            target = None if dest is None else dest / dos
            there = os.path.lexists(target) if target is not None else self._up(child) is not None
            if host.is_dir():
                if not there:
                    if target is None:
                        tally[0] += 1
                        self._reserve(tally[0], tally[1])
                    else:
                        _host_call(os.mkdir, target)
                        self._files += 1
                self._copy_lower_into(child, target, tally)
            elif not there:
                if target is None:
                    tally[0] += 1
                    tally[1] += host.stat().st_size
                    self._reserve(tally[0], tally[1])
                else:
                    size = host.stat().st_size
                    _host_call(shutil.copy2, host, target)
                    self._files += 1
                    self._bytes += size

    # ------------------------------------------------------------ Drive interface
    def listdir(self, dir_path: list[str]) -> list[DirEntry]:
        d = tuple(check_path(dir_path))
        self._check_dir(d)
        out = self._leading_entries(not d, self._dir_host(d), self._dir_host(d[:-1]))
        for dos, _host, dated in self._children(d):
            out.append(self._entry(dos, dated, len(out)))
        return out

    def stat(self, path: list[str]) -> DirEntry | None:
        if not check_path(path):
            return DirEntry("", ATTR_DIRECTORY, 0, 0, 0)
        p, name, host, is_dir = self._where(path)
        if host is None:
            return None
        return self._entry(name, self._dir_host(p) if is_dir else host, -1)

    def open(self, path: list[str], writable: bool = False) -> "OverlayFile":
        p, name, host, is_dir = self._where(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if is_dir:
            raise DosError(E.ACCESS_DENIED, f"{name} is a directory")
        if not writable:
            return OverlayFile(self, p, host, "rb", False)
        if not host.stat().st_mode & st.S_IWUSR:
            raise DosError(E.ACCESS_DENIED, f"{name} is read-only")
        return OverlayFile(self, p, self._copy_up(p, host), "r+b", True)

    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> "OverlayFile":
        if attr & ~ATTR_CHANGEABLE:
            raise DosError(E.ACCESS_DENIED, f"cannot create a file with attribute {attr:#04x}")
        p, name, host, is_dir = self._where(path)
        mode_of = None
        if host is not None:
            if exclusive:
                raise DosError(E.FILE_EXISTS, f"file exists: {name}")
            if is_dir or not host.stat().st_mode & st.S_IWUSR:
                raise DosError(E.ACCESS_DENIED, f"cannot re-create {name}")
        if host is not None and self._in_upper(host):
            self._bytes -= host.stat().st_size
            target, mode = host, "w+b"
        else:
            self._reserve(1, 0)
            target, mode = self._make_parents(p) / name, "x+b"
            mode_of = host                     # re-created: keeps the folder file's mode
        f = OverlayFile(self, p, target, mode, True)
        if mode == "x+b":
            self._files += 1
            if mode_of is not None:
                try:
                    shutil.copymode(mode_of, target)
                except OSError:
                    pass
                for reader in list(self._readers.pop(p, ())):
                    reader._switch(target)
        f._modified = True
        f._make_read_only = bool(attr & ATTR_READ_ONLY)
        self.changed = True
        return f

    def remove(self, path: list[str]) -> None:
        p, name, host, is_dir = self._where(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if is_dir or not host.stat().st_mode & st.S_IWUSR:
            raise DosError(E.ACCESS_DENIED, f"cannot delete {name}")
        if self._in_upper(host):
            size = host.stat().st_size
            _host_call(os.unlink, host)
            self._files -= 1
            self._bytes -= size
        self._hide(p)
        self.changed = True

    def rename(self, old: list[str], new: list[str]) -> None:
        old_p, old_name, host, is_dir = self._where(old)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {old_name}")
        new_p, new_name, existing, _ = self._where(new)
        if existing is not None:
            raise DosError(E.ACCESS_DENIED, f"{new_name} already exists")
        if is_dir and new_p[:-1] != old_p[:-1]:
            raise DosError(E.ACCESS_DENIED, "DOS cannot move a directory to another directory")
        if is_dir:
            self._copy_lower_into(old_p, None, [1, 0])       # bounds first, nothing copied
            dest = self._make_parents(new_p) / new_name
            up = self._up(old_p)
            if up is not None:
                _host_call(os.rename, up, dest)
            else:
                _host_call(os.mkdir, dest)
                self._files += 1
            self._copy_lower_into(old_p, dest, [0, 0])
            self._opaque.add(new_p)
        elif self._in_upper(host):
            _host_call(os.rename, host, self._make_parents(new_p) / new_name)
        else:
            self._copy_file(host, new_p)
        self._hide(old_p)
        self.changed = True

    def mkdir(self, path: list[str]) -> None:
        p, name, host, _ = self._where(path)
        if host is not None:
            raise DosError(E.ACCESS_DENIED, f"{name} already exists")
        self._reserve(1, 0)
        _host_call(os.mkdir, self._make_parents(p) / name)
        self._files += 1
        self._opaque.add(p)
        self.changed = True

    def rmdir(self, path: list[str]) -> None:
        p, name, host, is_dir = self._where(path)
        if host is None or not is_dir:
            raise DosError(E.PATH_NOT_FOUND, f"no such directory: {name}")
        hidden = ""
        low = self._lower_dir(p)
        if low is not None:
            try:
                names = set(os.listdir(low))
            except OSError:
                names = set()
            if names - {h.name for _, h in self._visible(low)}:
                hidden = " (it holds host files DOS cannot see)"
        if self._children(p) or hidden:
            raise DosError(E.ACCESS_DENIED, f"directory {name} is not empty{hidden}")
        up = self._up(p)
        if up is not None:
            _host_call(os.rmdir, up)
            self._files -= 1
        self._opaque.discard(p)
        self._hide(p)
        self.changed = True

    def set_attr(self, path: list[str], attr: int) -> None:
        p, name, host, is_dir = self._where(path)
        if host is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {name}")
        if attr & ~ATTR_CHANGEABLE or is_dir:
            raise DosError(E.ACCESS_DENIED, f"cannot set attribute {attr:#04x} on {name}")
        read_only = bool(attr & ATTR_READ_ONLY)
        if read_only == (not host.stat().st_mode & st.S_IWUSR):
            return                                  # already so: nothing changes
        _set_read_only(self._copy_up(p, host), read_only)
        self.changed = True

    def free_space(self) -> tuple[int, int, int, int]:
        sectors, size, free, total = super().free_space()
        room = max(self.max_bytes - self._bytes, 0) // _CLUSTER
        return sectors, size, min(free, room), total


def _host_call(fn, *args) -> None:
    try:
        fn(*args)
    except OSError as exc:
        raise DosError(E.ACCESS_DENIED, f"host error: {exc.strerror}") from None


class OverlayFile(HostFile):
    """An open file of an overlaid folder: the folder's file until it is changed, then
    the copy's (every handle of it moves there)."""

    def __init__(self, drive: HostDirOverlay, path: Dos, host: Path, mode: str, writable: bool):
        super().__init__(drive, host, mode, writable)
        self._path = path
        if not drive._in_upper(host):
            drive._readers.setdefault(path, weakref.WeakSet()).add(self)

    def _switch(self, host: Path) -> None:
        """The file was copied (or re-created) in the copy: read on there."""
        if self._closed:
            return
        pos = self._f.tell()
        try:
            f = open(host, "rb")
        except OSError:
            return
        self._f.close()
        self._f = f
        self._f.seek(pos)
        self._host = host

    def write(self, data: bytes) -> int:
        self._check_write()
        drive: HostDirOverlay = self._drive
        before = self.size
        limit = before + max(drive.max_bytes - drive._bytes, 0)
        data = data[:max(limit - self._f.tell(), 0)]
        written = super().write(data)
        drive._bytes += self.size - before
        drive.changed = True
        return written

    def truncate(self) -> None:
        self._check_write()
        drive: HostDirOverlay = self._drive
        before = self.size
        if self._f.tell() - before > drive.max_bytes - drive._bytes:
            return                                  # no room to extend it: as on a full disk
        super().truncate()
        drive._bytes += self.size - before
        drive.changed = True

    def set_datetime(self, date: int, time: int) -> None:
        self._check_open()
        if not self._drive._in_upper(self._host) and self._path in self._drive._readers:
            self._drive._copy_up(self._path, self._host)     # moves this handle too
        super().set_datetime(date, time)

    def _apply_stamp(self) -> None:
        if not (self._modified or self._stamp):
            return
        if not self._drive._in_upper(self._host):
            self._modified = False                  # the folder's own file: never touched
            return
        super()._apply_stamp()
        self._drive.changed = True
