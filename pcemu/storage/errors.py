"""Errors of the storage layer.

`DosError` carries the DOS error code that INT 21h returns in AX, so the DOS
layer can hand it to the program unchanged.  `MountError` (and `ImageError`
for disk images) is for a drive that cannot be used at all (wrong size, no FAT, truncated): it is raised while
mounting, before any program runs, and its message tells the user what is
wrong with which file.
"""

from __future__ import annotations

# DOS error codes (INT 21h, AX on return with CF set), as DOS 3.x numbers them.
INVALID_FUNCTION = 0x01
FILE_NOT_FOUND = 0x02
PATH_NOT_FOUND = 0x03
TOO_MANY_OPEN_FILES = 0x04
ACCESS_DENIED = 0x05
INVALID_HANDLE = 0x06
INVALID_DRIVE = 0x0F
REMOVE_CURRENT_DIRECTORY = 0x10
NOT_SAME_DEVICE = 0x11
NO_MORE_FILES = 0x12
# Critical-error codes (INT 24h / extended error): a write-protected medium
# and a medium the drive cannot make sense of.
WRITE_PROTECT = 0x13
GENERAL_FAILURE = 0x1F
FILE_EXISTS = 0x50
CANNOT_MAKE = 0x52

ERROR_NAMES = {
    INVALID_FUNCTION: "invalid function",
    FILE_NOT_FOUND: "file not found",
    PATH_NOT_FOUND: "path not found",
    TOO_MANY_OPEN_FILES: "too many open files",
    ACCESS_DENIED: "access denied",
    INVALID_HANDLE: "invalid handle",
    INVALID_DRIVE: "invalid drive",
    REMOVE_CURRENT_DIRECTORY: "attempt to remove the current directory",
    NOT_SAME_DEVICE: "not same device",
    NO_MORE_FILES: "no more files",
    WRITE_PROTECT: "write-protected disk",
    GENERAL_FAILURE: "general failure",
    FILE_EXISTS: "file exists",
    CANNOT_MAKE: "cannot make directory entry",
}


class DosError(Exception):
    """A failed drive operation, with the DOS error code a program would see."""

    def __init__(self, code: int, message: str | None = None):
        self.code = code
        self.message = message or ERROR_NAMES.get(code, f"DOS error {code:#04x}")
        super().__init__(f"{self.message} (DOS error {code:#04x})")


class CorruptVolumeError(DosError):
    """The FAT or a directory on the medium is inconsistent (a looping or
    out-of-range cluster chain).  DOS reports such media as a general failure."""

    def __init__(self, message: str):
        super().__init__(GENERAL_FAILURE, message)


class MountError(Exception):
    """Something that cannot be mounted as a drive at all; the message names
    the file or folder and the problem."""


class ImageError(MountError):
    """A disk image file that cannot be mounted or saved."""
