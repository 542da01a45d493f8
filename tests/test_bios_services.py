"""BIOS services seen from programs: INT 10h (cursor, scrolling, write string, pages),
INT 11h/12h/15h/1Ah, INT 13h sector access to the mounted image, INT 17h to the printer."""
from __future__ import annotations

import datetime as dt

from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import END_OF_PROGRAM, dos_call, run_program

TEXT = 0xB8000


def cell(m, row: int, col: int, page: int = 0) -> tuple[str, int]:
    address = TEXT + page * 0x1000 + (row * 80 + col) * 2
    return chr(m.memory[address]), m.memory[address + 1]


def row_text(m, row: int, start: int, end: int, page: int = 0) -> str:
    return "".join(cell(m, row, col, page)[0] for col in range(start, end))


def test_int10_cursor_characters_and_write_string(tmp_path):
    source = f"""
    mov ax, 0x0003
    int 0x10
    mov ah, 0x02
    xor bh, bh
    mov dx, 0x0510
    int 0x10
    mov ah, 0x03
    xor bh, bh
    int 0x10
    mov [0x2000], dx
    mov [0x2002], cx
    mov ax, 0x0958
    xor bh, bh
    mov bl, 0x1e
    mov cx, 3
    int 0x10
    mov ah, 0x08
    xor bh, bh
    int 0x10
    mov [0x2004], ax
    mov ah, 0x03
    int 0x10
    mov [0x2006], dx
    mov ax, 0x1301
    xor bh, bh
    mov bl, 0x2f
    mov cx, 5
    mov dx, 0x0702
    push ds
    pop es
    mov bp, hello
    int 0x10
    mov ah, 0x03
    xor bh, bh
    int 0x10
    mov [0x2008], dx
    mov ax, 0x1302
    xor bh, bh
    mov cx, 2
    mov dx, 0x0800
    mov bp, pairs
    int 0x10
    mov ah, 0x03
    xor bh, bh
    int 0x10
    mov [0x200a], dx
    mov ah, 0x01
    mov cx, 0x0007
    int 0x10
    mov ah, 0x03
    xor bh, bh
    int 0x10
    mov [0x200c], cx
    mov ah, 0x07
    int 0x21
    {END_OF_PROGRAM}
hello: .ascii "Hello"
pairs: .byte 0x41, 0x71, 0x42, 0x17
"""
    run = run_program_waiting(tmp_path, source)
    m = run.machine
    assert run.words(2) == [0x0510, 0x0607]
    assert [cell(m, 5, c) for c in (16, 17, 18)] == [("X", 0x1E)] * 3
    assert run.words(2, 0x2004) == [0x1E58, 0x0510]           # 09h leaves the cursor alone
    assert row_text(m, 7, 2, 7) == "Hello" and cell(m, 7, 2)[1] == 0x2F
    assert run.words(1, 0x2008) == [0x0707]                   # mode 1 moves the cursor
    assert cell(m, 8, 0) == ("A", 0x71) and cell(m, 8, 1) == ("B", 0x17)
    assert run.words(1, 0x200A) == [0x0707]                   # mode 2 does not
    assert run.words(1, 0x200C) == [0x0007]
    assert list(m.video_card.crtc.registers[0x0A:0x0C]) == [0x00, 0x07]


def run_program_waiting(tmp_path, source: str, **options):
    """Run a program that waits for a key at its end, so the screen can be read first."""
    from tests.dos_harness import machine_with
    run = machine_with(tmp_path, {"T.COM": source}, **options)
    run.machine.type("C:{ENTER}T{ENTER}")
    run.machine.run(3)
    return run


