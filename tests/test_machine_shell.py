"""The machine boots to a DOS prompt, and the built-in commands behave as DOS 3.30's."""
from __future__ import annotations

import pytest

from pcemu import Machine
from tests.machine_helpers import DISK1612, md5, needs_originals


@pytest.fixture(scope="module")
def machine():
    return Machine(disks=[f"B:{DISK1612}"]) if DISK1612.exists() else None


@needs_originals
def test_boot_shows_the_prompt_on_the_disk_drive(machine):
    assert machine.screen_text().splitlines()[0].startswith("B:\\>")


def _screen_after(line: str) -> str:
    """The screen of a fresh machine with disk #1612 in B: after typing ``line`` at the prompt."""
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type(line + "{ENTER}")
    m.run(2)
    return m.screen_text()


@needs_originals
def test_dir_lists_the_files_with_sizes_and_bytes_free():
    text = _screen_after("DIR")
    assert " Volume in drive B is DISK1612" in text
    assert "GINRUMMY EXE   104046" in text
    assert "METEORS  EXE    74622" in text
    assert "        9 File(s)" in text
    assert "bytes free" in text


@needs_originals
@pytest.mark.parametrize("command, listed", [
    ("DIR *.EXE", ["EZT      EXE", "GINRUMMY EXE", "METEORS  EXE"]),
    ("DIR G*", ["GINRUMMY DOC", "GINRUMMY EXE", "GO       BAT", "GO       TXT"]),   # G*.*
    ("DIR B:\\GO.* /W", ["GO       BAT", "GO       TXT"]),
])
def test_dir_with_a_wildcard_lists_only_the_matching_files(command, listed):
    text = _screen_after(command)
    names = [n for n in ("EZT      DOC", "EZT      EXE", "FILE1612 TXT", "GINRUMMY DOC", "GINRUMMY EXE",
                         "GO       BAT", "GO       TXT", "METEORS  DOC", "METEORS  EXE") if n in text]
    assert names == listed
    assert f"{len(listed):>9} File(s)" in text


@needs_originals
def test_dir_of_a_missing_drive_path_or_file_says_which():
    text = _screen_after("DIR Q:*.*{ENTER}DIR NODIR\\*.*{ENTER}DIR *.XYZ")
    assert "Invalid drive specification" in text
    assert "Path not found" in text
    assert "File not found" in text


@needs_originals
def test_go_bat_shows_the_box_without_echoing_its_commands():
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type("GO{ENTER}")
    m.run(3)
    text = m.screen_text()
    assert "Disk #1612  GIN RUMMY/METEORS" in text
    assert "TYPE GO.TXT" not in text          # ECHO OFF took effect
    assert text.rstrip().endswith("B:\\>")


@needs_originals
def test_ver_type_and_bad_command():
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type("VER{ENTER}NOSUCH{ENTER}TYPE GO.BAT{ENTER}")
    m.run(2)
    text = m.screen_text()
    assert "DOS Version 3.30" in text
    assert "Bad command or file name" in text
    assert "TYPE GO.TXT" in text               # the batch file's own text, typed out


@needs_originals
def test_copy_to_prn_goes_to_the_printer_capture(tmp_path):
    capture = tmp_path / "printer.txt"
    m = Machine(disks=[f"B:{DISK1612}"], printer_capture=capture)
    m.type("COPY METEORS.DOC PRN{ENTER}")
    m.run(3)
    assert "1 File(s) copied" in m.screen_text()
    assert capture.read_bytes() == m.dos.drives["B"].read_file(["METEORS.DOC"])


@needs_originals
def test_copy_to_a_full_disk_says_so_and_leaves_no_partial_file():
    m = Machine(disks=[f"B:{DISK1612}"])
    free_before = m.dos.drives["B"].free_space()
    m.type("COPY GINRUMMY.EXE BIG.EXE{ENTER}")        # 104,046 bytes onto 70,656 free
    m.run(3)
    screen = m.screen_text()
    assert "Insufficient disk space" in screen and "0 File(s) copied" in screen
    assert m.dos.drives["B"].stat(["BIG.EXE"]) is None
    assert m.dos.drives["B"].free_space() == free_before


@needs_originals
def test_the_source_image_is_never_modified(tmp_path):
    before = md5(DISK1612)
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type("COPY GO.TXT NEW.TXT{ENTER}DEL GO.BAT{ENTER}")
    m.run(3)
    assert m.dos.drives["B"].stat(["NEW.TXT"]) is not None
    assert m.dos.drives["B"].stat(["GO.BAT"]) is None
    assert md5(DISK1612) == before


@needs_originals
def test_identical_runs_give_identical_screens_and_ram():
    def session():
        m = Machine(disks=[f"B:{DISK1612}"], time="13:14:15.16")
        m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}")
        m.run(20)
        return m.ticks, m.state_hash(), m.screen_text()
    first, second = session(), session()
    assert first == second


@needs_originals
def test_a_different_start_time_changes_the_deal():
    def deal(time):
        m = Machine(disks=[f"B:{DISK1612}"], time=time)
        m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}")
        return m.screen_text().splitlines()[:4]
    assert deal("10:00:00.00") != deal("10:00:07.31")
