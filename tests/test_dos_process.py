"""Processes and memory: the MCB chain in guest memory (48h/49h/4Ah), EXEC (load and
run, overlay), return codes (4Dh), INT 22h/23h/24h, the PSP and command tail, TSRs,
INT 2Fh and the CP/M-style CALL 5 — with programs assembled here."""
from __future__ import annotations

import struct

import pytest

from pcemu.dos import FIRST_MCB
from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import (END_OF_PROGRAM, dos_call, machine_with, run_command,
                               run_program)


def mcb_chain(memory, first: int = FIRST_MCB) -> list[tuple[int, str, int, int]]:
    """(segment of the block, 'M'/'Z', owner, paragraphs) for every block, read from RAM."""
    out = []
    seg = first
    while True:
        kind, owner, size = memory[seg << 4], memory.read_word((seg << 4) + 1), memory.read_word((seg << 4) + 3)
        out.append((seg + 1, chr(kind), owner, size))
        if chr(kind) != "M":
            return out
        seg += size + 1


def test_memory_services_keep_a_real_mcb_chain(tmp_path):
    source = f"""
    mov ah, 0x4a
    mov bx, 0x300
    push cs
    pop es
    {dos_call(0)}
    mov ah, 0x48
    mov bx, 0x100
    {dos_call(1)}
    mov ah, 0x48
    mov bx, 0x80
    {dos_call(2)}
    mov ah, 0x48
    mov bx, 0xffff
    {dos_call(3)}
    mov [0x2040], bx
    mov ah, 0x49
    mov es, [0x2002]
    {dos_call(4)}
    mov ah, 0x48
    mov bx, 0x40
    {dos_call(5)}
    mov ah, 0x4a
    mov es, [0x2004]
    mov bx, 0x100
    {dos_call(6)}
    mov ah, 0x4a
    mov es, [0x200a]
    mov bx, 0x200
    {dos_call(7)}
    mov [0x2042], bx
    mov ah, 0x49
    mov bx, 0x1234
    mov es, bx
    {dos_call(8)}
    mov ah, 0x52
    int 0x21
    mov ax, es:[bx-2]
    mov di, 0x2400
walk:
    mov es, ax
    mov cl, es:[0]
    mov [di], cl
    mov dx, es:[1]
    mov [di+1], dx
    mov dx, es:[3]
    mov [di+3], dx
    add di, 5
    cmp cl, 0x5a
    je walked
    add ax, dx
    inc ax
    jmp walk
walked:
    mov [0x2044], di
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source)
    psp = run.psp
    assert not any(run.carry(i) for i in (0, 1, 2, 4, 5, 6))
    seg1, seg2, seg3 = run.ax(1), run.ax(2), run.ax(5)
    assert seg1 == psp + 0x301 and seg2 == seg1 + 0x101
    assert seg3 == seg1                                      # first fit reuses the freed block
    assert run.carry(3) and run.ax(3) == 8                   # not enough memory ...
    assert run.words(1, 0x2040)[0] == 0xA000 - (seg2 + 0x80) - 1     # ... and the largest block
    assert run.carry(7) and run.ax(7) == 8 and run.words(1, 0x2042)[0] == 0x100
    assert run.carry(8) and run.ax(8) == 9                   # not a memory block
    # the program walked the chain itself (52h); it is the chain in RAM
    end = run.words(1, 0x2044)[0]
    raw = run.results(end - 0x2400, 0x2400)
    walked = [struct.unpack_from("<BHH", raw, i) for i in range(0, len(raw), 5)]
    assert walked[-1][0] == ord("Z")
    blocks = {seg: (owner, size) for seg, (_k, owner, size) in
              zip(_segments(walked), walked)}
    assert blocks[psp] == (psp, 0x300)
    assert blocks[seg3] == (psp, 0x40)
    assert blocks[seg3 + 0x41] == (0, 0x100 - 0x40 - 1)      # the rest of the freed block
    assert blocks[seg2] == (psp, 0x100)                      # grown in place
    last_seg = _segments(walked)[-1]
    assert last_seg + walked[-1][2] == 0xA000                # the chain ends at 640 KB
    # after the program ended, everything it owned is free again and merged
    chain = mcb_chain(run.machine.memory)
    assert all(owner != psp for _s, _k, owner, _z in chain)
    assert sum(1 for _s, _k, owner, _z in chain if owner == 0) == 1


def _segments(walked) -> list[int]:
    seg = FIRST_MCB
    out = []
    for kind, _owner, size in walked:
        out.append(seg + 1)
        seg += size + 1
    return out


PARENT = f"""
    mov ah, 0x4a
    mov bx, 0x300
    push cs
    pop es
    int 0x21
    mov word ptr [0x2f00], 0
    mov word ptr [0x2f02], tail
    mov [0x2f04], cs
    mov word ptr [0x2f06], 0x5c
    mov [0x2f08], cs
    mov word ptr [0x2f0a], 0x6c
    mov [0x2f0c], cs
    mov word ptr [0x2f80], landed
    mov [0x2030], sp
    mov bx, 0x2f00
    mov dx, child
    mov ax, 0x4b00
    {dos_call(0)}
    push cs
    pop ds
    mov [0x2032], sp
    mov word ptr [0x2020], 0x1111
    mov ah, 0x4d
    int 0x21
    mov [0x2010], ax
    mov ah, 0x4d
    int 0x21
    mov [0x2012], ax
    {END_OF_PROGRAM}
