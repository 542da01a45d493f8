"""FCB file services (INT 21h 0Fh-17h, 21h-24h, 27h, 28h) with DOS 3.30 semantics,
checked with small programs assembled here."""
from __future__ import annotations

import struct

from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import END_OF_PROGRAM, RESULTS, run_program


def fcb(label: str, name: str, drive: int = 0, attributes: int | None = None) -> str:
    """Assembler data for an FCB (extended when ``attributes`` is given), 37 bytes."""
    base, _, ext = name.partition(".")
    packed = base.ljust(8) + ext.ljust(3)
    prefix = "" if attributes is None else f".byte 0xff, 0, 0, 0, 0, 0, {attributes:#x}\n"
    return f"""{label}:
{prefix}    .byte {drive}
    .ascii "{packed}"
    .fill 25, 1, 0
"""


def call(function: int, fcb_label: str, slot: int) -> str:
    """An FCB call; AL goes to result byte ``slot``."""
    return f"""
    mov ah, {function:#x}
    mov dx, {fcb_label}
    int 0x21
    mov [{RESULTS + slot:#x}], al
"""


def set_dta(offset: int) -> str:
    return f"""
    mov ah, 0x1a
    mov dx, {offset:#x}
    int 0x21
"""


def fill(offset: int, value: int, count: int) -> str:
    return f"""
    mov di, {offset:#x}
    mov al, {value:#x}
    mov cx, {count}
    cld
    rep stosb
"""


def copy_fcb(label: str, to: int) -> str:
    return f"""
    mov si, {label}
    mov di, {to:#x}
    mov cx, 44
    cld
    rep movsb
"""


def al(run, slot: int) -> int:
    return run.results(1, RESULTS + slot)[0]


