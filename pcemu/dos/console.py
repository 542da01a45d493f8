"""DOS console I/O, INT 21h functions 01h-0Ch.

Input comes from the BIOS key buffer (filled by INT 09h from real scancodes);
output goes through the BIOS teletype, as the CON driver does.  An extended key
(ASCII 0) is returned in two calls: 0, then its scan code.  Ctrl-C (and
Ctrl-Break) on the console functions that check for it runs INT 23h.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import keyboard as kb
from bios import video
from pcemu.dos import dos_services, kernel

if TYPE_CHECKING:
    from pcemu.machine import Machine

CTRL_C = 0x03


# -- primitives shared with handle I/O on CON -----------------------------------------------
def write_char(m: "Machine", char: int) -> None:
    video.teletype(m, char)


def write_bytes(m: "Machine", data: bytes) -> None:
    for b in data:
        if b == 0x09:                       # CON expands tabs to the next multiple of 8
            row, col = video.cursor(m, m.memory[0x462])
            for _ in range(8 - col % 8):
                video.teletype(m, 0x20)
        else:
            video.teletype(m, b)


def _next_key(m: "Machine") -> int | None:
    """One input byte for the character functions, or None if no key is waiting."""
    dos = m.dos
    if dos.pending_scan is not None:
        scan, dos.pending_scan = dos.pending_scan, None
        return scan
    m.keyboard_polled()
    code = kb.buffer_take(m)
    if code is None:
        return None
    ascii_code = code & 0xFF
    if ascii_code in (0x00, 0xE0) and code >> 8:
        dos.pending_scan = code >> 8
        return 0
    return ascii_code


def _key_waiting(m: "Machine") -> bool:
    m.keyboard_polled()
    return m.dos.pending_scan is not None or kb.buffer_peek(m) is not None


def _ctrl_c(m: "Machine") -> None:
    """^C seen: echo it and run INT 23h, retrying the function if the handler returns."""
    write_bytes(m, b"^C\r\n")
    m.dos.ctrl_c_sp = m.cpu.sp              # to tell an IRET from a RETF when it returns
    m.cpu.jump(*m.rom.address("call23"))


def check_break(m: "Machine") -> bool:
    """Consume a waiting Ctrl-C or Ctrl-Break; True if one was there."""
    dos = m.dos
    code = kb.buffer_peek(m)
    if dos.ctrl_break_pending or (code is not None and (code & 0xFF) == CTRL_C):
        if code is not None and ((code & 0xFF) == CTRL_C or code == 0):
            kb.buffer_take(m)
        dos.ctrl_break_pending = False
        return True
    return False


# -- the functions ----------------------------------------------------------------------------
def _read_key(m: "Machine", *, echo: bool, check_ctrl_c: bool) -> None:
    """01h, 07h and 08h: wait for a key; Ctrl-C runs INT 23h where DOS checks for it."""
    key = _next_key(m)
    if key is None:
        m.wait_for_input()
        return
    if check_ctrl_c and key == CTRL_C:
        _ctrl_c(m)
        return
    if echo:
        write_char(m, key)
    m.cpu.al = key


@dos_services.function(0x01)
def read_with_echo(m: "Machine") -> None:
    _read_key(m, echo=True, check_ctrl_c=True)


@dos_services.function(0x02)
def write_character(m: "Machine") -> None:
    if check_break(m):
        _ctrl_c(m)
        return
    if not kernel.write_redirected(m.dos, bytes([m.cpu.dl])):
        write_bytes(m, bytes([m.cpu.dl]))
    m.cpu.al = m.cpu.dl


@dos_services.function(0x03)
def read_aux(m: "Machine") -> None:
    m.cpu.al = 0x1A                               # no serial port: end of file


@dos_services.function(0x04)
def write_aux(m: "Machine") -> None:
    pass                                          # no serial port: the byte is lost


@dos_services.function(0x05)
def write_printer(m: "Machine") -> None:
    m.printer.print_byte(m.cpu.dl)


@dos_services.function(0x06)
def direct_console(m: "Machine") -> None:
    cpu = m.cpu
    if cpu.dl != 0xFF:
        if not kernel.write_redirected(m.dos, bytes([cpu.dl])):
            write_char(m, cpu.dl)
        cpu.al = cpu.dl
        return
    key = _next_key(m)
    m.idle_poll(key is None)
    if key is None:
        m.pure_answer()
        cpu.al = 0
        m.set_return_flag(0x40, True)
    else:
        cpu.al = key
        m.set_return_flag(0x40, False)


@dos_services.function(0x07)
def read_raw(m: "Machine") -> None:
    _read_key(m, echo=False, check_ctrl_c=False)


@dos_services.function(0x08)
def read_without_echo(m: "Machine") -> None:
    _read_key(m, echo=False, check_ctrl_c=True)


@dos_services.function(0x09)
def write_string(m: "Machine") -> None:
    if check_break(m):
        _ctrl_c(m)
        return
    cpu = m.cpu
    text = m.memory.read_until(cpu.ds, cpu.dx, ord("$"))
    if not kernel.write_redirected(m.dos, text):
        write_bytes(m, text)
    cpu.al = ord("$")


class LineEditor:
    """The state of one buffered-input line (function 0Ah) across waits for keys."""

    def __init__(self, capacity: int, start_column: int = 0) -> None:
        self.capacity = capacity
        self.text = bytearray()
        self.start_column = start_column      # Esc starts again on the next line, here


@dos_services.function(0x0A)
def buffered_input(m: "Machine") -> None:
    cpu = m.cpu
    mem = m.memory
    capacity = mem.rb(cpu.ds, cpu.dx)
    if capacity == 0:
        return
    dos = m.dos
    editor = getattr(dos, "line_editor", None)
    if editor is None:
        editor = dos.line_editor = LineEditor(capacity, video.cursor(m, m.memory[0x462])[1])
    while True:
        key = _next_key(m)
        if key is None:
            m.wait_for_input()
            return
        if key == 0:                              # extended key: its scan code follows
            _next_key(m)
            continue
        if key == CTRL_C:
            dos.line_editor = None
            _ctrl_c(m)
            return
        if key == 0x0D:
            write_char(m, 0x0D)
            break
        if key in (0x08, 0x7F):
            if editor.text:
                editor.text.pop()
                write_bytes(m, b"\x08 \x08")
            continue
        if key == 0x1B:                           # Esc: DOS cancels the line
            editor.text.clear()
            write_bytes(m, b"\\\r\n" + b" " * editor.start_column)
            continue
        if len(editor.text) >= capacity - 1:
            m.beep()
            continue
        editor.text.append(key)
        write_char(m, key)
    mem.wb(cpu.ds, cpu.dx + 1, len(editor.text))
    mem.write_far(cpu.ds, cpu.dx + 2, bytes(editor.text) + b"\r")
    dos.line_editor = None


@dos_services.function(0x0B)
def input_status(m: "Machine") -> None:
    if check_break(m):
        _ctrl_c(m)
        return
    waiting = _key_waiting(m)
    m.idle_poll(not waiting)
    m.pure_answer()
    m.cpu.al = 0xFF if waiting else 0x00


@dos_services.function(0x0C)
def flush_then_input(m: "Machine") -> None:
    function = m.cpu.al
    if not getattr(m.dos, "flushed_for_0c", False):
        m.impure()
        kb.buffer_flush(m)
        m.dos.pending_scan = None
        m.dos.flushed_for_0c = True
    if function in (0x01, 0x06, 0x07, 0x08, 0x0A):
        m.cpu.ah = function
        dos_services.functions[function](m)
        m.cpu.ah = 0x0C
        if m.cpu.flags & 0x0001:                  # still waiting for a key: keep AH for the retry
            return
    m.dos.flushed_for_0c = False