landed:
    push cs
    pop ds
    mov word ptr [0x2022], 0x2222
    {END_OF_PROGRAM}
tail: .byte 8
    .ascii " ONE TWO\\r"
child: .asciz "CHILD.COM"
"""

CHILD = f"""
    mov ah, 0x62
    int 0x21
    mov es, [0x16]
    mov es:[0x2050], bx
    mov si, 0x80
    mov di, 0x2400
    mov cx, 0x80
    cld
    rep movsb
    xor si, si
    mov di, 0x2500
    mov cx, 0x80
    rep movsb
    push ds
    mov ds, [0x2c]
    xor si, si
    mov di, 0x2600
    mov cx, 0x100
    rep movsb
    pop ds
    cmp byte ptr [0x81], 0x2a
    jne normal
    mov ax, es:[0x2f80]
    mov [0x0a], ax
    mov [0x0c], es
normal:
    mov ax, 0x4c2a
    int 0x21
"""


def test_exec_runs_a_child_and_4dh_returns_its_code(tmp_path):
    run = machine_with(tmp_path, {"T.COM": PARENT, "CHILD.COM": CHILD})
    run.machine.type("C:{ENTER}")
    run_command(run, "T")
    parent, child = run.psps
    assert not run.carry(0)
    assert run.words(1, 0x2050)[0] == child                  # 62h in the child
    assert run.words(1, 0x2020)[0] == 0x1111                 # back after the EXEC ...
    assert run.words(1, 0x2032) == run.words(1, 0x2030)      # ... on the same stack
    assert run.words(2, 0x2010) == [0x002A, 0]               # normal end, code 2Ah; read once
    assert run.results(10, 0x2400) == b"\x08 ONE TWO\r"      # the child's command tail
    child_psp = run.results(0x80, 0x2500)
    assert child_psp[:2] == b"\xcd\x20"
    assert struct.unpack_from("<H", child_psp, 0x16)[0] == parent
    env = run.results(0x100, 0x2600)
    assert b"COMSPEC=" in env and b"\0\0\x01\0C:\\CHILD.COM\0" in env
    assert child_psp[0x5C:0x68] == b"\x00" + b" " * 11      # FCBs from the block, not the tail
    assert [name for name, _code in run.machine.dos.shell.exit_codes] == ["C:\\T.COM"]


def test_int22_the_terminate_address_in_the_psp_is_where_the_parent_resumes(tmp_path):
    parent = PARENT.replace('.ascii " ONE TWO', '.ascii "*ONE TWO')
    run = machine_with(tmp_path, {"T.COM": parent, "CHILD.COM": CHILD})
    run.machine.type("C:{ENTER}")
    run_command(run, "T")
    assert run.words(2, 0x2020) == [0, 0x2222]               # it landed at the address it set


def test_exec_overlay_loads_and_relocates_without_running(tmp_path):
    # an MZ overlay: MOV AX,seg (relocated) ; RETF
    image = bytes([0xB8, 0x00, 0x00, 0xCB])
    overlay = mz_file(image, relocations=[(0, 1)])
    source = f"""
    mov ah, 0x4a
    mov bx, 0x300
    push cs
    pop es
    int 0x21
    mov ah, 0x48
    mov bx, 0x10
    {dos_call(0)}
    mov [0x2f00], ax
    mov [0x2f02], ax
    mov word ptr [0x2f10], 0
    mov [0x2f12], ax
    mov bx, 0x2f00
    mov dx, ovl
    mov ax, 0x4b03
    {dos_call(1)}
    push cs
    pop ds
    lcall [0x2f10]
    mov [0x2040], ax
    mov ah, 0x48
    mov bx, 0x10
    int 0x21
    mov [0x2f00], ax
    mov [0x2f20], ax
    mov bx, 0x2f00
    mov dx, raw
    mov ax, 0x4b03
    {dos_call(2)}
    {END_OF_PROGRAM}
