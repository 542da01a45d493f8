"""DOS 3.30 details that PC-SIG programs depend on (issue #20): IOCTL's device words,
EXEs shorter than their header, and HLT as the CPU sees it.  Each is a guest program."""
from __future__ import annotations

import struct

from tests.dos_harness import END_OF_PROGRAM, dos_call, machine_with, run_command, run_program


def test_ioctl_device_information_is_what_dos_330_keeps_for_each_handle(tmp_path):
    handles = "".join(f"""
    mov ax, 0x4400
    mov bx, {handle}
    int 0x21
    mov [{0x2040 + 2 * handle:#x}], dx
""" for handle in range(5))
    source = f"""
    {handles}
    mov ax, 0x3d02
    mov dx, nul
    int 0x21
    mov bx, ax
    mov ax, 0x4400
    int 0x21
    mov [0x2050], dx
    mov ax, 0x3d02
    mov dx, data
    int 0x21
    mov [0x2060], ax
    mov bx, ax
    mov ax, 0x4400
    int 0x21
    mov [0x2052], dx
    mov ah, 0x40
    mov cx, 3
    mov dx, data
    int 0x21
    mov ax, 0x4400
    mov bx, [0x2060]
    int 0x21
    mov [0x2054], dx
    mov ax, 0x4401
    mov dx, 0x20
    {dos_call(0)}
    mov ax, 0x4401
    mov bx, 1
    mov dx, 0x0120
    {dos_call(1)}
    mov ax, 0x4401
    mov bx, 1
    mov dx, 0x00A3
    {dos_call(2)}
    mov ax, 0x4400
    mov bx, 1
    int 0x21
    mov [0x2056], dx
    mov ax, 0x4401
    mov bx, 1
    mov dx, 0x0083
    int 0x21
    mov ax, 0x4402
    mov bx, 0
    mov cx, 4
    mov dx, 0x2400
    {dos_call(3)}
    mov ax, 0x4410
    mov bx, 0
    {dos_call(4)}
    {END_OF_PROGRAM}
nul: .asciz "NUL"
data: .asciz "DATA.TXT"
"""
    run = run_program(tmp_path, source, files={"DATA.TXT": b"old contents"})
    # CON (stdin, stdout, stderr), AUX, PRN: the attribute's high byte, 80h device,
    # 40h not at end of input, the attribute's bits 0-4 (stdin, stdout, INT 29h)
    assert run.words(5, 0x2040) == [0x80D3, 0x80D3, 0x80D3, 0x80C0, 0xA0C0]
    assert run.words(1, 0x2050) == [0x80C4]                   # NUL
    assert run.words(2, 0x2052) == [0x0042, 0x0002]           # C: file: not written, then written
    assert run.carry(0) and run.ax(0) == 0x01                 # set on a disk file: invalid function
    assert run.carry(1) and run.ax(1) == 0x0D                 # DH must be zero
    assert not run.carry(2)
    assert run.words(1, 0x2056) == [0x80F3]                   # CON now binary (raw)
    assert run.carry(3) and run.ax(3) == 0x01                 # CON takes no IOCTL strings
    assert run.carry(4) and run.ax(4) == 0x01                 # no subfunction 10h in DOS 3.30


def short_exe(code: bytes, promised: int) -> bytes:
    """An MZ file whose header promises ``promised`` bytes of image; the file holds ``code``."""
    header = bytearray(0x20)
    total = 0x20 + promised
    struct.pack_into("<2s13H", header, 0, b"MZ", total % 512, -(-total // 512), 0, 2,
                     0x10, 0xFFFF, 0, 0x1000, 0, 0, 0, 0x1C, 0)
    return bytes(header) + code


def test_an_exe_shorter_than_its_header_says_loads_and_runs_as_dos_loads_it(tmp_path):
    from tests.machine_helpers import assemble
    code = assemble("""
    push cs
    pop ds
    mov ah, 9
    mov dx, 0x10
    int 0x21
    mov ax, 0x4c07
    int 0x21
""", origin=0)
    code = code.ljust(0x10, b"\x90") + b"SHORT BUT LOADED$"
    run = machine_with(tmp_path, {}, files={"SHORT.EXE": short_exe(code, promised=3000)})
    run.machine.type("C:{ENTER}")
    run_command(run, "SHORT")
    assert "SHORT BUT LOADED" in run.screen
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\SHORT.EXE", 7)


# A loop with IF clear whose JNE is never taken and jumps back 12 bytes: its second
# byte is F4h, HLT's opcode, right before the instruction that follows.  A slice that
# ends there (short slices while the timer's IRQ waits for STI) is no HLT.
JNE_F4_LOOP = f"""
    cli
    xor cx, cx
    xor ax, ax
back:
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    test ax, ax
    jne back
    loop back
    sti
    mov word ptr [0x2000], 0x600D
    {END_OF_PROGRAM}
"""


def test_a_slice_ending_after_an_f4_byte_is_not_a_halt(tmp_path):
    run = run_program(tmp_path, JNE_F4_LOOP)
    from tests.machine_helpers import assemble
    assert b"\x75\xf4" in assemble(JNE_F4_LOOP.replace(END_OF_PROGRAM, ""))
    assert run.words(1) == [0x600D]
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\T.COM", 0)
