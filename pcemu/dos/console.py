"""DOS console I/O, INT 21h functions 01h-0Ch.

As DOS does, the console functions reach the keyboard and the screen through
the interrupt vectors (pcemu/guest.py): each character out is an INT 29h (the
ROM's handler, like the CON driver's, calls INT 10h AH=0Eh), each key in an
INT 16h AH=00h (which waits in the BIOS, halting until a key comes), each
status check an INT 16h AH=01h.  A program or TSR that hooks those vectors sees
DOS's traffic.  An extended key (ASCII 0) is returned in two calls: 0, then its
scan code.  Ctrl-C (and Ctrl-Break) on the console functions that check for it
runs INT 23h.

The CON device itself (through the vectors, and the direct path the command
interpreter takes) is ``con.py``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import keyboard as kb
from bios import video
from bios.services import FunctionTable
from pcemu.dos import kernel
from pcemu.dos.con import CTRL_C, FLAG_ZF, check_break, key_waiting, put, put_from, take_key
from pcemu.guest import ServiceCalls

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("console")      # this area's INT 21h functions (int21.py)


def _ctrl_c(ctx: "ServiceContext") -> ServiceCalls:
    """^C seen: echo it and run INT 23h, retrying the function if the handler returns."""
    yield from put(ctx, b"^C\r\n")
    ctx.dos.ctrl_c_sp = ctx.cpu.sp              # to tell an IRET from a RETF when it returns
    ctx.cpu.jump(*ctx.vectors.rom.address("call23"))


# -- standard input: the keyboard through CON, or a file (PROG < FILE) --------------------------
EOF_MARK = 0x1A                          # what a read past a redirected input's end gives


def _stdin_byte(ctx: "ServiceContext") -> ServiceCalls:
    """One byte of standard input: from the file handle 0 is redirected to (Ctrl-Z past
    its end), else a key through INT 16h."""
    data = kernel.read_redirected(ctx.dos)
    if data is not None:
        ctx.call.impure()
        return data[0] if data else EOF_MARK
    return (yield from take_key(ctx))


def _skip_line_feed(ctx: "ServiceContext") -> None:
    """A line read from a file ends at CR; the LF after it belongs to that line."""
    if kernel.input_waiting_redirected(ctx.dos) and kernel.read_redirected(ctx.dos) != b"\n":
        kernel.seek(ctx.dos, 0, -1, 1)


def _stdin_waiting(ctx: "ServiceContext") -> ServiceCalls:
    waiting = kernel.input_waiting_redirected(ctx.dos)
    if waiting is not None:
        return waiting
    return (yield from key_waiting(ctx))


# -- the functions ----------------------------------------------------------------------------
def _read_key(ctx: "ServiceContext", *, echo: bool, check_ctrl_c: bool) -> ServiceCalls:
    """01h, 07h and 08h: wait for a key; Ctrl-C runs INT 23h where DOS checks for it."""
    key = yield from _stdin_byte(ctx)
    if check_ctrl_c and key == CTRL_C:
        yield from _ctrl_c(ctx)
        return
    ctx.cpu.al = key
    if echo:
        yield from put(ctx, bytes([key]))


@functions.function(0x01)
def read_with_echo(ctx: "ServiceContext") -> ServiceCalls:
    return _read_key(ctx, echo=True, check_ctrl_c=True)


def _checked_output(ctx: "ServiceContext", data: bytes, at: tuple[int, int] | None = None) -> ServiceCalls:
    """Output after DOS's Ctrl-C check; ``at``: where ``data`` lies in guest memory."""
    if check_break(ctx):
        yield from _ctrl_c(ctx)
        return
    if kernel.write_redirected(ctx.dos, data):     # standard output is a file (PROG > FILE)
        return
    if at is None:
        yield from put(ctx, data)
    else:
        yield from put_from(ctx, *at, data)


@functions.function(0x02)
def write_character(ctx: "ServiceContext") -> ServiceCalls:
    ctx.cpu.al = ctx.cpu.dl
    return _checked_output(ctx, bytes([ctx.cpu.dl]))


@functions.function(0x03)
def read_aux(ctx: "ServiceContext") -> None:
    ctx.cpu.al = 0x1A                               # no serial port: end of file


@functions.function(0x04)
def write_aux(ctx: "ServiceContext") -> None:
    pass                                          # no serial port: the byte is lost


@functions.function(0x05)
def write_printer(ctx: "ServiceContext") -> None:
    ctx.devices.printer.print_byte(ctx.cpu.dl)


@functions.function(0x06)
def direct_console(ctx: "ServiceContext") -> ServiceCalls:
    cpu = ctx.cpu
    if cpu.dl != 0xFF:
        if kernel.write_redirected(ctx.dos, bytes([cpu.dl])):
            return None
        cpu.al = cpu.dl
        return put(ctx, bytes([cpu.dl]))
    return _direct_input(ctx)


