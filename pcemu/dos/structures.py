"""The kernel's own tables and where DOS keeps its data in guest memory."""
from __future__ import annotations

from dataclasses import dataclass, field

DOS_VERSION = (3, 30)
DOS_DATA_SEGMENT = 0x0070        # kernel variables programs may ask for (InDOS flag ...)
FIRST_MCB = 0x0900               # leaves about 600 KB free, like DOS 3.3 with COMMAND.COM
SHELL_PARAGRAPHS = 0x0100


@dataclass
class OpenFile:
    """A system file table entry: one open file or device, shared by duplicated handles."""
    name: str
    device: str | None = None          # "CON", "PRN", "AUX", "NUL" for character devices
    file: object | None = None         # a storage DriveFile
    drive: str = ""
    path: list[str] = field(default_factory=list)
    mode: int = 2
    references: int = 1

    @property
    def is_device(self) -> bool:
        return self.device is not None


@dataclass
class Process:
    psp: int
    parent: int
    name: str
    # what the parent had at EXEC time, restored when this process ends
    return_registers: dict[str, int] = field(default_factory=dict)
    return_flags: int = 0x0202
