"""The disk layer: what the emulated DOS and BIOS read and write.

* `drive` - the `Drive`/`DriveFile` interface DOS uses, `DirEntry`, attributes;
* `image` - raw diskette images behind a copy-on-write overlay (`FloppyImage`);
* `fat` - the FAT12/16 engine with DOS 3.x directory semantics (`FatVolume`);
* `hostdir` - a host folder as a drive (`HostDirDrive`);
* `overlay` - a host folder mounted copy-on-write (`HostDirOverlay`);
* `names` - 8.3 names, the FCB form and DOS wildcard matching;
* `layout` - BPBs, standard diskette formats and layout detection;
* `pcjs` - PCjs diskette JSON import;
* `mount` - the machine's disk arguments -> mounted drives (`mount_disks`);
* `errors` - `DosError` (with DOS error codes), `ImageError`, `MountError`.
"""

from .drive import DirEntry, Drive, DriveFile
from .errors import DosError, ImageError, MountError
from .fat import FatVolume
from .hostdir import HostDirDrive
from .overlay import HostDirOverlay
from .image import Change, FloppyImage, format_image

__all__ = [
    "Change", "DirEntry", "DosError", "Drive", "DriveFile", "FatVolume", "FloppyImage",
    "HostDirDrive", "HostDirOverlay", "ImageError", "MountError", "format_image",
]
