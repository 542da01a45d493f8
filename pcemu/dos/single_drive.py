"""A one-drive PC's two drive letters, as DOS 3.30's IO.SYS makes them.

With one diskette drive (the equipment word says so), IO.SYS gives the drive two
logical names, A: and B:, so that a program can copy "from A: to B:" with one drive.
The byte at 0000:0504 (in the DOS area after the BIOS's data) says which name the
diskette in the drive now answers to: 0 for A:, 1 for B:.  A request by the other
name makes the block driver print, through INT 29h,

    Insert diskette for drive B: and strike
    any key when ready

empty the keyboard's type-ahead and wait with INT 16h AH=00h; then the request goes
on, with the byte changed.  IOCTL 440Eh/440Fh read and set the byte, so a program
that knows which diskette is in the drive avoids the message.

Here every request to the drive by a name (its files and directories, its free space,
an open file's reads and writes) passes through a `LogicalDrive`, which raises
`DisketteSwap` when the name is not the one the byte gives; the INT 21h dispatcher,
INT 25h/26h and the command interpreter answer it with `prompt` (or
`prompt_directly` in the interpreter) and run the request again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bios import keyboard as kb
from pcemu.dos import con
from pcemu.guest import ServiceCalls, interrupt
from pcemu.storage.drive import DirEntry, Drive, DriveFile

if TYPE_CHECKING:
    from bios.context import ServiceContext

LOGICAL_DRIVE = 0x0504            # 0000:0504, the name the one drive now answers to
LETTERS = "AB"


def message(letter: str) -> bytes:
    """IO.SYS's words (SNGMSG), with the drive's letter put in."""
    return (f"\r\nInsert diskette for drive {letter}: and strike\r\n"
            "any key when ready\r\n\n").encode("ascii")


class DisketteSwap(Exception):
    """A request by the name the diskette does not answer to now: ask for the other."""

    def __init__(self, letter: str) -> None:
        self.letter = letter
        super().__init__(f"insert diskette for drive {letter}:")


@dataclass
class Attempts:
    """A request that asked for diskettes and is run again from its start: the name the
    drive had then, and the names asked for since, in order.  Run again, the request
    passes those swaps silently (the diskettes were changed as asked), so a command that
    goes from one name to the other (COPY A:X B:) gets on, asking only for the next."""
    start: str
    asked: list[str] = field(default_factory=list)


class SharedUnit:
    """The one physical drive and the byte that names it."""

    def __init__(self, memory) -> None:
        self.memory = memory
        self._replay: list[str] = []

    @property
    def answering(self) -> str:
        return LETTERS[self.memory[LOGICAL_DRIVE] & 1]

    def select(self, letter: str) -> None:
        self.memory[LOGICAL_DRIVE] = LETTERS.index(letter)

    def check(self, letter: str) -> None:
        if self.answering == letter:
            return
        if self._replay and self._replay[0] == letter:
            self._replay.pop(0)
            self.select(letter)
            return
        raise DisketteSwap(letter)

    def begin(self, attempts: Attempts | None) -> Attempts:
        """A request starts (None) or starts again after its swaps were answered."""
        if attempts is None:
            self._replay = []
            return Attempts(self.answering)
        self.select(attempts.start)
        self._replay = list(attempts.asked)
        return attempts

    def end(self) -> None:
        self._replay = []


class LogicalFile(DriveFile):
    """A file opened by one of the names: its reads and writes reach the diskette too."""

    def __init__(self, drive: "LogicalDrive", opened: DriveFile) -> None:
        self._drive, self._opened = drive, opened

    def _checked(self):
        self._drive.check()
        return self._opened

    def read(self, n: int) -> bytes:
        return self._checked().read(n)

    def write(self, data: bytes) -> int:
        return self._checked().write(data)

    def truncate(self) -> None:
        self._checked().truncate()

    def seek(self, pos: int) -> None:
        self._opened.seek(pos)

    def tell(self) -> int:
        return self._opened.tell()

    def size(self) -> int:
        return self._opened.size()

    def flush(self) -> None:
        self._opened.flush()

    def close(self) -> None:
        self._opened.close()

    def get_datetime(self) -> tuple[int, int]:
        return self._opened.get_datetime()

    def set_datetime(self, date: int, time: int) -> None:
        self._opened.set_datetime(date, time)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_opened":
            raise AttributeError(name)
        return getattr(self._opened, name)


class LogicalDrive(Drive):
    """One of the two names of the one drive: each request checks the name first."""

    def __init__(self, unit: SharedUnit, letter: str, physical: Drive) -> None:
        self.unit, self.letter, self.physical = unit, letter, physical

    def check(self) -> None:
        self.unit.check(self.letter)

    @property
    def read_only(self) -> bool:
        return self.physical.read_only

    @property
    def clock(self):
        return self.physical.clock

    @clock.setter
    def clock(self, value) -> None:
        self.physical.clock = value

    @property
    def volume_label(self) -> str | None:
        self.check()
        return self.physical.volume_label

    def listdir(self, dir_path: list[str]) -> list[DirEntry]:
        self.check()
        return self.physical.listdir(dir_path)

    def stat(self, path: list[str]) -> DirEntry | None:
        self.check()
        return self.physical.stat(path)

    def open(self, path: list[str], writable: bool = False) -> DriveFile:
        self.check()
        return LogicalFile(self, self.physical.open(path, writable))

    def create(self, path: list[str], attr: int = 0, *, exclusive: bool = False) -> DriveFile:
        self.check()
        return LogicalFile(self, self.physical.create(path, attr, exclusive=exclusive))

    def remove(self, path: list[str]) -> None:
        self.check()
        self.physical.remove(path)

    def rename(self, old: list[str], new: list[str]) -> None:
        self.check()
        self.physical.rename(old, new)

    def mkdir(self, path: list[str]) -> None:
        self.check()
        self.physical.mkdir(path)

    def rmdir(self, path: list[str]) -> None:
        self.check()
        self.physical.rmdir(path)

    def set_attr(self, path: list[str], attr: int) -> None:
        self.check()
        self.physical.set_attr(path, attr)

    def free_space(self) -> tuple[int, int, int, int]:
        self.check()
        return self.physical.free_space()

    def __getattr__(self, name: str):
        """What a particular volume offers besides (a FAT volume's label), checked too."""
        if name.startswith("__") or name == "physical":
            raise AttributeError(name)
        attribute = getattr(self.physical, name)
        if not callable(attribute):
            return attribute

        def checked(*args, **kwargs):
            self.check()
            return attribute(*args, **kwargs)
        return checked


def prompt(ctx: "ServiceContext", swap: DisketteSwap) -> ServiceCalls:
    """What IO.SYS's SWPDSK does inside a DOS call: the byte first, the words through
    INT 29h, the type-ahead emptied, then INT 16h AH=00h waits for the key."""
    ctx.dos.shared_unit.select(swap.letter)
    for b in message(swap.letter):
        yield interrupt(0x29, ax=b)
    kb.buffer_flush(ctx)
    ctx.dos.pending_scan = None
    yield interrupt(0x16, ax=0x0000)


def prompt_directly(ctx: "ServiceContext", swap: DisketteSwap) -> None:
    """The same words for the command interpreter, which then waits for the key itself."""
    ctx.dos.shared_unit.select(swap.letter)
    con.write_bytes(ctx, message(swap.letter))
    kb.buffer_flush(ctx)
    ctx.dos.pending_scan = None
