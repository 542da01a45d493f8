"""A FAT12/FAT16 volume over a bytearray, with DOS 3.x directory semantics.

Why not pyfatfs (which the project installs): tried on a copy of disk #1612,
pyfatfs 1.1.0 gets several things wrong for an emulator of DOS:

* deleting a file rewrites the whole directory compacted, so the order that
  FINDFIRST/FINDNEXT return changes and deleted entries cannot be reused in
  place - DOS marks the slot E5h and fills the first free slot on create;
* a name that is not already upper case gets a VFAT long-name entry;
* new entries get no archive bit but creation/access stamps from the host's
  wall clock (reserved bytes in DOS 3), which also breaks determinism;
* it needs a BPB, so DOS 1.x diskettes cannot be opened, and it caches the FAT
  and directories in Python objects, which a BIOS INT 13h sector write would
  silently bypass.

So this module is a small FAT engine of its own that reads and writes the
image bytes directly on every call (so raw sector writes and file operations
always agree), and pyfatfs serves the tests as an independent reader that
cross-checks what this module writes.

DOS behaviour reproduced (after MS-DOS 4.0's MKNODE/CREATE sources): create
ORs the archive bit into the attribute, re-creating an existing file reuses
its slot and frees its chain, a directory grows by one zeroed cluster when
full (the root cannot grow), delete only marks E5h, a file's size, first
cluster and stamp are written to its entry on flush/close.  Clusters are
allocated first-fit from cluster 2; clusters added to a file are not zeroed
(DOS leaves whatever was there).
"""

from __future__ import annotations

import struct
from typing import Callable, Iterator

from . import errors as E
from .drive import (
    ATTR_ARCHIVE, ATTR_CHANGEABLE, ATTR_DIRECTORY, ATTR_VOLUME, MAX_FILE_SIZE,
    Clock, DirEntry, Drive, DriveFile, check_path, epoch_clock,
)
from .errors import CorruptVolumeError, DosError
from .layout import DIR_ENTRY_SIZE, FatLayout
from .names import FCB_LEN, from_fcb, is_valid_byte, to_fcb

_ENTRY = struct.Struct("<11sB10sHHHI")  # name, attr, reserved, time, date, cluster, size
_FREE = 0xE5
_END = 0x00
_LFN_ATTR = 0x0F
_DOT = to_fcb(".")
_DOTDOT = to_fcb("..")


class _Entry:
    """One 32-byte directory entry as it sits at `offset` in the volume."""

    __slots__ = ("offset", "slot", "fcb", "attr", "time", "date", "cluster", "size")

    def __init__(self, offset: int, slot: int, raw: bytes):
        name, self.attr, _res, self.time, self.date, self.cluster, self.size = _ENTRY.unpack(raw)
        # A first byte of 05h stands for a name that really starts with E5h.
        self.fcb = b"\xe5" + name[1:] if name[0] == 0x05 else name
        self.offset = offset
        self.slot = slot

    @property
    def is_dir(self) -> bool:
        return bool(self.attr & ATTR_DIRECTORY)

    @property
    def is_label(self) -> bool:
        return bool(self.attr & ATTR_VOLUME)

    def to_dir_entry(self) -> DirEntry:
        size = 0 if self.attr & (ATTR_DIRECTORY | ATTR_VOLUME) else self.size
        return DirEntry(from_fcb(self.fcb), self.attr, size, self.date, self.time, self.slot)


def _pack_entry(fcb: bytes, attr: int, time: int, date: int, cluster: int, size: int) -> bytes:
    stored = b"\x05" + fcb[1:] if fcb[0] == _FREE else fcb
    return _ENTRY.pack(stored, attr, bytes(10), time, date, cluster, size)


