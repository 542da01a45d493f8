"""DOS file handles, FINDFIRST/FINDNEXT, names, attributes, directories, drives and
file times, checked with small programs assembled here and run on the machine."""
from __future__ import annotations

import struct

import pytest

from pcemu.storage.drive import pack_date, pack_time
from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import END_OF_PROGRAM, RESULTS, dos_call, machine_with, run_command, run_program


def fat_disk(label: str | None = "TESTDISK", read_only: bool = False) -> FloppyImage:
    return FloppyImage(format_image("360K", label=label), read_only=read_only)


def test_create_write_seek_read_and_truncate(tmp_path):
    source = f"""
    mov ah, 0x3c
    xor cx, cx
    mov dx, fname
    {dos_call(0)}
    mov bx, ax
    mov ah, 0x40
    mov cx, 10
    mov dx, digits
    {dos_call(1)}
    mov ax, 0x4200
    xor cx, cx
    mov dx, 3
    {dos_call(2)}
    mov ah, 0x3f
    mov cx, 4
    mov dx, 0x2100 + 0x40
    {dos_call(3)}
    mov ax, 0x4202
    mov cx, 0xffff
    mov dx, 0xfffe
    {dos_call(4)}
    mov [0x2000 + 2 * 10], dx
    mov ah, 0x3f
    mov cx, 5
    mov dx, 0x2100 + 0x50
    {dos_call(5)}
    mov ax, 0x4201
    xor cx, cx
    xor dx, dx
    {dos_call(6)}
    mov ax, 0x4200
    xor cx, cx
    mov dx, 4
    int 0x21
    mov ah, 0x40
    xor cx, cx
    {dos_call(7)}
    mov ah, 0x3e
    {dos_call(8)}
    mov ah, 0x3e
    {dos_call(9)}
    {END_OF_PROGRAM}
fname: .asciz "FILE.DAT"
digits: .ascii "0123456789"
"""
    run = run_program(tmp_path, source)
    assert not any(run.carry(i) for i in range(9))
    assert run.ax(0) >= 5                                   # handles 0-4 are the standard ones
    assert run.ax(1) == 10                                  # bytes written
    assert run.ax(2) == 3                                   # new position
    assert run.results(4, RESULTS + 0x140) == b"3456"
    assert (run.ax(4), run.ax(10)) == (8, 0)                # 2 before the end, DX:AX
    assert run.ax(5) == 2 and run.results(2, RESULTS + 0x150) == b"89"
    assert run.ax(6) == 10                                  # the read stopped at the end
    assert run.ax(7) == 0                                   # a write of 0 bytes ...
    assert (run.folder / "FILE.DAT").read_bytes() == b"0123"    # ... cuts the file there
    assert run.carry(9) and run.ax(9) == 6                  # closing twice: invalid handle


def test_open_modes_and_errors(tmp_path):
    source = f"""
    mov ax, 0x3d00
    mov dx, missing
    {dos_call(0)}
    mov ax, 0x3d07
    mov dx, present
    {dos_call(1)}
    mov ax, 0x3d00
    mov dx, present
    {dos_call(2)}
    mov bx, ax
    mov ah, 0x40
    mov cx, 1
    mov dx, present
    {dos_call(3)}
    mov ax, 0x3d01
    mov dx, present
    {dos_call(4)}
    mov bx, ax
    mov ah, 0x3f
    mov cx, 1
    mov dx, 0x2180
    {dos_call(5)}
    mov ah, 0x5b
    xor cx, cx
    mov dx, present
    {dos_call(6)}
    mov ax, 0x3d00
    mov dx, nodir
    {dos_call(7)}
    {END_OF_PROGRAM}
missing: .asciz "NOFILE.TXT"
present: .asciz "HERE.TXT"
nodir: .asciz "NODIR\\\\X.TXT"
"""
    run = run_program(tmp_path, source, files={"HERE.TXT": b"data"})
    assert run.carry(0) and run.ax(0) == 2                  # file not found
    assert run.carry(1) and run.ax(1) == 0x0C               # invalid access code
    assert not run.carry(2)
    assert run.carry(3) and run.ax(3) == 5                  # writing a file opened for reading
    assert not run.carry(4)
    assert run.carry(5) and run.ax(5) == 5                  # reading one opened for writing
    assert run.carry(6) and run.ax(6) == 0x50               # create-new of an existing file
    assert run.carry(7) and run.ax(7) == 3                  # path not found
    assert (run.folder / "HERE.TXT").read_bytes() == b"data"