def test_int10_scrolling_a_window_up_and_down(tmp_path):
    fill_rows = "".join(f"""
    mov ah, 0x02
    xor bh, bh
    mov dx, {(row << 8) | 10:#x}
    int 0x10
    mov ax, {0x0900 | ord(str(row)):#x}
    mov bl, 0x07
    mov cx, 10
    int 0x10
""" for row in range(1, 6))
    source = f"""
    mov ax, 0x0003
    int 0x10
    {fill_rows}
    mov ax, 0x0601
    mov bh, 0x4f
    mov cx, 0x010c
    mov dx, 0x0310
    int 0x10
    mov ax, 0x0702
    mov bh, 0x1f
    mov cx, 0x0400
    mov dx, 0x054f
    int 0x10
    mov ah, 0x07
    int 0x21
    {END_OF_PROGRAM}
"""
    run = run_program_waiting(tmp_path, source)
    m = run.machine
    assert row_text(m, 1, 10, 20) == "1122222111"             # cols 12-16 of rows 1-3 moved up
    assert row_text(m, 2, 10, 20) == "2233333222"
    assert row_text(m, 3, 10, 20) == "33     333" and cell(m, 3, 12)[1] == 0x4F
    assert row_text(m, 4, 0, 20).strip() == "" and cell(m, 4, 0)[1] == 0x1F   # scrolled down 2
    assert row_text(m, 5, 0, 20).strip() == "" and cell(m, 5, 79)[1] == 0x1F
    assert row_text(m, 6, 10, 20) == "          "             # below the window: untouched


def test_int10_pages(tmp_path):
    source = f"""
    mov ax, 0x0003
    int 0x10
    mov ax, 0x0501
    int 0x10
    mov ah, 0x0f
    int 0x10
    mov [0x2000], ax
    mov [0x2002], bx
    mov ah, 0x02
    mov bh, 1
    mov dx, 0x0203
    int 0x10
    mov ax, 0x0a50
    mov bh, 1
    mov cx, 2
    int 0x10
    mov ah, 0x03
    xor bh, bh
    int 0x10
    mov [0x2004], dx
    mov ah, 0x07
    int 0x21
    {END_OF_PROGRAM}
"""
    run = run_program_waiting(tmp_path, source)
    m = run.machine
    assert run.words(2) == [(80 << 8) | 3, 0x0100]            # 80 columns, mode 3, page 1
    assert row_text(m, 2, 3, 5, page=1) == "PP"
    assert row_text(m, 2, 3, 5, page=0) != "PP"
    assert m.video_card.crtc.start_address == 0x800           # the card shows page 1
    assert "PP" in m.screen_text().splitlines()[2]
    assert run.words(1, 0x2004) == [0]                        # page 0 has its own cursor


