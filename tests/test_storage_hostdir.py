"""A host folder as a DOS drive: 8.3 visibility, case-insensitive lookup,
confinement (no escape through .. or symlinks), dates and DOS errors."""

import datetime as dt
import os

import pytest

from pcemu.storage.drive import (
    ATTR_ARCHIVE, ATTR_DIRECTORY, ATTR_READ_ONLY, pack_date, pack_time,
)
from pcemu.storage.errors import DosError, MountError
from pcemu.storage.hostdir import HostDirDrive


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "readme.txt").write_bytes(b"hello")
    (root / "GAME.EXE").write_bytes(b"MZ" + bytes(100))
    (root / "a very long name.txt").write_bytes(b"invisible")
    (root / "toolongname.text").write_bytes(b"invisible too")
    (root / ".hidden").write_bytes(b"dotfile")
    (root / "sub").mkdir()
    (root / "sub" / "inner.dat").write_bytes(b"inner")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"secret")
    return root, outside


def names(entries):
    return [e.name for e in entries]


def code_of(call):
    with pytest.raises(DosError) as info:
        call()
    return info.value.code


def test_only_83_names_are_visible_in_upper_case(tree):
    root, _ = tree
    drive = HostDirDrive(root)
    assert names(drive.listdir([])) == ["GAME.EXE", "README.TXT", "SUB"]
    assert names(drive.listdir(["SUB"])) == [".", "..", "INNER.DAT"]
    e = drive.stat(["README.TXT"])
    assert (e.size, e.attr) == (5, ATTR_ARCHIVE)
    assert drive.stat(["SUB"]).attr == ATTR_DIRECTORY
    assert drive.stat(["TOOLONGN.TEX"]) is None


def test_lookup_is_case_insensitive_and_reads_host_bytes(tree):
    root, _ = tree
    drive = HostDirDrive(root)
    with drive.open(["README.TXT"]) as f:
        assert f.size == 5
        assert f.read(100) == b"hello"
    with drive.open(["SUB", "INNER.DAT"]) as f:
        assert f.read(5) == b"inner"


def test_case_duplicates_show_once(tmp_path):
    (tmp_path / "A.TXT").write_bytes(b"upper")
    (tmp_path / "a.txt").write_bytes(b"lower")
    drive = HostDirDrive(tmp_path)
    assert names(drive.listdir([])) == ["A.TXT"]
    with drive.open(["A.TXT"]) as f:
        assert f.read(10) == b"upper"


def test_dates_come_from_mtime(tree):
    root, _ = tree
    moment = dt.datetime(1988, 11, 18, 23, 6, 2)
    os.utime(root / "GAME.EXE", (moment.timestamp(), moment.timestamp()))
    e = HostDirDrive(root).stat(["GAME.EXE"])
    assert (e.date, e.time) == (pack_date(1988, 11, 18), pack_time(23, 6, 2))
    old = dt.datetime(1975, 1, 1).timestamp()           # before DOS's epoch: clamped
    os.utime(root / "readme.txt", (old, old))
    e = HostDirDrive(root).stat(["README.TXT"])
    assert (e.date, e.time) == (pack_date(1980, 1, 1), 0)


def test_dotdot_and_path_tricks_cannot_escape(tree):
    root, _ = tree
    drive = HostDirDrive(root)
    for bad in (["..", "OUTSIDE", "SECRET.TXT"], ["SUB", "..", ".."], ["../x"], ["A/B"],
                ["A\\B"], ["/ETC"], ["sub"]):
        assert code_of(lambda: drive.open(bad)) == 3
        assert code_of(lambda: drive.create(bad)) == 3
    assert not (root.parent / "x").exists()


def test_symlinks_leading_outside_are_invisible(tree):
    root, outside = tree
    os.symlink(outside, root / "escape")
    os.symlink(outside / "secret.txt", root / "secret.txt")
    os.symlink(root / "readme.txt", root / "inside.txt")   # stays inside: allowed
    drive = HostDirDrive(root)
    assert names(drive.listdir([])) == ["GAME.EXE", "INSIDE.TXT", "README.TXT", "SUB"]
    assert code_of(lambda: drive.open(["ESCAPE", "SECRET.TXT"])) == 3
    assert code_of(lambda: drive.open(["SECRET.TXT"])) == 2
    # creating a file of the same name never writes through the link
    os.symlink(outside / "secret.txt", root / "LINK.TXT")
    assert code_of(lambda: drive.create(["LINK.TXT"])) == 5
    if (root / "README.TXT").exists():          # case-insensitive host: same as the link
        assert code_of(lambda: drive.create(["SECRET.TXT"])) == 5
    else:
        with drive.create(["SECRET.TXT"]) as f:  # a new, separate host file
            f.write(b"mine")
        assert not (root / "SECRET.TXT").is_symlink()
    assert (outside / "secret.txt").read_bytes() == b"secret"
    with drive.open(["INSIDE.TXT"]) as f:
        assert f.read(5) == b"hello"