def test_duplicated_handles_share_the_file_position(tmp_path):
    source = f"""
    mov ah, 0x3c
    xor cx, cx
    mov dx, fname
    {dos_call(0)}
    mov bx, ax
    mov ah, 0x45
    {dos_call(1)}
    mov si, ax
    mov ah, 0x40
    mov bx, si
    mov cx, 2
    mov dx, text
    {dos_call(2)}
    mov ah, 0x40
    mov bx, [0x2000]
    mov cx, 2
    mov dx, text + 2
    {dos_call(3)}
    mov ah, 0x46
    mov bx, [0x2000]
    mov cx, 1
    {dos_call(4)}
    mov ah, 0x40
    mov bx, 1
    mov cx, 2
    mov dx, text + 4
    {dos_call(5)}
    mov ah, 0x3e
    mov bx, [0x2000]
    int 0x21
    mov ah, 0x40
    mov bx, si
    mov cx, 2
    mov dx, text + 6
    {dos_call(6)}
    mov ah, 0x3e
    mov bx, si
    int 0x21
    mov ah, 0x45
    mov bx, 99
    {dos_call(7)}
    {END_OF_PROGRAM}
fname: .asciz "DUP.TXT"
text: .ascii "ABCDEFGH"
"""
    run = run_program(tmp_path, source)
    assert run.ax(1) not in (run.ax(0), 0, 1, 2, 3, 4)
    assert not any(run.carry(i) for i in range(7))
    # handle 1 (standard output) was redirected into the file, then the program ended
    assert (run.folder / "DUP.TXT").read_bytes() == b"ABCDEFGH"
    assert run.carry(7) and run.ax(7) == 6
    assert "EF" not in run.screen                              # nothing reached the console


def find_loop(tag: str, pattern_label: str, attributes: int, out: int) -> str:
    """FINDFIRST/FINDNEXT over one pattern, copying each found name (NUL-ended) to ``out``;
    the word at ``out - 2`` gets the end of the list, ``out - 4`` the last error."""
    return f"""
    mov di, {out:#x}
    mov ah, 0x4e
    mov cx, {attributes:#x}
    mov dx, {pattern_label}
    int 0x21
    jc done_{tag}
next_{tag}:
    mov si, 0x301e
copy_{tag}:
    lodsb
    stosb
    or al, al
    jnz copy_{tag}
    mov ah, 0x4f
    int 0x21
    jnc next_{tag}
done_{tag}:
    mov [{out - 4:#x}], ax
    mov [{out - 2:#x}], di
"""


def found_names(run, out: int) -> list[str]:
    end = run.words(1, out - 2)[0]
    data = run.results(end - out, out)
    return [n.decode() for n in data.split(b"\0") if n]


SEARCHES = [("txt", "*.TXT", 0x00), ("all", "*.*", 0x00), ("dirs", "*.*", 0x10),
            ("hidden", "*.*", 0x06), ("noext", "*", 0x10), ("quest", "?.T?T", 0x00),
            ("label", "*.*", 0x08), ("sub", "SUB\\\\*.*", 0x10), ("none", "*.XYZ", 0x00)]


def test_findfirst_findnext_attributes_and_wildcards(tmp_path):
    disk = fat_disk()
    fs = disk.filesystem
    for name, data in (("A.TXT", b"a"), ("B.TXT", b"bb"), ("C.DOC", b"c"), ("LONGNAME.TXT", b"l"),
                       ("README", b"r"), ("H.TXT", b"h"), ("S.SYS", b"s")):
        with fs.create([name]) as f:
            f.write(data)
    fs.set_attr(["H.TXT"], 0x02)
    fs.set_attr(["S.SYS"], 0x04)
    fs.mkdir(["SUB"])
    with fs.create(["SUB", "IN.TXT"]) as f:
        f.write(b"in")
    loops = "".join(find_loop(tag, f"pat_{tag}", attributes, 0x2400 + 0x100 * i)
                    for i, (tag, _p, attributes) in enumerate(SEARCHES))
    patterns = "".join(f'pat_{tag}: .asciz "A:{pattern}"\n' for tag, pattern, _a in SEARCHES)
    source = f"""
    mov ah, 0x1a
    mov dx, 0x3000
    int 0x21
    {loops}
    {END_OF_PROGRAM}
{patterns}
"""
    run = run_program(tmp_path, source, mounts={"A": disk})
    results = {tag: found_names(run, 0x2400 + 0x100 * i) for i, (tag, _p, _a) in enumerate(SEARCHES)}
    assert results["txt"] == ["A.TXT", "B.TXT", "LONGNAME.TXT"]
    assert results["all"] == ["A.TXT", "B.TXT", "C.DOC", "LONGNAME.TXT", "README"]
    assert results["dirs"] == results["all"] + ["SUB"]
    assert results["hidden"] == ["A.TXT", "B.TXT", "C.DOC", "LONGNAME.TXT", "README", "H.TXT", "S.SYS"]
    assert results["noext"] == ["README", "SUB"]             # '*' alone: names without extension
    assert results["quest"] == ["A.TXT", "B.TXT"]          # "?" matches the padding too
    assert results["label"] == ["TESTDISK"]
    assert results["sub"] == [".", "..", "IN.TXT"]
    assert results["none"] == []
    assert run.words(1, 0x2400 + 0x100 * 8 - 4)[0] == 0x12    # no more files


