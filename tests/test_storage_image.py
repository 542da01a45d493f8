"""Raw diskette images: layout detection, the FAT engine's DOS semantics, the
copy-on-write overlay, sector access, and cross-checks with pyfatfs."""

import hashlib
import json
import struct
import warnings
from pathlib import Path

import pytest

from pcemu.storage.drive import (
    ATTR_ARCHIVE, ATTR_DIRECTORY, ATTR_READ_ONLY, ATTR_VOLUME, pack_date, pack_time,
)
from pcemu.storage.errors import DosError, ImageError
from pcemu.storage.image import FloppyImage, format_image
from pcemu.storage.layout import Bpb

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DISKS = REPO_ROOT.parent / "shared" / "disks"
SECTOR = 512

# Cluster counts DOS FORMAT gives each standard diskette (data sectors / cluster size).
STANDARD = {
    "160K": ((40, 1, 8), 313, 512), "180K": ((40, 1, 9), 351, 512),
    "320K": ((40, 2, 8), 315, 1024), "360K": ((40, 2, 9), 354, 1024),
    "720K": ((80, 2, 9), 713, 1024), "1200K": ((80, 2, 15), 2371, 512),
    "1440K": ((80, 2, 18), 2847, 512),
}


@pytest.fixture
def disk1612():
    path = SHARED_DISKS / "DISK1612.img"
    if not path.is_file():
        pytest.skip(f"original disk image not available at {path}")
    return path


def mount(fmt="360K", **kw):
    return FloppyImage(format_image(fmt, **kw), name=f"blank {fmt}")


def pyfat_files(path: Path) -> dict[str, bytes]:
    """Every file pyfatfs finds in an image: an independent FAT reader."""
    from pyfatfs.PyFatFS import PyFatFS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fs = PyFatFS(str(path), read_only=True)
    try:
        return {p: fs.readbytes(p) for p in fs.walk.files("/")}
    finally:
        fs.close()


def write_file(vol, path, data, attr=0):
    with vol.create(path, attr) as f:
        assert f.write(data) == len(data)


def root_entry_bytes(img, slot):
    lay = img.layout
    raw = img.read_sectors(lay.root_start, lay.root_sectors)
    return raw[slot * 32:(slot + 1) * 32]


# ------------------------------------------------------------------ layouts
@pytest.mark.parametrize("fmt", list(STANDARD))
def test_standard_formats(fmt):
    (cyl, heads, spt), clusters, cluster_bytes = STANDARD[fmt]
    img = mount(fmt)
    assert img.layout.format_name == fmt
    assert img.layout.from_boot_sector
    assert img.layout.fat_type == 12
    assert (img.cylinders, img.heads, img.sectors_per_track) == (cyl, heads, spt)
    assert img.size_kb * 1024 == cyl * heads * spt * SECTOR
    spc, bps, free, total = img.drive.free_space()
    assert (total, free, spc * bps) == (clusters, clusters, cluster_bytes)
    assert img.drive.listdir([]) == []
    assert img.drive.volume_label is None


def test_geometry_chs_round_trip():
    geo = mount("1440K").geometry
    assert geo.chs_to_lba(0, 0, 1) == 0
    assert geo.chs_to_lba(0, 1, 1) == 18
    assert geo.chs_to_lba(1, 0, 1) == 36
    for lba in (0, 17, 18, 35, 36, 2879):
        assert geo.chs_to_lba(*geo.lba_to_chs(lba)) == lba
    with pytest.raises(ValueError):
        geo.chs_to_lba(0, 0, 19)
    with pytest.raises(ValueError):
        geo.chs_to_lba(80, 0, 1)


def build_dos1_disk() -> bytes:
    """A DOS 1.x 160K disk built byte by byte: no BPB, FAT at sector 1 with
    media FEh, one 600-byte file HELLO.TXT in clusters 2 and 3."""
    image = bytearray(40 * 8 * SECTOR)
    for fat in (1, 2):
        # entries 0,1 = FFE,FFF; entry 2 -> 3; entry 3 = FFF (end of chain)
        image[fat * SECTOR:fat * SECTOR + 6] = bytes([0xFE, 0xFF, 0xFF, 0x03, 0xF0, 0xFF])
    root = 3 * SECTOR  # after the boot sector and two 1-sector FATs
    image[root:root + 32] = struct.pack("<11sB10sHHHI", b"HELLO   TXT", 0x20, bytes(10),
                                        pack_time(12, 30, 0), pack_date(1982, 5, 1), 2, 600)
    data = 7 * SECTOR  # root directory: 64 entries = 4 sectors
    content = bytes(range(256)) * 2 + b"x" * 88
    image[data:data + 600] = content
    return bytes(image)