def _direct_input(ctx: "ServiceContext") -> ServiceCalls:
    waiting = yield from _stdin_waiting(ctx)
    ctx.call.idle_poll(not waiting)
    if not waiting:
        ctx.cpu.al = 0
        ctx.call.set_return_flag(FLAG_ZF, True)
        return
    ctx.call.impure()
    ctx.cpu.al = yield from _stdin_byte(ctx)
    ctx.call.set_return_flag(FLAG_ZF, False)


@functions.function(0x07)
def read_raw(ctx: "ServiceContext") -> ServiceCalls:
    return _read_key(ctx, echo=False, check_ctrl_c=False)


@functions.function(0x08)
def read_without_echo(ctx: "ServiceContext") -> ServiceCalls:
    return _read_key(ctx, echo=False, check_ctrl_c=True)


@functions.function(0x09)
def write_string(ctx: "ServiceContext") -> ServiceCalls:
    cpu = ctx.cpu
    text = ctx.memory.read_until(cpu.ds, cpu.dx, ord("$"))
    cpu.al = ord("$")
    return _checked_output(ctx, text, (cpu.ds, cpu.dx))


@functions.function(0x0A)
def buffered_input(ctx: "ServiceContext") -> ServiceCalls | None:
    capacity = ctx.memory.rb(ctx.cpu.ds, ctx.cpu.dx)
    if capacity == 0:
        return None
    return _line_input(ctx, capacity)


def _line_input(ctx: "ServiceContext", capacity: int) -> ServiceCalls:
    cpu = ctx.cpu
    mem = ctx.memory
    buffer_seg, buffer_off = cpu.ds, cpu.dx
    start_column = video.cursor(ctx, mem[0x462])[1]   # Esc starts again on the next line, here
    text = bytearray()
    redirected = kernel.input_waiting_redirected(ctx.dos) is not None
    while True:
        if redirected and not kernel.input_waiting_redirected(ctx.dos):
            yield from put(ctx, b"\r")            # the file has ended: so has the line
            break
        key = yield from _stdin_byte(ctx)
        if key == 0 and not redirected:           # extended key: its scan code follows
            yield from take_key(ctx)
            continue
        if key == CTRL_C:
            yield from _ctrl_c(ctx)
            return
        if key == 0x0D:
            yield from put(ctx, b"\r")
            if redirected:
                _skip_line_feed(ctx)
            break
        if key in (0x08, 0x7F):
            if text:
                text.pop()
                yield from put(ctx, b"\x08 \x08")
            continue
        if key == 0x1B:                           # Esc: DOS cancels the line
            text.clear()
            yield from put(ctx, b"\\\r\n" + b" " * start_column)
            continue
        if len(text) >= capacity - 1:
            yield from put(ctx, b"\x07")           # full: DOS rings the bell through CON
            continue
        text.append(key)
        yield from put(ctx, bytes([key]))
    mem.wb(buffer_seg, buffer_off + 1, len(text))
    mem.write_far(buffer_seg, buffer_off + 2, bytes(text) + b"\r")


def read_con(ctx: "ServiceContext", count: int) -> ServiceCalls:
    """INT 21h AH=3Fh from CON (cooked): a whole line is read with editing and echo,
    then handed out ``count`` bytes at a time; Ctrl-Z ends it as end of file."""
    dos = ctx.dos
    cpu = ctx.cpu
    buffer_seg, buffer_off = cpu.ds, cpu.dx
    pending = getattr(dos, "con_pending", b"")
    if not pending:
        line = bytearray()
        while True:
            key = yield from take_key(ctx)
            if key == 0:
                yield from take_key(ctx)
                continue
            if key == 0x0D:
                yield from put(ctx, b"\r\n")
                pending = bytes(line) + b"\r\n"
                break
            if key == 0x1A:
                pending = bytes(line) + b"\x1a"
                break
            if key in (0x08, 0x7F):
                if line:
                    line.pop()
                    yield from put(ctx, b"\x08 \x08")
                continue
            if len(line) < 127:
                line.append(key)
                yield from put(ctx, bytes([key]))
    data, dos.con_pending = pending[:count], pending[count:]
    ctx.memory.write_far(buffer_seg, buffer_off, data)
    cpu.ax = len(data)
    dos.succeed()


@functions.function(0x0B)
def input_status(ctx: "ServiceContext") -> ServiceCalls:
    if check_break(ctx):
        return _ctrl_c(ctx)
    return _input_status(ctx)


def _input_status(ctx: "ServiceContext") -> ServiceCalls:
    waiting = yield from _stdin_waiting(ctx)
    ctx.call.idle_poll(not waiting)
    ctx.call.pure_answer()
    ctx.cpu.al = 0xFF if waiting else 0x00


@functions.function(0x0C)
def flush_then_input(ctx: "ServiceContext") -> ServiceCalls | None:
    """Empty the key buffer, then run input function AL (01h, 06h, 07h, 08h, 0Ah)."""
    function = ctx.cpu.al
    ctx.call.impure()
    kb.buffer_flush(ctx)
    ctx.dos.pending_scan = None
    if function in (0x01, 0x06, 0x07, 0x08, 0x0A):
        return functions[function](ctx)
    return None