ovl: .asciz "OVL.EXE"
raw: .asciz "RAW.BIN"
"""
    run = run_program(tmp_path, source, files={"OVL.EXE": overlay, "RAW.BIN": b"raw bytes"})
    assert not run.carry(1) and not run.carry(2)
    segment = run.ax(0)
    assert run.words(1, 0x2040)[0] == segment                # relocated by the factor, then called
    raw_segment = run.words(1, 0x2F20)[0]
    assert run.machine.memory.read(raw_segment << 4, 9) == b"raw bytes"
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\T.COM", 0)


def mz_file(image: bytes, relocations: list[tuple[int, int]]) -> bytes:
    header_size = 0x20
    header = bytearray(header_size)
    total = header_size + len(image)
    struct.pack_into("<2s13H", header, 0, b"MZ", total % 512, -(-total // 512), len(relocations),
                     header_size // 16, 0, 0xFFFF, 0, 0x100, 0, 0, 0, 0x1C, 0)
    for i, (seg, off) in enumerate(relocations):
        assert 0x1C + 4 * i + 4 <= header_size
        struct.pack_into("<HH", header, 0x1C + 4 * i, off, seg)
    return bytes(header) + image


def test_psp_fields_and_the_command_tail(tmp_path):
    source = f"""
    mov [0x2000], ax
    mov si, 0
    mov di, 0x2100
    mov cx, 0x100
    cld
    rep movsb
    push ds
    mov ds, [0x2c]
    xor si, si
    mov di, 0x2300
    mov cx, 0x100
    rep movsb
    pop ds
    mov ah, 0x51
    int 0x21
    mov [0x2002], bx
    {END_OF_PROGRAM}
"""
    run = run_program(tmp_path, source, tail=" c:ONE.TXT q:TWO")
    m = run.machine
    psp = run.results(0x100, 0x2100)
    assert run.words(1, 0x2002)[0] == run.psp
    assert run.results(2) == b"\x00\xff"                     # AL: drive of FCB 1 valid, AH: Q: not
    assert psp[0:2] == b"\xcd\x20"
    assert struct.unpack_from("<H", psp, 0x02)[0] == 0xA000  # a .COM gets all memory
    assert psp[5] == 0x9A                                    # CALL FAR for CP/M
    assert struct.unpack_from("<HH", psp, 0x0A) == m.rom.address("shell")[::-1]
    assert struct.unpack_from("<H", psp, 0x16)[0] == m.dos.shell.psp
    assert psp[0x18:0x1D] == b"\x01\x01\x01\x00\x02" and psp[0x1D:0x2C] == b"\xff" * 15
    assert struct.unpack_from("<HHH", psp, 0x32) == (20, 0x18, run.psp)
    assert psp[0x50:0x53] == b"\xcd\x21\xcb"
    assert psp[0x5C:0x68] == b"\x03ONE     TXT" and psp[0x6C:0x78] == b"\x11TWO        "
    assert psp[0x80] == 16 and psp[0x81:0x92] == b" c:ONE.TXT q:TWO\r"
    env = run.results(0x100, 0x2300)
    assert env.startswith(b"COMSPEC=") and b"\0\0\x01\0C:\\T.COM\0" in env


def test_keep_process_31h_leaves_its_memory_and_vector(tmp_path):
    tsr = """
    mov ax, 0x2560
    mov dx, handler
    int 0x21
    mov ax, 0x3105
    mov dx, 0x20
    int 0x21
