"""The pcemu command line on the originals and on bad input: clear messages, exit codes, no tracebacks."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.machine_helpers import DISK1612, REPO_ROOT, md5, needs_originals


def pcemu(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pcemu", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=timeout)


@needs_originals
def test_the_acceptance_command_prints_both_hands_face_up():
    result = pcemu("boot", "1612", "--headless", "--keys",
                   "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}",
                   "--print-screen")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sum(ch in "♥♦♣♠" for ch in lines[1]) == 10
    assert sum(ch in "♥♦♣♠" for ch in lines[7]) == 10
    assert "YOU'RE UP" in result.stdout


def test_an_unknown_disk_is_a_clear_error():
    result = pcemu("boot", "nosuchdisk", "--headless")
    assert result.returncode == 2
    assert "unknown disk 'nosuchdisk'" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_file_that_is_not_a_disk_image_is_refused(tmp_path):
    bogus = tmp_path / "notes.img"
    bogus.write_bytes(b"this is not a floppy\n" * 100)
    result = pcemu("boot", str(bogus), "--headless")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert str(bogus.name) in result.stderr


@pytest.mark.parametrize("args", [("boot", "1612"), ("record", "1612", "GINRUMMY", "-o", "x.session")])
def test_no_display_and_no_terminal_is_a_clear_error(args, tmp_path):
    """Without --headless, a display or a terminal (e.g. started from a script), there is
    nowhere to show the machine: a message, not curses' traceback."""
    import os
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = subprocess.run([sys.executable, "-m", "pcemu", *args], cwd=tmp_path, env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "no display and no terminal" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.session").exists()


@pytest.mark.parametrize("option, value, message", [
    ("--mips", "-1", "not in the range 0.001<=x<=10000"),
    ("--mips", "0", "not in the range 0.001<=x<=10000"),
    ("--mips", "inf", "not in the range 0.001<=x<=10000"),
    ("--ticks", "-5", "not in the range 0<=x<="),
    ("--ticks", "inf", "not in the range 0<=x<="),
    ("--date", "2100-01-01", "DOS keeps dates from 1980 to 2099"),
    ("--date", "1979-12-31", "DOS keeps dates from 1980 to 2099"),
])
def test_out_of_range_machine_options_are_clear_errors(option, value, message):
    result = pcemu("boot", "1612", "--headless", option, value)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_bad_key_name_is_a_clear_error():
    result = pcemu("boot", "--headless", "--keys", "{NOSUCHKEY}")
    assert result.returncode == 2
    assert "unknown key name {NOSUCHKEY}" in result.stderr


@needs_originals
def test_a_wait_that_never_comes_true_times_out_with_the_screen():
    result = pcemu("boot", "1612", "--headless", "--keys", "{WAIT:NEVER ON SCREEN}")
    assert result.returncode == 2
    assert "'NEVER ON SCREEN' did not appear" in result.stderr
    assert "B:\\>" in result.stderr               # the screen is shown to explain


@needs_originals
def test_save_disk_writes_the_changes_and_leaves_the_source_alone(tmp_path):
    before = md5(DISK1612)
    out = tmp_path / "out.img"
    result = pcemu("boot", str(DISK1612), "--headless", "--keys", "COPY GO.TXT COPY.TXT{ENTER}",
                   "--ticks", "5", "--save-disk", str(out))
    assert result.returncode == 0, result.stderr
    from pcemu.storage.image import FloppyImage
    saved = FloppyImage.open(out)
    assert saved.filesystem.read_file(["COPY.TXT"]) == saved.filesystem.read_file(["GO.TXT"])
    assert md5(DISK1612) == before


# one 512-byte page, of which the header claims 64 paragraphs: DOS cannot size that image
# (a file merely shorter than its header says loads: tests/test_dos_compat.py)
IMPOSSIBLE_EXE = b"MZ\x00\x00\x01\x00\x00\x00\x40\x00" + bytes(54)


def test_an_exe_dos_cannot_size_gets_the_dos_message_not_a_crash(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "BROKEN.EXE").write_bytes(IMPOSSIBLE_EXE)
    result = pcemu("boot", "--headless", "--host-dir", f"C:{folder}", "--keys",
                   "C:{ENTER}BROKEN{ENTER}", "--ticks", "3", "--print-screen")
    assert result.returncode == 0, result.stderr
    assert "Program too big to fit in memory" in result.stdout
    assert result.stdout.rstrip().endswith("C:\\>")


def test_a_real_hlt_with_interrupts_off_shows_what_the_program_drew_and_why(tmp_path):
    from tests.machine_helpers import assemble
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "STOP.COM").write_bytes(assemble(
        'mov ah, 9; mov dx, msg; int 0x21; cli; hlt; msg: .ascii "DRAWN BEFORE HLT$"'))
    result = pcemu("run", f"C:{folder}", "STOP", "--headless", "--print-screen")
    assert result.returncode == 2
    assert "DRAWN BEFORE HLT" in result.stdout
    assert "halted with interrupts disabled (HLT at " in result.stderr
    assert "Traceback" not in result.stderr