class FatVolume(Drive):
    """A DOS drive on a FAT12/16 volume held in `buf` (modified in place)."""

    def __init__(self, buf: bytearray, layout: FatLayout, *, read_only: bool = False,
                 clock: Clock = epoch_clock):
        self._buf = buf
        self.layout = layout
        self.read_only = read_only
        self.clock = clock
        # Bumped whenever the FAT may have changed, so open files re-read
        # their cluster chains (see FatFile._clusters).
        self.generation = 0
        bpb = layout.bpb
        self._bps = bpb.bytes_per_sector
        self._bpc = layout.bytes_per_cluster
        self._fat12 = layout.fat_type == 12
        self._eoc_min = 0xFF8 if self._fat12 else 0xFFF8
        self._eoc = 0xFFF if self._fat12 else 0xFFFF
        self._max_cluster = layout.cluster_count + 1
        self._fat_bases = [
            (layout.fat_start + i * bpb.sectors_per_fat) * self._bps for i in range(bpb.fat_count)
        ]
        self._root = (layout.root_start * self._bps, bpb.root_entries * DIR_ENTRY_SIZE)

    # ----------------------------------------------------------------- FAT
    def invalidate(self) -> None:
        """Tell open files that sectors changed under them (raw writes)."""
        self.generation += 1

    def fat_entry(self, n: int) -> int:
        base = self._fat_bases[0]
        buf = self._buf
        if self._fat12:
            off = base + n + (n >> 1)
            word = buf[off] | (buf[off + 1] << 8)
            return word >> 4 if n & 1 else word & 0xFFF
        off = base + 2 * n
        return buf[off] | (buf[off + 1] << 8)

    def _set_fat(self, n: int, value: int) -> None:
        buf = self._buf
        for base in self._fat_bases:
            if self._fat12:
                off = base + n + (n >> 1)
                if n & 1:
                    buf[off] = (buf[off] & 0x0F) | ((value << 4) & 0xF0)
                    buf[off + 1] = (value >> 4) & 0xFF
                else:
                    buf[off] = value & 0xFF
                    buf[off + 1] = (buf[off + 1] & 0xF0) | ((value >> 8) & 0x0F)
            else:
                buf[base + 2 * n] = value & 0xFF
                buf[base + 2 * n + 1] = value >> 8
        self.generation += 1

    def chain(self, first: int) -> list[int]:
        """The clusters of a file from its first cluster (0: an empty file)."""
        if first == 0:
            return []
        out = [first]
        cluster = first
        while True:
            if not 2 <= cluster <= self._max_cluster:
                raise CorruptVolumeError(f"cluster chain from {first} reaches invalid "
                                         f"cluster {cluster:#x}")
            nxt = self.fat_entry(cluster)
            if nxt >= self._eoc_min:
                return out
            if len(out) > self.layout.cluster_count:
                raise CorruptVolumeError(f"cluster chain from {first} loops")
            out.append(nxt)
            cluster = nxt

    def _allocate(self, count: int, after: int | None) -> list[int]:
        """Up to `count` free clusters, linked to each other and after cluster
        `after`; fewer if the disk fills up."""
        found: list[int] = []
        n = 2
        while len(found) < count and n <= self._max_cluster:
            if self.fat_entry(n) == 0:
                found.append(n)
            n += 1
        prev = after
        for cluster in found:
            if prev is not None:
                self._set_fat(prev, cluster)
            self._set_fat(cluster, self._eoc)
            prev = cluster
        return found

    def _free_chain(self, clusters: list[int]) -> None:
        for cluster in clusters:
            self._set_fat(cluster, 0)

    def cluster_offset(self, cluster: int) -> int:
        sector = self.layout.data_start + (cluster - 2) * self.layout.bpb.sectors_per_cluster
        return sector * self._bps

    def free_clusters(self) -> int:
        return sum(1 for n in range(2, self._max_cluster + 1) if self.fat_entry(n) == 0)

    def free_space(self) -> tuple[int, int, int, int]:
        return (self.layout.bpb.sectors_per_cluster, self._bps, self.free_clusters(),
                self.layout.cluster_count)

    # --------------------------------------------------------- directories
    def _slot_offsets(self, dir_cluster: int) -> Iterator[int]:
        if dir_cluster == 0:
            start, length = self._root
            yield from range(start, start + length, DIR_ENTRY_SIZE)
            return
        for cluster in self.chain(dir_cluster):
            start = self.cluster_offset(cluster)
            yield from range(start, start + self._bpc, DIR_ENTRY_SIZE)

    def _entries(self, dir_cluster: int) -> Iterator[_Entry]:
        """Entries in use, in directory order, up to the 00h end mark."""
        buf = self._buf
        for slot, off in enumerate(self._slot_offsets(dir_cluster)):
            first = buf[off]
            if first == _END:
                return
            if first == _FREE or buf[off + 11] == _LFN_ATTR:
                continue
            yield _Entry(off, slot, bytes(buf[off:off + DIR_ENTRY_SIZE]))

    def _find(self, dir_cluster: int, fcb: bytes) -> _Entry | None:
        for entry in self._entries(dir_cluster):
            if entry.fcb == fcb and not entry.is_label:
                return entry
        return None

    def _dir_cluster(self, dir_path: list[str]) -> int:
        """First cluster of a directory (0 for the root); DosError 3 if missing."""
        cluster = 0
        for i, part in enumerate(dir_path):
            entry = self._find(cluster, to_fcb(part))
            if entry is None or not entry.is_dir:
                where = "\\" + "\\".join(dir_path[:i + 1])
                raise DosError(E.PATH_NOT_FOUND, f"path not found: {where}")
            cluster = entry.cluster
        return cluster

    def _lookup(self, path: list[str]) -> tuple[int, bytes, _Entry | None]:
        """(parent directory cluster, FCB name, entry or None) for a path."""
        path = check_path(path)
        if not path:
            raise DosError(E.ACCESS_DENIED, "the root directory has no directory entry")
        parent = self._dir_cluster(path[:-1])
        fcb = to_fcb(path[-1])
        return parent, fcb, self._find(parent, fcb)

    def _free_slot(self, dir_cluster: int) -> int:
        """Offset of the first unused slot, growing a subdirectory if needed."""
        for off in self._slot_offsets(dir_cluster):
            if self._buf[off] in (_FREE, _END):
                return off
        if dir_cluster == 0:
            raise DosError(E.ACCESS_DENIED, "the root directory is full")
        last = self.chain(dir_cluster)[-1]
        new = self._allocate(1, last)
        if not new:
            raise DosError(E.ACCESS_DENIED, "the disk is full: cannot extend the directory")
        start = self.cluster_offset(new[0])
        self._buf[start:start + self._bpc] = bytes(self._bpc)
        return start

    def _write_entry(self, off: int, raw: bytes) -> None:
        self._buf[off:off + DIR_ENTRY_SIZE] = raw

    def _check_writable(self) -> None:
        if self.read_only:
            raise DosError(E.WRITE_PROTECT, "the disk is write-protected")

    # ------------------------------------------------------- Drive interface
    @property
    def volume_label(self) -> str | None:
        for entry in self._entries(0):
            if entry.is_label:
                return entry.fcb.decode("cp437").rstrip(" ")
        return None

    def set_volume_label(self, label: str | None) -> None:
        """Create, change or (None) delete the root's volume label entry."""
        self._check_writable()
        current = next((e for e in self._entries(0) if e.is_label), None)
        if label is None:
            if current is not None:
                self._buf[current.offset] = _FREE
            return
        raw = label.upper().encode("cp437", "replace")
        if not raw or len(raw) > FCB_LEN or not all(is_valid_byte(b) or b == 0x20 for b in raw):
            raise DosError(E.ACCESS_DENIED, f"invalid volume label {label!r}")
        off = current.offset if current is not None else self._free_slot(0)
        date, time = self.clock()
        self._write_entry(off, _pack_entry(raw.ljust(FCB_LEN), ATTR_VOLUME | ATTR_ARCHIVE,
                                           time, date, 0, 0))

    def listdir(self, dir_path: list[str]) -> list[DirEntry]:
        cluster = self._dir_cluster(check_path(dir_path))
        return [entry.to_dir_entry() for entry in self._entries(cluster)]

    def stat(self, path: list[str]) -> DirEntry | None:
        path = check_path(path)
        if not path:
            return DirEntry("", ATTR_DIRECTORY, 0, 0, 0)
        _parent, _fcb, entry = self._lookup(path)
        return entry.to_dir_entry() if entry else None

    def open(self, path: list[str], writable: bool = False) -> "FatFile":
        _parent, _fcb, entry = self._lookup(path)
        if entry is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {from_fcb(_fcb)}")
        if entry.is_dir:
            raise DosError(E.ACCESS_DENIED, f"{from_fcb(entry.fcb)} is a directory")
        if writable:
            self._check_writable()
            if entry.attr & 0x01:
                raise DosError(E.ACCESS_DENIED, f"{from_fcb(entry.fcb)} is read-only")
        return FatFile(self, entry, writable)

    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> "FatFile":
        self._check_writable()
        if attr & ~ATTR_CHANGEABLE:
            raise DosError(E.ACCESS_DENIED, f"cannot create a file with attribute {attr:#04x}"
                           " (use mkdir for directories, set_volume_label for labels)")
        parent, fcb, entry = self._lookup(path)
        date, time = self.clock()
        if entry is not None:
            if exclusive:
                raise DosError(E.FILE_EXISTS, f"file exists: {from_fcb(fcb)}")
            if entry.is_dir or entry.attr & 0x01:
                raise DosError(E.ACCESS_DENIED, f"cannot re-create {from_fcb(fcb)}: "
                               + ("a directory" if entry.is_dir else "read-only"))
            self._free_chain(self.chain(entry.cluster))
            off = entry.offset
        else:
            off = self._free_slot(parent)
        self._write_entry(off, _pack_entry(fcb, attr | ATTR_ARCHIVE, time, date, 0, 0))
        return FatFile(self, _Entry(off, -1, bytes(self._buf[off:off + DIR_ENTRY_SIZE])), True)

    def remove(self, path: list[str]) -> None:
        self._check_writable()
        _parent, fcb, entry = self._lookup(path)
        if entry is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {from_fcb(fcb)}")
        if entry.is_dir or entry.attr & 0x01:
            raise DosError(E.ACCESS_DENIED, f"cannot delete {from_fcb(fcb)}: "
                           + ("a directory" if entry.is_dir else "read-only"))
        self._free_chain(self.chain(entry.cluster))
        self._buf[entry.offset] = _FREE

    def rename(self, old: list[str], new: list[str]) -> None:
        self._check_writable()
        old_parent, old_fcb, entry = self._lookup(old)
        if entry is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {from_fcb(old_fcb)}")
        new_parent, new_fcb, existing = self._lookup(new)
        if existing is not None:
            raise DosError(E.ACCESS_DENIED, f"{from_fcb(new_fcb)} already exists")
        raw = _pack_entry(new_fcb, entry.attr, entry.time, entry.date, entry.cluster, entry.size)
        if new_parent == old_parent:
            self._write_entry(entry.offset, raw)
            return
        if entry.is_dir:
            raise DosError(E.ACCESS_DENIED, "DOS cannot move a directory to another directory")
        off = self._free_slot(new_parent)
        self._write_entry(off, raw)
        self._buf[entry.offset] = _FREE

    def mkdir(self, path: list[str]) -> None:
        self._check_writable()
        parent, fcb, entry = self._lookup(path)
        if entry is not None:
            raise DosError(E.ACCESS_DENIED, f"{from_fcb(fcb)} already exists")
        clusters = self._allocate(1, None)
        if not clusters:
            raise DosError(E.ACCESS_DENIED, "the disk is full")
        cluster = clusters[0]
        try:
            off = self._free_slot(parent)
        except DosError:
            self._free_chain(clusters)
            raise
        date, time = self.clock()
        start = self.cluster_offset(cluster)
        self._buf[start:start + self._bpc] = bytes(self._bpc)
        self._write_entry(start, _pack_entry(_DOT, ATTR_DIRECTORY, time, date, cluster, 0))
        self._write_entry(start + DIR_ENTRY_SIZE,
                          _pack_entry(_DOTDOT, ATTR_DIRECTORY, time, date, parent, 0))
        self._write_entry(off, _pack_entry(fcb, ATTR_DIRECTORY, time, date, cluster, 0))

    def rmdir(self, path: list[str]) -> None:
        self._check_writable()
        _parent, fcb, entry = self._lookup(path)
        if entry is None or not entry.is_dir:
            raise DosError(E.PATH_NOT_FOUND, f"no such directory: {from_fcb(fcb)}")
        for inner in self._entries(entry.cluster):
            if inner.fcb not in (_DOT, _DOTDOT):
                raise DosError(E.ACCESS_DENIED, f"directory {from_fcb(fcb)} is not empty")
        self._free_chain(self.chain(entry.cluster))
        self._buf[entry.offset] = _FREE

    def set_attr(self, path: list[str], attr: int) -> None:
        self._check_writable()
        _parent, fcb, entry = self._lookup(path)
        if entry is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {from_fcb(fcb)}")
        if attr & ~ATTR_CHANGEABLE or entry.is_dir:
            raise DosError(E.ACCESS_DENIED, f"cannot set attribute {attr:#04x} on {from_fcb(fcb)}")
        self._buf[entry.offset + 11] = attr

    # ---------------------------------------------------------------- tools
    def walk(self, dir_path: list[str] | None = None) -> Iterator[tuple[list[str], DirEntry]]:
        """Every file and directory below `dir_path` (not . and .., not labels),
        depth first in directory order, as (path, entry)."""
        for path, entry in self._walk(dir_path):
            yield path, entry.to_dir_entry()

    def walk_data(self, dir_path: list[str] | None = None
                  ) -> Iterator[tuple[list[str], DirEntry, "Callable[[], bytes]"]]:
        """As `walk`, with a function that reads each file's data through its directory
        entry (so names DOS could not open - a damaged entry - are read all the same)."""
        for path, entry in self._walk(dir_path):
            yield path, entry.to_dir_entry(), (lambda e=entry: FatFile(self, e, False).read(e.size))

    def _walk(self, dir_path: list[str] | None) -> Iterator[tuple[list[str], _Entry]]:
        dir_path = list(dir_path or [])
        seen: set[int] = set()

        def visit(path: list[str], cluster: int) -> Iterator[tuple[list[str], _Entry]]:
            for entry in list(self._entries(cluster)):
                if entry.is_label or entry.fcb in (_DOT, _DOTDOT):
                    continue
                child = path + [from_fcb(entry.fcb)]
                yield child, entry
                if entry.is_dir and entry.cluster and entry.cluster not in seen:
                    seen.add(entry.cluster)
                    yield from visit(child, entry.cluster)

        yield from visit(dir_path, self._dir_cluster(check_path(dir_path)))

    def first_cluster(self, path: list[str]) -> int:
        """First cluster of a file or directory (0 for the root or an empty file)."""
        path = check_path(path)
        if not path:
            return 0
        _parent, fcb, entry = self._lookup(path)
        if entry is None:
            raise DosError(E.FILE_NOT_FOUND, f"file not found: {from_fcb(fcb)}")
        return entry.cluster

    def read_file(self, path: list[str]) -> bytes:
        with self.open(path) as f:
            return f.read(f.size)


