"""Helpers for the machine tests: where the originals are, and tiny programs assembled here.

The test programs are assembled with keystone (a test dependency) from source in
the tests themselves, so they show exactly what they exercise.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
DISK1612 = SHARED / "disks" / "DISK1612.img"

needs_originals = pytest.mark.skipif(
    not DISK1612.exists(), reason=f"the original disk image is not at {DISK1612} (../shared is absent)")


def md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def assemble(source: str, origin: int = 0x100) -> bytes:
    """16-bit code, for a .COM program loaded at CS:0100h."""
    import keystone
    ks = keystone.Ks(keystone.KS_ARCH_X86, keystone.KS_MODE_16)
    encoding, _count = ks.asm(source, origin)
    return bytes(encoding)


def com_program(tmp_path: Path, name: str, source: str) -> Path:
    """Write NAME.COM into a folder that the test mounts as a drive."""
    folder = tmp_path / "progs"
    folder.mkdir(exist_ok=True)
    (folder / name.upper()).write_bytes(assemble(source))
    return folder


# AX as four hex digits through INT 21h AH=02h.
PRINT_HEX = """
print_hex:
    mov cx, 4
digit:
    rol ax, 4
    push ax
    and al, 0x0f
    add al, 0x30
    cmp al, 0x39
    jbe emit
    add al, 7
emit:
    mov dl, al
    mov ah, 2
    int 0x21
    pop ax
    loop digit
    ret
"""

END = """
    mov ax, 0x4c00
    int 0x21
"""


def run_to_exit(folder, program: str, accelerate: bool = True):
    """Boot with ``folder`` as C:, run PROGRAM until it exits, and two ticks more."""
    from pcemu import Machine
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    exits = []
    m.events.exit.connect(lambda *args: exits.append(args))
    m.type(f"C:{{ENTER}}{program}{{ENTER}}")
    m.run_until(condition=lambda m: bool(exits), max_ticks=18.2 * 60)
    m.run(2)
    return m


# The BASIC music runtime's timer, for our programs: INT 08h to the program's `handler`
# (the BIOS's vector kept in its words `old_off` and `old_seg`) and channel 0 at 582 Hz
# (reload 0800h); and the BIOS's vector and rate put back.  HANDLER_ON points INT 08h alone.
HANDLER_ON = """
    mov ax, 0x3508
    int 0x21
    mov word ptr [old_off], bx
    mov word ptr [old_seg], es
    mov ax, 0x2508
    mov dx, handler
    int 0x21
"""
TIMER_582HZ_ON = HANDLER_ON + """
    cli
    mov al, 0x36
    out 0x43, al
    xor al, al
    out 0x40, al
    mov al, 0x08
    out 0x40, al
    sti
"""

# Channel 0 back to the BIOS's rate (mode 3, 65536), and interrupts on.
BIOS_TIMER_RATE = """
    mov al, 0x36
    out 0x43, al
    xor al, al
    out 0x40, al
    out 0x40, al
    sti
"""

TIMER_582HZ_OFF = """
    cli
""" + BIOS_TIMER_RATE + """
    push ds
    mov dx, word ptr [old_off]
    mov ds, word ptr [old_seg]
    mov ax, 0x2508
    int 0x21
    pop ds
"""

# The words the two pieces above and the programs' handlers keep: `ticks` (the handlers
# count their interrupts in it) and the BIOS's vector.  Placed after the handler's IRET.
TIMER_582HZ_WORDS = """
ticks:
    .word 0
old_off:
    .word 0
old_seg:
    .word 0
"""
