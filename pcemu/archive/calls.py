"""Names and arguments of the BIOS and DOS services a program calls, for traces and reports.

``service_key(name, ah, al)`` gives the label a report counts a call under,
e.g. ``INT 21h AH=3Dh open file``.  ``dos_arguments`` reads what a DOS call
points at in guest memory (a path at DS:DX, an FCB's file name, a byte count)
so a trace says "open B:\\GINRUMMY.CFG" rather than "DS:DX=18B2:1234".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.machine import Machine

DOS_FUNCTIONS = {
    0x00: "terminate", 0x01: "read key with echo", 0x02: "write character", 0x03: "read AUX",
    0x04: "write AUX", 0x05: "print character", 0x06: "direct console I/O",
    0x07: "read key raw", 0x08: "read key", 0x09: "write string", 0x0A: "buffered input",
    0x0B: "keyboard status", 0x0C: "flush and read", 0x0D: "reset disks", 0x0E: "select drive",
    0x0F: "FCB open", 0x10: "FCB close", 0x11: "FCB find first", 0x12: "FCB find next",
    0x13: "FCB delete", 0x14: "FCB sequential read", 0x15: "FCB sequential write",
    0x16: "FCB create", 0x17: "FCB rename", 0x19: "current drive", 0x1A: "set DTA",
    0x1B: "FAT info (default drive)", 0x1C: "FAT info", 0x21: "FCB random read",
    0x22: "FCB random write", 0x23: "FCB file size", 0x24: "FCB set random record",
    0x25: "set vector", 0x26: "create PSP", 0x27: "FCB random block read",
    0x28: "FCB random block write", 0x29: "parse file name", 0x2A: "get date", 0x2B: "set date",
    0x2C: "get time", 0x2D: "set time", 0x2E: "set verify", 0x2F: "get DTA", 0x30: "DOS version",
    0x31: "keep process (TSR)", 0x33: "Ctrl-Break check", 0x34: "InDOS flag address",
    0x35: "get vector", 0x36: "free disk space", 0x37: "switch character", 0x38: "country info",
    0x39: "make directory", 0x3A: "remove directory", 0x3B: "change directory",
    0x3C: "create file", 0x3D: "open file", 0x3E: "close file", 0x3F: "read file",
    0x40: "write file", 0x41: "delete file", 0x42: "seek", 0x43: "file attributes",
    0x44: "IOCTL", 0x45: "duplicate handle", 0x46: "force duplicate handle",
    0x47: "current directory", 0x48: "allocate memory", 0x49: "free memory",
    0x4A: "resize memory", 0x4B: "EXEC", 0x4C: "exit", 0x4D: "return code",
    0x4E: "find first", 0x4F: "find next", 0x50: "set PSP", 0x51: "get PSP", 0x52: "list of lists",
    0x54: "get verify", 0x56: "rename", 0x57: "file date and time", 0x58: "allocation strategy",
    0x59: "extended error", 0x5A: "create unique file", 0x5B: "create new file", 0x5C: "lock",
    0x62: "get PSP",
}

BIOS_FUNCTIONS = {
    0x10: {0x00: "set video mode", 0x01: "cursor shape", 0x02: "set cursor", 0x03: "get cursor",
           0x04: "light pen", 0x05: "select page", 0x06: "scroll up", 0x07: "scroll down",
           0x08: "read character", 0x09: "write character and attribute",
           0x0A: "write character", 0x0B: "palette / border", 0x0C: "write pixel",
           0x0D: "read pixel", 0x0E: "teletype", 0x0F: "get video mode", 0x10: "EGA palette",
           0x11: "character generator", 0x12: "EGA information", 0x13: "write string",
           0x1A: "display combination"},
    0x13: {0x00: "reset disk", 0x01: "disk status", 0x02: "read sectors", 0x03: "write sectors",
           0x04: "verify sectors", 0x05: "format track", 0x08: "drive parameters",
           0x15: "drive type", 0x16: "disk change"},
    0x14: {0x00: "init serial", 0x01: "send", 0x02: "receive", 0x03: "serial status"},
    0x15: {0x4F: "keyboard intercept", 0x84: "joystick", 0x85: "SysRq key", 0x86: "wait",
           0x87: "move extended memory", 0xC2: "pointing device", 0x88: "extended memory size",
           0x90: "device busy", 0x91: "interrupt complete", 0xC0: "system configuration"},
    0x16: {0x00: "read key", 0x01: "key status", 0x02: "shift flags", 0x05: "store key",
           0x10: "read key (enhanced)", 0x11: "key status (enhanced)", 0x12: "shift flags (enhanced)"},
    0x17: {0x00: "print character", 0x01: "init printer", 0x02: "printer status"},
    0x1A: {0x00: "read ticks", 0x01: "set ticks", 0x02: "RTC time", 0x03: "set RTC time",
           0x04: "RTC date", 0x05: "set RTC date"},
}
# services without a function number in AH
WHOLE_SERVICES = {"int11": "INT 11h equipment list", "int12": "INT 12h memory size",
                  "int05": "INT 05h print screen", "int1b": "INT 1Bh Ctrl-Break",
                  "int18": "INT 18h ROM BASIC", "int19": "INT 19h reboot",
                  "int20": "INT 20h terminate", "int27": "INT 27h terminate and stay resident",
                  "int25": "INT 25h absolute disk read",
                  "int26": "INT 26h absolute disk write", "int23_default": "INT 23h Ctrl-C (default)",
                  "int24_default": "INT 24h critical error (default)",
                  "int00_divide": "INT 00h divide overflow (DOS)",
                  "int06_strict": "INT 06h invalid opcode (--strict)",
                  "int2e": "INT 2Eh command to the primary shell"}
# services that are the machine's own hardware interrupts, not calls a program makes
HARDWARE = {"timer_tick", "keyboard_scancode"}
# DOS functions whose "result" is another program's state (they do not return to the caller)
NO_RETURN = {0x00, 0x31, 0x4B, 0x4C}
NO_RETURN_SERVICES = {"int20", "int27", "int18", "int19", "int23_default", "int00_divide",
                      "int06_strict", "int2e"}     # (INT 2Eh returns once the shell ran the line)

PATH_AT_DS_DX = {0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x41, 0x43, 0x4B, 0x4E, 0x5A, 0x5B, 0x56}
FCB_AT_DS_DX = {0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x21, 0x22, 0x23, 0x24,
                0x27, 0x28}
HANDLE_IN_BX = {0x3E, 0x3F, 0x40, 0x42, 0x44, 0x45, 0x46, 0x57, 0x5C}


def interrupt_number(name: str) -> int | None:
    """'int21' -> 0x21; None for names that are not an interrupt's entry."""
    if name.startswith("int") and len(name) >= 5:
        try:
            return int(name[3:5], 16)
        except ValueError:
            return None
    return None