handler:
    mov ax, 0x1234
    iret
"""
    use = f"""
    xor ax, ax
    int 0x60
    mov [0x2000], ax
    {END_OF_PROGRAM}
"""
    run = machine_with(tmp_path, {"TSR.COM": tsr, "USE.COM": use})
    m = run.machine
    m.type("C:{ENTER}")
    run_command(run, "TSR")
    resident = run.psps[0]
    assert m.dos.shell.exit_codes[-1] == ("C:\\TSR.COM", 5)
    assert m.dos.shell.termination == 0x0305                # type 3 (resident), as AH=4Dh told the shell
    blocks = {seg: (owner, size) for seg, _k, owner, size in mcb_chain(m.memory)}
    assert blocks[resident] == (resident, 0x20)
    run_command(run, "USE")
    assert run.words(1, psp=run.psps[1]) == [0x1234]        # the resident code answered INT 60h


# An INT 24h handler: counts its calls (2010h), keeps AX of each (2062h on), the last
# DI (2014h), the device header's attribute (201Ah), the caller's AX from the stack
# (201Ch), and answers from the table at "answers", one entry per call.
INT24_HANDLER = """
handler:
    push bp
    mov bp, sp
    mov bp, [bp+8]
    mov cs:[0x201c], bp
    pop bp
    push bx
    inc word ptr cs:[0x2010]
    mov bx, cs:[0x2010]
    shl bx, 1
    mov cs:[bx+0x2060], ax
    mov cs:[0x2012], ax
    mov cs:[0x2014], di
    push ds
    push si
    mov ds, bp
    mov si, [si+4]
    mov cs:[0x201a], si
    pop si
    pop ds
    push si
    mov bx, cs:[0x2010]
    mov si, answers
    add si, bx
    dec si
    mov al, cs:[si]
    pop si
    pop bx
    iret
"""


def int24_program(call: str, answers: list[int], path: str = "A:X.TXT") -> str:
    return f"""
    mov ax, 0x2524
    mov dx, handler
    int 0x21
    mov dx, fname
    {call}
    {dos_call(0)}
    mov word ptr [0x2040], 0x4444
    {END_OF_PROGRAM}
{INT24_HANDLER}
answers: .byte {", ".join(str(a) for a in answers)}
fname: .asciz "{path}"
"""


OPEN = "mov ax, 0x3d00"


def test_int24_program_handler_sees_dos_registers_and_fail_fails_the_call(tmp_path):
    run = run_program(tmp_path, int24_program(OPEN, [3]))
    assert run.words(1, 0x2010) == [1]
    assert run.words(1, 0x2012)[0] == 0x1C00                 # AH: read, directory, fail+retry; AL: A:
    assert run.words(1, 0x2014)[0] & 0xFF == 0x02            # drive not ready
    assert run.words(1, 0x201A)[0] & 0x8000 == 0             # BP:SI -> a block device header
    assert run.words(1, 0x201C)[0] == 0x3D00                 # the caller's AX on the stack
    assert run.carry(0) and run.ax(0) == 0x53                # fail on INT 24h
    assert run.words(1, 0x2040) == [0x4444]


def test_int24_retry_repeats_the_call_and_ignore_becomes_fail_where_not_allowed(tmp_path):
    run = run_program(tmp_path, int24_program(OPEN, [1, 1, 0]))
    assert run.words(1, 0x2010) == [3]                       # asked again after each retry
    assert run.carry(0) and run.ax(0) == 0x53


def test_int24_abort_ends_the_program_with_type_2(tmp_path):
    run = run_program(tmp_path, int24_program(OPEN, [2]))
    assert run.words(1, 0x2010) == [1]
    assert run.words(1, 0x2040) == [0]                       # nothing after the call ran
    assert run.machine.dos.shell.termination == 0x0200       # type 2, as AH=4Dh told the shell


def test_int24_handler_may_return_to_the_program_itself(tmp_path):
    source = f"""
    mov ax, 0x2524
    mov dx, handler
    int 0x21
    mov ax, 0x3d00
    mov dx, fname
    mov bx, 0x5555
    int 0x21
    mov [0x2002], bx
    mov ah, 0x30
    int 0x21
    mov [0x2004], ax
    mov ax, 0x3d00
    mov dx, fname
    int 0x21
    {END_OF_PROGRAM}
