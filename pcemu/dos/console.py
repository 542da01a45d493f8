"""DOS console I/O, INT 21h functions 01h-0Ch.

As DOS does, the console functions reach the keyboard and the screen through
the interrupt vectors (pcemu/guest.py): each character out is an INT 29h (the
ROM's handler, like the CON driver's, calls INT 10h AH=0Eh), each key in an
INT 16h AH=00h (which waits in the BIOS, halting until a key comes), each
status check an INT 16h AH=01h.  A program or TSR that hooks those vectors sees
DOS's traffic.  An extended key (ASCII 0) is returned in two calls: 0, then its
scan code.  Ctrl-C (and Ctrl-Break) on the console functions that check for it
runs INT 23h.

The command interpreter (pcemu/shell, in Python) still writes and reads the
console directly with ``write_bytes``/``write_char``/``_next_key``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import keyboard as kb
from bios import video
from pcemu.dos import dos_services, kernel
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


def _next_key(ctx: "ServiceContext") -> int | None:
    """One input byte from the BIOS buffer, or None if no key is waiting."""
    if ctx.dos.pending_scan is not None:
        return _held_scan(ctx)
    ctx.call.keyboard_polled()
    code = kb.buffer_take(ctx)
    return None if code is None else _first_byte(ctx, code)


def _key_waiting(ctx: "ServiceContext") -> bool:
    ctx.call.keyboard_polled()
    return ctx.dos.pending_scan is not None or kb.buffer_peek(ctx) is not None


def _ctrl_c(ctx: "ServiceContext") -> ServiceCalls:
    """^C seen: echo it and run INT 23h, retrying the function if the handler returns."""
    yield from put(ctx, b"^C\r\n")
    ctx.dos.ctrl_c_sp = ctx.cpu.sp              # to tell an IRET from a RETF when it returns
    ctx.cpu.jump(*ctx.vectors.rom.address("call23"))


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


# -- the functions ----------------------------------------------------------------------------
def _read_key(ctx: "ServiceContext", *, echo: bool, check_ctrl_c: bool) -> ServiceCalls:
    """01h, 07h and 08h: wait for a key; Ctrl-C runs INT 23h where DOS checks for it."""
    key = yield from take_key(ctx)
    if check_ctrl_c and key == CTRL_C:
        yield from _ctrl_c(ctx)
        return
    ctx.cpu.al = key
    if echo:
        yield from put(ctx, bytes([key]))


@dos_services.function(0x01)
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


@dos_services.function(0x02)
def write_character(ctx: "ServiceContext") -> ServiceCalls:
    ctx.cpu.al = ctx.cpu.dl
    return _checked_output(ctx, bytes([ctx.cpu.dl]))


@dos_services.function(0x03)
def read_aux(ctx: "ServiceContext") -> None:
    ctx.cpu.al = 0x1A                               # no serial port: end of file


@dos_services.function(0x04)
def write_aux(ctx: "ServiceContext") -> None:
    pass                                          # no serial port: the byte is lost


@dos_services.function(0x05)
def write_printer(ctx: "ServiceContext") -> None:
    ctx.devices.printer.print_byte(ctx.cpu.dl)


@dos_services.function(0x06)
def direct_console(ctx: "ServiceContext") -> ServiceCalls:
    cpu = ctx.cpu
    if cpu.dl != 0xFF:
        if kernel.write_redirected(ctx.dos, bytes([cpu.dl])):
            return None
        cpu.al = cpu.dl
        return put(ctx, bytes([cpu.dl]))
    return _direct_input(ctx)


def _direct_input(ctx: "ServiceContext") -> ServiceCalls:
    waiting = yield from key_waiting(ctx)
    ctx.call.idle_poll(not waiting)
    if not waiting:
        ctx.cpu.al = 0
        ctx.call.set_return_flag(FLAG_ZF, True)
        return
    ctx.call.impure()
    ctx.cpu.al = yield from take_key(ctx)
    ctx.call.set_return_flag(FLAG_ZF, False)


@dos_services.function(0x07)
def read_raw(ctx: "ServiceContext") -> ServiceCalls:
    return _read_key(ctx, echo=False, check_ctrl_c=False)


@dos_services.function(0x08)
def read_without_echo(ctx: "ServiceContext") -> ServiceCalls:
    return _read_key(ctx, echo=False, check_ctrl_c=True)


@dos_services.function(0x09)
def write_string(ctx: "ServiceContext") -> ServiceCalls:
    cpu = ctx.cpu
    text = ctx.memory.read_until(cpu.ds, cpu.dx, ord("$"))
    cpu.al = ord("$")
    return _checked_output(ctx, text, (cpu.ds, cpu.dx))


@dos_services.function(0x0A)
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
    while True:
        key = yield from take_key(ctx)
        if key == 0:                              # extended key: its scan code follows
            yield from take_key(ctx)
            continue
        if key == CTRL_C:
            yield from _ctrl_c(ctx)
            return
        if key == 0x0D:
            yield from put(ctx, b"\r")
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


@dos_services.function(0x0B)
def input_status(ctx: "ServiceContext") -> ServiceCalls:
    if check_break(ctx):
        return _ctrl_c(ctx)
    return _input_status(ctx)


def _input_status(ctx: "ServiceContext") -> ServiceCalls:
    waiting = yield from key_waiting(ctx)
    ctx.call.idle_poll(not waiting)
    ctx.call.pure_answer()
    ctx.cpu.al = 0xFF if waiting else 0x00


@dos_services.function(0x0C)
def flush_then_input(ctx: "ServiceContext") -> ServiceCalls | None:
    """Empty the key buffer, then run input function AL (01h, 06h, 07h, 08h, 0Ah)."""
    function = ctx.cpu.al
    ctx.call.impure()
    kb.buffer_flush(ctx)
    ctx.dos.pending_scan = None
    if function in (0x01, 0x06, 0x07, 0x08, 0x0A):
        return dos_services.functions[function](ctx)
    return None