class FatFile(DriveFile):
    """An open file on a FatVolume; its directory entry is updated on flush."""

    def __init__(self, vol: FatVolume, entry: _Entry, writable: bool):
        self._vol = vol
        self._entry_off = entry.offset
        self._first = entry.cluster
        self._size = entry.size
        self._date, self._time = entry.date, entry.time
        self._stamp: tuple[int, int] | None = None  # set by set_datetime
        self._pos = 0
        self._modified = False
        self._closed = False
        self._chain: list[int] = []
        self._chain_gen = -1
        self.writable = writable

    def _check_open(self) -> None:
        if self._closed:
            raise DosError(E.INVALID_HANDLE, "the file is closed")

    def _clusters(self) -> list[int]:
        if self._chain_gen != self._vol.generation:
            self._chain = self._vol.chain(self._first)
            self._chain_gen = self._vol.generation
        return self._chain

    @property
    def size(self) -> int:
        return self._size

    def tell(self) -> int:
        return self._pos

    def seek(self, pos: int) -> None:
        self._check_open()
        if not 0 <= pos <= MAX_FILE_SIZE:
            raise ValueError(f"file position {pos} out of range")
        self._pos = pos

    def read(self, n: int) -> bytes:
        self._check_open()
        n = min(n, self._size - self._pos)
        if n <= 0:
            return b""
        bpc = self._vol._bpc
        chain = self._clusters()
        out = bytearray()
        pos = self._pos
        while n > 0:
            index, within = divmod(pos, bpc)
            if index >= len(chain):
                break  # the chain is shorter than the size says: DOS stops here too
            start = self._vol.cluster_offset(chain[index]) + within
            take = min(n, bpc - within)
            out += self._vol._buf[start:start + take]
            pos += take
            n -= take
        self._pos = pos
        return bytes(out)

    def _ensure_clusters(self, needed: int) -> int:
        """Grow the chain to `needed` clusters if the disk allows; returns how
        many the file now has."""
        chain = self._clusters()
        if needed > len(chain):
            new = self._vol._allocate(needed - len(chain), chain[-1] if chain else None)
            if new and not chain:
                self._first = new[0]
            chain = self._clusters()
        return len(chain)

    def _check_write(self) -> None:
        self._check_open()
        self._vol._check_writable()
        if not self.writable:
            raise DosError(E.ACCESS_DENIED, "the file is open for reading only")

    def write(self, data: bytes) -> int:
        self._check_write()
        if not data:
            return 0
        bpc = self._vol._bpc
        end = min(self._pos + len(data), MAX_FILE_SIZE)
        have = self._ensure_clusters(-(-end // bpc))
        end = min(end, have * bpc)
        if end <= self._pos:
            return 0
        chain = self._clusters()
        pos, src = self._pos, 0
        while pos < end:
            index, within = divmod(pos, bpc)
            take = min(end - pos, bpc - within)
            start = self._vol.cluster_offset(chain[index]) + within
            self._vol._buf[start:start + take] = data[src:src + take]
            pos += take
            src += take
        written = end - self._pos
        self._pos = end
        self._size = max(self._size, end)
        self._modified = True
        return written

    def truncate(self) -> None:
        self._check_write()
        bpc = self._vol._bpc
        needed = -(-self._pos // bpc)
        chain = self._clusters()
        if needed < len(chain):
            if needed == 0:
                self._first = 0
            else:
                self._vol._set_fat(chain[needed - 1], self._vol._eoc)
            self._vol._free_chain(chain[needed:])
            self._size = self._pos
        else:
            have = self._ensure_clusters(needed)
            self._size = min(self._pos, have * bpc)
        self._modified = True

    def get_datetime(self) -> tuple[int, int]:
        return self._stamp or (self._date, self._time)

    def set_datetime(self, date: int, time: int) -> None:
        self._check_open()
        self._stamp = (date, time)

    def flush(self) -> None:
        self._check_open()
        if not (self._modified or self._stamp) or self._vol.read_only:
            return
        buf = self._vol._buf
        off = self._entry_off
        if buf[off] in (_FREE, _END):
            return  # deleted while open: DOS does not resurrect the entry
        if self._stamp:
            self._date, self._time = self._stamp
        elif self._modified:
            self._date, self._time = self._vol.clock()
        attr = buf[off + 11] | (ATTR_ARCHIVE if self._modified else 0)
        buf[off + 11] = attr
        struct.pack_into("<HHHI", buf, off + 22, self._time, self._date, self._first, self._size)
        self._modified = False

    def close(self) -> None:
        if not self._closed:
            self.flush()
            self._closed = True