def test_create_sequential_write_then_read_back(tmp_path):
    source = f"""
    {set_dta(0x3000)}
    {call(0x16, "f", 0)}
    mov word ptr [f + 0x0e], 16
    mov byte ptr [f + 0x20], 0
    {fill(0x3000, ord('A'), 16)}
    {call(0x15, "f", 1)}
    {fill(0x3000, ord('B'), 16)}
    {call(0x15, "f", 2)}
    {fill(0x3000, ord('C'), 16)}
    {call(0x15, "f", 3)}
    {copy_fcb("f", 0x2100)}
    {call(0x10, "f", 4)}
    {call(0x0f, "f", 5)}
    {copy_fcb("f", 0x2140)}
    mov word ptr [f + 0x0e], 16
    mov byte ptr [f + 0x20], 1
    {set_dta(0x3100)}
    {call(0x14, "f", 6)}
    {set_dta(0x3110)}
    {call(0x14, "f", 7)}
    {set_dta(0x3120)}
    {call(0x14, "f", 8)}
    {copy_fcb("f", 0x2180)}
    {call(0x10, "f", 9)}
    {END_OF_PROGRAM}
{fcb("f", "SEQ.DAT")}
"""
    run = run_program(tmp_path, source)
    assert [al(run, i) for i in range(10)] == [0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    assert (run.folder / "SEQ.DAT").read_bytes() == b"A" * 16 + b"B" * 16 + b"C" * 16
    after_writes = run.results(37, 0x2100)
    assert after_writes[0x20] == 3 and struct.unpack_from("<H", after_writes, 0x0C)[0] == 0
    assert struct.unpack_from("<I", after_writes, 0x10)[0] == 48
    opened = run.results(37, 0x2140)
    assert opened[0] == 3                                    # the default drive, filled in: C:
    assert struct.unpack_from("<HHI", opened, 0x0C) == (0, 128, 48)   # block 0, 128-byte records
    assert run.results(32, 0x3100) == b"B" * 16 + b"C" * 16  # records 1 and 2
    assert run.results(37, 0x2180)[0x20] == 3                # the failed read did not advance


def test_partial_records_are_padded_with_zeros(tmp_path):
    source = f"""
    {set_dta(0x3000)}
    {fill(0x3000, 0xee, 64)}
    {call(0x0f, "f", 0)}
    mov word ptr [f + 0x0e], 16
    mov byte ptr [f + 0x20], 0
    {call(0x14, "f", 1)}
    {set_dta(0x3010)}
    {call(0x14, "f", 2)}
    {set_dta(0x3020)}
    {call(0x14, "f", 3)}
    {call(0x0f, "missing", 4)}
    {END_OF_PROGRAM}
{fcb("f", "PART.DAT")}
{fcb("missing", "NOSUCH.DAT")}
"""
    data = bytes(range(1, 21))
    run = run_program(tmp_path, source, files={"PART.DAT": data})
    assert [al(run, i) for i in range(5)] == [0, 0, 3, 1, 0xFF]
    assert run.results(16, 0x3000) == data[:16]
    assert run.results(16, 0x3010) == data[16:] + bytes(12)
    assert run.results(16, 0x3020) == b"\xee" * 16            # end of file: nothing transferred


def test_random_records_file_size_and_set_random_record(tmp_path):
    source = f"""
    {set_dta(0x3000)}
    {call(0x0f, "f", 0)}
    mov word ptr [f + 0x0e], 10
    mov word ptr [f + 0x21], 3
    {call(0x21, "f", 1)}
    mov ax, [f + 0x0c]
    mov [0x2040], ax
    mov al, [f + 0x20]
    mov [0x2042], al
    {fill(0x3000, ord('x'), 10)}
    mov word ptr [f + 0x21], 6
    {call(0x22, "f", 2)}
    mov word ptr [f + 0x0c], 2
    mov byte ptr [f + 0x20], 5
    mov ah, 0x24
    mov dx, f
    int 0x21
    mov ax, [f + 0x21]
    mov [0x2044], ax
    mov ax, [f + 0x23]
    mov [0x2046], ax
    {call(0x10, "f", 3)}
    mov word ptr [g + 0x0e], 7
    {call(0x23, "g", 4)}
    mov ax, [g + 0x21]
    mov [0x2048], ax
    {call(0x23, "missing", 5)}
    {END_OF_PROGRAM}
{fcb("f", "RAND.DAT")}
{fcb("g", "RAND.DAT")}
{fcb("missing", "GONE.DAT")}
"""
    data = b"".join(bytes([ord("a") + i]) * 10 for i in range(5))     # 5 records of 10
    run = run_program(tmp_path, source, files={"RAND.DAT": data})
    assert [al(run, i) for i in range(6)] == [0, 0, 0, 0, 0, 0xFF]
    assert run.results(10, 0x3000) == b"x" * 10
    assert run.words(1, 0x2040)[0] == 0 and run.results(1, 0x2042)[0] == 3   # set from the random record
    written = (run.folder / "RAND.DAT").read_bytes()
    assert len(written) == 70 and written[60:] == b"x" * 10 and written[:50] == data
    assert run.words(2, 0x2044) == [2 * 128 + 5, 0]          # block 2, record 5
    assert run.words(1, 0x2048)[0] == 10                     # 70 bytes in records of 7


def test_random_block_transfers_and_truncation(tmp_path):
    source = f"""
    {set_dta(0x3000)}
    {call(0x16, "f", 0)}
    mov word ptr [f + 0x0e], 4
    mov word ptr [f + 0x21], 0
    mov word ptr [f + 0x23], 0
    mov si, text
    mov di, 0x3000
    mov cx, 20
    cld
    rep movsb
    mov ah, 0x28
    mov cx, 5
    mov dx, f
    int 0x21
    mov [0x2000], al
    mov [0x2040], cx
    mov ax, [f + 0x21]
    mov [0x2042], ax
    mov word ptr [f + 0x21], 1
    {set_dta(0x3100)}
    mov ah, 0x27
    mov cx, 10
    mov dx, f
    int 0x21
    mov [0x2001], al
    mov [0x2044], cx
    mov ax, [f + 0x21]
    mov [0x2046], ax
    mov word ptr [f + 0x21], 3
    mov ah, 0x28
    xor cx, cx
    mov dx, f
    int 0x21
    mov [0x2002], al
    {set_dta(0xfff8)}
    mov word ptr [f + 0x21], 0
    mov ah, 0x27
    mov cx, 4
    mov dx, f
    int 0x21
    mov [0x2003], al
    {call(0x10, "f", 4)}
    {END_OF_PROGRAM}
text: .ascii "0123456789ABCDEFGHIJ"
{fcb("f", "BLOCK.DAT")}
"""
    run = run_program(tmp_path, source)
    assert [al(run, i) for i in range(5)] == [0, 1, 0, 2, 0]
    assert run.words(2, 0x2040) == [5, 5]                     # five records, random record moved on
    assert run.words(2, 0x2044) == [4, 5]                     # only four were left after record 1
    assert run.results(16, 0x3100) == b"456789ABCDEFGHIJ"
    assert (run.folder / "BLOCK.DAT").read_bytes() == b"0123456789AB"   # cut at record 3


def test_find_delete_and_rename_with_wildcards(tmp_path):
    source = f"""
    {set_dta(0x3000)}
    {call(0x11, "txt", 0)}
    {copy_fcb_from_dta(0x2100)}
    {call(0x12, "txt", 1)}
    {copy_fcb_from_dta(0x2130)}
    {call(0x12, "txt", 2)}
    {call(0x13, "bak", 3)}
    {call(0x13, "bak", 4)}
    {call(0x17, "ren", 5)}
    {call(0x17, "clash", 6)}
    {END_OF_PROGRAM}
{fcb("txt", "????????.TXT")}
{fcb("bak", "*.BAK".replace("*", "????????"))}
ren:
    .byte 0
    .ascii "????????TXT"
    .fill 5, 1, 0
    .ascii "????????OLD"
    .fill 9, 1, 0
clash:
    .byte 0
    .ascii "KEEP    DOC"
    .fill 5, 1, 0
    .ascii "ONE     OLD"
    .fill 9, 1, 0
"""
    files = {"ONE.TXT": b"1", "TWO.TXT": b"22", "A.BAK": b"a", "B.BAK": b"b", "KEEP.DOC": b"k"}
    run = run_program(tmp_path, source, files=files)
    assert [al(run, i) for i in range(7)] == [0, 0, 0xFF, 0, 0xFF, 0, 0xFF]
    first, second = run.results(33, 0x2100), run.results(33, 0x2130)
    assert first[0] == 3 and first[1:12] == b"ONE     TXT" and struct.unpack_from("<I", first, 29)[0] == 1
    assert second[1:12] == b"TWO     TXT" and struct.unpack_from("<I", second, 29)[0] == 2
    names = sorted(p.name for p in run.folder.iterdir())
    assert names == ["KEEP.DOC", "ONE.OLD", "T.COM", "TWO.OLD"]


def copy_fcb_from_dta(to: int) -> str:
    return f"""
    mov si, 0x3000
    mov di, {to:#x}
    mov cx, 33
    cld
    rep movsb
"""


def test_extended_fcbs_reach_hidden_files_and_the_label(tmp_path):
    disk = FloppyImage(format_image("360K", label="FCBDISK"))
    fs = disk.filesystem
    with fs.create(["SECRET.TXT"], attr=0x02) as f:
        f.write(b"hidden")
    with fs.create(["PLAIN.TXT"]) as f:
        f.write(b"plain")
    source = f"""
    {set_dta(0x3000)}
    {call(0x11, "normal", 0)}
    {copy_fcb_from_dta(0x2100)}
    {call(0x12, "normal", 1)}
    {call(0x11, "hidden", 2)}
    mov si, 0x3000
    mov di, 0x2140
    mov cx, 40
    cld
    rep movsb
    {call(0x12, "hidden", 3)}
    {call(0x11, "label", 4)}
    mov si, 0x3000
    mov di, 0x2180
    mov cx, 40
    cld
    rep movsb
    {call(0x16, "newhidden", 5)}
    {call(0x10, "newhidden", 6)}
    {call(0x0f, "plainopen", 7)}
    {call(0x0f, "hiddenopen", 8)}
    {END_OF_PROGRAM}
{fcb("normal", "????????.TXT", drive=1)}
{fcb("hidden", "????????.TXT", drive=1, attributes=0x02)}
{fcb("label", "????????.???", drive=1, attributes=0x08)}
{fcb("newhidden", "MADE.HID", drive=1, attributes=0x02)}
{fcb("plainopen", "SECRET.TXT", drive=1)}
{fcb("hiddenopen", "SECRET.TXT", drive=1, attributes=0x02)}
"""
    run = run_program(tmp_path, source, mounts={"A": disk})
    assert [al(run, i) for i in range(9)] == [0, 0xFF, 0, 0, 0, 0, 0, 0xFF, 0]
    assert run.results(12, 0x2100)[1:12] == b"PLAIN   TXT"
    extended = run.results(40, 0x2140)
    assert extended[0] == 0xFF and extended[6] == 0x02 and extended[7] == 1
    assert extended[8:19] == b"SECRET  TXT" and extended[19] == 0x22      # hidden + archive
    assert run.results(40, 0x2180)[8:19] == b"FCBDISK    "
    assert fs.stat(["MADE.HID"]).attr & 0x02


def test_parse_filename_fills_an_fcb_that_then_opens(tmp_path):
    source = f"""
    mov ax, 0x2901
    mov si, text
    push ds
    pop es
    mov di, 0x2100
    int 0x21
    mov [0x2000], al
    mov [0x2002], si
    {call(0x0f, "0x2100", 1)}
    mov ax, [0x2110]
    mov [0x2004], ax
    mov ax, 0x2900
    mov si, wild
    mov di, 0x2140
    int 0x21
    mov [0x2006], al
    mov ax, 0x2900
    mov si, baddrive
    mov di, 0x2180
    int 0x21
    mov [0x2007], al
    mov si, 0x5c
    mov di, 0x21c0
    mov cx, 32
    cld
    rep movsb
    {END_OF_PROGRAM}
text: .asciz "  c:data.txt rest"
wild: .asciz "*.B?K"
baddrive: .asciz "Q:X"
"""
    run = run_program(tmp_path, source, files={"DATA.TXT": b"0123456789"}, tail=" A:FIRST.ONE SECOND")
    assert run.results(1)[0] == 0 and al(run, 1) == 0
    parsed = run.results(12, 0x2100)
    assert parsed == b"\x03DATA    TXT"
    assert run.words(1, 0x2004)[0] == 10                     # file size from the open
    assert run.machine.memory.read_far(run.psp, run.words(1, 0x2002)[0], 5) == b" rest"
    assert run.results(1, 0x2006)[0] == 1                    # wildcards
    assert run.results(12, 0x2140) == b"\x00????????B?K"
    assert run.results(1, 0x2007)[0] == 0xFF                 # no drive Q:
    assert run.results(12, 0x21C0) == b"\x01FIRST   ONE"    # PSP:5Ch from the command tail
    assert run.results(12, 0x21D0) == b"\x00SECOND     "    # PSP:6Ch


def test_fcb_call_on_an_empty_drive_fails_through_int24_with_al_ff(tmp_path):
    source = f"""
    mov ax, 0x2524
    mov dx, handler
    int 0x21
    {call(0x0f, "f", 0)}
    {call(0x11, "f", 1)}
    {END_OF_PROGRAM}
handler:
    inc word ptr cs:[0x2010]
    mov cs:[0x2012], di
    mov al, 3
    iret
{fcb("f", "ANY.TXT", drive=2)}
"""
    run = run_program(tmp_path, source)
    assert [al(run, i) for i in range(2)] == [0xFF, 0xFF]
    assert run.words(2, 0x2010) == [2, 0x02]                 # asked twice; drive not ready