def test_strict_mode_stops_at_an_unimplemented_service(tmp_path):
    from tests.machine_helpers import assemble
    folder = tmp_path / "c"
    folder.mkdir()
    # INT 21h AH=6Ch does not exist in DOS 3.30... but 3.30 answers it (invalid function);
    # IOCTL subfunction 0Dh (generic block request) is one pcemu does not implement.
    (folder / "ODD.COM").write_bytes(assemble("mov ax, 0x440d; mov bl, 1; int 0x21; mov ax, 0x4c00; int 0x21"))
    result = pcemu("boot", "--headless", "--strict", "--host-dir", f"C:{folder}", "--keys",
                   "C:{ENTER}ODD{ENTER}", "--ticks", "3")
    assert result.returncode == 2
    assert "unimplemented: INT 21h AH=44h AL=0Dh" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_returns_the_programs_exit_code_and_its_output(tmp_path):
    from tests.machine_helpers import assemble
    folder = tmp_path / "c"
    folder.mkdir()
    program = assemble("mov ah, 9; mov dx, msg; int 0x21; mov ax, 0x4c03; int 0x21; "
                       "msg: .ascii \"HELLO FROM DOS$\"")
    (folder / "HELLO.COM").write_bytes(program)
    result = pcemu("run", f"C:{folder}", "HELLO", "--headless", "--print-screen")
    assert result.returncode == 3, result.stderr
    assert "HELLO FROM DOS" in result.stdout


def test_run_of_a_batch_file_ends_at_the_prompt_with_status_0(tmp_path):
    """A batch file (or a built-in) runs no program, so no exit code: the run ends when the
    prompt is back, not after the 600 s limit."""
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "SAY.BAT").write_bytes(b"ECHO OFF\r\nECHO SAID %1\r\n")
    result = pcemu("run", f"C:{folder}", "SAY", "IT", "--headless", "--print-screen")
    assert result.returncode == 0, result.stderr
    assert "SAID IT" in result.stdout
    assert result.stdout.rstrip().endswith("C:\\>")


@pytest.mark.parametrize("name, data, message", [
    ("NOPE", None, "NOPE: Bad command or file name"),
    ("CUT", IMPOSSIBLE_EXE, "not enough memory to load it"),
])
def test_run_of_a_program_that_cannot_start_fails_with_the_reason(tmp_path, name, data, message):
    folder = tmp_path / "c"
    folder.mkdir()
    if data is not None:
        (folder / f"{name}.EXE").write_bytes(data)
    result = pcemu("run", f"C:{folder}", name, "--headless")
    assert result.returncode == 2
    assert message in result.stderr
    assert "did not appear" not in result.stderr and "Traceback" not in result.stderr


@needs_originals
def test_wav_option_records_the_opening_music(tmp_path):
    import wave
    out = tmp_path / "music.wav"
    result = pcemu("boot", "1612", "--headless", "--keys",
                   "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}{TICKS:10}",
                   "--wav", str(out))
    assert result.returncode == 0, result.stderr
    with wave.open(str(out)) as w:
        frames = w.readframes(w.getnframes())
        assert w.getnframes() > w.getframerate()          # more than a second of audio
    assert len(set(frames)) > 2                            # not silence: the tune was played
