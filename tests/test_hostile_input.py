"""Issue 18: hostile and careless input never escapes the output folder, loses work or
ends in a traceback."""

import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pcemu.commands.disk import cli as disk_cli
from pcemu.storage.image import FloppyImage, format_image


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def make_image(path: Path, renames: dict[bytes, bytes] = {}, sizes: dict[bytes, int] = {}) -> Path:
    """A 360K image: README.TXT, SUB\\INNER\\DEEPER\\F.TXT, SUB\\G.TXT; then the
    11-byte names in `renames` are overwritten in place (as a hostile image would
    hold them) and the sizes in `sizes` set."""
    img = FloppyImage(format_image("360K", label="HOSTILE"))
    vol = img.drive
    with vol.create(["README.TXT"]) as f:
        f.write(b"read me\r\n")
    vol.mkdir(["SUB"])
    vol.mkdir(["SUB", "INNER"])
    vol.mkdir(["SUB", "INNER", "DEEPER"])
    with vol.create(["SUB", "INNER", "DEEPER", "F.TXT"]) as f:
        f.write(b"deep")
    with vol.create(["SUB", "G.TXT"]) as f:
        f.write(b"g")
    data = bytearray(img.data())
    for old, new in renames.items():
        at = data.index(old.ljust(11))
        data[at:at + 11] = new.ljust(11)
    for name, size in sizes.items():
        at = data.index(name.ljust(11))
        data[at + 28:at + 32] = size.to_bytes(4, "little")
    path.write_bytes(bytes(data))
    return path


def disk(*args):
    return CliRunner().invoke(disk_cli, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------- 1. extract: path traversal
@pytest.mark.parametrize("hostile", [b"../../X", b"..\\..\\X", b"/TMP/ZZ", b"IN\x01ER", b"A:B"])
def test_extract_refuses_directory_names_that_would_leave_the_output_folder(tmp_path, hostile):
    image = make_image(tmp_path / "h.img", {b"INNER": hostile})
    before = hashlib.sha256(image.read_bytes()).hexdigest()
    out = tmp_path / "work" / "out"
    out.mkdir(parents=True)
    result = disk("disk", "extract", image, "SUB", "-o", out)
    assert result.exit_code == 2, result.output
    assert "not a DOS name" in result.output and "nothing was written" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert _tree(tmp_path / "work") == {"out"}             # nothing beside or inside out
    assert not Path("/TMP/ZZ").exists()
    assert hashlib.sha256(image.read_bytes()).hexdigest() == before


def test_extract_of_a_clean_tree_still_works_and_refuses_links_out(tmp_path):
    image = make_image(tmp_path / "h.img")
    out = tmp_path / "out"
    assert disk("disk", "extract", image, "SUB", "-o", out).exit_code == 0
    assert (out / "SUB" / "INNER" / "DEEPER" / "F.TXT").read_bytes() == b"deep"
    # a link in the output folder that leads elsewhere is not written through
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out2 = tmp_path / "out2"
    out2.mkdir()
    (out2 / "SUB").symlink_to(elsewhere)
    result = disk("disk", "extract", image, "SUB", "-o", out2, "--force")
    assert result.exit_code == 2 and "outside the output folder" in result.output
    assert list(elsewhere.iterdir()) == []


def test_extract_into_a_path_under_a_file_is_a_message(tmp_path):
    image = make_image(tmp_path / "h.img")
    (tmp_path / "FILE").write_text("x")
    result = disk("disk", "extract", image, "README.TXT", "-o", tmp_path / "FILE" / "sub")
    assert result.exit_code == 2 and "cannot write" in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("dots", [b".", b".."])
def test_a_dot_entry_in_the_wrong_place_is_skipped_as_dos_skips_it(tmp_path, dots):
    image = make_image(tmp_path / "h.img", {b"INNER": dots})
    out = tmp_path / "work" / "out"
    out.mkdir(parents=True)
    result = disk("disk", "extract", image, "SUB", "-o", out)
    assert result.exit_code == 0, result.output
    assert _tree(tmp_path / "work") == {"out", "out/SUB", "out/SUB/G.TXT"}


# ---------------------------------------------------------------- 9. sizes the chain cannot hold
def test_extract_of_a_file_longer_than_its_chain_is_refused(tmp_path):
    image = make_image(tmp_path / "h.img", sizes={b"README  TXT": 0xFFFFFFFF})
    out = tmp_path / "out"
    result = disk("disk", "extract", image, "README.TXT", "-o", out)
    assert result.exit_code == 2, result.output
    assert "4294967295 bytes" in result.output and "damaged" in result.output
    assert not (out / "README.TXT").exists()


# ---------------------------------------------------------------- 6. odd bytes in a directory entry
@pytest.mark.parametrize("odd", [b"A/B", b"C\x07D", b"E F"])
def test_disk_ls_lists_a_directory_with_an_odd_entry(tmp_path, odd):
    image = make_image(tmp_path / "h.img", {b"G       TXT": odd + b"     TXT"})
    result = disk("disk", "ls", image, "SUB")
    assert result.exit_code == 0, result.output
    assert "INNER" in result.output and odd.decode("cp437") in result.output
    assert "TXT" in disk("disk", "ls", image, "SUB\\*.TXT").output
