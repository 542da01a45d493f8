"""CPU exceptions reach the program's own handlers as on a 286: a divide error pushes the
address of the faulting instruction, every time; a software INT 0 pushes the next one."""
from __future__ import annotations

from tests.dos_harness import END_OF_PROGRAM, run_program

DIVIDE_TWICE = f"""
    mov ax, 0x3500
    int 0x21
    mov [0x2040], bx
    mov [0x2042], es
    mov ax, 0x2500
    mov dx, handler
    int 0x21
    mov word ptr [0x2030], first
    mov word ptr [0x2032], second
    mov word ptr [0x2034], third
    mov word ptr [0x2036], after_int
    mov cl, 0
    mov ax, 100
first:
    div cl
    mov [0x2020], ax
    mov dx, 0x7fff
    mov ax, 0xffff
    mov bx, 2
second:
    div bx
    mov [0x2022], ax
third:
    int 0
after_int:
    nop
    nop
    mov word ptr [0x2024], 0x600d
    push ds
    mov ax, 0x2500
    mov dx, [0x2040]
    mov ds, [0x2042]
    int 0x21
    pop ds
    {END_OF_PROGRAM}
handler:
    push bp
    mov bp, sp
    push bx
    mov bx, cs:[0x2010]
    shl bx, 1
    mov ax, [bp+2]
    mov cs:[bx+0x2000], ax
    add word ptr [bp+2], 2
    inc word ptr cs:[0x2010]
    mov ax, 0xdead
    pop bx
    pop bp
    iret
"""


def test_divide_errors_reach_the_programs_handler_with_the_faulting_ip(tmp_path):
    run = run_program(tmp_path, DIVIDE_TWICE)
    first, second, third, after_int = run.words(4, 0x2030)
    assert run.words(1, 0x2010) == [3]                       # all three reached the handler
    assert run.words(3, 0x2000) == [first, second, after_int]
    assert run.words(2, 0x2020) == [0xDEAD, 0xDEAD]          # each division was skipped
    assert run.words(1, 0x2024) == [0x600D]                  # and the program went on to the end
    assert run.machine.get_vector(0) == tuple(run.words(2, 0x2040))[::-1]