handler:
    inc word ptr cs:[0x2000]
    add sp, 6
    pop ax
    pop bx
    pop cx
    pop dx
    pop si
    pop di
    pop bp
    pop ds
    pop es
    iret
fname: .asciz "B:NOWHERE.TXT"
"""
    run = run_program(tmp_path, source)
    assert run.words(3) == [2, 0x5555, 0x1E03]               # registers back, DOS usable, asked twice


def test_write_protected_disk_asks_int24_and_ignore_is_offered_for_data(tmp_path):
    disk = FloppyImage(format_image("360K"))
    with disk.filesystem.create(["DATA.TXT"]) as f:
        f.write(b"old")
    source = f"""
    mov ax, 0x2524
    mov dx, handler
    int 0x21
    mov ax, 0x3d01
    mov dx, fname
    int 0x21
    mov [0x2030], ax
    mov ah, 0x07
    int 0x21
    mov ah, 0x40
    mov bx, [0x2030]
    mov cx, 3
    mov dx, fname
    {dos_call(0)}
    mov ah, 0x3c
    xor cx, cx
    mov dx, other
    {dos_call(1)}
    {END_OF_PROGRAM}
{INT24_HANDLER}
answers: .byte 0, 0
fname: .asciz "A:DATA.TXT"
other: .asciz "A:NEW.TXT"
"""
    run = machine_with(tmp_path, {"T.COM": source}, mounts={"A": disk})
    m = run.machine
    m.type("C:{ENTER}T{ENTER}")
    m.run(3)
    disk.filesystem.read_only = True                         # the tab goes on while it waits
    disk.read_only = True
    m.type("x")                                              # the key it waits for
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes and mm.dos.shell.at_prompt)
    assert run.words(1, 0x2010) == [2]
    # writing file data: write bit, data area, ignore allowed; creating: directory area
    assert run.words(2, 0x2062) == [0x3F00, 0x1D00]
    assert run.words(1, 0x2014)[0] & 0xFF == 0x00            # write protect
    assert run.ax(0) == 3 and not run.carry(0)               # ignored: as if written
    assert run.carry(1) and run.ax(1) == 0x53                # create: ignore not allowed -> fail
    assert disk.filesystem.read_file(["DATA.TXT"]) == b"old"


def test_default_int24_handler_asks_abort_retry_fail_on_the_screen(tmp_path):
    source = f"""
    mov ax, 0x3d00
    mov dx, fname
    {dos_call(0)}
    {END_OF_PROGRAM}
fname: .asciz "A:X.TXT"
"""
    run = machine_with(tmp_path, {"T.COM": source})
    m = run.machine
    m.type("C:{ENTER}T{ENTER}{WAIT:Abort, Retry, Fail?}R")
    m.run(2)
    assert m.screen_text().count("Not ready reading drive A") == 2
    m.type("F")
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes and mm.dos.shell.at_prompt)
    assert run.carry(0) and run.ax(0) == 0x53


def test_write_protect_error_message_from_the_default_handler(tmp_path):
    disk = FloppyImage(format_image("360K"), read_only=True)
    source = f"""
    mov ah, 0x3c
    xor cx, cx
    mov dx, fname
    {dos_call(0)}
    {END_OF_PROGRAM}
