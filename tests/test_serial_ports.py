"""COM1 and COM2: 8250s with nothing on the line (pcemu.devices.uart), and INT 14h on them."""
from __future__ import annotations

from tests.dos_harness import END_OF_PROGRAM, run_program

PROBE = f"""
    push ds
    mov ax, 0x40
    mov ds, ax
    mov ax, [0]
    mov bx, [2]
    pop ds
    mov [0x2000], ax
    mov [0x2002], bx
    int 0x11
    mov [0x2004], ax
    mov dx, 0x3ff
    mov al, 0x5a
    out dx, al
    in al, dx
    mov [0x2006], al
    mov dx, 0x3fe
    in al, dx
    mov [0x2007], al
    mov dx, 0x3fc
    mov al, 0x1f
    out dx, al
    mov dx, 0x3fe
    in al, dx
    mov [0x2008], al
    mov dx, 0x3f8
    mov al, 0x41
    out dx, al
    mov dx, 0x3fd
    in al, dx
    mov [0x2009], al
    mov dx, 0x3f8
    in al, dx
    mov [0x200a], al
    mov dx, 0x3fc
    mov al, 0
    out dx, al
    mov ah, 3
    mov dx, 0
    int 0x14
    mov [0x200c], ax
    mov ax, 0x0141
    mov dx, 0
    int 0x14
    mov [0x200e], ax
    mov ah, 3
    mov dx, 3
    int 0x14
    mov [0x2010], ax
    {END_OF_PROGRAM}
"""


def test_two_uarts_found_as_post_finds_them_and_nothing_on_their_lines(tmp_path):
    run = run_program(tmp_path, PROBE)
    assert run.words(2) == [0x3F8, 0x2F8]                  # the BIOS data area's COM1, COM2
    assert (run.words(1, 0x2004)[0] >> 9) & 7 == 2          # INT 11h: two serial ports
    assert run.results(2, 0x2006) == b"\x5a\x00"            # scratch register; no modem lines
    # loopback: DTR, RTS, OUT1, OUT2 come back as DSR, CTS, RI, DCD (with their deltas),
    # and the byte sent is received
    assert run.results(1, 0x2008)[0] & 0xF0 == 0xF0
    assert run.results(2, 0x2009) == b"\x61A"               # LSR: data ready, THR empty, idle
    # INT 14h status: AH=LSR; AL=MSR, whose deltas still say the looped-back lines fell
    assert run.words(1, 0x200C) == [0x600F]
    assert run.words(1, 0x200E)[0] >> 8 == 0xE0             # send: no DSR/CTS, time-out bit
    assert run.words(1, 0x2010)[0] >> 8 == 0x80             # COM4: no port


# (first three timer ticks go by, so that the keyboard's IRQ for the Enter key that
# started the program is over: a lower-priority IRQ waits while a higher one is in
# service, and pcemu takes it at the end of the slice in which that one's EOI came)
THRE_INTERRUPT = f"""
    sti
    mov si, 3
ticks:
    xor ax, ax
    int 0x1a
    mov bx, dx
same:
    xor ax, ax
    int 0x1a
    cmp dx, bx
    je same
    dec si
    jnz ticks
    cli
    xor ax, ax
    mov es, ax
    mov word ptr es:[0x30], handler
    mov es:[0x32], cs
    in al, 0x21
    and al, 0xef
    out 0x21, al
    mov dx, 0x3fc
    mov al, 0x08
    out dx, al
    mov dx, 0x3f9
    mov al, 0x02
    out dx, al
    sti
    mov cx, 1000
wait:
    loop wait
    mov dx, 0x3f8
    mov al, 0x41
    out dx, al
    mov cx, 1000
wait2:
    loop wait2
    cli
    {END_OF_PROGRAM}
handler:
    push ax
    push dx
    mov dx, 0x3fa
    in al, dx
    mov ah, 0
    add [0x2000], ax
    inc word ptr [0x2002]
    mov al, 0x20
    out 0x20, al
    pop dx
    pop ax
    iret
"""


def test_the_transmitter_empty_interrupt_comes_on_irq4_when_out2_lets_it(tmp_path):
    run = run_program(tmp_path, THRE_INTERRUPT)
    # once when enabled with the transmitter empty, once after the byte left; each read
    # of IIR said 02h (THR empty) and acknowledged it
    assert run.words(2) == [4, 2]