def test_findfirst_fills_the_dta_like_dos(tmp_path):
    disk = fat_disk()
    with disk.filesystem.create(["DATA.BIN"]) as f:
        f.write(bytes(1234))
        f.set_datetime(pack_date(1988, 3, 14), pack_time(15, 9, 26))
    source = f"""
    mov ah, 0x1a
    mov dx, 0x3000
    int 0x21
    mov ah, 0x4e
    xor cx, cx
    mov dx, pattern
    {dos_call(0)}
    mov ah, 0x2f
    int 0x21
    mov [0x2002], es
    mov [0x2004], bx
    {END_OF_PROGRAM}
pattern: .asciz "A:\\\\D*.BIN"
"""
    run = run_program(tmp_path, source, mounts={"A": disk})
    assert not run.carry(0) and run.ax(0) == 0
    assert run.words(2, 0x2002) == [run.psp, 0x3000]           # 2Fh gives the DTA back
    dta = run.results(43, 0x3000)
    assert dta[0x15] == 0x20                                   # archive
    assert struct.unpack_from("<HHI", dta, 0x16) == (pack_time(15, 9, 26), pack_date(1988, 3, 14), 1234)
    assert dta[0x1E:0x1E + 9] == b"DATA.BIN\0"


def test_rename_delete_and_attributes(tmp_path):
    source = f"""
    mov ah, 0x56
    mov dx, old
    push ds
    pop es
    mov di, new
    {dos_call(0)}
    mov ah, 0x56
    mov dx, new
    mov di, other
    {dos_call(1)}
    mov ah, 0x56
    mov dx, new
    mov di, moved
    {dos_call(2)}
    mov ax, 0x4300
    mov dx, other
    {dos_call(3)}
    mov [0x2000 + 2 * 20], cx
    mov ax, 0x4301
    mov cx, 0x21
    mov dx, other
    {dos_call(4)}
    mov ax, 0x4300
    mov dx, other
    int 0x21
    mov [0x2000 + 2 * 21], cx
    mov ah, 0x41
    mov dx, other
    {dos_call(5)}
    mov ax, 0x3d02
    mov dx, other
    {dos_call(6)}
    mov ax, 0x4301
    mov cx, 0x20
    mov dx, other
    int 0x21
    mov ah, 0x41
    mov dx, other
    {dos_call(7)}
    mov ah, 0x41
    mov dx, other
    {dos_call(8)}
    mov ax, 0x4300
    mov dx, subdir
    int 0x21
    mov [0x2000 + 2 * 22], cx
    {END_OF_PROGRAM}
old: .asciz "OLD.TXT"
new: .asciz "NEW.TXT"
other: .asciz "OTHER.TXT"
moved: .asciz "SUB\\\\MOVED.TXT"
subdir: .asciz "SUB"
"""
    run = run_program(tmp_path, source, files={"OLD.TXT": b"old", "OTHER.TXT": b"other",
                                                "SUB/KEEP.TXT": b"k"})
    folder = run.folder
    assert not run.carry(0)
    assert run.carry(1) and run.ax(1) == 5                   # the new name exists
    assert not run.carry(2) and (folder / "SUB" / "MOVED.TXT").read_bytes() == b"old"
    assert not (folder / "NEW.TXT").exists() and not (folder / "OLD.TXT").exists()
    assert not run.carry(3) and run.ax(20) & 0x01 == 0
    assert not run.carry(4) and run.ax(21) & 0x01            # now read-only
    assert run.carry(5) and run.ax(5) == 5                   # a read-only file cannot be deleted
    assert run.carry(6) and run.ax(6) == 5                   # ... nor opened for writing
    assert not run.carry(7) and not (folder / "OTHER.TXT").exists()
    assert run.carry(8) and run.ax(8) == 2                   # already gone
    assert run.ax(22) & 0x10                                 # a directory's attribute


