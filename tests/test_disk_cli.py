"""The `disk ls|extract|info` and `import` commands."""

import datetime as dt
import hashlib
import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pcemu.commands.disk import cli
from pcemu.storage.drive import pack_date, pack_time
from pcemu.storage.image import FloppyImage, format_image

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DISKS = REPO_ROOT.parent / "shared" / "disks"


@pytest.fixture
def image(tmp_path):
    stamp = [(pack_date(1988, 3, 2), pack_time(8, 6, 8))]
    img = FloppyImage(format_image("360K", label="CLITEST"))
    vol = img.drive
    vol.clock = lambda: stamp[0]
    for name, data in (("GAME.EXE", b"MZ" + bytes(2000)), ("README.TXT", b"read me\r\n")):
        with vol.create([name]) as f:
            f.write(data)
    vol.mkdir(["SAVES"])
    stamp[0] = (pack_date(1990, 12, 31), pack_time(23, 59, 58))
    with vol.create(["SAVES", "SLOT1.SAV"], attr=0x01) as f:
        f.write(b"saved")
    return img.save(tmp_path / "cli.img")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_info(image):
    result = run("disk", "info", image)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "360K" in out and "40 cylinders, 2 heads, 9 sectors/track" in out
    assert "FAT12" in out and "CLITEST" in out
    assert hashlib.md5(image.read_bytes()).hexdigest() in out
    assert "not a catalogued disk" in out
    assert "349 free" in out          # 354 clusters - GAME.EXE 2, README.TXT 1, SAVES 1, SLOT1.SAV 1


def test_ls_like_dir(image):
    result = run("disk", "ls", image)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == " Volume in drive A is CLITEST"
    assert "GAME     EXE      2002   3-02-88   8:06a  ---A" in lines
    assert "README   TXT         9   3-02-88   8:06a  ---A" in lines
    assert any(line.startswith("SAVES") and "<DIR>" in line for line in lines)
    sub = run("disk", "ls", image, "\\SAVES").output
    assert "SLOT1    SAV         5  12-31-90  11:59p  R--A" in sub
    assert ".        " in sub and "..       " in sub
    only = run("disk", "ls", image, "*.TXT").output
    assert "README" in only and "GAME" not in only
    assert "File not found" in run("disk", "ls", image, "*.BAS").output


def test_ls_errors_are_messages_not_tracebacks(image, tmp_path):
    for args in (("disk", "ls", image, "\\NODIR\\X"), ("disk", "ls", tmp_path / "none.img"),
                 ("disk", "info", "nosuchdisk"), ("disk", "ls", image, "BAD+NAME")):
        result = run(*args)
        assert result.exit_code != 0
        assert result.output.startswith("Error: "), result.output
        assert "Traceback" not in result.output


def test_extract(image, tmp_path):
    out = tmp_path / "out"
    result = run("disk", "extract", image, "*.TXT", "SAVES", "-o", out)
    assert result.exit_code == 0, result.output
    assert (out / "README.TXT").read_bytes() == b"read me\r\n"
    assert (out / "SAVES" / "SLOT1.SAV").read_bytes() == b"saved"
    assert not (out / "GAME.EXE").exists()
    mtime = dt.datetime.fromtimestamp((out / "README.TXT").stat().st_mtime)
    assert mtime == dt.datetime(1988, 3, 2, 8, 6, 8)
    again = run("disk", "extract", image, "README.TXT", "-o", out)
    assert again.exit_code != 0 and "already exists" in again.output
    assert run("disk", "extract", image, "README.TXT", "-o", out, "--force").exit_code == 0
    missing = run("disk", "extract", image, "*.BAS", "-o", out)
    assert missing.exit_code != 0 and "no file matches" in missing.output


def test_import(image, tmp_path, monkeypatch):
    data = image.read_bytes()
    disk = []
    for c in range(40):
        disk.append([[{"c": c, "h": h, "s": s, "l": 512,
                       "d": list(struct.unpack("<128i", data[((c * 2 + h) * 9 + s - 1) * 512:]
                                               [:512]))} for s in range(1, 10)]
                     for h in range(2)])
    src = tmp_path / "cli.json"
    src.write_text(json.dumps({"imageInfo": {"hash": hashlib.md5(data).hexdigest()},
                               "diskData": disk}))
    (tmp_path / "conv").mkdir()
    monkeypatch.chdir(tmp_path / "conv")
    result = run("import", src)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "conv" / "cli.img").read_bytes() == data
    again = run("import", src)
    assert again.exit_code != 0 and "already exists" in again.output
    named = run("import", src, "-o", tmp_path / "named.img")
    assert named.exit_code == 0 and (tmp_path / "named.img").read_bytes() == data
    src.write_text("{not json")
    broken = run("import", src, "-o", tmp_path / "x.img")
    assert broken.exit_code != 0 and "invalid JSON" in broken.output
    # a JSON diskette can be listed directly
    src.write_text(json.dumps({"diskData": disk}))
    assert "README   TXT" in run("disk", "ls", src).output


def test_runs_as_a_module(image):
    proc = subprocess.run([sys.executable, "-m", "pcemu.commands.disk", "disk", "ls", str(image)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "GAME     EXE" in proc.stdout


@pytest.mark.originals
def test_on_disk_1612(tmp_path):
    if not (SHARED_DISKS / "DISK1612.img").is_file():
        pytest.skip(f"original disk image not available in {SHARED_DISKS}")
    before = hashlib.md5((SHARED_DISKS / "DISK1612.img").read_bytes()).hexdigest()
    listing = run("disk", "ls", "1612").output
    assert "GINRUMMY EXE    104046  11-18-88  11:06p  ---A" in listing
    assert "9 File(s)     70656 bytes free" in listing
    info = run("disk", "info", "1612").output
    assert "1612: PC-SIG Library Disk #1612" in info and "GINRUMMY.EXE" in info
    assert run("disk", "extract", "1612", "GO.BAT", "-o", tmp_path).exit_code == 0
    table = json.loads((SHARED_DISKS / "DISK1612.json").read_text())["fileTable"]
    go = next(t for t in table if t["path"] == "/GO.BAT")
    assert hashlib.md5((tmp_path / "GO.BAT").read_bytes()).hexdigest() == go["hash"]
    assert hashlib.md5((SHARED_DISKS / "DISK1612.img").read_bytes()).hexdigest() == before
