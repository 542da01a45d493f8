"""Turning the machine's disk arguments into mounted drives.

``mount_disks(disks, host_dirs)`` takes what `pcemu.machine.Machine` is given:

* `disks`: one disk or a list of disks, each a catalogue name ("1612") or an
  image path, optionally prefixed with a drive letter ("B:1612",
  "B:/tmp/x.img").  Disks without a letter take the free letters from A:
  on, in order.
* `host_dirs`: drive letter -> host folder.  A path is mounted with
  `HostDirDrive`: programs write the folder itself.  A `HostFolder` is mounted
  copy-on-write (`pcemu.storage.overlay.HostDirOverlay`: programs change a private
  copy, the folder never) unless it says ``writes=True``; the command line gives
  folders as `HostFolder` (see docs/security.md).

It returns letter -> drive: a `FloppyImage` for images (its ``filesystem`` is
the `Drive` DOS uses, the image itself serves INT 13h) or a `HostDirDrive`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

from dataclasses import dataclass

from .errors import MountError
from .hostdir import HostDirDrive
from .image import FloppyImage
from .overlay import HostDirOverlay


@dataclass(frozen=True)
class HostFolder(os.PathLike):
    """A host folder to mount: copy-on-write unless ``writes`` (programs write the folder)."""
    path: str | os.PathLike
    writes: bool = False

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    def mount(self) -> HostDirDrive:
        return HostDirDrive(self.path) if self.writes else HostDirOverlay(self.path)

_LETTER = re.compile(r"^([A-Za-z]):(?=.)")


def _split_letter(spec: str | os.PathLike) -> tuple[str | None, str | os.PathLike]:
    if isinstance(spec, Path):
        return None, spec
    m = _LETTER.match(spec)
    # "C:\\x.img" on Windows is a path, not drive C: - only take a letter
    # followed by something that is not itself an absolute Windows path.
    if m and not (os.name == "nt" and spec[2:3] in ("\\", "/")):
        return m.group(1).upper(), spec[2:]
    return None, spec


def mount_disks(disks: Iterable[str | os.PathLike] | str | os.PathLike | None,
                host_dirs: dict[str, str | os.PathLike] | None = None) -> dict[str, object]:
    from disks.catalog import DiskError, find_disk

    if disks is None:
        disks = []
    elif isinstance(disks, (str, os.PathLike)):
        disks = [disks]
    mounted: dict[str, object] = {}
    for letter, folder in (host_dirs or {}).items():
        letter = letter.rstrip(":").upper()
        if len(letter) != 1 or not letter.isalpha():
            raise MountError(f"{letter!r} is not a drive letter")
        if not os.fspath(folder):
            raise MountError(f"drive {letter}: needs a host folder (an empty name is not the "
                             "current folder)")
        mounted[letter] = folder.mount() if isinstance(folder, HostFolder) else HostDirDrive(folder)
    pending = [_split_letter(d) for d in disks]
    # Lettered disks first, so the others fill the letters left free.
    order = [p for p in pending if p[0] is not None] + [p for p in pending if p[0] is None]
    for letter, spec in order:
        if letter is None:
            letter = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in mounted)
        if letter in mounted:
            raise MountError(f"drive {letter}: is given twice")
        try:
            path = find_disk(spec)
        except DiskError as exc:
            raise MountError(str(exc)) from None
        mounted[letter] = FloppyImage.open(path)
    return dict(sorted(mounted.items()))


def diskette_drives(mounted: dict[str, object], wanted: int | None = None,
                    one_drive_b: bool = False) -> int:
    """How many diskette drives the machine has: ``wanted`` (1 or 2), or what was mounted.

    A disk in B: (or nothing in A:, as with no disks or only host folders) gives the
    AT's two drives; a disk in A: alone gives one drive, so B: does not exist: a
    user who mounts one diskette gets a machine with that one drive (as DOSBox).
    ``one_drive_b`` (DOS's B: for the one drive, pcemu.dos.single_drive) means one drive.
    """
    if one_drive_b:
        if wanted == 2:
            raise MountError("B: as the one drive's second name needs a one-drive machine, not 2 drives")
        wanted = 1
    if wanted is None:
        return 2 if "B" in mounted or "A" not in mounted else 1
    if wanted not in (1, 2):
        raise MountError(f"a machine has 1 or 2 diskette drives, not {wanted}")
    if wanted == 1 and "B" in mounted:
        raise MountError("drive B: is mounted, so the machine needs 2 diskette drives")
    return wanted
