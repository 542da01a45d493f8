"""Traces and reports: what a program called, with arguments and results, the files it
touched, its ports, video and sound, checked on small programs and on GINRUMMY.EXE."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pcemu.archive.report import ReportError, Summary, summarise_file
from pcemu.archive.tracer import CATEGORIES, TraceError, Tracer, parse_categories
from pcemu.cli import main
from pcemu.clock import PIT_HZ
from pcemu.machine import Machine
from tests.dos_harness import assemble16
from tests.machine_helpers import DISK1612, needs_originals

DIVISOR = 1193                       # PIT channel 2: 1193182 / 1193 = 1000.15 Hz
POLLS = 50

PROGRAM = f"""
    mov ah, 0x3c
    xor cx, cx
    mov dx, fname
    int 0x21
    mov bx, ax
    mov ah, 0x40
    mov cx, 10
    mov dx, digits
    int 0x21
    mov ah, 0x3e
    int 0x21
    mov ax, 0x3d00
    mov dx, fname
    int 0x21
    mov bx, ax
    mov ax, 0x4200
    xor cx, cx
    mov dx, 3
    int 0x21
    mov ah, 0x3f
    mov cx, 4
    mov dx, buffer
    int 0x21
    mov ah, 0x3e
    int 0x21
    mov ah, 0x41
    mov dx, gone
    int 0x21
    mov ax, 0x0001
    int 0x10
    mov ax, 0x0003
    int 0x10
    mov al, 0xb6
    out 0x43, al
    mov ax, {DIVISOR}
    out 0x42, al
    mov al, ah
    out 0x42, al
    in al, 0x61
    or al, 3
    out 0x61, al
    mov ah, 0x86
    mov cx, 7
    mov dx, 0xa120
    int 0x15
    in al, 0x61
    and al, 0xfc
    out 0x61, al
    mov cx, {POLLS}
    mov dx, 0x201
poll:
    in al, dx
    loop poll
    mov ax, 0x4c00
    int 0x21
