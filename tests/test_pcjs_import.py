"""PCjs diskette JSON -> raw image: byte-for-byte on the real disk, round trips
through a test-side encoder, and clear errors for malformed files."""

import hashlib
import json
import random
import struct
from pathlib import Path

import pytest

from pcemu.storage.errors import ImageError
from pcemu.storage.image import FloppyImage, format_image
from pcemu.storage.pcjs import PcjsFormatError, import_pcjs, load_pcjs, pcjs_to_image

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DISKS = REPO_ROOT.parent / "shared" / "disks"


def encode_v2(image: bytes, cylinders: int, heads: int, spt: int, shuffle_seed=None) -> dict:
    """A PCjs v2 document for a raw image, written the way PCjs writes them:
    signed 32-bit words, trailing repeats of the last word dropped."""
    rng = random.Random(shuffle_seed)
    disk = []
    for c in range(cylinders):
        cyl = []
        for h in range(heads):
            track = []
            for s in range(1, spt + 1):
                lba = (c * heads + h) * spt + s - 1
                words = list(struct.unpack("<128i", image[lba * 512:(lba + 1) * 512]))
                while len(words) > 1 and words[-1] == words[-2]:
                    words.pop()
                track.append({"c": c, "h": h, "s": s, "l": 512, "d": words})
            if shuffle_seed is not None:
                rng.shuffle(track)           # interleaved sector order within the track
            cyl.append(track)
        disk.append(cyl)
    info = {"type": "CHS", "cylinders": cylinders, "heads": heads, "trackDefault": spt,
            "sectorDefault": 512, "diskSize": len(image),
            "hash": hashlib.md5(image).hexdigest()}
    return {"imageInfo": info, "diskData": disk}


@pytest.fixture
def sample_image():
    img = FloppyImage(format_image("360K", label="SAMPLE"))
    with img.drive.create(["DATA.BIN"]) as f:
        f.write(bytes(range(256)) * 40 + b"\xff" * 600)
    return img.data()


@pytest.mark.originals
def test_disk1612_json_converts_byte_for_byte():
    json_path, img_path = SHARED_DISKS / "DISK1612.json", SHARED_DISKS / "DISK1612.img"
    if not json_path.is_file() or not img_path.is_file():
        pytest.skip(f"original disk files not available in {SHARED_DISKS}")
    data = load_pcjs(json_path)
    assert hashlib.md5(data).hexdigest() == "a8486b237abdfb4ccee8ab6b1c5c7369"
    assert data == img_path.read_bytes()


def test_round_trip_with_interleaved_sectors(sample_image):
    doc = encode_v2(sample_image, 40, 2, 9, shuffle_seed=1612)
    assert pcjs_to_image(json.loads(json.dumps(doc))) == sample_image


def test_version_1_bare_array_with_pattern(sample_image):
    """PCjs 1.0: no imageInfo, 'sector'/'data' keys, the tail given as 'pattern'."""
    doc = []
    for c in range(40):
        cyl = []
        for h in range(2):
            track = []
            for s in range(1, 10):
                lba = (c * 2 + h) * 9 + s - 1
                words = list(struct.unpack("<128i", sample_image[lba * 512:(lba + 1) * 512]))
                fill = words[-1]
                while words and words[-1] == fill:
                    words.pop()
                track.append({"sector": s, "data": words, "pattern": fill})
            cyl.append(track)
        doc.append(cyl)
    assert pcjs_to_image(doc) == sample_image


def test_oldest_byte_arrays():
    image = bytearray(format_image("160K"))
    doc = []
    for c in range(40):
        track = []
        for s in range(1, 9):
            lba = c * 8 + s - 1
            raw = list(image[lba * 512:(lba + 1) * 512])
            while raw and raw[-1] == 0:
                raw.pop()
            track.append({"sector": s, "bytes": raw})
        doc.append([track])
    assert pcjs_to_image(doc) == bytes(image)


def _broken(sample_image, edit):
    doc = encode_v2(sample_image, 40, 2, 9)
    edit(doc)
    return doc


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("diskData"), "no 'diskData'"),
    (lambda d: d["diskData"][3][1][2].pop("d"), "no data array"),
    (lambda d: d["diskData"][0][0][0]["d"].extend([0] * 200), "more than its 512 bytes"),
    (lambda d: d["diskData"][0][0][0]["d"].__setitem__(0, 2 ** 33), "not 32-bit"),
    (lambda d: d["diskData"][0][0][0]["d"].__setitem__(0, "12"), "should be an integer"),
    (lambda d: d["diskData"][5][0][1].__setitem__("s", 1), "sector 1 twice"),
    (lambda d: d["diskData"][5][0][8].__setitem__("s", 12), "not a regular track"),
    (lambda d: d["diskData"][7][1].pop(), "differs from the first track"),
    (lambda d: d["diskData"][9][0][0]["d"].__setitem__(0, 12345), "damaged"),
    (lambda d: d["imageInfo"].__setitem__("cylinders", 80), "cylinders = 80"),
    (lambda d: d["diskData"].__setitem__(2, "x"), "cylinder 2 is not a list"),
])
def test_malformed_documents_give_clear_errors(sample_image, edit, message):
    with pytest.raises(PcjsFormatError, match=message) as info:
        pcjs_to_image(_broken(sample_image, edit), "disk.json")
    assert "disk.json is not a usable PCjs diskette" in str(info.value)


def test_malformed_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"imageInfo": {}, "diskData": [[[{"s": 1, ')
    with pytest.raises(PcjsFormatError, match=r"invalid JSON at line 1 column \d+"):
        load_pcjs(bad)
    bad.write_text("42")
    with pytest.raises(PcjsFormatError, match="neither an object nor a list"):
        load_pcjs(bad)
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PcjsFormatError, match="not UTF-8"):
        load_pcjs(bad)
    with pytest.raises(PcjsFormatError, match="does not exist"):
        load_pcjs(tmp_path / "missing.json")


def test_import_writes_an_image_and_will_not_overwrite(sample_image, tmp_path):
    src = tmp_path / "sample.json"
    src.write_text(json.dumps(encode_v2(sample_image, 40, 2, 9)))
    out = import_pcjs(src, tmp_path / "sample.img")
    assert out.read_bytes() == sample_image
    with pytest.raises(ImageError, match="already exists"):
        import_pcjs(src, out)
    assert FloppyImage.open(out).drive.volume_label == "SAMPLE"
