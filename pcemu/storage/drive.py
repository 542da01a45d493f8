"""The interface through which the emulated DOS reaches files.

Both a FAT disk image (`pcemu.storage.fat.FatVolume`) and a host folder
(`pcemu.storage.hostdir.HostDirDrive`) implement `Drive`, so DOS never knows
which one it is talking to.  The interface is shaped after what DOS itself
keeps and needs:

* A path is a list of upper-case 8.3 components from the drive root, e.g.
  ``["SUBDIR", "FILE.TXT"]``; ``[]`` is the root.  The DOS layer resolves the
  current directory, ``.`` and ``..`` before calling in.
* `DirEntry` is what a directory entry says: name, DOS attribute bits, size and
  the packed DOS date and time words.  `DirEntry.slot` is the entry's position
  in its directory; a FINDNEXT can resume after a slot even if the directory
  changed in between, as DOS resumes after a directory entry index.
* `listdir` returns the entries in directory order, including ``.``, ``..``
  and the volume label where they really are: the DOS layer applies the
  FINDFIRST attribute and wildcard filter (see `pcemu.storage.names`).
* `stat` returns None when the last component does not exist and raises
  `DosError` 3 (path not found) when a directory on the way does not; volume
  labels are not found by `stat`, as DOS skips them when it opens files.
* Failures raise `DosError` with the DOS error code.
* Date and time stamps of created or written files come from ``drive.clock``,
  a callable returning the packed ``(date, time)`` words; the DOS layer points
  it at the emulated clock, so nothing here reads the host's wall clock.
"""

from __future__ import annotations

import datetime as _dt
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable

from .errors import PATH_NOT_FOUND, DosError
from .names import InvalidNameError, from_fcb, to_fcb

ATTR_READ_ONLY = 0x01
ATTR_HIDDEN = 0x02
ATTR_SYSTEM = 0x04
ATTR_VOLUME = 0x08
ATTR_DIRECTORY = 0x10
ATTR_ARCHIVE = 0x20
# Attribute bits a program may set with INT 21h AX=4301h.
ATTR_CHANGEABLE = ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE

MAX_FILE_SIZE = 0xFFFFFFFF

Clock = Callable[[], "tuple[int, int]"]


def pack_date(year: int, month: int, day: int) -> int:
    """DOS date word: bits 15-9 year-1980, 8-5 month, 4-0 day."""
    if not 1980 <= year <= 2107:
        raise ValueError(f"DOS dates run from 1980 to 2107, not {year}")
    return ((year - 1980) << 9) | (month << 5) | day


def pack_time(hour: int, minute: int, second: int) -> int:
    """DOS time word: bits 15-11 hour, 10-5 minute, 4-0 second/2."""
    return (hour << 11) | (minute << 5) | (second // 2)


def unpack_date(word: int) -> tuple[int, int, int]:
    return 1980 + (word >> 9), (word >> 5) & 0x0F, word & 0x1F


def unpack_time(word: int) -> tuple[int, int, int]:
    return word >> 11, (word >> 5) & 0x3F, (word & 0x1F) * 2


def dos_datetime_words(moment: _dt.datetime) -> tuple[int, int]:
    """(date, time) words for a datetime, clamped to the DOS range 1980-2107."""
    low = _dt.datetime(1980, 1, 1)
    high = _dt.datetime(2107, 12, 31, 23, 59, 58)
    moment = min(max(moment.replace(tzinfo=None), low), high)
    return (
        pack_date(moment.year, moment.month, moment.day),
        pack_time(moment.hour, moment.minute, moment.second),
    )


def words_to_datetime(date: int, time: int) -> _dt.datetime | None:
    """The datetime a DOS date/time pair stands for, None if it is not a valid
    date (DOS 1.x disks have zero dates)."""
    try:
        return _dt.datetime(*unpack_date(date), *unpack_time(time))
    except ValueError:
        return None


EPOCH_WORDS = (pack_date(1980, 1, 1), 0)


def epoch_clock() -> tuple[int, int]:
    """Default clock: 1980-01-01 00:00:00, until the DOS layer supplies its own."""
    return EPOCH_WORDS


@dataclass(frozen=True)
class DirEntry:
    name: str  # "FILE.TXT", "SUBDIR", ".", ".." or the volume label
    attr: int
    size: int
    date: int
    time: int
    slot: int = field(default=-1, compare=False)

    @property
    def is_dir(self) -> bool:
        return bool(self.attr & ATTR_DIRECTORY)

    @property
    def is_label(self) -> bool:
        return bool(self.attr & ATTR_VOLUME)


def check_path(path: list[str] | tuple[str, ...]) -> list[str]:
    """Validate a path given to a drive: upper-case 8.3 components only."""
    path = list(path)
    for part in path:
        try:
            canonical = isinstance(part, str) and from_fcb(to_fcb(part, truncate=False)) == part
        except InvalidNameError:
            canonical = False
        if not canonical or part in (".", ".."):
            raise DosError(PATH_NOT_FOUND, f"not an upper-case 8.3 path component: {part!r}")
    return path


class DriveFile(ABC):
    """An open file: a DOS handle's view of one file on a drive."""

    writable: bool

    @abstractmethod
    def read(self, n: int) -> bytes:
        """Up to `n` bytes from the current position (fewer at end of file)."""

    @abstractmethod
    def write(self, data: bytes) -> int:
        """Write at the current position; returns the count written, which is
        short when the disk is full (DOS reports that as success with CX < n)."""

    @abstractmethod
    def seek(self, pos: int) -> None:
        """Move to absolute position `pos`; beyond end of file is allowed."""

    @abstractmethod
    def tell(self) -> int: ...

    @property
    @abstractmethod
    def size(self) -> int: ...

    @abstractmethod
    def truncate(self) -> None:
        """Cut or extend the file to end at the current position (a DOS
        write of 0 bytes)."""

    @abstractmethod
    def flush(self) -> None:
        """Write the directory entry out (DOS "commit file")."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def get_datetime(self) -> tuple[int, int]:
        """(date, time) words as INT 21h AX=5700h reports them."""

    @abstractmethod
    def set_datetime(self, date: int, time: int) -> None:
        """Stamp the file at close with these words (INT 21h AX=5701h), instead
        of the clock's time of the last write."""

    def __enter__(self) -> "DriveFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Drive(ABC):
    """A DOS drive: a FAT volume in a disk image or a host folder."""

    read_only: bool
    clock: Clock

    @property
    @abstractmethod
    def volume_label(self) -> str | None: ...

    @abstractmethod
    def listdir(self, dir_path: list[str]) -> list[DirEntry]: ...

    @abstractmethod
    def stat(self, path: list[str]) -> DirEntry | None: ...

    @abstractmethod
    def open(self, path: list[str], writable: bool = False) -> DriveFile: ...

    @abstractmethod
    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> DriveFile:
        """Create (or truncate) a file, open for writing.  With `exclusive`
        (INT 21h AH=5Bh) an existing file is DosError 50h instead."""

    @abstractmethod
    def remove(self, path: list[str]) -> None: ...

    @abstractmethod
    def rename(self, old: list[str], new: list[str]) -> None: ...

    @abstractmethod
    def mkdir(self, path: list[str]) -> None: ...

    @abstractmethod
    def rmdir(self, path: list[str]) -> None: ...

    @abstractmethod
    def set_attr(self, path: list[str], attr: int) -> None: ...

    @abstractmethod
    def free_space(self) -> tuple[int, int, int, int]:
        """(sectors per cluster, bytes per sector, free clusters, total
        clusters), the four values of INT 21h AH=36h."""