def test_int11_int12_int15_and_int1a(tmp_path):
    source = f"""
    int 0x11
    mov [0x2000], ax
    int 0x12
    mov [0x2002], ax
    mov ah, 0x88
    {dos_call(2, 0x15)}
    mov ah, 0xc0
    int 0x15
    mov al, es:[bx+2]
    mov [0x2006], al
    mov ah, 0x53
    {dos_call(4, 0x15)}
    xor ah, ah
    int 0x1a
    mov [0x2010], cx
    mov [0x2012], dx
    mov ah, 0x86
    mov cx, 0x000f
    mov dx, 0x4240
    {dos_call(10, 0x15)}
    xor ah, ah
    int 0x1a
    mov [0x2018], cx
    mov [0x201a], dx
    mov ah, 0x02
    int 0x1a
    mov [0x2020], cx
    mov [0x2022], dx
    mov ah, 0x04
    int 0x1a
    mov [0x2024], cx
    mov [0x2026], dx
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, date="1988-03-15", time="10:20:30")
    m = run.machine
    equipment = run.words(1)[0]
    assert equipment == m.memory.read_word(0x410)
    assert equipment & 0x01 and (equipment >> 6) & 3 == 1 and equipment & 0x30 == 0x20
    assert run.words(1, 0x2002) == [640]
    assert run.ax(2) & 0xFF00 == 0 and not run.carry(2)       # no extended memory
    assert run.results(1, 0x2006)[0] == 0xFC                  # an AT
    assert run.carry(4) and run.ax(4) >> 8 == 0x86            # unsupported function
    before = run.words(1, 0x2010)[0] << 16 | run.words(1, 0x2012)[0]
    after = run.words(1, 0x2018)[0] << 16 | run.words(1, 0x201A)[0]
    assert not run.carry(10) and 17 <= after - before <= 20   # a one-second wait, in ticks
    start = dt.datetime(1988, 3, 15, 10, 20, 30)
    hour, minute, second = (bcd(run.results(1, 0x2021)[0]), bcd(run.results(1, 0x2020)[0]),
                            bcd(run.results(1, 0x2023)[0]))
    rtc = dt.datetime(1988, 3, 15, hour, minute, second)
    assert dt.timedelta(0) <= rtc - start <= dt.timedelta(seconds=10)
    assert run.words(2, 0x2024) == [0x1988, 0x0315]           # century and year, month and day


def bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


def test_int13_reads_the_mounted_image_and_reports_errors(tmp_path):
    image = FloppyImage(format_image("360K", label="SECTORS"), read_only=True)
    with_data = image.read_sectors(0, 3)
    source = f"""
    push ds
    pop es
    mov ax, 0x0201
    mov cx, 0x0001
    xor dx, dx
    mov bx, 0x3000
    {dos_call(0, 0x13)}
    mov ax, 0x0202
    mov cx, 0x0002
    xor dx, dx
    mov bx, 0x3200
    {dos_call(1, 0x13)}
    mov ax, 0x0301
    mov cx, 0x0001
    xor dx, dx
    mov bx, 0x3000
    {dos_call(2, 0x13)}
    mov ax, 0x0201
    mov cx, 0x0001
    mov dx, 0x0001
    mov bx, 0x3600
    {dos_call(3, 0x13)}
    mov ax, 0x0201
    mov cx, 0x000a
    xor dx, dx
    mov bx, 0x3600
    {dos_call(4, 0x13)}
    mov ah, 0x08
    xor dl, dl
    int 0x13
    mov [0x2020], cx
    mov [0x2022], dx
    mov [0x2024], bl
    mov ah, 0x01
    xor dl, dl
    int 0x13
    mov [0x2026], ax
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, mounts={"A": image})
    assert not run.carry(0) and run.ax(0) == 0x0001           # AH=0 ok, AL sectors read
    assert run.results(512, 0x3000) == with_data[:512]
    assert not run.carry(1) and run.results(1024, 0x3200) == with_data[512:]
    assert run.carry(2) and run.ax(2) >> 8 == 0x03            # write-protected
    assert run.carry(3) and run.ax(3) >> 8 == 0x80            # B: has no diskette: time-out
    assert run.carry(4) and run.ax(4) >> 8 == 0x04            # sector 10 of a 9-sector track
    assert run.words(2, 0x2020) == [(39 << 8) | 9, 0x0102]    # 40 cylinders, 9 sectors, 2 heads, 2 drives
    assert run.results(1, 0x2024)[0] == 1                     # a 360 KB drive
    assert run.words(1, 0x2026)[0] >> 8 == 0x04               # the last status


