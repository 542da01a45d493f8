"""The survey's outcomes on small programs of our own, each on a diskette image made here:
an exit code, a wait for a key, a machine error, a service pcemu lacks, a busy loop, and
a process over its memory limit (run in-process for speed, but for that last one)."""
from __future__ import annotations

import pytest

from pcemu.storage.image import FloppyImage, format_image
from pcemu.survey.child import run_task
from pcemu.survey.programs import tasks_for_image, tasks_for_sources
from pcemu.survey.runner import Request, Settings, survey_one
from tests.machine_helpers import assemble

SETTINGS = {"times": [1.0, 2.0], "date": None, "time": None, "video": "cga"}


def shows_then_waits(message: str, before: str = "") -> str:
    """A program that prints ``message`` through DOS, waits for a key and ends."""
    return before + f"""
        mov dx, msg
        mov ah, 9
        int 0x21
        mov ah, 0
        int 0x16
        int 0x20
    msg: .ascii "{message}$"
    """


PROGRAMS = {
    "EXIT5.COM": """
        mov dx, msg
        mov ah, 9
        int 0x21
        mov ax, 0x4c05
        int 0x21
    msg: .ascii "Leaving now$"
    """,
    "KEYWAIT.COM": shows_then_waits("Press a key"),
    "HANG.COM": """
        cli
        hlt
    """,
    "MISSING.COM": """
        mov ah, 0x55
        int 0x17
        mov ah, 0
        int 0x16
        int 0x20
    """,
    "GRAPH6.COM": shows_then_waits("Stars [640x200]", before="""
        mov ax, 6
        int 0x10"""),
    "GRAPH4.COM": shows_then_waits("Moon (320)", before="""
        mov ax, 4
        int 0x10"""),
    "BUSY.COM": """
    spin:
        jmp spin
    """,
}


def disk_with(tmp_path, programs: dict[str, str], name="OURS.IMG"):
    image = FloppyImage(format_image("360K"), read_only=False)
    for file_name, source in programs.items():
        handle = image.filesystem.create([file_name])
        handle.write(assemble(source))
        handle.close()
    path = tmp_path / name
    path.write_bytes(image.data())
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    path = disk_with(tmp_path_factory.mktemp("survey"), PROGRAMS)
    tasks = tasks_for_image(path)
    assert [t.program for t in tasks] == sorted(PROGRAMS)
    return {t.program: run_task(t.as_dict(), SETTINGS) for t in tasks}


def test_an_exit_code_is_reported_with_the_screen(records):
    record = records["EXIT5.COM"]
    assert record["outcome"] == "exited" and record["exit_code"] == 5
    assert [s["t"] for s in record["screens"]] == [1.0, 2.0]
    assert record["screens"][0]["lines"][0].startswith("Leaving now")
    assert record["screens"][0]["mode"] == 3 and record["screens"][0]["kind"] == "text"


def test_a_program_asking_for_a_key_waits_for_input(records):
    record = records["KEYWAIT.COM"]
    assert record["outcome"] == "waits for input" and record["exit_code"] is None
    assert "Press a key" in record["screens"][-1]["lines"][0]


def test_a_halt_with_interrupts_off_is_a_machine_error(records):
    record = records["HANG.COM"]
    assert record["outcome"] == "machine error"
    assert "interrupts disabled" in record["reason"]
    assert record["screens"] and record["screens"][-1]["at_error"]


def test_a_service_pcemu_lacks_is_named(records):
    record = records["MISSING.COM"]
    assert record["outcome"] == "unimplemented service"
    assert record["unimplemented"] == ["unimplemented: INT 17h AH=55h AL=00h (printer function 55h)"]


@pytest.mark.parametrize("program, mode, columns, text", [
    ("GRAPH6.COM", 6, 80, "Stars [640x200]"), ("GRAPH4.COM", 4, 40, "Moon (320)")])
def test_text_the_bios_drew_in_a_graphics_mode_is_read_from_the_pixels(records, program, mode,
                                                                       columns, text):
    screen = records[program]["screens"][-1]
    assert (screen["mode"], screen["kind"], screen["cols"]) == (mode, "graphics", columns)
    assert screen["lines"][0] == text.ljust(columns)
    assert all(line == " " * columns for line in screen["lines"][1:])


