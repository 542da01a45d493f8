"""The LIM 4.0 expanded-memory manager (pcemu.dos.ems), as guest programs detect and use it."""
from __future__ import annotations

from tests.dos_harness import CARRIES, END_OF_PROGRAM, dos_call, run_program

# Detection both ways programs do it, then status, frame, counts and version.
DETECT = f"""
    mov ax, 0x3567
    int 0x21
    mov di, 0x0a
    mov si, name
    mov cx, 8
    cld
    repe cmpsb
    mov byte ptr [0x2040], cl
    push cs
    pop es
    mov ax, 0x3d00
    mov dx, name
    {dos_call(0)}
    cmp byte ptr [{CARRIES:#x}], 0       ; (dos_call keeps AX, not the flags)
    jne done
    mov bx, ax
    mov ax, 0x4400
    int 0x21
    mov [0x2042], dx
    mov ax, 0x4407
    int 0x21
    mov [0x2044], al
    mov ah, 0x3e
    int 0x21
    mov ah, 0x40
    int 0x67
    mov [0x2046], ah
    mov ah, 0x41
    int 0x67
    mov [0x2048], bx
    mov ah, 0x42
    int 0x67
    mov [0x204a], bx
    mov [0x204c], dx
    mov ah, 0x46
    int 0x67
    mov [0x204e], ax
done:
    {END_OF_PROGRAM}
name: .ascii "EMMXXXX0"
    .byte 0
"""


def test_the_manager_is_found_by_its_vector_and_by_opening_emmxxxx0(tmp_path):
    run = run_program(tmp_path, DETECT, ems=256)
    assert run.results(1, 0x2040) == b"\x00"                # all 8 bytes of the name matched
    assert not run.carry(0)
    assert run.words(1, 0x2042)[0] & 0x80                   # a character device ...
    assert run.results(1, 0x2044) == b"\xff"                # ... ready for output
    assert run.results(1, 0x2046) == b"\x00"                # status: working
    assert run.words(3, 0x2048) == [0xE000, 16, 16]         # frame; 256 KB = 16 pages, all free
    assert run.words(1, 0x204E)[0] == 0x0040                # AH=0, AL=40h: LIM 4.0


def test_without_ems_nothing_answers_to_the_name(tmp_path):
    run = run_program(tmp_path, DETECT)
    assert run.results(1, 0x2040) != b"\x00"
    assert run.carry(0) and run.ax(0) == 0x02               # no such file


MAP_AND_COPY = f"""
    mov ah, 0x43
    mov bx, 4
    int 0x67
    mov [0x2040], ax
    mov [0x2042], dx
    mov si, dx
    mov ax, 0x4400
    mov bx, 0
    mov dx, si
    int 0x67
    mov ax, 0xe000
    mov es, ax
    mov word ptr es:[0], 0x1111
    mov word ptr es:[0x3ffe], 0x1112
    mov ax, 0x4400
    mov bx, 1
    mov dx, si
    int 0x67
    mov word ptr es:[0], 0x2222
    mov ax, 0x4401
    mov bx, 0
    mov dx, si
    int 0x67
    mov ax, es:[0x4000]
    mov [0x2044], ax
    mov ax, es:[0x7ffe]
    mov [0x2046], ax
    mov ax, es:[0]
    mov [0x2048], ax
    mov ah, 0x42
    int 0x67
    mov [0x204a], bx
    mov ah, 0x43
    mov bx, 0
    int 0x67
    mov [0x2050], ah
    mov ax, 0x4400
    mov bx, 9
    mov dx, si
    int 0x67
    mov [0x2051], ah
    mov ax, 0x4400
    mov bx, 0
    mov dx, 0x77
    int 0x67
    mov [0x2052], ah
    mov ax, 0x4404
    mov bx, 0
    mov dx, si
    int 0x67
    mov [0x2053], ah
    mov ah, 0x4c
    mov dx, si
    int 0x67
    mov [0x204c], bx
    mov ah, 0x45
    mov dx, si
    int 0x67
    mov [0x2054], ah
    mov ah, 0x45
    mov dx, si
    int 0x67
    mov [0x2055], ah
    mov ah, 0x42
    int 0x67
    mov [0x204e], bx
    mov ah, 0x99
    int 0x67
    mov [0x2056], ah
    {END_OF_PROGRAM}
"""


def test_pages_keep_their_contents_across_mappings_and_errors_have_lim_codes(tmp_path):
    run = run_program(tmp_path, MAP_AND_COPY, ems=256)
    status, handle = run.words(2, 0x2040)
    assert status >> 8 == 0 and handle != 0
    # logical 0 (written first) reappears in physical page 1, logical 1 in page 0
    assert run.words(3, 0x2044) == [0x1111, 0x1112, 0x2222]
    assert run.words(1, 0x204A) == [12]                     # 4 of 16 pages taken
    assert run.words(1, 0x204C) == [4]                      # the handle's pages
    assert run.results(7, 0x2050) == bytes([0x89, 0x8A, 0x83, 0x8B, 0x00, 0x83, 0x84])
    assert run.words(1, 0x204E) == [16]                     # all free again


def test_the_size_is_bounded():
    import pytest
    from pcemu import Machine
    with pytest.raises(ValueError, match="expanded memory"):
        Machine(ems=64 * 1024)