def test_mounted_root_may_itself_be_a_symlink(tree, tmp_path):
    root, _ = tree
    link = tmp_path / "link-to-root"
    os.symlink(root, link)
    assert names(HostDirDrive(link).listdir([])) == ["GAME.EXE", "README.TXT", "SUB"]


def test_writing_creates_upper_case_host_files_stamped_by_the_clock(tree):
    root, _ = tree
    stamp = (pack_date(1989, 10, 18), pack_time(7, 41, 18))
    drive = HostDirDrive(root, clock=lambda: stamp)
    with drive.create(["TREE1.EZT"]) as f:
        assert f.write(b"family") == 6
    assert (root / "TREE1.EZT").read_bytes() == b"family"
    e = drive.stat(["TREE1.EZT"])
    assert (e.date, e.time, e.size) == (*stamp, 6)
    with drive.open(["TREE1.EZT"], writable=True) as f:
        f.seek(3)
        f.truncate()
        f.set_datetime(pack_date(2001, 2, 3), pack_time(4, 5, 6))
    e = drive.stat(["TREE1.EZT"])
    assert (e.size, e.date, e.time) == (3, pack_date(2001, 2, 3), pack_time(4, 5, 6))
    # re-creating a host file found case-insensitively truncates that file
    with drive.create(["README.TXT"]) as f:
        f.write(b"new")
    assert (root / "readme.txt").read_bytes() == b"new"
    assert not (root / "README.TXT").exists() or os.path.samefile(root / "README.TXT",
                                                                 root / "readme.txt")


def test_directories_rename_remove_and_attributes(tree):
    root, _ = tree
    drive = HostDirDrive(root)
    drive.mkdir(["DATA"])
    assert (root / "DATA").is_dir()
    with drive.create(["DATA", "X.TXT"]) as f:
        f.write(b"x")
    assert code_of(lambda: drive.rmdir(["DATA"])) == 5
    drive.rename(["DATA", "X.TXT"], ["Y.TXT"])
    assert (root / "Y.TXT").read_bytes() == b"x"
    drive.rmdir(["DATA"])
    assert not (root / "DATA").exists()
    drive.set_attr(["Y.TXT"], ATTR_READ_ONLY)
    assert drive.stat(["Y.TXT"]).attr & ATTR_READ_ONLY
    assert code_of(lambda: drive.remove(["Y.TXT"])) == 5
    assert code_of(lambda: drive.open(["Y.TXT"], writable=True)) == 5
    drive.set_attr(["Y.TXT"], 0)
    drive.remove(["Y.TXT"])
    assert not (root / "Y.TXT").exists()


def test_dos_error_codes(tree):
    root, _ = tree
    drive = HostDirDrive(root)
    assert code_of(lambda: drive.open(["NONE.TXT"])) == 2
    assert code_of(lambda: drive.open(["NODIR", "A.TXT"])) == 3
    assert code_of(lambda: drive.open(["SUB"])) == 5
    assert code_of(lambda: drive.create(["README.TXT"], exclusive=True)) == 0x50
    assert code_of(lambda: drive.mkdir(["SUB"])) == 5
    assert code_of(lambda: drive.rename(["GAME.EXE"], ["README.TXT"])) == 5
    assert code_of(lambda: drive.rmdir(["GAME.EXE"])) == 3
    assert code_of(lambda: drive.listdir(["GAME.EXE"])) == 3
    with drive.open(["GAME.EXE"]) as f:
        assert code_of(lambda: f.write(b"x")) == 5
    (root / "sub" / "long host name.txt").write_bytes(b"")
    (root / "sub" / "inner.dat").unlink()
    with pytest.raises(DosError, match="cannot see"):
        drive.rmdir(["SUB"])


def test_read_only_mount(tree):
    root, _ = tree
    drive = HostDirDrive(root, read_only=True)
    assert code_of(lambda: drive.create(["NEW.TXT"])) == 0x13
    assert code_of(lambda: drive.remove(["GAME.EXE"])) == 0x13
    assert not (root / "NEW.TXT").exists()


def test_label_and_free_space(tree):
    root, _ = tree
    drive = HostDirDrive(root, label="hostdisk")
    assert drive.volume_label == "HOSTDISK"
    assert drive.listdir([])[0].is_label
    spc, bps, free, total = drive.free_space()
    assert (spc, bps) == (64, 512) and 0 <= free <= total <= 0xFFFF


def test_mounting_something_that_is_not_a_folder(tmp_path):
    with pytest.raises(MountError, match="not an existing folder"):
        HostDirDrive(tmp_path / "missing")
