"""Raw diskette images (160 KB - 1.44 MB, FAT12/16) behind a copy-on-write overlay.

The source image is opened read-only, read once, and never written: the
emulator works on a private in-memory copy (the overlay; 1.44 MB at most).
File-level access (`FloppyImage.drive`, a `FatVolume`) and sector-level access
for the BIOS (`read_sectors` / `write_sectors`, CHS `geometry`) work on the
same bytes, so they always agree.  `save()` writes the overlay out as a new
image file and `changes()` lists what differs from the source, file by file.

For why the FAT work is done here rather than by pyfatfs, see
`pcemu.storage.fat`.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .drive import ATTR_ARCHIVE, ATTR_VOLUME, Clock, DirEntry, epoch_clock, pack_date
from .errors import DosError, ImageError, WRITE_PROTECT
from .fat import FatVolume, _pack_entry
from .layout import (
    SECTOR, FatLayout, Geometry, detect_layout, physical_geometry, standard_format,
)


MAX_IMAGE = 4 * 1024 * 1024     # bytes: more than any diskette (2.88 MB); larger files are refused


def read_image_file(path: str | os.PathLike) -> bytes:
    """The bytes of a raw image file, up to MAX_IMAGE (ImageError, one line, if unusable)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_IMAGE + 1)
    except FileNotFoundError:
        raise ImageError(f"disk image {path} does not exist") from None
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not a disk image") from None
    except OSError as exc:
        raise ImageError(f"cannot read disk image {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_IMAGE:
        raise ImageError(f"{path} is larger than {MAX_IMAGE // 2**20} MB: not a diskette image")
    return data


@dataclass(frozen=True)
class Change:
    """One difference between the overlay and the source image."""

    path: str  # "\\SUB\\FILE.TXT"
    status: str  # "new", "changed" or "deleted"
    old_size: int | None
    new_size: int | None
    detail: str = ""  # for "changed": what changed (data, attributes, date)


class FloppyImage:
    """A diskette image mounted for the emulator."""

    def __init__(self, data: bytes, *, name: str = "<memory>", source_path: Path | None = None,
                 read_only: bool = False, clock: Clock = epoch_clock):
        self.name = name
        self.source_path = source_path
        self._source = bytes(data)
        self.source_md5 = hashlib.md5(self._source).hexdigest()
        self.layout: FatLayout = detect_layout(self._source, name)
        self.geometry: Geometry = physical_geometry(self.layout, len(self._source))
        self._overlay = bytearray(self._source)
        self.read_only = read_only
        self.drive = FatVolume(self._overlay, self.layout, read_only=read_only, clock=clock)

    @classmethod
    def open(cls, path: str | os.PathLike, *, read_only: bool = False,
             clock: Clock = epoch_clock) -> "FloppyImage":
        """Mount an image file; it is only ever read."""
        path = Path(path)
        return cls(read_image_file(path), name=str(path), source_path=path,
                   read_only=read_only, clock=clock)

    # ------------------------------------------------------------- sectors
    @property
    def filesystem(self) -> FatVolume:
        """The `Drive` DOS uses (same object as `drive`)."""
        return self.drive

    @property
    def cylinders(self) -> int:
        return self.geometry.cylinders

    @property
    def heads(self) -> int:
        return self.geometry.heads

    @property
    def sectors_per_track(self) -> int:
        return self.geometry.sectors_per_track

    @property
    def size_kb(self) -> int:
        return len(self._overlay) // 1024

    @property
    def total_sectors(self) -> int:
        return len(self._overlay) // SECTOR

    def _check_range(self, lba: int, count: int) -> None:
        if lba < 0 or count < 0 or lba + count > self.total_sectors:
            raise ValueError(f"sectors {lba}..{lba + count - 1} are outside this disk of "
                             f"{self.total_sectors} sectors")

    def read_sectors(self, lba: int, count: int) -> bytes:
        self._check_range(lba, count)
        return bytes(self._overlay[lba * SECTOR:(lba + count) * SECTOR])

    def write_sectors(self, lba: int, data: bytes) -> None:
        if self.read_only:
            raise DosError(WRITE_PROTECT, "the disk is write-protected")
        if len(data) % SECTOR:
            raise ValueError(f"{len(data)} bytes is not a whole number of sectors")
        self._check_range(lba, len(data) // SECTOR)
        self._overlay[lba * SECTOR:lba * SECTOR + len(data)] = data
        self.drive.invalidate()

    # ------------------------------------------------------- overlay state
    @property
    def modified(self) -> bool:
        return self._overlay != self._source

    def data(self) -> bytes:
        """The overlay's current bytes."""
        return bytes(self._overlay)

    def source_data(self) -> bytes:
        return self._source

    def save(self, out_path: str | os.PathLike) -> Path:
        """Write the overlay as a new image file (never over the source)."""
        out = Path(out_path)
        if self.source_path is not None and out.exists():
            try:
                if out.samefile(self.source_path):
                    raise ImageError(f"refusing to overwrite the source image {out}: "
                                     "save the changed disk under another name")
            except OSError:
                pass
        if (out.exists() or out.is_symlink()) and not out.is_file():
            raise ImageError(f"{out} is not a regular file: the image is not saved over it")
        out.parent.mkdir(parents=True, exist_ok=True)
        # Write beside the target and rename, so a failed save never leaves a
        # half-written image under the real name.
        fd, tmp = tempfile.mkstemp(prefix=out.name + ".", suffix=".tmp", dir=out.parent)
        try:
            os.fchmod(fd, 0o666 & ~_umask())     # as open() would make it, not mkstemp's 0600
            with os.fdopen(fd, "wb") as f:
                f.write(self._overlay)
            os.replace(tmp, out)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
        return out

    def changes(self) -> list[Change]:
        """Files and directories new, changed or deleted against the source."""
        before = _snapshot(FatVolume(bytearray(self._source), self.layout, read_only=True))
        after = _snapshot(FatVolume(bytearray(self._overlay), self.layout, read_only=True))
        out: list[Change] = []
        for path, (entry, digest) in after.items():
            if path not in before:
                out.append(Change(path, "new", None, _size(entry)))
                continue
            old, old_digest = before[path]
            what = []
            if digest != old_digest:
                what.append("data")
            if (old.attr & ~ATTR_ARCHIVE) != (entry.attr & ~ATTR_ARCHIVE):
                what.append("attributes")
            if (old.date, old.time) != (entry.date, entry.time):
                what.append("date")
            if what:
                out.append(Change(path, "changed", _size(old), _size(entry), ", ".join(what)))
        for path, (entry, _digest) in before.items():
            if path not in after:
                out.append(Change(path, "deleted", _size(entry), None))
        return out


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _size(entry: DirEntry) -> int | None:
    return None if entry.is_dir else entry.size


def _snapshot(vol: FatVolume) -> dict[str, tuple[DirEntry, str]]:
    """Every file and directory with an MD5 of its data; a damaged volume (a looping chain,
    a name DOS cannot open) gives what can be read, with the damage in place of the digest."""
    files: dict[str, tuple[DirEntry, str]] = {}
    walk = vol.walk_data()
    while True:
        try:
            path, entry, read = next(walk)
        except StopIteration:
            break
        except DosError as exc:
            files["\\(unreadable directory)"] = (DirEntry("", 0x10, 0, 0, 0), exc.message)
            break
        if entry.is_dir:
            digest = ""
        else:
            try:
                digest = hashlib.md5(read()).hexdigest()
            except DosError as exc:
                digest = f"unreadable: {exc.message}"
        files["\\" + "\\".join(path)] = (entry, digest)
    return files


# A boot sector for blank disks made here: it prints a message and reboots on
# a key, like the one DOS FORMAT writes on a non-system disk.
#   xor ax,ax / mov ds,ax / mov si,7C5Ah / cld
#   next: lodsb / or al,al / jz wait / mov ah,0Eh / mov bx,7 / int 10h / jmp next
#   wait: xor ah,ah / int 16h / int 19h
_BOOT_CODE = bytes.fromhex("31c08ed8be5a7cfc" "ac08c07409b40ebb0700cd10ebf2" "30e4cd16cd19")
_BOOT_MESSAGE = b"\r\nNon-System disk or disk error\r\nReplace and press any key when ready\r\n\0"
_BOOT_CODE_AT = 0x3E


def format_image(fmt: str | int = "360K", *, label: str | None = None,
                 date: int = pack_date(1980, 1, 1), time: int = 0,
                 oem: bytes = b"PCEMU1.0", volume_id: int = 0) -> bytes:
    """A blank, DOS-formatted diskette of a standard format ("160K" ... "1440K").

    The boot sector carries the DOS 3.31 BPB and the DOS 4 extended fields;
    every date and serial number comes from the arguments, so the result is
    the same on every run.
    """
    spec = standard_format(fmt)
    bpb = spec.bpb
    image = bytearray(spec.size)
    boot = bytearray(SECTOR)
    boot[0:3] = bytes([0xEB, _BOOT_CODE_AT - 2, 0x90])
    boot[3:11] = oem.ljust(8)[:8]
    boot[0x0B:0x24] = bpb.pack()
    boot[0x24] = 0x00  # BIOS drive number: A:
    boot[0x26] = 0x29  # extended boot signature
    boot[0x27:0x2B] = volume_id.to_bytes(4, "little")
    boot[0x2B:0x36] = (label or "NO NAME").upper().encode("cp437").ljust(11)[:11]
    boot[0x36:0x3E] = b"FAT12   "
    code = _BOOT_CODE + _BOOT_MESSAGE
    boot[_BOOT_CODE_AT:_BOOT_CODE_AT + len(code)] = code
    boot[510:512] = b"\x55\xaa"
    image[0:SECTOR] = boot
    for i in range(bpb.fat_count):
        start = (bpb.reserved_sectors + i * bpb.sectors_per_fat) * SECTOR
        image[start:start + 3] = bytes([bpb.media, 0xFF, 0xFF])
    if label:
        root = (bpb.reserved_sectors + bpb.fat_count * bpb.sectors_per_fat) * SECTOR
        fcb = label.upper().encode("cp437").ljust(11)[:11]
        image[root:root + 32] = _pack_entry(fcb, ATTR_VOLUME | ATTR_ARCHIVE, time, date, 0, 0)
    return bytes(image)