def test_dos1_disk_without_bpb_is_recognised_by_size_and_media_byte():
    img = FloppyImage(build_dos1_disk())
    assert not img.layout.from_boot_sector
    assert img.layout.format_name == "160K"
    assert [e.name for e in img.drive.listdir([])] == ["HELLO.TXT"]
    data = img.drive.read_file(["HELLO.TXT"])
    assert data == bytes(range(256)) * 2 + b"x" * 88
    write_file(img.drive, ["NEW.DAT"], b"n" * 1000)
    assert img.drive.read_file(["NEW.DAT"]) == b"n" * 1000
    assert img.drive.free_space()[2] == 313 - 2 - 2


@pytest.mark.parametrize("fmt", ["160K", "320K", "360K"])
def test_formatted_disk_with_boot_sector_wiped_still_mounts(fmt):
    data = bytearray(format_image(fmt))
    data[:SECTOR] = bytes(SECTOR)
    img = FloppyImage(bytes(data))
    assert not img.layout.from_boot_sector
    assert img.drive.free_space()[2] == STANDARD[fmt][1]


def test_not_a_disk_image_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ImageError, match="320K"):
        FloppyImage(bytes(327680), name="zeros.img")
    with pytest.raises(ImageError, match="not a whole number"):
        FloppyImage(b"hello", name="tiny.img")
    odd = bytearray(format_image("360K"))[:300 * SECTOR]
    with pytest.raises(ImageError, match="only"):
        FloppyImage(bytes(odd), name="cut.img")
    with pytest.raises(ImageError, match="does not exist"):
        FloppyImage.open(tmp_path / "missing.img")


def build_fat16_volume() -> bytes:
    """A 4.5 MB volume whose cluster count makes it FAT16."""
    bpb = Bpb(512, 1, 1, 2, 512, 9000, 0xF8, 36, 18, 2)
    image = bytearray(9000 * SECTOR)
    image[0:3] = b"\xeb\x3c\x90"
    image[0x0B:0x24] = bpb.pack()
    image[510:512] = b"\x55\xaa"
    for i in range(2):
        start = (1 + i * 36) * SECTOR
        image[start:start + 4] = b"\xf8\xff\xff\xff"
    return bytes(image)


def test_fat16_volume(tmp_path):
    img = FloppyImage(build_fat16_volume())
    assert img.layout.fat_type == 16
    assert img.geometry.cylinders == 250
    total = img.drive.free_space()[3]
    assert total == 9000 - 1 - 72 - 32
    files = {("BIG.BIN",): bytes(range(256)) * 400, ("SMALL.TXT",): b"small"}
    img.drive.mkdir(["D"])
    files[("D", "IN.DAT")] = b"\x01\x02" * 3000
    for path, data in files.items():
        write_file(img.drive, list(path), data)
    out = img.save(tmp_path / "fat16.img")
    seen = pyfat_files(out)
    assert seen == {"/" + "/".join(p): d for p, d in files.items()}