fname: .asciz "A:NEW.TXT"
"""
    run = machine_with(tmp_path, {"T.COM": source}, mounts={"A": disk})
    m = run.machine
    m.type("C:{ENTER}T{ENTER}{WAIT:Write protect error writing drive A}F")
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes and mm.dos.shell.at_prompt)
    assert "Abort, Retry, Fail?F" in m.screen_text()
    assert run.carry(0) and run.ax(0) == 0x53


def test_changing_to_an_empty_drive_at_the_prompt(tmp_path):
    run = machine_with(tmp_path, {})
    m = run.machine
    m.type("A:{ENTER}{WAIT:Not ready reading drive A}A{WAIT:Abort, Retry, Fail?A}")
    m.run(2)
    assert m.screen_text().count("Not ready reading drive A") == 2     # Abort asks again
    m.type("F")
    m.run_until(text="Current drive is no longer valid>")
    m.type("C:{ENTER}")
    m.run_until(condition=lambda mm: mm.screen_text().rstrip().endswith("C:\\>"))


def test_int2f_answers_not_installed_and_call5_reaches_dos(tmp_path):
    source = f"""
    mov ax, 0x1600
    int 0x2f
    mov [0x2000], ax
    mov ax, 0x4300
    int 0x2f
    mov [0x2002], ax
    mov cl, 9
    mov dx, message
    call 5
    mov [0x2004], al
    mov cl, 0x30
    mov al, 0x77
    call 5
    mov [0x2005], al
    {END_OF_PROGRAM}
message: .ascii "via CP/M$"
"""
    run = run_program(tmp_path, source.replace("call 5", "mov bx, 5\n    call bx"))
    assert run.words(2) == [0x1600, 0x4300]                  # AL unchanged: nothing installed
    assert "via CP/M" in run.screen
    assert run.results(2, 0x2004) == b"$\x00"                # 09h's AL; AL=0 for CL above 24h


def test_int24_handler_may_call_dos_before_answering(tmp_path):
    source = f"""
    mov ax, 0x2524
    mov dx, handler
    int 0x21
    mov ax, 0x3d00
    mov dx, fname
    {dos_call(0)}
    {END_OF_PROGRAM}
handler:
    push ax
    mov ah, 0x30
    int 0x21
    mov cs:[0x2010], ax
    mov ah, 0x02
    mov dl, 0x21
    int 0x21
    pop ax
    mov al, 3
    iret
fname: .asciz "A:X.TXT"
"""
    run = run_program(tmp_path, source)
    assert run.words(1, 0x2010) == [0x1E03]
    assert run.carry(0) and run.ax(0) == 0x53                # the answer still reached DOS


def test_a_program_that_destroys_the_memory_chain_stops_the_machine_as_dos_does(tmp_path):
    source = f"""
    mov ah, 0x4a
    mov bx, 0x100
    push cs
    pop es
    int 0x21
    mov byte ptr [0x1000], 0x41
    {END_OF_PROGRAM}
"""
    from pcemu.errors import MachineError
    with pytest.raises(MachineError, match="Memory allocation error"):
        run_program(tmp_path, source)


def test_terminate_with_int20_and_function_00h_and_psp_switching(tmp_path):
    for ending, folder in (("int 0x20", "a"), ("mov ah, 0\n    int 0x21", "b")):
        source = f"""
    mov ah, 0x51
    int 0x21
    mov [0x2000], bx
    mov ah, 0x50
    mov bx, 0x1234
    int 0x21
    mov ah, 0x62
    int 0x21
    mov [0x2002], bx
    mov ah, 0x50
    mov bx, [0x2000]
    int 0x21
    {ending}
    mov word ptr [0x2004], 0xbad
"""
        run = run_program(tmp_path / folder, source) if (tmp_path / folder).mkdir() is None else None
        assert run.words(3) == [run.psp, 0x1234, 0]
        assert run.machine.dos.shell.exit_codes[-1] == ("C:\\T.COM", 0)
