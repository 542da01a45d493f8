"""mount_disks: the machine's disk arguments -> drive letters."""

import pytest

from pcemu.storage.errors import MountError
from pcemu.storage.hostdir import HostDirDrive
from pcemu.storage.image import FloppyImage, format_image
from pcemu.storage.mount import mount_disks


@pytest.fixture
def images(tmp_path):
    paths = []
    for i, fmt in enumerate(("360K", "720K")):
        path = tmp_path / f"d{i}.img"
        path.write_bytes(format_image(fmt, label=f"DISK{i}"))
        paths.append(path)
    return paths


def test_disks_take_letters_in_order(images):
    drives = mount_disks(images)
    assert list(drives) == ["A", "B"]
    assert isinstance(drives["A"], FloppyImage)
    assert drives["A"].filesystem.volume_label == "DISK0"
    assert drives["B"].size_kb == 720


def test_explicit_letters_and_host_folders(images, tmp_path):
    drives = mount_disks(f"B:{images[1]}", {"C": tmp_path})
    assert list(drives) == ["B", "C"]
    assert drives["B"].filesystem.volume_label == "DISK1"
    assert isinstance(drives["C"], HostDirDrive)
    drives = mount_disks([images[0], f"a:{images[1]}"], {"c:": tmp_path})
    assert drives["A"].filesystem.volume_label == "DISK1"
    assert drives["B"].filesystem.volume_label == "DISK0"


def test_nothing_to_mount():
    assert mount_disks(None, None) == {}


def test_errors_name_the_problem(images, tmp_path):
    with pytest.raises(MountError, match="given twice"):
        mount_disks([f"A:{images[0]}", f"A:{images[1]}"])
    with pytest.raises(MountError, match="unknown disk"):
        mount_disks(["no-such-disk"])
    with pytest.raises(MountError, match="not a drive letter"):
        mount_disks([], {"CD": tmp_path})
    with pytest.raises(MountError, match="does not exist"):
        mount_disks([tmp_path / "gone.img"])
