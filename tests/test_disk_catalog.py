"""The disk catalogue: search order, name forms, MD5 checks and error messages."""

import hashlib
import os
from pathlib import Path

import pytest

from disks import catalog
from disks.catalog import CATALOG, CatalogDisk, DiskError, find_disk, identify, search_folders
from pcemu.storage.image import format_image

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A fake repository, shared folder, working directory and catalogue entry."""
    repo = tmp_path / "repo"
    (repo / "disks").mkdir(parents=True)
    (tmp_path / "shared" / "disks").mkdir(parents=True)
    work = tmp_path / "elsewhere" / "work"
    work.mkdir(parents=True)
    (tmp_path / "elsewhere" / "shared" / "disks").mkdir(parents=True)
    env_dir = tmp_path / "env-disks"
    env_dir.mkdir()
    monkeypatch.setattr(catalog, "REPO_ROOT", repo)
    monkeypatch.chdir(work)
    monkeypatch.setenv("PCEMU_DISK_PATH", str(env_dir))
    good = format_image("360K", label="TEST9999")
    entry = CatalogDisk("9999", "TEST9999.img", hashlib.md5(good).hexdigest(), len(good),
                        "A test disk", ())
    monkeypatch.setitem(CATALOG, "9999", entry)
    return {
        "repo": repo / "disks", "env": env_dir, "shared": tmp_path / "shared" / "disks",
        "cwd_shared": tmp_path / "elsewhere" / "shared" / "disks", "good": good,
    }


def test_search_order(sandbox):
    folders = [os.path.realpath(f) for f in search_folders()]
    expected = [sandbox[k] for k in ("repo", "env", "shared", "cwd_shared")]
    assert folders == [os.path.realpath(f) for f in expected]


@pytest.mark.parametrize("holder", ["repo", "env", "shared", "cwd_shared"])
def test_found_in_each_folder(sandbox, holder):
    (sandbox[holder] / "TEST9999.img").write_bytes(sandbox["good"])
    assert find_disk("9999") == sandbox[holder] / "TEST9999.img"


def test_earlier_folder_wins_and_bad_copies_are_skipped(sandbox):
    for holder in ("env", "shared"):
        (sandbox[holder] / "TEST9999.img").write_bytes(sandbox["good"])
    assert find_disk("9999") == sandbox["env"] / "TEST9999.img"
    damaged = bytearray(sandbox["good"])
    damaged[5000] ^= 0xFF
    (sandbox["repo"] / "TEST9999.img").write_bytes(damaged)
    assert find_disk("9999") == sandbox["env"] / "TEST9999.img"


def test_name_forms_and_case_insensitive_file_names(sandbox):
    (sandbox["shared"] / "test9999.IMG").write_bytes(sandbox["good"])
    for name in ("9999", "DISK9999", "disk9999", "#9999", "TEST9999.img"):
        assert find_disk(name).name == "test9999.IMG"


def test_only_a_damaged_copy(sandbox):
    damaged = bytearray(sandbox["good"])
    damaged[100] ^= 1
    (sandbox["shared"] / "TEST9999.img").write_bytes(damaged)
    with pytest.raises(DiskError) as info:
        find_disk("9999")
    text = str(info.value)
    assert str(sandbox["shared"] / "TEST9999.img") in text
    assert hashlib.md5(damaged).hexdigest() in text and "damaged" in text


def test_missing_disk_lists_every_folder_searched(sandbox):
    with pytest.raises(DiskError) as info:
        find_disk("9999")
    text = str(info.value)
    for key in ("repo", "env", "shared", "cwd_shared"):
        assert str(sandbox[key]) in text
    assert "PCEMU_DISK_PATH" in text


def test_unknown_name(sandbox):
    with pytest.raises(DiskError, match="unknown disk 'NOPE'.*1612.*9999"):
        find_disk("NOPE")


def test_paths_are_used_directly_after_a_sanity_check(sandbox, tmp_path):
    image = tmp_path / "mine.img"
    image.write_bytes(sandbox["good"])
    assert find_disk(str(image)) == image
    assert find_disk(image) == image
    junk = tmp_path / "junk.img"
    junk.write_bytes(os.urandom(327680))
    with pytest.raises(DiskError, match="junk.img.*320K"):
        find_disk(junk)
    text = tmp_path / "notes.img"
    text.write_bytes(b"not a disk at all")
    with pytest.raises(DiskError, match="not a whole number of 512-byte sectors"):
        find_disk(text)
    with pytest.raises(DiskError, match="does not exist"):
        find_disk(tmp_path / "missing.img")
    with pytest.raises(DiskError, match="is a folder"):
        find_disk(tmp_path / "repo")


def test_identify(sandbox, tmp_path):
    image = tmp_path / "x.img"
    image.write_bytes(sandbox["good"])
    assert identify(image).name == "9999"
    image.write_bytes(format_image("720K"))
    assert identify(image) is None


@pytest.mark.originals
def test_real_catalogue_finds_disk_1612():
    shared = REPO_ROOT.parent / "shared" / "disks" / "DISK1612.img"
    if not shared.is_file():
        pytest.skip(f"original disk image not available at {shared}")
    found = find_disk("1612")
    assert hashlib.md5(found.read_bytes()).hexdigest() == CATALOG["1612"].md5
    assert identify(found) is CATALOG["1612"]
