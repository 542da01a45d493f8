"""Host folders mounted copy-on-write (issue 18, docs/security.md rule 2): a program's
creates, writes, renames, deletes and MKDIRs change a private copy, never the folder;
the program sees its own changes; --host-dir-writes lets it write the folder."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pcemu.storage import DosError, HostDirDrive, HostDirOverlay
from pcemu.storage.mount import HostFolder, mount_disks


def tree(root: Path) -> dict[str, str]:
    """Every entry under ``root``: files with their SHA-256 and mode, folders, links."""
    out = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            out[name] = "link " + os.readlink(path)
        elif path.is_dir():
            out[name] = "dir"
        else:
            out[name] = hashlib.sha256(path.read_bytes()).hexdigest() + f" {path.stat().st_mode:o}"
    return out


def folder(tmp_path: Path) -> Path:
    root = tmp_path / "folder"
    (root / "SUB" / "DEEP").mkdir(parents=True)
    (root / "readme.txt").write_bytes(b"read me\r\n")
    (root / "DATA.BIN").write_bytes(bytes(range(256)) * 4)
    (root / "SUB" / "IN.TXT").write_bytes(b"inside\r\n")
    (root / "SUB" / "DEEP" / "X.TXT").write_bytes(b"deep\r\n")
    (root / "LOCKED.TXT").write_bytes(b"read-only\r\n")
    os.chmod(root / "LOCKED.TXT", 0o444)
    (root / "long file name.txt").write_bytes(b"invisible to DOS")
    (tmp_path / "secret.txt").write_bytes(b"outside")
    (root / "LINK.TXT").symlink_to(tmp_path / "secret.txt")
    return root


def view(drive, path=()) -> list:
    """What DOS sees of a directory, recursively: names, attributes, sizes, contents."""
    out = []
    for e in drive.listdir(list(path)):
        if e.name in (".", ".."):
            continue
        if e.is_dir:
            out.append((e.name, "dir", view(drive, path + (e.name,))))
        else:
            with drive.open(list(path) + [e.name]) as f:
                out.append((e.name, e.attr, e.size, f.read(1 << 20)))
    return out


def program(drive) -> None:
    """What a program might do: every kind of change (a file read while written, too)."""
    reader = drive.open(["DATA.BIN"])
    assert reader.read(4) == bytes(range(4))
    with drive.open(["DATA.BIN"], writable=True) as f:
        f.seek(4)
        f.write(b"WXYZ")
    reader.close()
    with drive.create(["NEW.TXT"]) as f:
        f.write(b"new\r\n")
    with drive.create(["README.TXT"]) as f:               # re-created: truncated
        f.write(b"again\r\n")
    drive.rename(["NEW.TXT"], ["SUB", "MOVED.TXT"])
    drive.remove(["SUB", "IN.TXT"])
    drive.mkdir(["MADE"])
    with drive.create(["MADE", "M.TXT"]) as f:
        f.write(b"m")
    drive.rename(["SUB"], ["SUB2"])                       # a directory of the folder, renamed
    drive.remove(["SUB2", "DEEP", "X.TXT"])
    drive.rmdir(["SUB2", "DEEP"])
    drive.set_attr(["LOCKED.TXT"], 0x20)                  # no longer read-only
    with drive.open(["LOCKED.TXT"], writable=True) as f:
        f.write(b"W")
    drive.set_attr(["DATA.BIN"], 0x21)
    with pytest.raises(DosError):
        drive.open(["DATA.BIN"], writable=True)
    drive.mkdir(["SUB"])                                  # the old name again: empty
    assert view(drive, ("SUB",)) == []


def test_the_overlay_changes_nothing_in_the_folder_and_shows_the_program_its_changes(tmp_path):
    root = folder(tmp_path)
    before = tree(tmp_path)
    copy = tmp_path.parent / (tmp_path.name + "_copy")
    shutil.copytree(root, copy, symlinks=True)
    through = HostDirDrive(copy)                          # the same, written through
    overlay = HostDirOverlay(root)
    assert view(overlay) == view(through)
    assert not overlay.changed
    program(through)
    program(overlay)
    assert overlay.changed
    assert view(overlay) == view(through)                 # the program sees its changes
    assert [e.name for e in overlay.listdir([])] == [e.name for e in through.listdir([])]
    assert tree(tmp_path) == before                       # byte for byte, modes, links
    with pytest.raises(DosError, match="not empty"):
        overlay.rmdir(["SUB2"])
    upper = overlay._upper
    assert upper is not None and upper.is_dir() and not str(upper).startswith(str(tmp_path))
    overlay.discard()
    assert not upper.exists()
    shutil.rmtree(copy)


def test_the_overlay_is_bounded_and_never_follows_links_out(tmp_path):
    root = folder(tmp_path)
    before = tree(tmp_path)
    drive = HostDirOverlay(root, max_files=4, max_bytes=2000)
    assert "LINK.TXT" not in [e.name for e in drive.listdir([])]
    with pytest.raises(DosError):
        drive.open(["LINK.TXT"])
    with drive.create(["BIG.BIN"]) as f:
        assert f.write(b"x" * 5000) == 2000               # short, as on a full disk
        assert f.write(b"y") == 0
    assert drive.free_space()[2] == 0
    with pytest.raises(DosError, match="full"):
        drive.open(["DATA.BIN"], writable=True)           # 1 KB more does not fit
    drive.remove(["BIG.BIN"])
    for n in range(4):
        drive.create([f"F{n}.TXT"]).close()
    with pytest.raises(DosError, match="full"):
        drive.mkdir(["ONEMORE"])
    assert tree(tmp_path) == before


def test_mount_gives_an_overlay_for_a_host_folder_unless_it_writes(tmp_path):
    root = folder(tmp_path)
    drives = mount_disks([], {"C": HostFolder(root), "D": HostFolder(root, writes=True),
                              "E": str(root)})
    assert type(drives["C"]) is HostDirOverlay
    assert type(drives["D"]) is HostDirDrive and type(drives["E"]) is HostDirDrive


SHELL_KEYS = ("C:{ENTER}COPY README.TXT NEW.TXT{ENTER}REN DATA.BIN DATA2.BIN{ENTER}"
              "DEL SUB\\IN.TXT{ENTER}MD NEWDIR{ENTER}COPY NEW.TXT NEWDIR\\N2.TXT{ENTER}"
              "DIR /W{ENTER}TYPE NEWDIR\\N2.TXT{ENTER}")


def test_shell_copy_del_ren_md_on_an_overlaid_machine(tmp_path):
    from pcemu.machine import Machine
    root = folder(tmp_path)
    before = tree(tmp_path)
    m = Machine(host_dirs={"C": HostFolder(root)})
    m.type(SHELL_KEYS)
    m.run(5)
    screen = m.screen_text()
    assert "NEWDIR" in screen and "DATA2" in screen and "read me" in screen
    assert m.dos.drives["C"].changed
    assert tree(tmp_path) == before


def pcemu(*args):
    from pcemu.cli import main
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_the_command_line_overlays_host_folders_and_says_so(tmp_path):
    root = folder(tmp_path)
    before = tree(tmp_path)
    result = pcemu("boot", "--headless", "--host-dir", f"C:{root}", "--keys", SHELL_KEYS,
                   "--ticks", "3", "--print-screen")
    assert result.exit_code == 0, result.stderr
    assert "NEWDIR" in result.stdout and "read me" in result.stdout
    assert tree(tmp_path) == before
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "were made in a temporary copy" in lines[0]
    assert "the folder was not changed" in lines[0] and "--host-dir-writes" in lines[0]


def test_a_program_run_on_a_folder_changes_a_copy(tmp_path):
    from tests.machine_helpers import assemble
    root = tmp_path / "c"
    root.mkdir()
    # create OUT.TXT, write "hi", close, exit 0
    (root / "MAKE.COM").write_bytes(assemble(
        "mov ah, 0x3c; xor cx, cx; mov dx, name; int 0x21; mov bx, ax; mov ah, 0x40; "
        "mov cx, 2; mov dx, text; int 0x21; mov ah, 0x3e; int 0x21; mov ax, 0x4c00; int 0x21; "
        "name: .asciz \"OUT.TXT\"; text: .ascii \"hi\""))
    before = tree(root)
    quiet = pcemu("run", root, "DIR", "--headless")       # changes nothing: no notice
    assert quiet.exit_code == 0 and quiet.stderr == ""
    result = pcemu("run", root, "MAKE", "--headless", "--keys", "TYPE OUT.TXT{ENTER}",
                   "--ticks", "2", "--print-screen")
    assert result.exit_code == 0, result.stderr
    assert "hi" in result.stdout.split("TYPE OUT.TXT")[-1]
    assert tree(root) == before
    assert "--host-dir-writes" in result.stderr
    writes = pcemu("run", root, "MAKE", "--headless", "--host-dir-writes")
    assert writes.exit_code == 0, writes.stderr
    assert (root / "OUT.TXT").read_bytes() == b"hi" and writes.stderr == ""


def test_record_and_replay_of_a_folder_change_a_copy(tmp_path):
    root = folder(tmp_path)
    session = tmp_path / "run.session"
    recorded = pcemu("record", root, "--headless", "--keys", "COPY README.TXT OUT.TXT{ENTER}",
                     "--ticks", "2", "-o", session)
    assert recorded.exit_code == 0, recorded.stderr
    assert not (root / "OUT.TXT").exists() and "temporary copy" in recorded.stderr
    replayed = pcemu("replay", session, "--host-dir", f"C:{root}")
    assert replayed.exit_code == 0, replayed.stdout + replayed.stderr
    assert not (root / "OUT.TXT").exists() and "temporary copy" in replayed.stderr
    again = pcemu("replay", session, "--host-dir", f"C:{root}", "--host-dir-writes")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert (root / "OUT.TXT").read_bytes() == b"read me\r\n"
