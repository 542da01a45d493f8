"""Functions the BIOS of an AT with CGA or MDA/Hercules lacks (EGA/VGA detection, INT 16h beyond its own)
return with the registers as they were, which is how programs learn there is no EGA."""
from __future__ import annotations

import pytest

from tests.dos_harness import END_OF_PROGRAM, run_program

DETECT = f"""
    mov ah, 0x12
    mov bx, 0xff10
    mov cx, 0x1234
    int 0x10
    mov [0x2000], bx
    mov [0x2002], cx
    mov ax, 0x1a00
    mov bx, 0x5678
    int 0x10
    mov [0x2004], ax
    mov [0x2006], bx
    mov ax, 0x1130
    mov bh, 2
    mov cx, 0x4321
    mov dx, 0x8765
    int 0x10
    mov [0x2008], cx
    mov [0x200a], dx
    mov ax, 0x1b00
    mov bx, 0
    int 0x10
    mov [0x200c], ax
    {END_OF_PROGRAM}
"""


@pytest.mark.parametrize("video", ["cga", "hercules"])
def test_ega_and_vga_calls_leave_the_registers_unchanged(tmp_path, video):
    run = run_program(tmp_path, DETECT, video=video)
    assert run.words(7) == [0xFF10, 0x1234, 0x1A00, 0x5678, 0x4321, 0x8765, 0x1B00]


def test_keyboard_functions_the_at_bios_lacks_leave_the_registers_unchanged(tmp_path):
    """A TSR's installation check (COLORSET asks INT 16h AX=F0F0h) must see AX as it was."""
    run = run_program(tmp_path, f"""
    mov ax, 0xf0f0
    mov bx, 0x1111
    int 0x16
    mov [0x2000], ax
    mov [0x2002], bx
    {END_OF_PROGRAM}
""", strict=True)
    assert run.words(2) == [0xF0F0, 0x1111]
    assert not run.machine.unimplemented_log
