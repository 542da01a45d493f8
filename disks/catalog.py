"""The catalogue of known disks, and finding their image files.

`find_disk("1612")` looks for the catalogued file name (case-insensitively) in,
in this order:

1. the repository's own ``disks/`` folder;
2. each folder of ``$PCEMU_DISK_PATH`` (separated by ``os.pathsep``);
3. ``../shared/disks/`` beside the repository root;
4. ``../shared/disks/`` relative to the current directory.

The first copy whose MD5 matches the catalogue wins; a copy with another MD5
is not used (it is a different or damaged disk).  An argument that names a
file (it contains a path separator, or a file of that name exists) is used
directly, after checking that it is a FAT diskette image.  Every failure is a
`DiskError` whose message says what was looked for, where, and what to do.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from pcemu.storage.errors import ImageError
from pcemu.storage.layout import detect_layout

REPO_ROOT = Path(__file__).resolve().parent.parent
ENV_VAR = "PCEMU_DISK_PATH"


class DiskError(Exception):
    """A disk that cannot be found or used; the message says why and what to do."""


@dataclass(frozen=True)
class Program:
    file: str
    title: str


@dataclass(frozen=True)
class CatalogDisk:
    name: str  # the catalogue key, e.g. "1612"
    file_name: str
    md5: str
    size: int
    title: str
    programs: tuple[Program, ...]


CATALOG: dict[str, CatalogDisk] = {
    "1612": CatalogDisk(
        name="1612",
        file_name="DISK1612.img",
        md5="a8486b237abdfb4ccee8ab6b1c5c7369",
        size=327680,
        title="PC-SIG Library Disk #1612: Gin Rummy/Meteors (320K, FAT12)",
        programs=(
            Program("GINRUMMY.EXE", "Tommy's Gin Rummy 1.0 (1987/88), QuickBASIC 3.0"),
            Program("METEORS.EXE", "Tommy's Meteors (1986/88), QuickBASIC 3.0"),
            Program("EZT.EXE", "EZ-Tree 1.26 genealogy (1987/88), Turbo Pascal 4.0"),
            Program("GO.BAT", "shows GO.TXT, the disk's introduction"),
        ),
    ),
}


def _md5(path: Path) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def identify(path: str | os.PathLike) -> CatalogDisk | None:
    """The catalogue entry whose MD5 this file has, if any."""
    md5 = _md5(Path(path))
    return next((d for d in CATALOG.values() if d.md5 == md5), None)


def search_folders() -> list[Path]:
    """The folders `find_disk` searches for a catalogued disk, in order."""
    folders = [REPO_ROOT / "disks"]
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if entry.strip():
            folders.append(Path(entry.strip()).expanduser())
    folders.append(REPO_ROOT.parent / "shared" / "disks")
    folders.append(Path.cwd().parent / "shared" / "disks")
    unique: list[Path] = []
    seen: set[str] = set()
    for folder in folders:
        key = os.path.realpath(folder)
        if key not in seen:
            seen.add(key)
            unique.append(folder)
    return unique


def _catalog_entry(name: str) -> CatalogDisk | None:
    key = name.strip().upper()
    for prefix in ("PC-SIG", "DISK", "#"):
        key = key.removeprefix(prefix).strip(" #-")
    if key in CATALOG:
        return CATALOG[key]
    return next((d for d in CATALOG.values() if d.file_name.upper() == name.strip().upper()),
                None)


def _check_image(path: Path) -> None:
    try:
        with open(path, "rb") as f:
            data = f.read(4 * 1024 * 1024 + 1)
    except IsADirectoryError:
        raise DiskError(f"{path} is a folder, not a disk image file") from None
    except OSError as exc:
        raise DiskError(f"cannot read {path}: {exc.strerror}") from None
    try:
        detect_layout(data, str(path))
    except ImageError as exc:
        raise DiskError(str(exc)) from None


def _find_in(folder: Path, file_name: str) -> Path | None:
    candidate = folder / file_name
    if candidate.is_file():
        return candidate
    try:
        for entry in folder.iterdir():
            if entry.name.lower() == file_name.lower() and entry.is_file():
                return entry
    except OSError:
        pass
    return None


def _looks_like_path(arg: str | os.PathLike) -> bool:
    if isinstance(arg, Path):
        return True
    text = os.fspath(arg)
    return os.sep in text or "/" in text or Path(text).exists()


def find_disk(name_or_path: str | os.PathLike) -> Path:
    """The image file for a catalogue name ("1612") or a path; DiskError if none."""
    if _looks_like_path(name_or_path):
        path = Path(name_or_path)
        if not path.exists():
            raise DiskError(f"disk image {path} does not exist")
        _check_image(path)
        return path
    name = os.fspath(name_or_path)
    disk = _catalog_entry(name)
    if disk is None:
        known = "; ".join(f"{d.name} ({d.title})" for d in CATALOG.values())
        raise DiskError(f"unknown disk {name!r}: known disks are {known}. "
                        "To use another image, give its path.")
    folders = search_folders()
    wrong: list[str] = []
    for folder in folders:
        found = _find_in(folder, disk.file_name)
        if found is None:
            continue
        md5 = _md5(found)
        if md5 == disk.md5:
            return found
        wrong.append(f"{found} (MD5 {md5})")
    if wrong:
        raise DiskError(
            f"no good copy of disk {disk.name} ({disk.file_name}, MD5 {disk.md5}): "
            f"{'; '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} a different or damaged "
            "image. Replace it with the original, or give a modified image by its path.")
    searched = "\n  ".join(str(f) for f in folders)
    raise DiskError(
        f"disk {disk.name} ({disk.file_name}) not found. Searched:\n  {searched}\n"
        f"Put {disk.file_name} in {REPO_ROOT / 'disks'}, add its folder to ${ENV_VAR}, "
        f"or give the image's path.")