fname: .asciz "OUT.TXT"
gone: .asciz "GONE.TXT"
digits: .ascii "0123456789"
buffer: .ascii "...."
"""


def traced_run(tmp_path, categories="all"):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "T.COM").write_bytes(assemble16(PROGRAM))
    (folder / "GONE.TXT").write_bytes(b"bye\r\n")
    m = Machine(host_dirs={"C": folder})
    tracer = Tracer(m, categories, keep=True)
    m.type("C:{ENTER}T{ENTER}")
    m.run_until(condition=lambda mm: bool(mm.dos.shell.exit_codes) and mm.dos.shell.at_prompt,
                max_ticks=200)
    tracer.close()
    return m, tracer.records


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return traced_run(tmp_path_factory.mktemp("trace"))


def of(records, cat, **match):
    return [r for r in records if r["cat"] == cat and all(r.get(k) == v for k, v in match.items())]


def test_dos_calls_have_their_paths_arguments_and_results(run):
    _m, records = run
    dos = of(records, "dos")
    create = next(r for r in dos if r["service"] == "INT 21h AH=3Ch create file")
    assert create["args"]["path"] == "OUT.TXT"
    assert create["result"]["cf"] == 0
    handle = create["result"]["ax"]
    write = next(r for r in dos if r["service"] == "INT 21h AH=40h write file")
    assert write["args"]["bx"] == handle and write["args"]["count"] == 10
    assert write["result"]["ax"] == 10
    read = next(r for r in dos if r["service"] == "INT 21h AH=3Fh read file")
    assert read["result"]["ax"] == 4
    # CS:IP is that of the program's INT 21h: the bytes there are CD 21
    cs, ip = (int(x, 16) for x in create["at"].split(":"))
    assert _m.memory.read_far(cs, ip, 2) == b"\xcd\x21"


def test_file_records_give_byte_ranges_closes_and_deletes(run):
    _m, records = run
    files = of(records, "files")
    ops = [(r["op"], r["path"].upper()) for r in files if r["op"] != "exec"]
    assert ops[:2] == [("create", "C:\\OUT.TXT"), ("write", "C:\\OUT.TXT")]
    assert ("delete", "C:\\GONE.TXT") in ops
    write = next(r for r in files if r["op"] == "write")
    assert (write["start"], write["count"]) == (0, 10)
    read = next(r for r in files if r["op"] == "read")
    assert (read["start"], read["count"]) == (3, 4)               # after the seek to 3
    assert [r["op"] for r in files].count("close") == 2
    assert of(records, "files", op="exec")[0]["path"].upper().endswith("T.COM")


def test_video_mode_sets_and_register_changes_are_traced(run):
    _m, records = run
    modes = [r["mode"] for r in of(records, "video", what="mode")]
    assert modes == [1, 3]
    registers = of(records, "video", what="registers")
    assert any(r["mode_register"] & 0x01 == 0 for r in registers)   # 40 columns in mode 1


def test_a_speaker_note_has_its_frequency_and_duration(run):
    m, records = run
    notes = [r for r in of(records, "sound", what="note") if r["duration"] > 0.1]
    assert len(notes) == 1
    assert notes[0]["frequency"] == pytest.approx(PIT_HZ / DIVISOR, rel=1e-3)
    assert notes[0]["duration"] == pytest.approx(0.5, abs=0.06)      # INT 15h AH=86h waited 0.5 s


def test_a_polling_loop_is_one_port_record_with_a_repeat_count(run):
    _m, records = run
    polls = of(records, "port", port=0x201, dir="in")
    assert len(polls) == 1 and polls[0]["repeat"] == POLLS and polls[0]["value"] == 0xFF


def test_the_report_counts_each_service_and_says_where_it_was_first_used(run):
    _m, records = run
    summary = Summary().add_all(records)
    dos = summary.services["dos"]
    assert dos["INT 21h AH=3Eh close file"].count == 2
    assert dos["INT 21h AH=3Ch create file"].count == 1
    first = next(r for r in records if r.get("service") == "INT 21h AH=3Dh open file")
    use = dos["INT 21h AH=3Dh open file"]
    assert (use.first_t, use.first_at) == (first["t"], first["at"])
    assert summary.services["bios"]["INT 10h AH=00h set video mode"].count == 2
    text = summary.text()
    assert "INT 21h AH=40h write file" in text
    assert "C:\\OUT.TXT" in text.upper() and "wrote 10 bytes (0-9)" in text
    assert "read 4 bytes (3-6)" in text


def test_the_disk_changes_of_a_run_end_a_files_trace(run):
    m, records = run
    # a host folder is not an image: nothing to compare against, so no change records
    assert of(records, "change") == []
    assert records[-1]["cat"] == "end"


def test_unimplemented_services_are_recorded_and_reported():
    m = Machine()
    tracer = Tracer(m, "dos", keep=True)
    m.unimplemented(0x21, "DOS function 7Fh")
    tracer.close()
    gaps = of(tracer.records, "unimplemented")
    assert len(gaps) == 1 and gaps[0]["interrupt"] == 0x21
    assert "DOS function 7Fh" in Summary().add_all(tracer.records).text(["unimplemented"])


def test_only_the_chosen_categories_are_recorded_and_detaching_leaves_no_listener(tmp_path):
    m, records = traced_run(tmp_path, "files")
    assert {r["cat"] for r in records} <= {"start", "files", "process", "end", "change"}
    assert all(not signal for signal in m.events.signals() if signal is not m.events.exec)
    assert m.bus.watchers == [] and m.speaker.listeners == []


def test_category_names_are_checked():
    assert parse_categories("all") == CATEGORIES
    assert parse_categories("files, dos") == ("dos", "files")
    with pytest.raises(TraceError, match="unknown trace category disk"):
        parse_categories("dos,disk")
    with pytest.raises(TraceError):
        parse_categories(" , ")


def test_a_trace_file_that_is_not_a_trace_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"cat": "start", "t": 0, "ips": 1200000}\nnot json\n')
    with pytest.raises(ReportError, match="line 2: not a JSON Lines"):
        summarise_file(bad)
    bad.write_text('{"cat": "dos", "t": 1}\n')
    with pytest.raises(ReportError, match="line 1: a 'dos' record without a usable 'service'"):
        summarise_file(bad)
    with pytest.raises(ReportError, match="does not exist"):
        summarise_file(tmp_path / "none.jsonl")


def test_run_with_trace_writes_json_lines_and_report_reads_them(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "T.COM").write_bytes(assemble16(PROGRAM))
    (folder / "GONE.TXT").write_bytes(b"bye\r\n")
    out = tmp_path / "t.jsonl"
    runner = CliRunner()
    result = runner.invoke(main, ["run", f"C:{folder}", "T", "--headless", "--trace", "dos,files",
                                  "--trace-out", str(out)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["cat"] == "start" and records[-1]["cat"] == "end"
    assert {r["cat"] for r in records} >= {"dos", "files"}
    report = runner.invoke(main, ["report", str(out), "--only", "services,files"])
    assert report.exit_code == 0, report.output
    assert "INT 21h AH=3Ch create file" in report.output and "OUT.TXT" in report.output.upper()
    bad = runner.invoke(main, ["run", f"C:{folder}", "T", "--headless", "--trace", "dos,bogus"])
    assert bad.exit_code == 2 and "unknown trace category bogus" in bad.output


@needs_originals
def test_ginrummy_report_shows_its_time_calls_and_the_instructions_it_reads(tmp_path):
    """F5 shows the instructions: the program reads GINRUMMY.DOC, and what it shows first
    is the start of that file."""
    from pcemu.storage.image import FloppyImage
    m = Machine(disks=[f"B:{DISK1612}"])
    summary = Summary(ips=m.clock.ips)
    tracer = Tracer(m, "dos,bios,files", sinks=[summary.add])
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}{F5}")
    m.run(40)
    tracer.close()
    started = summary.programs[0]
    assert started["path"] == "B:\\GINRUMMY.EXE"
    time_calls = summary.services["dos"]["INT 21h AH=2Ch get time"]     # RANDOMIZE TIMER
    assert time_calls.count >= 1 and time_calls.first_t >= started["t"]
    assert summary.services["bios"]["INT 10h AH=09h write character and attribute"].count > 100
    doc = summary.files["B:\\GINRUMMY.DOC"]
    assert doc.opens == {"read": 1}
    first, _end = doc.reads[0]
    assert first == 0
    text = FloppyImage.open(DISK1612).drive.read_file(["GINRUMMY.DOC"]).decode("cp437")
    first_words = next(line for line in text.splitlines() if line.strip()).split()[:3]
    assert " ".join(first_words) in " ".join(m.screen_text().split())
    assert summary.unimplemented == {}


def test_boot_and_replay_write_the_same_trace_of_every_category_and_report_reads_a_session(tmp_path):
    """--trace on boot (keys typed at the prompt) and on the replay of a recorded session of
    the same run: the same records in every category (the replay is the same run), and
    `pcemu report SESSION` summarises it."""
    from pcemu.storage.image import FloppyImage, format_image
    image = FloppyImage(format_image("360K", label="TRACE"))
    for name, data in (("T.COM", assemble16(PROGRAM)), ("GONE.TXT", b"bye\r\n")):
        handle = image.drive.create([name])
        handle.write(data)
        handle.close()
    disk = image.save(tmp_path / "t.img")
    runner = CliRunner()
    booted, replayed, session = tmp_path / "boot.jsonl", tmp_path / "replay.jsonl", tmp_path / "t.session"
    keys = ["--headless", "--keys", "T{ENTER}", "--ticks", "60"]
    rec = runner.invoke(main, ["record", str(disk), *keys, "-o", str(session)])
    assert rec.exit_code == 0, rec.output
    boot = runner.invoke(main, ["boot", str(disk), *keys, "--trace", "all", "--trace-out", str(booted)])
    assert boot.exit_code == 0, boot.output
    again = runner.invoke(main, ["replay", str(session), "--trace", "all", "--trace-out", str(replayed)])
    assert again.exit_code == 0, again.output
    records = [json.loads(line) for line in booted.read_text().splitlines()]
    assert {r["cat"] for r in records} >= set(CATEGORIES) | {"process"}
    assert of(records, "files", op="delete") and of(records, "sound", what="note")

    def body(path):
        return [line for line in path.read_text().splitlines()
                if json.loads(line)["cat"] not in ("start", "end")]
    assert body(replayed) == body(booted)
    summary = runner.invoke(main, ["report", str(session), "--only", "services,files"])
    assert summary.exit_code == 0, summary.output
    assert "INT 21h AH=41h delete file" in summary.output and "GONE.TXT" in summary.output.upper()
