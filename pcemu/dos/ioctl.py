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

from typing import TYPE_CHECKING

from bios.services import FunctionTable
from pcemu.dos import con
from pcemu.dos.structures import OpenFile
from pcemu.dos.single_drive import LETTERS
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("IOCTL")      # this area's INT 21h functions (int21.py)


# The attribute words of DOS 3.30's resident character drivers (IBMBIO.COM);
# EMMXXXX0 is the expanded-memory manager's (pcemu.dos.ems) when one is installed.
DEVICE_ATTRIBUTES = {"CON": 0x8013, "AUX": 0x8000, "PRN": 0xA0C0, "NUL": 0x8004,
                     "CLOCK$": 0x8008, "EMMXXXX0": 0xC000}
INFO_DEVICE, INFO_NOT_EOF, INFO_BINARY = 0x80, 0x40, 0x20
SUPPORTS_IOCTL_STRINGS = 0x4000

SUBFUNCTIONS = FunctionTable("IOCTL")          # AL -> handler


subfunction = SUBFUNCTIONS.function


@functions.function(0x44)
def ioctl(ctx: "ServiceContext") -> None:
    handler = SUBFUNCTIONS.get(ctx.cpu.al)
    if handler is None:                   # DOS 3.30 knows 00h-0Fh; others are invalid
        raise DosError(0x01, f"IOCTL subfunction {ctx.cpu.al:02X}h")
    handler(ctx)


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
def get_device_information(ctx: "ServiceContext") -> None:
    info = device_information(ctx.dos.handle_file(ctx.cpu.bx))
    ctx.cpu.dx = info
    ctx.cpu.ax = info
    ctx.dos.succeed()


@subfunction(0x01)
def set_device_information(ctx: "ServiceContext") -> None:
    entry = ctx.dos.handle_file(ctx.cpu.bx)
    if ctx.cpu.dh != 0:
        raise DosError(0x0D, "IOCTL set: DH must be zero")
    if not entry.is_device:
        raise DosError(0x01, "IOCTL set on a disk file")
    entry.raw = bool(ctx.cpu.dl & INFO_BINARY)
    ctx.dos.succeed()


@subfunction(0x02, 0x03)
def device_control_channel(ctx: "ServiceContext") -> None:
    """None of DOS's own character drivers takes IOCTL strings (bit 14 clear)."""
    entry = ctx.dos.handle_file(ctx.cpu.bx)
    if not entry.is_device or not DEVICE_ATTRIBUTES.get(entry.device, 0) & SUPPORTS_IOCTL_STRINGS:
        raise DosError(0x01, "the device takes no IOCTL strings")
    reader = getattr(ctx.dos, "ioctl_read", {}).get(entry.device)
    if reader is None or ctx.cpu.al != 0x02:
        raise DosError(0x01, "the device takes no IOCTL strings")
    data = reader(ctx)[:ctx.cpu.cx]
    ctx.memory.write_far(ctx.cpu.ds, ctx.cpu.dx, data)
    ctx.cpu.ax = len(data)
    ctx.dos.succeed()


@subfunction(0x04, 0x05)
def block_control_channel(ctx: "ServiceContext") -> None:
    _drive_letter(ctx)
    raise DosError(0x01, "the block driver takes no IOCTL strings")


@subfunction(0x06, 0x07)
def io_status(ctx: "ServiceContext") -> None:
    entry = ctx.dos.handle_file(ctx.cpu.bx)
    output = ctx.cpu.al == 0x07
    if entry.is_device:
        ready = entry.device != "CON" or output or con.key_waiting_now(ctx)
    else:
        ready = output or entry.file.tell() < entry.file.size
    ctx.cpu.al = 0xFF if ready else 0x00
    ctx.dos.succeed()


def _drive_letter(ctx: "ServiceContext") -> str:
    drive = ctx.cpu.bl
    letter = ctx.dos.current_drive if drive == 0 else chr(64 + drive)
    if letter not in ctx.dos.drives:
        raise DosError(0x0F, "invalid drive")
    return letter


@subfunction(0x08)
def removable(ctx: "ServiceContext") -> None:
    letter = _drive_letter(ctx)
    ctx.cpu.ax = 0 if letter in ("A", "B") else 1
    ctx.dos.succeed()


@subfunction(0x09)
def drive_remote(ctx: "ServiceContext") -> None:
    letter = _drive_letter(ctx)
    ctx.cpu.dx = 0x1000 if ctx.dos.floppy_image(ctx.dos.unit_of(letter)) is None else 0
    ctx.dos.succeed()


@subfunction(0x0A)
def handle_remote(ctx: "ServiceContext") -> None:
    """DX bit 15: the handle's file lives on a remote (redirected) drive; a host folder is one."""
    entry = ctx.dos.handle_file(ctx.cpu.bx)
    remote = not entry.is_device and ctx.dos.floppy_image(ord(entry.drive) - 65) is None
    ctx.cpu.dx = device_information(entry) | (0x8000 if remote else 0)
    ctx.dos.succeed()


@subfunction(0x0B)
def sharing_retry(ctx: "ServiceContext") -> None:
    ctx.dos.succeed()                        # the counts matter only with SHARE's conflicts


@subfunction(0x0C)
def generic_handle_request(ctx: "ServiceContext") -> None:
    ctx.dos.handle_file(ctx.cpu.bx)
    raise DosError(0x01, "no code-page switching driver")


@subfunction(0x0D)
def generic_block_request(ctx: "ServiceContext") -> None:
    ctx.call.unimplemented(0x21, "IOCTL subfunction 0Dh")
    raise DosError(0x01, "generic block device request")


@subfunction(0x0E)
def get_logical_drive(ctx: "ServiceContext") -> None:
    """The name a drive with two (a one-drive machine's A: and B:) answers to now; 0 for
    a drive with one name."""
    letter = _drive_letter(ctx)
    unit = ctx.dos.shared_unit
    ctx.cpu.al = ord(unit.answering) - 64 if unit is not None and letter in LETTERS else 0
    ctx.dos.succeed()


@subfunction(0x0F)
def set_logical_drive(ctx: "ServiceContext") -> None:
    """Name the diskette in the one drive, so that DOS does not ask for it."""
    letter = _drive_letter(ctx)
    unit = ctx.dos.shared_unit
    if unit is not None and letter in LETTERS:
        unit.select(letter)
        ctx.cpu.al = ord(letter) - 64
    else:
        ctx.cpu.al = 0
    ctx.dos.succeed()
