"""Files a run touched and what it changed on its disk: byte ranges, listings, text diffs."""
from __future__ import annotations

from hypothesis import given, strategies as st

from pcemu.archive.files_report import (FileActivity, describe_changes, disk_changes, file_activity,
                                        looks_like_text, merge_ranges, text_diff)
from pcemu.archive.report import Summary
from pcemu.archive.tracer import Tracer
from pcemu.machine import Machine
from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import assemble16

EDIT = """
    mov ah, 0x3c
    xor cx, cx
    mov dx, newname
    int 0x21
    mov bx, ax
    mov ah, 0x40
    mov cx, 12
    mov dx, newtext
    int 0x21
    mov ah, 0x3e
    int 0x21
    mov ax, 0x3d02
    mov dx, notes
    int 0x21
    mov bx, ax
    mov ax, 0x4202
    xor cx, cx
    xor dx, dx
    int 0x21
    mov ah, 0x40
    mov cx, 7
    mov dx, added
    int 0x21
    mov ah, 0x3e
    int 0x21
    mov ah, 0x41
    mov dx, junk
    int 0x21
    mov ax, 0x4c00
    int 0x21
newname: .asciz "NEW.TXT"
notes: .asciz "NOTES.TXT"
junk: .asciz "JUNK.BIN"
newtext: .ascii "first line\\r\\n"
added: .ascii "three\\r\\n"
"""
NOTES = b"one\r\ntwo\r\n"


def edited_disk(tmp_path):
    image = FloppyImage(format_image("360K"))
    for name, data in (("EDIT.COM", assemble16(EDIT)), ("NOTES.TXT", NOTES), ("JUNK.BIN", bytes(300))):
        handle = image.drive.create([name])
        handle.write(data)
        handle.close()
    path = image.save(tmp_path / "edit.img")
    m = Machine(disks=[f"B:{path}"])
    tracer = Tracer(m, "files", keep=True)
    m.type("EDIT{ENTER}")
    m.run_until(condition=lambda mm: bool(mm.dos.shell.exit_codes) and mm.dos.shell.at_prompt,
                max_ticks=100)
    tracer.close()
    return m, tracer.records


def test_a_run_that_creates_appends_and_deletes_shows_all_three_with_a_diff(tmp_path):
    m, records = edited_disk(tmp_path)
    changes = {c["path"]: c for c in disk_changes(m)}
    assert changes["B:\\NEW.TXT"]["status"] == "new" and changes["B:\\NEW.TXT"]["new_size"] == 12
    assert "+first line" in changes["B:\\NEW.TXT"]["diff"]
    notes = changes["B:\\NOTES.TXT"]
    assert (notes["status"], notes["old_size"], notes["new_size"]) == ("changed", len(NOTES), len(NOTES) + 7)
    assert notes["diff"].splitlines()[-1] == "+three" and " two" in notes["diff"]
    assert changes["B:\\JUNK.BIN"]["status"] == "deleted" and "diff" not in changes["B:\\JUNK.BIN"]
    # the trace ends with the same changes, and the report lists them
    traced = [r for r in records if r["cat"] == "change"]
    assert {r["path"] for r in traced} == set(changes)
    text = Summary().add_all(records).text(["files", "changes"])
    assert "B:\\NOTES.TXT" in text and "wrote 7 bytes (10-16)" in text   # appended at the end
    assert "deleted  B:\\JUNK.BIN" in text and "+three" in text


def test_file_activity_collects_opens_ranges_and_deletes(tmp_path):
    _m, records = edited_disk(tmp_path)
    files = file_activity(records)
    notes = files["B:\\NOTES.TXT"]
    assert notes.opens == {"read/write": 1} and notes.closed == 1
    assert merge_ranges(notes.writes) == [(10, 17)]
    assert files["B:\\NEW.TXT"].created == 1 and files["B:\\JUNK.BIN"].deleted == 1


def test_ranges_merge_where_they_touch_or_overlap():
    assert merge_ranges([(10, 20), (0, 5), (5, 8), (15, 30), (40, 40)]) == [(0, 8), (10, 30)]


@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 50)), max_size=30))
def test_merged_ranges_cover_exactly_the_bytes_of_the_ranges(spans):
    ranges = [(start, start + length) for start, length in spans]
    merged = merge_ranges(ranges)
    covered = {b for a, e in ranges for b in range(a, e)}
    assert {b for a, e in merged for b in range(a, e)} == covered
    assert all(e1 < s2 for (_s1, e1), (s2, _e2) in zip(merged, merged[1:]))   # apart, in order


def test_text_and_binary_are_told_apart():
    assert looks_like_text(b"HELLO\r\nWORLD\r\n\x1a")
    assert not looks_like_text(b"MZ\x00\x01")
    assert text_diff(b"a\r\n", b"\x00\x01", "X") is None
    assert text_diff(b"a\r\nb\r\n", b"a\r\nc\r\n", "X").splitlines()[-2:] == ["-b", "+c"]


def test_an_unchanged_disk_says_so():
    assert "nothing" in describe_changes([])
    activity = FileActivity("B:\\X.DAT")
    activity.add({"t": 0, "op": "open", "mode": 0})
    activity.add({"t": 1, "op": "read", "start": 0, "count": 128})
    assert activity.lines() == ["B:\\X.DAT", "  opened read 1x", "  read 128 bytes (0-127) in 1 calls"]
