"""INT 21h AH=44h, IOCTL, as DOS 3.30 answers it: a table of subfunctions keyed by AL.

The device information word (AL=00h) is what DOS keeps in the system file table:
for a character device the high byte is the driver's attribute high byte and the
low byte is 80h (a device) | 40h (not at end of input) | 20h (binary mode) | the
attribute's bits 0-4 (standard input, standard output, NUL, CLOCK$, fast output
through INT 29h); so CON answers 80D3h.  For a disk file it is the drive number
(0 = A:) | 40h while the file has not been written since it was opened.
Compilers' runtimes test bit 7 of handles 0-4 to choose between console and file
I/O, and some test DX as a whole.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pcemu.dos import OpenFile, console, dos_services
from pcemu.dos.numbered import registrar
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.machine import Machine

# The attribute words of DOS 3.30's resident character drivers (IBMBIO.COM);
# EMMXXXX0 is the expanded-memory manager's (pcemu.dos.ems) when one is installed.
DEVICE_ATTRIBUTES = {"CON": 0x8013, "AUX": 0x8000, "PRN": 0xA0C0, "NUL": 0x8004,
                     "CLOCK$": 0x8008, "EMMXXXX0": 0xC000}
INFO_DEVICE, INFO_NOT_EOF, INFO_BINARY = 0x80, 0x40, 0x20
SUPPORTS_IOCTL_STRINGS = 0x4000

Subfunction = Callable[["Machine"], None]
SUBFUNCTIONS: dict[int, Subfunction] = {}


subfunction = registrar(SUBFUNCTIONS)


@dos_services.function(0x44)
def ioctl(m: "Machine") -> None:
    handler = SUBFUNCTIONS.get(m.cpu.al)
    if handler is None:                   # DOS 3.30 knows 00h-0Fh; others are invalid
        raise DosError(0x01, f"IOCTL subfunction {m.cpu.al:02X}h")
    handler(m)


def device_information(entry: OpenFile) -> int:
    if entry.is_device:
        attribute = DEVICE_ATTRIBUTES.get(entry.device, 0x8000)
        info = (attribute & 0xFF00) | INFO_DEVICE | INFO_NOT_EOF | (attribute & 0x1F)
        if getattr(entry, "raw", False):
            info |= INFO_BINARY
        return info
    written = getattr(entry.file, "_modified", False)
    return (ord(entry.drive) - ord("A")) | (0 if written else INFO_NOT_EOF)


@subfunction(0x00)
def get_device_information(m: "Machine") -> None:
    info = device_information(m.dos.handle_file(m.cpu.bx))
    m.cpu.dx = info
    m.cpu.ax = info
    m.dos.succeed()


@subfunction(0x01)
def set_device_information(m: "Machine") -> None:
    entry = m.dos.handle_file(m.cpu.bx)
    if m.cpu.dh != 0:
        raise DosError(0x0D, "IOCTL set: DH must be zero")
    if not entry.is_device:
        raise DosError(0x01, "IOCTL set on a disk file")
    entry.raw = bool(m.cpu.dl & INFO_BINARY)
    m.dos.succeed()


@subfunction(0x02, 0x03)
def device_control_channel(m: "Machine") -> None:
    """None of DOS's own character drivers takes IOCTL strings (bit 14 clear)."""
    entry = m.dos.handle_file(m.cpu.bx)
    if not entry.is_device or not DEVICE_ATTRIBUTES.get(entry.device, 0) & SUPPORTS_IOCTL_STRINGS:
        raise DosError(0x01, "the device takes no IOCTL strings")
    reader = getattr(m.dos, "ioctl_read", {}).get(entry.device)
    if reader is None or m.cpu.al != 0x02:
        raise DosError(0x01, "the device takes no IOCTL strings")
    data = reader(m)[:m.cpu.cx]
    m.memory.write_far(m.cpu.ds, m.cpu.dx, data)
    m.cpu.ax = len(data)
    m.dos.succeed()


@subfunction(0x04, 0x05)
def block_control_channel(m: "Machine") -> None:
    _drive_letter(m)
    raise DosError(0x01, "the block driver takes no IOCTL strings")


@subfunction(0x06, 0x07)
def io_status(m: "Machine") -> None:
    entry = m.dos.handle_file(m.cpu.bx)
    output = m.cpu.al == 0x07
    if entry.is_device:
        ready = entry.device != "CON" or output or console._key_waiting(m)
    else:
        ready = output or entry.file.tell() < entry.file.size
    m.cpu.al = 0xFF if ready else 0x00
    m.dos.succeed()


def _drive_letter(m: "Machine") -> str:
    drive = m.cpu.bl
    letter = m.dos.current_drive if drive == 0 else chr(64 + drive)
    if letter not in m.dos.drives:
        raise DosError(0x0F, "invalid drive")
    return letter


@subfunction(0x08)
def removable(m: "Machine") -> None:
    letter = _drive_letter(m)
    m.cpu.ax = 0 if letter in ("A", "B") else 1
    m.dos.succeed()


@subfunction(0x09)
def drive_remote(m: "Machine") -> None:
    letter = _drive_letter(m)
    m.cpu.dx = 0x1000 if m.dos.floppy_image(ord(letter) - 65) is None else 0
    m.dos.succeed()


@subfunction(0x0A)
def handle_remote(m: "Machine") -> None:
    """DX bit 15: the handle's file lives on a remote (redirected) drive; a host folder is one."""
    entry = m.dos.handle_file(m.cpu.bx)
    remote = not entry.is_device and m.dos.floppy_image(ord(entry.drive) - 65) is None
    m.cpu.dx = device_information(entry) | (0x8000 if remote else 0)
    m.dos.succeed()


@subfunction(0x0B)
def sharing_retry(m: "Machine") -> None:
    m.dos.succeed()                        # the counts matter only with SHARE's conflicts


@subfunction(0x0C)
def generic_handle_request(m: "Machine") -> None:
    m.dos.handle_file(m.cpu.bx)
    raise DosError(0x01, "no code-page switching driver")


@subfunction(0x0D)
def generic_block_request(m: "Machine") -> None:
    m.unimplemented(0x21, "IOCTL subfunction 0Dh")
    raise DosError(0x01, "generic block device request")


@subfunction(0x0E, 0x0F)
def logical_drive_map(m: "Machine") -> None:
    _drive_letter(m)
    m.cpu.al = 0                            # one letter per drive: no other name to report
    m.dos.succeed()
