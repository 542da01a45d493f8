"""The parallel printer port LPT1 (378h-37Ah), printing into a capture file.

Both ways a program prints end here: the BIOS INT 17h service calls
``print_byte``, and a program driving the port itself strobes bytes out
through the control register.  The capture is the raw byte stream the
printer would have received.
"""
from __future__ import annotations

from pathlib import Path

STATUS_NOT_BUSY = 0x80
STATUS_ACK = 0x40
STATUS_SELECTED = 0x10
STATUS_NO_ERROR = 0x08
MAX_KEPT = 16 * 1024 * 1024      # bytes of ``printed`` kept in memory (the capture file has all)


class Printer:
    ports = (0x378, 0x379, 0x37A)

    def __init__(self, capture: Path | None = None) -> None:
        self.capture_path = capture
        self.capture_error: str | None = None   # why the capture file stopped taking bytes
        self.printed = bytearray()
        self.data = 0
        self.control = 0x0C

    def print_byte(self, value: int) -> None:
        if len(self.printed) < MAX_KEPT:
            self.printed.append(value & 0xFF)
        if self.capture_path is not None and self.capture_error is None:
            try:
                with open(self.capture_path, "ab") as f:
                    f.write(bytes([value & 0xFF]))
            except OSError as exc:
                # the printer goes on (the program is not told); the run's end reports it
                self.capture_error = (f"cannot write the capture file {self.capture_path}: "
                                      f"{exc.strerror or exc} (the bytes printed from then on "
                                      "are not in it)")

    @property
    def status(self) -> int:
        return STATUS_NOT_BUSY | STATUS_SELECTED | STATUS_NO_ERROR | STATUS_ACK

    def read(self, port: int) -> int:
        if port == 0x378:
            return self.data
        if port == 0x379:
            return self.status | 0x07
        return self.control | 0xE0

    def write(self, port: int, value: int) -> None:
        if port == 0x378:
            self.data = value
        elif port == 0x37A:
            if value & 0x01 and not self.control & 0x01:   # strobe's rising edge
                self.print_byte(self.data)
            self.control = value
