"""The I/O bus: routes the CPU's IN and OUT instructions to the devices by port.

A port nobody decodes reads as FFh (the data lines float high) and swallows
writes, as on a real AT; each such access is logged once.
"""
from __future__ import annotations

import logging
from typing import Protocol

log = logging.getLogger("pcemu.bus")


class PortDevice(Protocol):
    ports: tuple[int, ...]

    def read(self, port: int) -> int: ...
    def write(self, port: int, value: int) -> None: ...


class IoBus:
    def __init__(self) -> None:
        self._readers: dict[int, PortDevice] = {}
        self._writers: dict[int, PortDevice] = {}
        self._unclaimed_seen: set[int] = set()
        self.watchers: list = []     # callables(direction, port, value) for traces and breakpoints

    def attach(self, device: PortDevice, ports: tuple[int, ...] | None = None) -> None:
        for port in device.ports if ports is None else ports:
            self._readers[port] = device
            self._writers[port] = device

    def read(self, port: int, size: int = 1) -> int:
        port &= 0xFFFF
        value = self._read8(port)
        if size == 2:
            value |= self._read8((port + 1) & 0xFFFF) << 8
        for watch in self.watchers:
            watch("in", port, value)
        return value

    def write(self, port: int, size: int, value: int) -> None:
        port &= 0xFFFF
        for watch in self.watchers:
            watch("out", port, value)
        self._write8(port, value & 0xFF)
        if size == 2:
            self._write8((port + 1) & 0xFFFF, (value >> 8) & 0xFF)

    def _read8(self, port: int) -> int:
        device = self._readers.get(port)
        if device is None:
            self._unclaimed(port)
            return 0xFF
        return device.read(port) & 0xFF

    def _write8(self, port: int, value: int) -> None:
        device = self._writers.get(port)
        if device is None:
            self._unclaimed(port)
        else:
            device.write(port, value)

    def _unclaimed(self, port: int) -> None:
        if port not in self._unclaimed_seen:
            self._unclaimed_seen.add(port)
            log.debug("no device at port %04Xh", port)
