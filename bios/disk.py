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
    from bios.context import ServiceContext

diskette = ServiceTable(0x13, "diskette")

OK, BAD_COMMAND, SECTOR_NOT_FOUND, WRITE_PROTECTED, NOT_READY = 0x00, 0x01, 0x04, 0x03, 0x80


def _finish(ctx: "ServiceContext", status: int) -> None:
    ctx.cpu.ah = status
    ctx.memory[bda.BDA + bda.DISK_STATUS] = status
    ctx.call.set_return_flag(0x01, status != OK)


def _image(ctx: "ServiceContext"):
    drive = ctx.cpu.dl
    if drive & 0x80:
        return None
    return ctx.devices.floppies.get(drive)


def _lba(image, cylinder: int, head: int, sector: int) -> int | None:
    if sector < 1 or sector > image.sectors_per_track or head >= image.heads \
            or cylinder >= image.cylinders:
        return None
    return (cylinder * image.heads + head) * image.sectors_per_track + sector - 1


def _chs(ctx: "ServiceContext") -> tuple[int, int, int]:
    cpu = ctx.cpu
    cylinder = cpu.ch | ((cpu.cl & 0xC0) << 2)
    return cylinder, cpu.dh, cpu.cl & 0x3F


@diskette.function(0x00)
def reset(ctx: "ServiceContext") -> None:
    _finish(ctx, OK if not ctx.cpu.dl & 0x80 else BAD_COMMAND)


@diskette.function(0x01)
def last_status(ctx: "ServiceContext") -> None:
    status = ctx.memory[bda.BDA + bda.DISK_STATUS]
    ctx.cpu.ah = status
    ctx.call.set_return_flag(0x01, status != OK)


def _transfer(ctx: "ServiceContext", write: bool, verify: bool = False) -> None:
    image = _image(ctx)
    if image is None:
        ctx.cpu.al = 0
        _finish(ctx, NOT_READY if not ctx.cpu.dl & 0x80 else BAD_COMMAND)
        return
    cylinder, head, sector = _chs(ctx)
    count = ctx.cpu.al
    lba = _lba(image, cylinder, head, sector)
    if lba is None or count == 0 or sector - 1 + count > image.sectors_per_track * image.heads:
        ctx.cpu.al = 0
        _finish(ctx, SECTOR_NOT_FOUND)
        return
    size = count * 512
    if write and image.read_only:
        ctx.cpu.al = 0
        _finish(ctx, WRITE_PROTECTED)
        return
    if (ctx.cpu.bx + size) > 0x10000 and not verify:
        pass          # DMA boundary: the AT BIOS reports 09h only across a 64 KB physical page
    if write:
        image.write_sectors(lba, ctx.memory.read_far(ctx.cpu.es, ctx.cpu.bx, size))
    elif not verify:
        ctx.memory.write_far(ctx.cpu.es, ctx.cpu.bx, image.read_sectors(lba, count))
    ctx.cpu.al = count
    _finish(ctx, OK)


@diskette.function(0x02)
def read_sectors(ctx: "ServiceContext") -> None:
    _transfer(ctx, write=False)


@diskette.function(0x03)
def write_sectors(ctx: "ServiceContext") -> None:
    _transfer(ctx, write=True)


@diskette.function(0x04)
def verify_sectors(ctx: "ServiceContext") -> None:
    _transfer(ctx, write=False, verify=True)


@diskette.function(0x05)
def format_track(ctx: "ServiceContext") -> None:
    image = _image(ctx)
    if image is None:
        _finish(ctx, NOT_READY)
        return
    if image.read_only:
        _finish(ctx, WRITE_PROTECTED)
        return
    cylinder, head = ctx.cpu.ch, ctx.cpu.dh
    lba = _lba(image, cylinder, head, 1)
    if lba is None:
        _finish(ctx, SECTOR_NOT_FOUND)
        return
    image.write_sectors(lba, b"\xF6" * 512 * image.sectors_per_track)
    _finish(ctx, OK)


def _installed(ctx: "ServiceContext") -> bool:
    return ctx.cpu.dl < ctx.devices.diskette_drives


@diskette.function(0x08)
def drive_parameters(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    if cpu.dl & 0x80:
        _finish(ctx, BAD_COMMAND)
        return
    if not _installed(ctx):             # no such drive: nothing but the count of drives
        cpu.ax = cpu.bx = cpu.cx = 0
        cpu.dh, cpu.dl = 0, ctx.devices.diskette_drives
        ctx.call.set_return_flag(0x01, False)
        return
    image = ctx.devices.floppies.get(cpu.dl)
    cpu.bl = {320: 1, 360: 1, 1200: 2, 720: 3, 1440: 4}.get(image.size_kb, 1) if image else 1
    cylinders = (image.cylinders if image else 40) - 1
    sectors = image.sectors_per_track if image else 9
    heads = image.heads if image else 2
    cpu.ch = cylinders & 0xFF
    cpu.cl = sectors | ((cylinders >> 2) & 0xC0)
    cpu.dh = heads - 1
    cpu.dl = ctx.devices.diskette_drives
    seg, off = ctx.vectors.rom.address("diskette_parameters")
    cpu.es, cpu.di = seg, off
    cpu.ax = 0
    ctx.call.set_return_flag(0x01, False)


@diskette.function(0x15)
def drive_type(ctx: "ServiceContext") -> None:
    if ctx.cpu.dl & 0x80 or not _installed(ctx):
        ctx.cpu.ah = 0                   # no such drive
    else:
        ctx.cpu.ah = 0x01                # a diskette drive without change-line
    ctx.call.set_return_flag(0x01, False)


@diskette.function(0x16)
def change_line(ctx: "ServiceContext") -> None:
    _finish(ctx, OK)


@diskette.function(0x17, 0x18)
def set_media_type(ctx: "ServiceContext") -> None:
    _finish(ctx, OK)