def test_directories_and_the_current_directory(tmp_path):
    source = f"""
    mov ah, 0x39
    mov dx, sub
    {dos_call(0)}
    mov ah, 0x39
    mov dx, sub
    {dos_call(1)}
    mov ah, 0x3b
    mov dx, sub
    {dos_call(2)}
    mov ah, 0x47
    xor dl, dl
    mov si, 0x2200
    {dos_call(3)}
    mov ah, 0x3c
    xor cx, cx
    mov dx, inner
    int 0x21
    mov bx, ax
    mov ah, 0x3e
    int 0x21
    mov ah, 0x39
    mov dx, deeper
    {dos_call(4)}
    mov ah, 0x3b
    mov dx, deeper
    int 0x21
    mov ah, 0x47
    mov dl, 3
    mov si, 0x2240
    int 0x21
    mov ah, 0x3a
    mov dx, here
    {dos_call(5)}
    mov ah, 0x3b
    mov dx, up2
    int 0x21
    mov ah, 0x3a
    mov dx, sub
    {dos_call(6)}
    mov ah, 0x3b
    mov dx, nowhere
    {dos_call(7)}
    mov ah, 0x47
    mov dl, 9
    mov si, 0x2280
    {dos_call(8)}
    mov ah, 0x3a
    mov dx, subdeep
    {dos_call(9)}
    mov ah, 0x47
    xor dl, dl
    mov si, 0x22c0
    int 0x21
    {END_OF_PROGRAM}
sub: .asciz "SUB1"
inner: .asciz "INNER.TXT"
deeper: .asciz "DEEP"
here: .asciz "\\\\SUB1\\\\DEEP"
up2: .asciz "..\\\\.."
nowhere: .asciz "\\\\NOWHERE"
subdeep: .asciz "SUB1\\\\DEEP"
"""
    run = run_program(tmp_path, source)
    assert not run.carry(0) and (run.folder / "SUB1").is_dir()
    assert run.carry(1) and run.ax(1) == 5                   # it exists already
    assert not run.carry(2) and not run.carry(3)
    assert run.asciiz(0x2200) == "SUB1"
    assert (run.folder / "SUB1" / "INNER.TXT").exists()      # relative to the current directory
    assert run.asciiz(0x2240) == "SUB1\\DEEP"                 # drive 3 is C:
    assert run.carry(5) and run.ax(5) == 0x10                # not the current directory
    assert run.carry(6) and run.ax(6) == 5                   # not empty
    assert run.carry(7) and run.ax(7) == 3
    assert run.carry(8) and run.ax(8) == 0x0F                # drive I: does not exist
    assert not run.carry(9) and not (run.folder / "SUB1" / "DEEP").exists()
    assert run.asciiz(0x22C0) == ""                           # back at the root