def test_a_call_through_an_empty_vector_is_named(tmp_path):
    """INT 67h's vector is 0000:0000, as the BIOS leaves it; the CPU then runs the vector
    table as code (slowly: a twentieth of a second is enough to see the call)."""
    path = disk_with(tmp_path, {"EMS.COM": "mov ah, 0x40\n int 0x67\n int 0x20\n"})
    record = run_task(tasks_for_image(path)[0].as_dict(), {**SETTINGS, "times": [0.05]})
    assert record["unimplemented"][0] == (
        "INT 67h AH=40h, but no EMS driver (LIM expanded memory) is installed (the vector is "
        "0000:0000)")
    assert record["outcome"] in ("unimplemented service", "machine error")


def test_a_program_busy_at_the_end_timed_out(records):
    assert records["BUSY.COM"]["outcome"] == "timed out"


def test_bad_disks_get_one_line_each(tmp_path):
    junk = tmp_path / "JUNK.IMG"
    junk.write_bytes(b"not a diskette" * 10)
    empty = disk_with(tmp_path, {}, "EMPTY.IMG")
    tasks = tasks_for_sources([str(junk), str(tmp_path / "GONE.IMG"), str(empty)])
    assert [t.disk for t in tasks] == ["JUNK", "GONE", "EMPTY"]
    assert all(t.problem for t in tasks)
    assert "does not exist" in tasks[1].problem and "no .COM" in tasks[2].problem
    record = run_task(tasks[0].as_dict(), SETTINGS)
    assert record["outcome"] == "bad input" and record["reason"] == tasks[0].problem


def test_a_process_over_its_memory_limit_is_stopped_and_reported(tmp_path):
    """The limit applies to the child alone: at 40 MB not even Unicorn's library loads."""
    path = disk_with(tmp_path, {"EXIT5.COM": PROGRAMS["EXIT5.COM"]})
    task = tasks_for_image(path)[0].as_dict()
    record = survey_one(Request(task, Settings(times=(0.5,), memory_mb=40)))
    assert record["outcome"] in ("memory limit", "machine error")
    assert "memory limit of 40 MB" in record["reason"]
    assert survey_one(Request(task, Settings(times=(0.5,))))["outcome"] == "exited"


def test_running_out_of_memory_mid_run_is_the_memory_limit_outcome(tmp_path, monkeypatch):
    from pcemu.machine import Machine

    def exhausted(self, ticks):
        raise MemoryError
    monkeypatch.setattr(Machine, "run", exhausted)
    path = disk_with(tmp_path, {"EXIT5.COM": PROGRAMS["EXIT5.COM"]})
    record = run_task(tasks_for_image(path)[0].as_dict(), SETTINGS)
    assert record["outcome"] == "memory limit"


def test_a_folder_of_images_and_pcjs_json_is_surveyed_alike(tmp_path):
    import json

    from tests.test_pcjs_import import encode_v2
    folder = tmp_path / "library"
    folder.mkdir()
    raw = disk_with(folder, {"EXIT5.COM": PROGRAMS["EXIT5.COM"]}, "RAW.IMG")
    (folder / "FROMPCJS.json").write_text(json.dumps(encode_v2(raw.read_bytes(), 40, 2, 9)))
    (folder / "notes.txt").write_text("not a disk")
    tasks = tasks_for_sources([str(folder)])
    assert [(t.disk, t.program, t.problem) for t in tasks] == [
        ("FROMPCJS", "EXIT5.COM", None), ("RAW", "EXIT5.COM", None)]
    record = run_task(tasks[0].as_dict(), SETTINGS)
    assert record["outcome"] == "exited" and record["exit_code"] == 5


def test_a_program_over_the_host_time_limit_is_stopped_and_reported(tmp_path):
    path = disk_with(tmp_path, {"BUSY.COM": PROGRAMS["BUSY.COM"]})
    task = tasks_for_image(path)[0].as_dict()
    record = survey_one(Request(task, Settings(times=(3600.0,), wall_limit=1.0)))
    assert record["outcome"] == "timed out" and "host time limit of 1 s" in record["reason"]


def test_a_corpus_line_cannot_name_a_file_outside_its_images_folder(tmp_path):
    from pcemu.survey.programs import tasks_for_corpus
    corpus = tmp_path / "corpus.tsv"
    corpus.write_text("../../etc\tPASSWD\nDISK1\t..\\X.EXE\nDISK2\tA.EXE\textra\n")
    tasks = tasks_for_corpus(corpus)
    assert len(tasks) == 3 and all(t.problem and "bad corpus line" in t.problem for t in tasks)
