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


def mz(code: bytes, pages: int, last_page_bytes: int = 0, max_alloc: int = 0xFFFF) -> bytes:
    """An MZ file with a 32-byte header, entry at 0:0, stack at 100:1000h, then ``code``."""
    header = bytearray(0x20)
    struct.pack_into("<2s13H", header, 0, b"MZ", last_page_bytes, pages, 0, 2,
                     0x110, max_alloc, 0x100, 0x1000, 0, 0, 0, 0x1C, 0)
    return bytes(header) + code


PRINT_AT_10H_AND_EXIT_7 = """
    push cs
    pop ds
    mov ah, 9
    mov dx, 0x10
    int 0x21
    mov ax, 0x4c07
    int 0x21
"""


def exe_run(tmp_path, files: dict[str, bytes], command: str):
    run = machine_with(tmp_path, {}, files=files)
    run.machine.type("C:{ENTER}")
    run_command(run, command)
    return run


def test_an_exe_shorter_than_its_header_says_loads_and_runs_as_dos_loads_it(tmp_path):
    from tests.machine_helpers import assemble
    code = assemble(PRINT_AT_10H_AND_EXIT_7, origin=0).ljust(0x10, b"\x90") + b"SHORT BUT LOADED$"
    run = exe_run(tmp_path, {"SHORT.EXE": mz(code, pages=8)}, "SHORT")     # promises 3.5 KB
    assert "SHORT BUT LOADED" in run.screen
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\SHORT.EXE", 7)


def test_dos_loads_whole_pages_past_the_last_page_byte_count(tmp_path):
    """A BASIC runtime's loader stub keeps the runtime's name after the bytes its header
    counts in the last page; DOS reads whole pages, so the name is in memory."""
    from tests.machine_helpers import assemble
    code = assemble(PRINT_AT_10H_AND_EXIT_7, origin=0).ljust(0x10, b"\x90")
    assert len(code) == 0x10
    run = exe_run(tmp_path, {"STUB.EXE": mz(code + b"PAST THE COUNT$", pages=1,
                                             last_page_bytes=0x20 + len(code))}, "STUB")
    assert "PAST THE COUNT" in run.screen


def test_max_allocation_zero_loads_the_image_at_the_top_of_its_block(tmp_path):
    from tests.machine_helpers import assemble
    code = assemble("""
    mov cx, es:[2]
    mov ax, cs
    sub cx, ax
    mov al, cl
    mov ah, 0x4c
    int 0x21
""", origin=0)
    run = exe_run(tmp_path, {"HIGH.EXE": mz(code, pages=1, max_alloc=0),
                             "LOW.EXE": mz(code, pages=1)}, "HIGH")
    # PSP:2 (the end of the block) minus CS: the image's 480 bytes, 1Eh paragraphs
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\HIGH.EXE", 0x1E)
    run_command(run, "LOW")
    assert run.machine.dos.shell.exit_codes[-1][1] != 0x1E


def test_a_file_too_short_for_an_exe_header_runs_as_a_com_program(tmp_path):
    from tests.machine_helpers import assemble
    program = b"MZ" + assemble("mov ax, 0x4c2a; int 0x21")    # DEC BP; POP DX; then the exit
    run = exe_run(tmp_path, {"TINY.EXE": program}, "TINY")
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\TINY.EXE", 0x2A)


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