def test_int17_prints_to_the_capture(tmp_path):
    capture = tmp_path / "printer.out"
    source = f"""
    mov ax, 0x0048
    xor dx, dx
    int 0x17
    mov [0x2000], ah
    mov ax, 0x0069
    int 0x17
    mov ah, 0x02
    int 0x17
    mov [0x2001], ah
    mov ax, 0x0021
    mov dx, 1
    int 0x17
    mov [0x2002], ah
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, printer_capture=capture)
    assert capture.read_bytes() == b"Hi"
    status = run.results(3)
    assert status[0] & 0x90 == 0x90 and status[0] & 0x29 == 0   # not busy, selected, no error
    assert status[1] == status[0]
    assert status[2] & 0x01 or status[2] & 0x30               # LPT2 is not there


def test_midnight_rolls_the_tick_count_over_and_int1a_reports_it_once(tmp_path):
    """INT 08h wraps 0040:006Ch at 1800B0h and sets the midnight flag (0040:0070h);
    INT 1Ah AH=00h returns it in AL and clears it; DOS's date moves to the next day."""
    source = f"""
wait:
    xor ah, ah
    int 0x1a
    or al, al
    jz wait
    mov [0x2000], al
    mov [0x2002], cx
    mov [0x2004], dx
    xor ah, ah
    int 0x1a
    mov [0x2006], al
    mov ah, 0x2a
    int 0x21
    mov [0x2008], cx
    mov [0x200a], dx
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, date="1988-12-31", time="23:59:50")
    assert run.results(1, 0x2000)[0] != 0                    # the flag, seen once
    ticks = run.words(1, 0x2002)[0] << 16 | run.words(1, 0x2004)[0]
    assert ticks < 18.2 * 20                                  # counting again from 0 (not 1800B0h)
    assert run.results(1, 0x2006)[0] == 0                     # cleared by the first read
    assert run.words(2, 0x2008) == [1989, 0x0101]             # DOS: 1 January 1989


def test_a_tight_int1a_polling_loop_still_takes_its_interrupts(tmp_path):
    """XOR AH,AH / INT 1Ah / CMP / JB: the loop's length divides the machine's short slices,
    which used to end each time inside the service's stub with IF clear, so the pending
    IRQ 0 (and the Enter key's break code) were never taken and the machine hung. On a CPU
    the IRQ is taken right after the IRET that sets IF again: a second of ticks passes."""
    source = f"""
    xor ah, ah
    int 0x1a
    mov bx, dx
    add bx, 18
wait:
    xor ah, ah
    int 0x1a
    cmp dx, bx
    jb wait
    mov [0x2000], dx
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, time="10:00:00")
    assert run.machine.dos.shell.exit_codes[-1][1] == 0


def test_int15_84h_reads_the_game_port_as_the_at_bios_does(tmp_path):
    # No stick on the port: the buttons read 1 (not pressed) whatever AL was before, so a
    # program polling ON STRIG never sees a press; the axes' counts time out to 0.
    source = f"""
    mov ax, 0x8400
    xor dx, dx
    {dos_call(1, 0x15)}
    mov [0x3000], dx
    mov ax, 0x840f
    xor dx, dx
    {dos_call(2, 0x15)}
    mov ah, 0x84
    mov dx, 1
    mov bx, 0x1234
    mov cx, 0x5678
    {dos_call(3, 0x15)}
    mov [0x3002], bx
    mov [0x3004], cx
    mov [0x3006], dx
    mov ah, 0x84
    mov dx, 2
    {dos_call(4, 0x15)}
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source)
    assert run.ax(1) == 0x00F0 and run.ax(2) == 0x00F0 and not run.carry(1) and not run.carry(2)
    assert run.words(1, 0x3000) == [0x201]
    assert run.ax(3) == 0 and run.words(3, 0x3002) == [0, 0, 0] and not run.carry(3)
    assert run.carry(4) and run.ax(4) >> 8 == 0x86


def test_int15_84h_axes_take_the_at_roms_count_loops(tmp_path):
    # With no stick every axis's one-shot runs to the ROM's count (4FFh passes of IN, TEST,
    # LOOPNZ, interrupts off) and the drain's as many again: about 30,700 instructions a call,
    # so at 65,910 instructions a BIOS tick a program fits two or three calls in one.  A
    # service that answered at once would fit thousands.
    source = f"""
    push ds
    mov ax, 0x40
    mov ds, ax
    mov di, [0x6c]
edge:
    cmp di, [0x6c]
    je edge
    mov di, [0x6c]
    xor si, si
again:
    mov ah, 0x84
    mov dx, 1
    int 0x15
    inc si
    cmp di, [0x6c]
    je again
    pop ds
    mov [0x3000], si
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source)
    assert run.words(1, 0x3000)[0] in (2, 3)
