"""INT 13h, the diskette BIOS, reading and writing the mounted floppy images by CHS.

Drive 0 is A:, drive 1 is B: (on a machine with two diskette drives,
`Machine.floppy_drives`).  There is no hard disk: functions for drives 80h
and up fail as the AT BIOS fails them with no fixed disk installed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda
from bios.services import ServiceTable

if TYPE_CHECKING:
    from pcemu.machine import Machine

diskette = ServiceTable(0x13, "diskette")

OK, BAD_COMMAND, SECTOR_NOT_FOUND, WRITE_PROTECTED, NOT_READY = 0x00, 0x01, 0x04, 0x03, 0x80


def _finish(m: "Machine", status: int) -> None:
    m.cpu.ah = status
    m.memory[bda.BDA + bda.DISK_STATUS] = status
    m.set_return_flag(0x01, status != OK)


def _image(m: "Machine"):
    drive = m.cpu.dl
    if drive & 0x80:
        return None
    return m.floppy(drive)


def _lba(image, cylinder: int, head: int, sector: int) -> int | None:
    if sector < 1 or sector > image.sectors_per_track or head >= image.heads \
            or cylinder >= image.cylinders:
        return None
    return (cylinder * image.heads + head) * image.sectors_per_track + sector - 1


def _chs(m: "Machine") -> tuple[int, int, int]:
    cpu = m.cpu
    cylinder = cpu.ch | ((cpu.cl & 0xC0) << 2)
    return cylinder, cpu.dh, cpu.cl & 0x3F


@diskette.function(0x00)
def reset(m: "Machine") -> None:
    _finish(m, OK if not m.cpu.dl & 0x80 else BAD_COMMAND)


@diskette.function(0x01)
def last_status(m: "Machine") -> None:
    status = m.memory[bda.BDA + bda.DISK_STATUS]
    m.cpu.ah = status
    m.set_return_flag(0x01, status != OK)


def _transfer(m: "Machine", write: bool, verify: bool = False) -> None:
    image = _image(m)
    if image is None:
        m.cpu.al = 0
        _finish(m, NOT_READY if not m.cpu.dl & 0x80 else BAD_COMMAND)
        return
    cylinder, head, sector = _chs(m)
    count = m.cpu.al
    lba = _lba(image, cylinder, head, sector)
    if lba is None or count == 0 or sector - 1 + count > image.sectors_per_track * image.heads:
        m.cpu.al = 0
        _finish(m, SECTOR_NOT_FOUND)
        return
    size = count * 512
    if write and image.read_only:
        m.cpu.al = 0
        _finish(m, WRITE_PROTECTED)
        return
    if (m.cpu.bx + size) > 0x10000 and not verify:
        pass          # DMA boundary: the AT BIOS reports 09h only across a 64 KB physical page
    if write:
        image.write_sectors(lba, m.memory.read_far(m.cpu.es, m.cpu.bx, size))
    elif not verify:
        m.memory.write_far(m.cpu.es, m.cpu.bx, image.read_sectors(lba, count))
    m.cpu.al = count
    _finish(m, OK)


@diskette.function(0x02)
def read_sectors(m: "Machine") -> None:
    _transfer(m, write=False)


@diskette.function(0x03)
def write_sectors(m: "Machine") -> None:
    _transfer(m, write=True)


@diskette.function(0x04)
def verify_sectors(m: "Machine") -> None:
    _transfer(m, write=False, verify=True)


@diskette.function(0x05)
def format_track(m: "Machine") -> None:
    image = _image(m)
    if image is None:
        _finish(m, NOT_READY)
        return
    if image.read_only:
        _finish(m, WRITE_PROTECTED)
        return
    cylinder, head = m.cpu.ch, m.cpu.dh
    lba = _lba(image, cylinder, head, 1)
    if lba is None:
        _finish(m, SECTOR_NOT_FOUND)
        return
    image.write_sectors(lba, b"\xF6" * 512 * image.sectors_per_track)
    _finish(m, OK)


def _installed(m: "Machine") -> bool:
    return m.cpu.dl < m.floppy_drives


@diskette.function(0x08)
def drive_parameters(m: "Machine") -> None:
    cpu = m.cpu
    if cpu.dl & 0x80:
        _finish(m, BAD_COMMAND)
        return
    if not _installed(m):               # no such drive: nothing but the count of drives
        cpu.ax = cpu.bx = cpu.cx = 0
        cpu.dh, cpu.dl = 0, m.floppy_drives
        m.set_return_flag(0x01, False)
        return
    image = m.floppy(cpu.dl)
    cpu.bl = {320: 1, 360: 1, 1200: 2, 720: 3, 1440: 4}.get(image.size_kb, 1) if image else 1
    cylinders = (image.cylinders if image else 40) - 1
    sectors = image.sectors_per_track if image else 9
    heads = image.heads if image else 2
    cpu.ch = cylinders & 0xFF
    cpu.cl = sectors | ((cylinders >> 2) & 0xC0)
    cpu.dh = heads - 1
    cpu.dl = m.floppy_drives
    seg, off = m.rom.address("diskette_parameters")
    cpu.es, cpu.di = seg, off
    cpu.ax = 0
    m.set_return_flag(0x01, False)


@diskette.function(0x15)
def drive_type(m: "Machine") -> None:
    if m.cpu.dl & 0x80 or not _installed(m):
        m.cpu.ah = 0                   # no such drive
    else:
        m.cpu.ah = 0x01                # a diskette drive without change-line
    m.set_return_flag(0x01, False)


@diskette.function(0x16)
def change_line(m: "Machine") -> None:
    _finish(m, OK)


@diskette.function(0x17, 0x18)
def set_media_type(m: "Machine") -> None:
    _finish(m, OK)