def test_drives_free_space_and_ioctl(tmp_path):
    disk = fat_disk()
    with disk.filesystem.create(["BIG.DAT"]) as f:
        f.write(bytes(50_000))
    source = f"""
    mov ah, 0x19
    int 0x21
    mov [0x2000], al
    mov ah, 0x0e
    mov dl, 0
    int 0x21
    mov [0x2002], al
    mov ah, 0x19
    int 0x21
    mov [0x2004], al
    mov ah, 0x36
    mov dl, 0
    int 0x21
    mov [0x2010], ax
    mov [0x2012], bx
    mov [0x2014], cx
    mov [0x2016], dx
    mov ah, 0x36
    mov dl, 12
    int 0x21
    mov [0x2018], ax
    mov ax, 0x4400
    mov bx, 1
    {dos_call(16)}
    mov [0x2030], dx
    mov ax, 0x3d00
    mov dx, big
    int 0x21
    mov bx, ax
    mov ax, 0x4400
    int 0x21
    mov [0x2032], dx
    mov ax, 0x4406
    int 0x21
    mov [0x2034], al
    mov ax, 0x4202
    xor cx, cx
    xor dx, dx
    int 0x21
    mov ax, 0x4406
    int 0x21
    mov [0x2035], al
    mov ax, 0x4408
    mov bl, 1
    int 0x21
    mov [0x2036], ax
    mov ax, 0x4408
    mov bl, 3
    int 0x21
    mov [0x2038], ax
    mov ah, 0x0e
    mov dl, 2
    int 0x21
    {END_OF_PROGRAM}
big: .asciz "BIG.DAT"
"""
    run = machine_with(tmp_path, {"T.COM": source}, mounts={"A": disk})
    run.machine.type("C:{ENTER}COPY T.COM A:{ENTER}A:{ENTER}")
    run_command(run, "T")
    assert run.results(1)[0] == 0                            # A: is current
    assert run.results(1, 0x2002)[0] >= 3                    # number of drive letters
    per_cluster, sector, free, total = disk.filesystem.free_space()
    assert run.words(4, 0x2010) == [per_cluster, free, sector, total]
    assert run.words(1, 0x2018) == [0xFFFF]                  # no drive L:
    assert run.words(1, 0x2030)[0] & 0x80 and run.words(1, 0x2030)[0] & 0x03   # CON: device, stdin/out
    assert run.words(1, 0x2032)[0] == 0x40                   # a file on drive 0 (A:), not written
    assert run.results(2, 0x2034) == b"\xff\x00"             # input ready, then at the end
    assert run.words(2, 0x2036) == [0, 1]                    # A: removable, C: fixed
    assert run.machine.dos.current_drive == "C"


def test_file_date_and_time_set_through_a_handle(tmp_path):
    date, time = pack_date(1987, 12, 24), pack_time(18, 30, 44)
    source = f"""
    mov ax, 0x3d02
    mov dx, fname
    int 0x21
    mov bx, ax
    mov ax, 0x5701
    mov dx, {date:#x}
    mov cx, {time:#x}
    {dos_call(0)}
    mov ah, 0x3e
    int 0x21
    mov ax, 0x3d00
    mov dx, fname
    int 0x21
    mov bx, ax
    mov ax, 0x5700
    {dos_call(1)}
    mov [0x2010], dx
    mov [0x2012], cx
    mov ax, 0x5702
    {dos_call(2)}
    {END_OF_PROGRAM}
fname: .asciz "A:STAMP.TXT"
"""
    disk = fat_disk()
    with disk.filesystem.create(["STAMP.TXT"]) as f:
        f.write(b"x")
    run = run_program(tmp_path, source, mounts={"A": disk})
    assert not run.carry(0) and not run.carry(1)
    assert run.words(2, 0x2010) == [date, time]
    entry = disk.filesystem.stat(["STAMP.TXT"])
    assert (entry.date, entry.time) == (date, time)
    assert run.carry(2) and run.ax(2) == 1


def test_create_unique_names_a_new_file_in_the_directory(tmp_path):
    source = f"""
    mov ah, 0x5a
    xor cx, cx
    mov dx, path
    {dos_call(0)}
    mov bx, ax
    mov ah, 0x3e
    int 0x21
    mov ah, 0x5a
    xor cx, cx
    mov dx, path2
    {dos_call(1)}
    {END_OF_PROGRAM}
path: .asciz "C:\\\\"
    .fill 20, 1, 0
path2: .asciz "C:\\\\"
    .fill 20, 1, 0
"""
    run = run_program(tmp_path, source)
    assert not run.carry(0) and not run.carry(1)
    data = run.machine.memory.read((run.psp << 4) + 0x100, 0x200)
    made = sorted(p.name for p in run.folder.iterdir() if p.name != "T.COM")
    assert len(made) == 2 and made[0] != made[1]
    for name in made:                                        # the full name came back in place
        assert b"C:\\" + name.encode() + b"\0" in data


@pytest.mark.parametrize("bad", ["C:\\NO\\X.TXT", "Q:X.TXT"])
def test_create_in_a_bad_place_fails_with_the_dos_error(tmp_path, bad):
    source = f"""
    mov ah, 0x3c
    xor cx, cx
    mov dx, path
    {dos_call(0)}
    {END_OF_PROGRAM}
path: .asciz "{bad.replace(chr(92), chr(92) * 2)}"
"""
    run = run_program(tmp_path, source)
    assert run.carry(0)
    assert run.ax(0) == (3 if bad.startswith("C:") else 0x0F)