def service_key(name: str, ah: int, al: int, ax: int) -> str:
    """The label a report counts a call under."""
    if name in WHOLE_SERVICES:
        return WHOLE_SERVICES[name]
    number = interrupt_number(name)
    if number == 0x21:
        return f"INT 21h AH={ah:02X}h {DOS_FUNCTIONS.get(ah, 'unknown function')}"
    if number == 0x2F:
        return f"INT 2Fh AX={ax:04X}h multiplex"
    if number == 0x33:
        return f"INT 33h AX={ax:04X}h mouse"
    if number is not None:
        table = BIOS_FUNCTIONS.get(number, {})
        return f"INT {number:02X}h AH={ah:02X}h {table.get(ah, 'unknown function')}".rstrip()
    return name


def read_asciiz(m: "Machine", seg: int, off: int, limit: int = 128) -> str:
    raw = m.memory.read_far(seg, off, limit)
    return raw.split(b"\0", 1)[0].decode("cp437")


def fcb_name(m: "Machine", seg: int, off: int) -> str:
    """The drive and 8.3 name of an FCB (extended FCBs start with FFh)."""
    if m.memory.rb(seg, off) == 0xFF:
        off += 7
    drive = m.memory.rb(seg, off)
    raw = m.memory.read_far(seg, off + 1, 11).decode("cp437")
    name, ext = raw[:8].rstrip(), raw[8:].rstrip()
    prefix = f"{chr(64 + drive)}:" if 0 < drive <= 26 else ""
    return prefix + name + (f".{ext}" if ext else "")


def dos_arguments(m: "Machine") -> dict:
    """What an INT 21h call passes, read at the moment of the call."""
    cpu = m.cpu
    ah = cpu.ah
    args: dict = {"ax": cpu.ax, "bx": cpu.bx, "cx": cpu.cx, "dx": cpu.dx}
    if ah in PATH_AT_DS_DX:
        args["path"] = read_asciiz(m, cpu.ds, cpu.dx)
        if ah == 0x56:
            args["new_path"] = read_asciiz(m, cpu.es, cpu.di)
    elif ah in FCB_AT_DS_DX:
        args["fcb"] = fcb_name(m, cpu.ds, cpu.dx)
    elif ah == 0x09:
        raw = m.memory.read_far(cpu.ds, cpu.dx, 256)
        args["text"] = raw.split(b"$", 1)[0].decode("cp437")
    elif ah in (0x25, 0x35):
        args["vector"] = cpu.al
        if ah == 0x25:
            args["handler"] = f"{cpu.ds:04X}:{cpu.dx:04X}"
    if ah in (0x3F, 0x40):
        args["count"] = cpu.cx
    return args


def dos_results(m: "Machine", carry: bool) -> dict:
    cpu = m.cpu
    return {"ax": cpu.ax, "bx": cpu.bx, "cx": cpu.cx, "dx": cpu.dx, "cf": int(carry)}


def register_snapshot(m: "Machine") -> dict:
    cpu = m.cpu
    return {"ax": cpu.ax, "bx": cpu.bx, "cx": cpu.cx, "dx": cpu.dx}
