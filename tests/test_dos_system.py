"""DOS system services: version, vectors, Ctrl-Break flag, date and time, extended
error, checked with programs assembled here."""
from __future__ import annotations

import datetime as dt

from tests.dos_harness import END_OF_PROGRAM, dos_call, run_program


def test_version_vectors_and_break_flag(tmp_path):
    source = f"""
    mov ah, 0x30
    int 0x21
    mov [0x2000], ax
    mov [0x2002], bx
    mov ax, 0x2561
    mov dx, 0x1234
    int 0x21
    mov ax, 0x3561
    int 0x21
    mov [0x2004], bx
    mov [0x2006], es
    xor ax, ax
    mov es, ax
    mov ax, es:[0x61 * 4]
    mov [0x2008], ax
    mov ax, es:[0x61 * 4 + 2]
    mov [0x200a], ax
    mov ax, 0x3300
    int 0x21
    mov [0x200c], dl
    mov ax, 0x3301
    mov dl, 1
    int 0x21
    mov ax, 0x3300
    int 0x21
    mov [0x200d], dl
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source)
    assert run.words(2) == [0x1E03, 0]                       # 3.30, IBM
    assert run.words(4, 0x2004) == [0x1234, run.psp, 0x1234, run.psp]   # 35h reads the IVT 25h wrote
    assert run.results(2, 0x200C) == b"\x00\x01"


def test_date_and_time_follow_the_virtual_clock_and_can_be_set(tmp_path):
    source = f"""
    mov ah, 0x2a
    int 0x21
    mov [0x2000], cx
    mov [0x2002], dx
    mov [0x2004], al
    mov ah, 0x2c
    int 0x21
    mov [0x2006], cx
    mov [0x2008], dx
    mov ah, 0x2b
    mov cx, 1990
    mov dx, 0x0c1f
    int 0x21
    mov [0x200a], al
    mov ah, 0x2b
    mov cx, 1990
    mov dx, 0x021e
    int 0x21
    mov [0x200b], al
    mov ah, 0x2a
    int 0x21
    mov [0x200c], cx
    mov [0x200e], dx
    mov [0x2010], al
    mov ah, 0x2d
    mov cx, 0x173b
    mov dx, 0x3a00
    int 0x21
    mov [0x2011], al
    mov ah, 0x2d
    mov cx, 0x1900
    xor dx, dx
    int 0x21
    mov [0x2012], al
    mov ah, 0x2c
    int 0x21
    mov [0x2014], cx
    mov [0x2016], dx
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, date="1988-03-15", time="10:20:30")
    assert run.words(2) == [1988, 0x030F]
    assert run.results(1, 0x2004)[0] == 2                    # a Tuesday
    hour_minute, second_hundredths = run.words(2, 0x2006)
    assert hour_minute == (10 << 8) | 20
    assert 30 <= (second_hundredths >> 8) <= 40              # the boot and the typing took a while
    assert run.results(2, 0x200A) == b"\x00\xff"             # 1990-12-31 is fine, 1990-02-30 is not
    assert run.words(2, 0x200C) == [1990, 0x0C1F]
    assert run.results(1, 0x2010)[0] == 1                    # a Monday
    assert run.results(2, 0x2011) == b"\x00\xff"             # 23:59:58 fine, 25:00 not
    hour_minute, second_hundredths = run.words(2, 0x2014)
    assert hour_minute == (23 << 8) | 59 and second_hundredths >> 8 in (58, 59)
    assert run.machine.now_datetime().date() == dt.date(1990, 12, 31)


def test_extended_error_describes_the_last_failure(tmp_path):
    source = f"""
    mov ax, 0x3d00
    mov dx, missing
    {dos_call(0)}
    mov ah, 0x59
    xor bx, bx
    int 0x21
    mov [0x2010], ax
    mov [0x2012], bx
    mov [0x2014], ch
    {END_OF_PROGRAM}
missing: .asciz "NOPE.TXT"
"""
    run = run_program(tmp_path, source)
    assert run.carry(0) and run.ax(0) == 2
    assert run.words(1, 0x2010) == [2]                       # file not found
    assert run.results(1, 0x2013)[0] == 8                    # class: not found
    assert run.results(1, 0x2014)[0] == 2                    # locus: block device


def test_set_date_refuses_years_outside_1980_to_2099(tmp_path):
    """INT 21h AH=2Bh takes CX = 1980-2099 (a directory entry keeps the year as 1980 + 0..127,
    the kernel's range ends at 2099); outside it AL=FFh and the date stays."""
    source = f"""
    mov ah, 0x2b
    mov cx, 2100
    mov dx, 0x0101
    int 0x21
    mov [0x2000], al
    mov ah, 0x2b
    mov cx, 1979
    mov dx, 0x0c1f
    int 0x21
    mov [0x2001], al
    mov ah, 0x2b
    mov cx, 2099
    mov dx, 0x0c1f
    int 0x21
    mov [0x2002], al
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, date="1988-03-15")
    assert run.results(3, 0x2000) == b"\xff\xff\x00"
    assert run.machine.now_datetime().date() == dt.date(2099, 12, 31)
