"""Critical errors: INT 24h for a drive with no diskette, a write-protected disk, a bad medium.

DOS does not fail such a call at once: it asks the critical error handler
(INT 24h, COMMAND.COM's "Abort, Retry, Fail?" unless the program installed its
own) and obeys the answer in AL:

* 0 ignore - go on as if the call had worked (only where DOS allows it);
* 1 retry  - run the call again;
* 2 abort  - end the program, termination type 2;
* 3 fail   - the call returns an error (53h, "fail on INT 24h").

An answer the flags in AH do not allow is converted as DOS 3.3 converts it:
ignore or retry -> fail, fail -> abort.

The handler is entered the way DOS enters it: the caller's registers at the
INT 21h are pushed on its stack (AX on top, ES deepest) above the caller's own
INT frame, so a handler that pops them and returns straight to the program
works; AH holds the flags, AL the drive, DI the device error code and BP:SI a
block-device header.  The ROM's ``call24`` issues the INT 24h and its trap
``int24_returned`` brings the answer back here.

The command interpreter raises critical errors of its own (a prompt with $P on
an empty drive, DIR A:): then nothing is pushed and the shell is told the answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from pcemu.dos import process
from pcemu.dos.structures import DOS_DATA_SEGMENT
from pcemu.storage.drive import Drive, DriveFile, DirEntry
from pcemu.storage.errors import GENERAL_FAILURE, WRITE_PROTECT

if TYPE_CHECKING:
    from bios.context import ServiceContext

# device error codes (the low byte of DI); DOS's error code is 13h more
WRITE_PROTECTED, NOT_READY, GENERAL = 0x00, 0x02, 0x0C
DEVICE_MESSAGES = {WRITE_PROTECTED: "Write protect error", NOT_READY: "Not ready",
                   GENERAL: "General failure"}
AREA_DOS, AREA_FAT, AREA_DIRECTORY, AREA_DATA = 0, 1, 2, 3
ALLOW_FAIL, ALLOW_RETRY, ALLOW_IGNORE = 0x08, 0x10, 0x20
IGNORE, RETRY, ABORT, FAIL = 0, 1, 2, 3
FAIL_ON_INT24 = 0x53
# storage errors that are really device errors: DOS error code -> device code
CRITICAL_CODES = {WRITE_PROTECT: WRITE_PROTECTED, GENERAL_FAILURE: GENERAL}

DEVICE_HEADER_OFFSET = 0x90          # in the DOS data segment: what BP:SI points to
PUSHED = ("es", "ds", "bp", "di", "si", "dx", "cx", "bx", "ax")   # push order: AX ends on top

# What a failed FCB call returns in AL (no carry flag): FFh for the name
# functions, 01h ("no data" / "disk full") for record transfers.
FCB_FAIL_AL = {0x0F: 0xFF, 0x10: 0xFF, 0x11: 0xFF, 0x12: 0xFF, 0x13: 0xFF, 0x16: 0xFF,
               0x17: 0xFF, 0x23: 0xFF, 0x14: 0x01, 0x15: 0x01, 0x21: 0x01, 0x22: 0x01,
               0x27: 0x01, 0x28: 0x01}


class CriticalError(Exception):
    """A device error DOS reports through INT 24h (deliberately not a DosError:
    it must not be swallowed by code that turns DosErrors into messages)."""

    def __init__(self, drive: str, device_code: int, *, writing: bool = False,
                 area: int = AREA_DIRECTORY, on_ignore: Callable[["ServiceContext"], None] | None = None):
        self.drive = drive
        self.device_code = device_code
        self.writing = writing
        self.area = area
        self.on_ignore = on_ignore
        super().__init__(self.message)

    @property
    def dos_code(self) -> int:
        return 0x13 + self.device_code

    @property
    def flags(self) -> int:
        """AH for the handler: write bit, disk area, and the answers allowed."""
        allowed = ALLOW_FAIL | ALLOW_RETRY | (ALLOW_IGNORE if self.on_ignore else 0)
        return (1 if self.writing else 0) | (self.area << 1) | allowed

    @property
    def message(self) -> str:
        what = DEVICE_MESSAGES.get(self.device_code, "General failure")
        return f"{what} {'writing' if self.writing else 'reading'} drive {self.drive}"


def allowed_answer(answer: int, flags: int) -> int:
    """Convert an answer the flags do not allow, as DOS 3.3 does."""
    if answer == IGNORE and not flags & ALLOW_IGNORE:
        answer = FAIL
    elif answer == RETRY and not flags & ALLOW_RETRY:
        answer = FAIL
    if answer == FAIL and not flags & ALLOW_FAIL:
        answer = ABORT
    return answer if answer in (IGNORE, RETRY, ABORT, FAIL) else ABORT


class EmptyDrive(Drive):
    """A diskette drive with no diskette in it: every access is "Not ready"."""

    read_only = True

    def __init__(self, letter: str) -> None:
        self.letter = letter
        self.clock = None

    def _not_ready(self, *_args, **_kwargs):
        raise CriticalError(self.letter, NOT_READY)

    @property
    def volume_label(self) -> str | None:
        self._not_ready()

    def listdir(self, dir_path: list[str]) -> list[DirEntry]:
        self._not_ready()

    def stat(self, path: list[str]) -> DirEntry | None:
        self._not_ready()

    def open(self, path: list[str], writable: bool = False) -> DriveFile:
        self._not_ready()

    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> DriveFile:
        self._not_ready()

    remove = rename = mkdir = rmdir = set_attr = _not_ready

    def free_space(self) -> tuple[int, int, int, int]:
        self._not_ready()


@dataclass
class Pending:
    """A critical error whose handler is running."""
    error: CriticalError
    function: int                                   # AH of the INT 21h call (0 for the shell)
    resume: Callable[[int], None] | None = None     # the shell's continuation
    stack: tuple[int, int] = (0, 0)                 # SS:SP with the caller's registers pushed

    def handler_left(self, cpu, function: int) -> bool:
        """Has the handler gone back to the program itself (popping DOS's frame)?  Seen
        at the program's next INT 21h: its stack is above the registers DOS pushed.
        On another stack, DOS 3.3's rule: any call above 0Ch (but 59h) ends it."""
        if self.resume is not None:
            return False
        ss, sp = self.stack
        if cpu.ss == ss:
            return cpu.sp >= sp + 2 * len(PUSHED)
        return function > 0x0C and function != 0x59


def install(ctx: "ServiceContext") -> None:
    """The device header BP:SI points to, and the ROM trap that gets the answer."""
    header = bytes([0xFF, 0xFF, 0xFF, 0xFF,     # next driver: none
                    0x00, 0x08,                 # attribute: block device (bit 15 clear)
                    0x00, 0x00, 0x00, 0x00,     # strategy, interrupt entry points
                    2]) + bytes(7)              # its units: A: and B: (one drive has both names)
    ctx.memory.write((DOS_DATA_SEGMENT << 4) + DEVICE_HEADER_OFFSET, header)
    ctx.vectors.register_service("int24_returned", handler_returned)


def _enter_handler(ctx: "ServiceContext", error: CriticalError) -> None:
    cpu = ctx.cpu
    cpu.ah = error.flags
    cpu.al = ord(error.drive) - ord("A")
    cpu.di = error.device_code
    cpu.bp, cpu.si = DOS_DATA_SEGMENT, DEVICE_HEADER_OFFSET
    ctx.dos.extended_error = (error.dos_code, 0x0B if error.device_code == NOT_READY else 0x0D, 4, 2)
    for watch in ctx.events.critical.listeners:
        watch(error.message)
    cpu.jump(*ctx.vectors.rom.address("call24"))


def interrupt_dos_call(ctx: "ServiceContext", error: CriticalError, entry: dict[str, int]) -> None:
    """An INT 21h call met ``error``: run INT 24h with the caller's ``entry`` registers stacked."""
    dos = ctx.dos
    function = entry["ax"] >> 8
    if dos.critical is not None:          # an error inside the handler: the call fails at once
        ctx.cpu.set_registers(**entry)
        _fail(ctx, error, function)
        return
    for name in PUSHED:
        ctx.cpu.push(entry[name])
    dos.critical = Pending(error, function, stack=(ctx.cpu.ss, ctx.cpu.sp))
    _enter_handler(ctx, error)


def interrupt_shell(ctx: "ServiceContext", error: CriticalError, resume: Callable[[int], None]) -> None:
    """The command interpreter met ``error``: ask INT 24h, then ``resume(answer)``."""
    ctx.dos.critical = Pending(error, 0, resume)
    _enter_handler(ctx, error)


def handler_returned(ctx: "ServiceContext") -> None:
    """The trap after ``call24``'s INT 24h: obey the handler's answer in AL."""
    dos = ctx.dos
    cpu = ctx.cpu
    pending, dos.critical = dos.critical, None
    if pending is None:
        ctx.call.halt("INT 24h returned to DOS with no critical error pending")
        return
    error = pending.error
    answer = allowed_answer(cpu.al, error.flags)
    if pending.resume is not None:
        pending.resume(answer)
        return
    cpu.set_registers(**{name: cpu.pop() for name in reversed(PUSHED)})
    if answer == RETRY:
        cpu.jump(*ctx.vectors.rom.address("int21"))
    elif answer == IGNORE:
        error.on_ignore(ctx)
        _set_caller_carry(ctx, False)
    elif answer == FAIL:
        _fail(ctx, error, pending.function)
    else:
        process.terminate(ctx, 0, 2)


def _fail(ctx: "ServiceContext", error: CriticalError, function: int) -> None:
    """The call fails as DOS fails it after a "Fail" answer."""
    cpu = ctx.cpu
    dos = ctx.dos
    dos.extended_error = (FAIL_ON_INT24, 0x0D, 4, 2)
    if function in FCB_FAIL_AL:
        cpu.al = FCB_FAIL_AL[function]
        if function in (0x27, 0x28):
            cpu.cx = 0
    elif function == 0x36:
        cpu.ax = 0xFFFF
    elif function in (0x1B, 0x1C):
        cpu.al = 0xFF
    else:
        cpu.ax = FAIL_ON_INT24
        _set_caller_carry(ctx, True)


def _set_caller_carry(ctx: "ServiceContext", on: bool) -> None:
    """CF in the FLAGS of the caller's INT frame, now on top of the stack."""
    cpu = ctx.cpu
    flags = ctx.memory.rw(cpu.ss, cpu.sp + 4)
    ctx.memory.ww(cpu.ss, cpu.sp + 4, (flags | 1) if on else (flags & ~1))


def from_dos_error(ctx: "ServiceContext", code: int, function: int) -> CriticalError | None:
    """A storage error that is a device error (write protect, bad medium) as a critical error."""
    drive = getattr(ctx.dos, "last_drive", None)
    if code not in CRITICAL_CODES or drive not in ctx.dos.drives:
        return None
    device = CRITICAL_CODES[code]
    writing = device == WRITE_PROTECTED
    if function == 0x40:                  # data area of a file: DOS lets the program ignore it
        return CriticalError(drive, device, writing=writing, area=AREA_DATA, on_ignore=_ignore_write)
    return CriticalError(drive, device, writing=writing)


def _ignore_write(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = ctx.cpu.cx                   # as if every byte had been written
