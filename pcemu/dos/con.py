"""The CON device: DOS's console driver, below the INT 21h functions and the kernel.

Output goes through INT 29h, input through INT 16h, as DOS's CON driver does,
from guest code (pcemu/guest.py): a program or TSR that hooks those vectors
sees DOS's traffic.  An extended key (ASCII 0) is read in two calls: 0, then
its scan code.  The ``write_*``/``next_key`` functions are the direct path the
command interpreter (in Python) still takes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import keyboard as kb
from bios import video
from pcemu.guest import ServiceCalls, interrupt, write

if TYPE_CHECKING:
    from bios.context import ServiceContext

CTRL_C = 0x03
FLAG_ZF = 0x40

# -- through the vectors, as DOS's console functions go -----------------------------------------
def put(ctx: "ServiceContext", data: bytes) -> ServiceCalls:
    """CON output: each byte an INT 29h; tabs expanded to the next multiple of 8."""
    for b in data:
        if b == 0x09:
            row, col = video.cursor(ctx, ctx.memory[0x462])
            for _ in range(8 - col % 8):
                yield interrupt(0x29, ax=0x20)
        else:
            yield interrupt(0x29, ax=b)


def put_from(ctx: "ServiceContext", segment: int, offset: int, data: bytes) -> ServiceCalls:
    """CON output of ``data``, read from segment:offset: the runs between tabs go through
    the ROM's loop (LODSB; INT 29h; LOOP), the same INT 29h per byte in one Python call."""
    run = 0
    for i, b in enumerate(data):
        if b == 0x09:
            if i > run:
                yield write(segment, (offset + run) & 0xFFFF, i - run)
            yield from put(ctx, b"\t")
            run = i + 1
    if len(data) > run:
        yield write(segment, (offset + run) & 0xFFFF, len(data) - run)


def take_key(ctx: "ServiceContext") -> ServiceCalls:
    """One input byte: INT 16h AH=00h (the BIOS waits for a key); an extended key
    gives 0 now and its scan code at the next call."""
    if ctx.dos.pending_scan is not None:
        return _held_scan(ctx)
    code = (yield interrupt(0x16, ax=0x0000))["ax"]
    return _first_byte(ctx, code)


def _held_scan(ctx: "ServiceContext") -> int:
    """The scan code an extended key left for the next read (which it then leaves none)."""
    scan, ctx.dos.pending_scan = ctx.dos.pending_scan, None
    return scan


def _first_byte(ctx: "ServiceContext", code: int) -> int:
    """A BIOS key word as DOS hands it out: its ASCII byte, or for an extended key 0 now
    with the scan code held for the next read."""
    ascii_code = code & 0xFF
    if ascii_code in (0x00, 0xE0) and code >> 8:
        ctx.dos.pending_scan = code >> 8
        return 0
    return ascii_code


def key_waiting(ctx: "ServiceContext") -> ServiceCalls:
    """Is a key waiting?  INT 16h AH=01h (the answer changes nothing, a pure call)."""
    if ctx.dos.pending_scan is not None:
        return True
    ctx.call.pure_answer()
    flags = (yield interrupt(0x16, ax=0x0100))["flags"]
    ctx.call.pure_answer()
    return not flags & FLAG_ZF


# -- direct, for the command interpreter (and handle reads of CON) -------------------------------
def write_char(ctx: "ServiceContext", char: int) -> None:
    video.teletype(ctx, char)


def write_bytes(ctx: "ServiceContext", data: bytes) -> None:
    for b in data:
        if b == 0x09:                       # CON expands tabs to the next multiple of 8
            row, col = video.cursor(ctx, ctx.memory[0x462])
            for _ in range(8 - col % 8):
                video.teletype(ctx, 0x20)
        else:
            video.teletype(ctx, b)


def next_key(ctx: "ServiceContext") -> int | None:
    """One input byte from the BIOS buffer, or None if no key is waiting."""
    if ctx.dos.pending_scan is not None:
        return _held_scan(ctx)
    ctx.call.keyboard_polled()
    code = kb.buffer_take(ctx)
    return None if code is None else _first_byte(ctx, code)


def key_waiting_now(ctx: "ServiceContext") -> bool:
    ctx.call.keyboard_polled()
    return ctx.dos.pending_scan is not None or kb.buffer_peek(ctx) is not None


def check_break(ctx: "ServiceContext") -> bool:
    """Consume a waiting Ctrl-C or Ctrl-Break; True if one was there."""
    dos = ctx.dos
    code = kb.buffer_peek(ctx)
    if dos.ctrl_break_pending or (code is not None and (code & 0xFF) == CTRL_C):
        if code is not None and ((code & 0xFF) == CTRL_C or code == 0):
            kb.buffer_take(ctx)
        dos.ctrl_break_pending = False
        return True
    return False