# ----------------------------------------------------------- file contents
@pytest.mark.parametrize("fmt", ["160K", "320K", "360K", "720K", "1200K", "1440K"])
def test_files_written_here_read_back_by_pyfatfs(fmt, tmp_path):
    img = mount(fmt)
    vol = img.drive
    bpc = vol.layout.bytes_per_cluster
    files = {
        ("EMPTY.TXT",): b"",
        ("ONE.BIN",): bytes(range(256)) * (bpc // 256),          # exactly one cluster
        ("ODD.DAT",): b"odd" * 1001,
        ("BIG.EXE",): bytes((i * 7) & 0xFF for i in range(30000)),
    }
    vol.mkdir(["SUB"])
    vol.mkdir(["SUB", "DEEPER"])
    files[("SUB", "A.TXT")] = b"in a subdirectory\r\n"
    files[("SUB", "DEEPER", "B.TXT")] = b"b" * (bpc + 1)
    for path, data in files.items():
        write_file(vol, list(path), data)
    for path, data in files.items():
        assert vol.read_file(list(path)) == data
    seen = pyfat_files(img.save(tmp_path / f"{fmt}.img"))
    assert seen == {"/" + "/".join(p): d for p, d in files.items()}
    used = sum(-(-len(d) // bpc) for d in files.values()) + 2  # two directories
    assert vol.free_space()[2] == STANDARD[fmt][1] - used


def test_grow_overwrite_and_truncate():
    vol = mount("360K").drive  # 1024-byte clusters, 354 of them
    f = vol.create(["F.DAT"])
    f.write(b"a" * 3000)
    assert vol.free_space()[2] == 354 - 3
    f.seek(1000)
    f.write(b"B" * 10)
    f.seek(5000)                      # beyond the end: the file grows over the gap
    f.write(b"end")
    assert f.size == 5003
    assert vol.free_space()[2] == 354 - 5
    f.seek(1500)
    f.truncate()
    assert f.size == 1500
    assert vol.free_space()[2] == 354 - 2
    f.close()
    data = vol.read_file(["F.DAT"])
    assert data == b"a" * 1000 + b"B" * 10 + b"a" * 490
    with vol.open(["F.DAT"], writable=True) as g:
        g.seek(0)
        g.truncate()
        assert g.size == 0
    assert vol.stat(["F.DAT"]).size == 0
    assert vol.free_space()[2] == 354
    with vol.open(["F.DAT"], writable=True) as g:
        g.seek(2500)
        g.truncate()                  # a zero-byte write past the end extends the file
    assert vol.stat(["F.DAT"]).size == 2500
    assert vol.free_space()[2] == 354 - 3


def test_read_past_end_and_positions():
    vol = mount().drive
    write_file(vol, ["X.TXT"], b"0123456789")
    with vol.open(["X.TXT"]) as f:
        assert f.read(4) == b"0123"
        assert f.tell() == 4
        assert f.read(100) == b"456789"
        assert f.read(1) == b""
        f.seek(8)
        assert f.read(5) == b"89"


def test_disk_full_gives_a_short_write():
    vol = mount("160K").drive
    big = b"z" * (313 * 512 + 100)
    with vol.create(["FULL.BIN"]) as f:
        assert f.write(big) == 313 * 512
    assert vol.stat(["FULL.BIN"]).size == 313 * 512
    assert vol.free_space()[2] == 0
    with vol.create(["MORE.BIN"]) as f:
        assert f.write(b"x") == 0


# ------------------------------------------------------------- directories
def test_delete_marks_e5_and_create_reuses_the_first_free_slot():
    img = mount()
    vol = img.drive
    for name in ("A.TXT", "B.TXT", "C.TXT"):
        write_file(vol, [name], name.encode())
    vol.remove(["B.TXT"])
    assert root_entry_bytes(img, 1)[0] == 0xE5
    assert root_entry_bytes(img, 1)[1:11] == b"       TXT"   # the rest is left as it was
    assert [(e.name, e.slot) for e in vol.listdir([])] == [("A.TXT", 0), ("C.TXT", 2)]
    write_file(vol, ["D.TXT"], b"d")
    assert [e.name for e in vol.listdir([])] == ["A.TXT", "D.TXT", "C.TXT"]


def test_subdirectory_grows_and_root_does_not():
    vol = mount("360K").drive  # a 1024-byte cluster holds 32 entries
    vol.mkdir(["SUB"])
    for i in range(40):
        write_file(vol, ["SUB", f"F{i}.TXT"], b"")
    names = [e.name for e in vol.listdir(["SUB"])]
    assert names[:2] == [".", ".."]
    assert names[2:] == [f"F{i}.TXT" for i in range(40)]
    assert vol.free_space()[2] == 354 - 2         # the directory took a second cluster
    small = mount("160K").drive                   # 64 root entries
    small.set_volume_label("LABEL")
    for i in range(63):
        write_file(small, [f"R{i}"], b"")
    with pytest.raises(DosError) as info:
        small.create(["ONEMORE"])
    assert info.value.code == 5


def test_mkdir_dot_entries_and_rmdir():
    img = mount()
    vol = img.drive
    vol.mkdir(["A"])
    vol.mkdir(["A", "B"])
    a = vol.listdir([])[0]
    assert a.attr == ATTR_DIRECTORY and a.size == 0
    inner = vol.listdir(["A", "B"])
    assert [e.name for e in inner] == [".", ".."]
    # ".." of A\B points at A's first cluster; "." at its own
    sub_b = vol.cluster_offset(vol.first_cluster(["A", "B"]))
    raw = img.data()[sub_b:sub_b + 64]
    assert struct.unpack_from("<H", raw, 32 + 26)[0] == vol.first_cluster(["A"])
    assert struct.unpack_from("<H", raw, 26)[0] == vol.first_cluster(["A", "B"])
    with pytest.raises(DosError) as info:
        vol.rmdir(["A"])
    assert info.value.code == 5
    vol.rmdir(["A", "B"])
    vol.rmdir(["A"])
    assert vol.listdir([]) == []
    assert vol.free_space()[2] == 354


def test_dos_error_codes():
    vol = mount().drive
    write_file(vol, ["RO.TXT"], b"x", attr=ATTR_READ_ONLY)
    write_file(vol, ["F.TXT"], b"x")
    vol.mkdir(["D"])
    cases = [
        (lambda: vol.open(["NONE.TXT"]), 2),
        (lambda: vol.open(["NODIR", "X.TXT"]), 3),
        (lambda: vol.open(["F.TXT", "X.TXT"]), 3),
        (lambda: vol.open(["D"]), 5),
        (lambda: vol.open(["RO.TXT"], writable=True), 5),
        (lambda: vol.create(["RO.TXT"]), 5),
        (lambda: vol.create(["D"]), 5),
        (lambda: vol.create(["F.TXT"], exclusive=True), 0x50),
        (lambda: vol.create(["X.TXT"], ATTR_DIRECTORY), 5),
        (lambda: vol.remove(["RO.TXT"]), 5),
        (lambda: vol.remove(["D"]), 5),
        (lambda: vol.remove(["NONE.TXT"]), 2),
        (lambda: vol.rmdir(["F.TXT"]), 3),
        (lambda: vol.mkdir(["F.TXT"]), 5),
        (lambda: vol.rename(["F.TXT"], ["RO.TXT"]), 5),
        (lambda: vol.rename(["NONE.TXT"], ["X.TXT"]), 2),
        (lambda: vol.set_attr(["F.TXT"], ATTR_DIRECTORY), 5),
        (lambda: vol.listdir(["F.TXT"]), 3),
        (lambda: vol.stat(["NODIR", "X"]), 3),
    ]
    for call, code in cases:
        with pytest.raises(DosError) as info:
            call()
        assert info.value.code == code, info.value
    assert vol.stat(["NONE.TXT"]) is None
    with vol.open(["F.TXT"]) as f:
        with pytest.raises(DosError) as info:
            f.write(b"no")
        assert info.value.code == 5


def test_create_stamps_attributes_and_dates_from_the_clock():
    img = mount()
    vol = img.drive
    now = [(pack_date(1988, 11, 18), pack_time(23, 6, 2))]
    vol.clock = lambda: now[0]
    f = vol.create(["NEW.TXT"], ATTR_READ_ONLY)
    raw = root_entry_bytes(img, 0)
    assert raw[11] == ATTR_READ_ONLY | ATTR_ARCHIVE
    assert raw[12:22] == bytes(10)                     # DOS 3 leaves these zero
    assert struct.unpack_from("<HH", raw, 22) == (now[0][1], now[0][0])
    now[0] = (pack_date(1989, 1, 2), pack_time(3, 4, 6))
    f.write(b"later")
    f.close()
    e = vol.stat(["NEW.TXT"])
    assert (e.date, e.time, e.size) == (*now[0], 5)
    vol.set_attr(["NEW.TXT"], 0)
    with vol.open(["NEW.TXT"], writable=True) as g:
        g.set_datetime(pack_date(2000, 2, 29), pack_time(1, 2, 4))
        g.write(b"!")
        assert g.get_datetime() == (pack_date(2000, 2, 29), pack_time(1, 2, 4))
    e = vol.stat(["NEW.TXT"])
    assert (e.date, e.time, e.attr) == (pack_date(2000, 2, 29), pack_time(1, 2, 4), ATTR_ARCHIVE)


def test_rename_in_place_and_across_directories():
    vol = mount().drive
    write_file(vol, ["A.TXT"], b"a")
    write_file(vol, ["B.TXT"], b"b")
    vol.mkdir(["D"])
    vol.rename(["A.TXT"], ["Z.TXT"])
    assert [(e.name, e.slot) for e in vol.listdir([])][0] == ("Z.TXT", 0)
    vol.rename(["B.TXT"], ["D", "MOVED.TXT"])
    assert vol.read_file(["D", "MOVED.TXT"]) == b"b"
    assert vol.stat(["B.TXT"]) is None
    vol.rename(["D"], ["E"])
    assert vol.read_file(["E", "MOVED.TXT"]) == b"b"
    vol.mkdir(["F"])
    with pytest.raises(DosError) as info:
        vol.rename(["E"], ["F", "E"])
    assert info.value.code == 5


def test_volume_label():
    img = mount("720K", label="games disk")
    vol = img.drive
    assert vol.volume_label == "GAMES DISK"
    label = vol.listdir([])[0]
    assert label.attr & ATTR_VOLUME
    assert vol.stat(["GAMES"]) is None                 # labels are not files
    write_file(vol, ["GAMES"], b"a file may share the label's name")
    vol.set_volume_label("NEW")
    assert vol.volume_label == "NEW"
    vol.set_volume_label(None)
    assert vol.volume_label is None
    assert [e.name for e in vol.listdir([])] == ["GAMES"]


# ------------------------------------------------------- overlay, sectors
def test_sector_view_and_file_view_agree():
    img = mount()
    vol = img.drive
    write_file(vol, ["S.BIN"], b"\x11" * 2048)
    cluster = vol.first_cluster(["S.BIN"])
    lba = img.layout.data_start + (cluster - 2) * 2
    assert img.read_sectors(lba, 1) == b"\x11" * 512
    with vol.open(["S.BIN"]) as f:
        assert f.read(4) == b"\x11" * 4
        img.write_sectors(lba, b"\x22" * 512)        # a BIOS write under an open file
        assert f.read(4) == b"\x22" * 4
    # rename through the root directory sector: DOS sees the new name
    root = bytearray(img.read_sectors(img.layout.root_start, 1))
    root[0:11] = b"RENAMED BIN"
    img.write_sectors(img.layout.root_start, bytes(root))
    assert [e.name for e in vol.listdir([])] == ["RENAMED.BIN"]
    with pytest.raises(ValueError):
        img.read_sectors(img.total_sectors - 1, 2)
    with pytest.raises(ValueError):
        img.write_sectors(0, b"short")


def test_corrupt_chain_is_a_dos_error_not_a_crash():
    img = mount()
    vol = img.drive
    write_file(vol, ["LOOP.BIN"], b"x" * 3000)
    first = vol.first_cluster(["LOOP.BIN"])
    # Through the sector view, as a program using INT 13h could: make the
    # file's last cluster (first + 2) link back to its first.
    lay = img.layout
    fat = bytearray(img.read_sectors(lay.fat_start, lay.bpb.sectors_per_fat))
    n = first + 2
    off = n + n // 2
    word = struct.unpack_from("<H", fat, off)[0]
    word = (word & 0x000F) | (first << 4) if n & 1 else (word & 0xF000) | first
    struct.pack_into("<H", fat, off, word)
    img.write_sectors(lay.fat_start, bytes(fat))
    with pytest.raises(DosError) as info:
        vol.read_file(["LOOP.BIN"])
    assert info.value.code == 0x1F and "loops" in info.value.message


def test_source_is_never_modified_and_save_writes_a_new_image(tmp_path):
    prepared = FloppyImage(format_image("360K", label="ORIGINAL"))
    write_file(prepared.drive, ["KEEP.TXT"], b"keep")
    src = prepared.save(tmp_path / "source.img")
    digest = hashlib.md5(src.read_bytes()).hexdigest()

    img = FloppyImage.open(src)
    vol = img.drive
    write_file(vol, ["NEW.TXT"], b"new file")
    with vol.open(["KEEP.TXT"], writable=True) as f:
        f.write(b"KEEP and more")
    vol.mkdir(["DIR"])
    assert img.modified
    assert hashlib.md5(src.read_bytes()).hexdigest() == digest == img.source_md5
    with pytest.raises(ImageError, match="refusing to overwrite"):
        img.save(src)

    out = img.save(tmp_path / "out" / "changed.img")
    reread = FloppyImage.open(out)
    assert reread.drive.read_file(["KEEP.TXT"]) == b"KEEP and more"
    assert reread.drive.volume_label == "ORIGINAL"
    changes = {c.path: c for c in img.changes()}
    assert set(changes) == {"\\NEW.TXT", "\\KEEP.TXT", "\\DIR"}
    assert (changes["\\NEW.TXT"].status, changes["\\NEW.TXT"].new_size) == ("new", 8)
    keep = changes["\\KEEP.TXT"]
    assert (keep.status, keep.old_size, keep.new_size) == ("changed", 4, 13)
    assert "data" in keep.detail
    vol.remove(["NEW.TXT"])
    vol.remove(["KEEP.TXT"])
    changes = {c.path: c for c in img.changes()}
    assert changes["\\KEEP.TXT"].status == "deleted" and changes["\\KEEP.TXT"].old_size == 4
    assert "\\NEW.TXT" not in changes
    assert hashlib.md5(src.read_bytes()).hexdigest() == digest


def test_read_only_image_refuses_writes():
    img = FloppyImage(format_image("360K"), read_only=True)
    with pytest.raises(DosError) as info:
        img.drive.create(["X.TXT"])
    assert info.value.code == 0x13
    with pytest.raises(DosError):
        img.write_sectors(0, bytes(512))
    assert not img.modified


# --------------------------------------------------------- the original disk
@pytest.mark.originals
def test_disk1612_matches_the_pcjs_file_table(disk1612):
    table = json.loads((disk1612.parent / "DISK1612.json").read_text())["fileTable"]
    img = FloppyImage.open(disk1612)
    vol = img.drive
    assert img.geometry.cylinders == 40 and img.layout.fat_type == 12
    assert vol.volume_label == "DISK1612"
    entries = vol.listdir([])
    assert [e.name for e in entries] == [t["path"].lstrip("/") for t in table]
    for e, t in zip(entries, table):
        assert e.attr == int(t["attr"], 16)
        stamp = "%04d-%02d-%02d %02d:%02d:%02d" % (
            1980 + (e.date >> 9), (e.date >> 5) & 15, e.date & 31,
            e.time >> 11, (e.time >> 5) & 63, (e.time & 31) * 2)
        assert stamp == t["date"]
        if "hash" in t:
            assert e.size == t["size"]
            assert hashlib.md5(vol.read_file([e.name])).hexdigest() == t["hash"]
    vol_table = json.loads((disk1612.parent / "DISK1612.json").read_text())["volTable"][0]
    assert vol.free_space()[2:] == (vol_table["clusFree"], vol_table["clusTotal"])


@pytest.mark.originals
def test_disk1612_source_unchanged_after_writes(disk1612, tmp_path):
    before = hashlib.md5(disk1612.read_bytes()).hexdigest()
    img = FloppyImage.open(disk1612)
    vol = img.drive
    for i in range(1, 4):
        write_file(vol, [f"TREE{i}.EZT"], bytes([i]) * 5000)
    vol.remove(["GO.BAT"])
    with vol.open(["GO.TXT"], writable=True) as f:
        f.seek(f.size)
        f.write(b"\r\nappended\r\n")
    assert hashlib.md5(disk1612.read_bytes()).hexdigest() == before == img.source_md5
    out = img.save(tmp_path / "DISK1612-played.img")
    seen = pyfat_files(out)
    assert seen["/TREE2.EZT"] == b"\x02" * 5000
    assert "/GO.BAT" not in seen and seen["/GO.TXT"].endswith(b"appended\r\n")
    report = {(c.path, c.status) for c in img.changes()}
    assert report == {("\\TREE1.EZT", "new"), ("\\TREE2.EZT", "new"), ("\\TREE3.EZT", "new"),
                      ("\\GO.BAT", "deleted"), ("\\GO.TXT", "changed")}


def test_drive_paths_must_be_canonical_components():
    vol = mount().drive
    for bad in (["foo.txt"], ["."], [".."], ["A B"], ["TOOLONGNAME"], ["X.TXT", ""]):
        with pytest.raises(DosError) as info:
            vol.stat(bad)
        assert info.value.code == 3
    # a cp437 name byte above 7Fh is canonical as DOS packs it (not upper-cased)
    write_file(vol, ["CAF\u00e9.TXT"], b"x")
    assert vol.listdir([])[0].name == "CAF\u00e9.TXT"
    assert vol.read_file(["CAF\u00e9.TXT"]) == b"x"
