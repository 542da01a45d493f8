"""DOS system services: vectors, drives, the DTA, date and time, version, settings.

Date and time come from the machine's virtual clock (to the hundredth of a
second), so ``RANDOMIZE TIMER`` reads the same value in every identical run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios.services import FunctionTable
from pcemu.dos import fcb
from pcemu.dos.structures import DOS_DATA_SEGMENT, DOS_VERSION

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("system")      # this area's INT 21h functions (int21.py)


INDOS_OFFSET = 0x01
CRITICAL_ERROR_OFFSET = 0x00
COUNTRY_US = bytes([0, 0, ord("$"), 0, 0, 0, 0, ord(","), 0, ord("."), 0, ord("-"), 0,
                    ord(":"), 0, 0, 2, 0]) + bytes(16)


@functions.function(0x25)
def set_vector(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    ctx.vectors.set(cpu.al, cpu.ds, cpu.dx)


@functions.function(0x35)
def get_vector(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    seg, off = ctx.vectors.get(cpu.al)
    cpu.es, cpu.bx = seg, off


@functions.function(0x30)
def get_version(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.al, cpu.ah = DOS_VERSION
    cpu.bx = 0                              # OEM: IBM is 00h with BL=00h
    cpu.cx = 0


@functions.function(0x33)
def break_flag(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    dos = ctx.dos
    if cpu.al == 0x00:
        cpu.dl = 1 if dos.break_check else 0
    elif cpu.al == 0x01:
        dos.break_check = bool(cpu.dl & 1)
    elif cpu.al == 0x05:
        cpu.dl = 1                          # booted from A:
    else:
        cpu.al = 0xFF


@functions.function(0x2E)
def set_verify(ctx: "ServiceContext") -> None:
    ctx.dos.verify = bool(ctx.cpu.al & 1)


@functions.function(0x54)
def get_verify(ctx: "ServiceContext") -> None:
    ctx.cpu.al = 1 if ctx.dos.verify else 0


@functions.function(0x0D)
def disk_reset(ctx: "ServiceContext") -> None:
    for entry in ctx.dos.files:
        if entry is not None and entry.file is not None:
            entry.file.flush()
    fcb.flush_all(ctx)


@functions.function(0x0E)
def select_drive(ctx: "ServiceContext") -> None:
    dos = ctx.dos
    letter = chr(65 + ctx.cpu.dl)
    if letter in dos.drives:
        dos.current_drive = letter
    ctx.cpu.al = 5 if len(dos.drives) < 5 else 26     # LASTDRIVE


@functions.function(0x19)
def current_drive(ctx: "ServiceContext") -> None:
    ctx.cpu.al = ord(ctx.dos.current_drive) - 65


@functions.function(0x1A)
def set_dta(ctx: "ServiceContext") -> None:
    ctx.dos.dta = (ctx.cpu.ds, ctx.cpu.dx)


@functions.function(0x2F)
def get_dta(ctx: "ServiceContext") -> None:
    ctx.cpu.es, ctx.cpu.bx = ctx.dos.dta


@functions.function(0x36)
def free_space(ctx: "ServiceContext") -> None:
    dos = ctx.dos
    cpu = ctx.cpu
    letter = dos.current_drive if cpu.dl == 0 else chr(64 + cpu.dl)
    if letter not in dos.drives:
        cpu.ax = 0xFFFF
        return
    per_cluster, sector_size, free, total = dos.drives[letter].free_space()
    cpu.ax, cpu.cx = per_cluster, sector_size
    cpu.bx, cpu.dx = min(free, 0xFFFF), min(total, 0xFFFF)


@functions.function(0x1B, 0x1C)
def allocation_info(ctx: "ServiceContext") -> None:
    dos = ctx.dos
    cpu = ctx.cpu
    letter = dos.current_drive if cpu.ah == 0x1B or cpu.dl == 0 else chr(64 + cpu.dl)
    if letter not in dos.drives:
        cpu.al = 0xFF
        return
    per_cluster, sector_size, _free, total = dos.drives[letter].free_space()
    cpu.al, cpu.cx, cpu.dx = per_cluster, sector_size, total
    media = 0xF8
    image = dos.floppy_image(ord(letter) - 65)
    if image is not None:
        media = image.read_sectors(1, 1)[0]
    mem = ctx.memory
    mem.wb(DOS_DATA_SEGMENT, 0x10, media)
    cpu.ds, cpu.bx = DOS_DATA_SEGMENT, 0x10


@functions.function(0x2A)
def get_date(ctx: "ServiceContext") -> None:
    now = ctx.dos.now()
    cpu = ctx.cpu
    cpu.cx = now.year
    cpu.dh, cpu.dl = now.month, now.day
    cpu.al = (now.weekday() + 1) % 7        # 0 = Sunday
    ctx.call.pure_answer()                         # DOS's date and time move with the tick count
    ctx.call.idle_poll(True)


@functions.function(0x2B)
def set_date(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    try:
        if not 1980 <= cpu.cx <= 2099:      # DOS counts years from 1980 in 7 bits: 2099 at most
            raise ValueError(cpu.cx)
        ctx.time.set_date(cpu.cx, cpu.dh, cpu.dl)
        cpu.al = 0
    except ValueError:
        cpu.al = 0xFF


@functions.function(0x2C)
def get_time(ctx: "ServiceContext") -> None:
    now = ctx.dos.now()
    cpu = ctx.cpu
    cpu.ch, cpu.cl = now.hour, now.minute
    cpu.dh, cpu.dl = now.second, now.microsecond // 10_000
    for watch in ctx.events.time_read.listeners:
        watch(now)
    ctx.call.pure_answer()
    ctx.call.idle_poll(True)


@functions.function(0x2D)
def set_time(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    if cpu.ch > 23 or cpu.cl > 59 or cpu.dh > 59 or cpu.dl > 99:
        cpu.al = 0xFF
        return
    ctx.time.set_time_of_day(cpu.ch, cpu.cl, cpu.dh, cpu.dl)
    cpu.al = 0


@functions.function(0x34)
def indos_flag(ctx: "ServiceContext") -> None:
    ctx.cpu.es, ctx.cpu.bx = DOS_DATA_SEGMENT, INDOS_OFFSET


@functions.function(0x37)
def switch_char(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    if cpu.al == 0:
        cpu.dl = ord(ctx.dos.switch_char)
        cpu.al = 0
    elif cpu.al == 1:
        ctx.dos.switch_char = chr(cpu.dl)
        cpu.al = 0
    else:
        cpu.al = 0xFF


@functions.function(0x38)
def country_info(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    if cpu.dx == 0xFFFF:
        ctx.dos.fail(0x01)
        return
    ctx.memory.write_far(cpu.ds, cpu.dx, COUNTRY_US)
    cpu.bx = 1
    ctx.dos.succeed()


@functions.function(0x59)
def extended_error(ctx: "ServiceContext") -> None:
    code, error_class, action, locus = ctx.dos.extended_error
    cpu = ctx.cpu
    cpu.ax, cpu.bh, cpu.bl, cpu.ch = code, error_class, action, locus


@functions.function(0x29)
def parse_filename(ctx: "ServiceContext") -> None:
    """Parse a file name at DS:SI into the FCB at ES:DI, as DOS does for command lines."""
    cpu = ctx.cpu
    mem = ctx.memory
    flags = cpu.al
    seg, off = cpu.ds, cpu.si
    text = mem.read_far(seg, off, 128)
    i = 0
    if flags & 1:
        while i < len(text) and text[i] in b" \t:;.,=+":
            i += 1
    else:
        while i < len(text) and text[i] in b" \t":
            i += 1
    drive = 0
    result = 0
    if i + 1 < len(text) and text[i + 1:i + 2] == b":" and chr(text[i]).isalpha():
        letter = chr(text[i]).upper()
        drive = ord(letter) - 64
        if letter not in ctx.dos.drives:
            result = 0xFF
        i += 2
    existing = mem.read_far(cpu.es, cpu.di, 12)
    name = bytearray(existing[1:9]) if flags & 4 else bytearray(b" " * 8)
    ext = bytearray(existing[9:12]) if flags & 8 else bytearray(b" " * 3)
    terminators = b" \t\r\n\0:;.,=+/\"[]<>|"

    def field(width: int) -> tuple[bytearray | None, bool]:
        nonlocal i
        out = bytearray()
        wild = False
        while i < len(text) and (text[i] not in terminators or (text[i] == ord(".") and False)):
            ch = text[i]
            if ch == ord("*"):
                out.extend(b"?" * (width - len(out)))
                wild = True
                i += 1
                while i < len(text) and text[i] not in terminators:
                    i += 1
                break
            if ch == ord("?"):
                wild = True
            if len(out) < width:
                out.append(ord(chr(ch).upper()) if ch < 0x80 else ch)
            i += 1
        return (out if out else None), wild

    got_name, wild1 = field(8)
    if got_name is not None:
        name = got_name.ljust(8, b" ")
    wild2 = False
    if i < len(text) and text[i] == ord("."):
        i += 1
        got_ext, wild2 = field(3)
        ext = (got_ext or bytearray()).ljust(3, b" ")
    if result == 0 and (wild1 or wild2):
        result = 1
    if not (flags & 2) or drive:
        mem.wb(cpu.es, cpu.di, drive)
    mem.write_far(cpu.es, cpu.di + 1, bytes(name) + bytes(ext))
    cpu.si = (off + i) & 0xFFFF
    cpu.al = result


@functions.function(0x52)
def list_of_lists(ctx: "ServiceContext") -> None:
    # The first MCB's segment sits just before the list (at ES:BX-2), which is
    # what memory-walking programs use this call for.
    mem = ctx.memory
    mem.ww(DOS_DATA_SEGMENT, 0x20 - 2, ctx.dos.arena.first)
    ctx.cpu.es, ctx.cpu.bx = DOS_DATA_SEGMENT, 0x20


@functions.function(0x63, 0x66, 0x67, 0x68, 0x69, 0x6C)
def later_dos(ctx: "ServiceContext") -> None:
    """Functions of later DOS versions: DOS 3.30 answers 'invalid function'."""
    if ctx.cpu.ah == 0x66 or ctx.cpu.ah == 0x67 or ctx.cpu.ah == 0x68:
        # 66h-68h exist in 3.30: code page, handle count, commit
        if ctx.cpu.ah == 0x68:
            ctx.dos.handle_file(ctx.cpu.bx)
            ctx.dos.succeed()
            return
        if ctx.cpu.ah == 0x66:
            ctx.cpu.bx = ctx.cpu.dx = 437
            ctx.dos.succeed()
            return
        ctx.dos.succeed()
        return
    ctx.dos.fail(0x01)
