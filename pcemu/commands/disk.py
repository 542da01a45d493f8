"""``pcemu disk ls|extract|info`` and ``pcemu import``: diskette images from the shell.

IMAGE may be a path to a raw image, a PCjs ``.json`` diskette, or a catalogue
name such as ``1612`` (see `disks.catalog`).  Images are only ever read.
Until the main ``pcemu`` group registers these commands they run as
``python -m pcemu.commands.disk disk ls 1612``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import click

from disks.catalog import CATALOG, DiskError, find_disk
from pcemu.storage.drive import (
    ATTR_ARCHIVE, ATTR_HIDDEN, ATTR_READ_ONLY, ATTR_SYSTEM, DirEntry, unpack_date, unpack_time,
    words_to_datetime,
)
from pcemu.storage.errors import DosError, MountError
from pcemu.storage.image import FloppyImage
from pcemu.storage.names import (
    entry_fcb, fcb_matches, has_wildcards, is_safe_host_name, pattern_to_fcb,
)
from pcemu.storage.pcjs import load_pcjs

_FAIL = (DiskError, MountError, DosError, ValueError)


class _DiskError(click.ClickException):
    """A user-facing failure of these commands: one line, exit status 2 as for pcemu's others."""

    exit_code = 2


def _fail(message: str) -> _DiskError:
    return _DiskError(message)


def _open(spec: str) -> FloppyImage:
    try:
        if spec.lower().endswith(".json"):
            return FloppyImage(load_pcjs(spec), name=spec, read_only=True)
        return FloppyImage.open(find_disk(spec), read_only=True)
    except _FAIL as exc:
        raise _fail(str(exc)) from None


def _dos_path(parts: list[str]) -> str:
    return "\\" + "\\".join(parts)


def _split(text: str) -> tuple[list[str], str | None]:
    """'\\SUB\\*.EXE' -> (['SUB'], '*.EXE'); a path without wildcards -> (parts, None)."""
    pieces = [p for p in text.replace("/", "\\").split("\\") if p not in ("", ".")]
    if len(text) >= 2 and text[1] == ":":
        pieces = [p for p in text[2:].replace("/", "\\").split("\\") if p not in ("", ".")]
    pattern = pieces.pop() if pieces and has_wildcards(pieces[-1]) else None
    return [p.upper() for p in pieces], pattern


def _select(img: FloppyImage, text: str) -> tuple[list[str], list[DirEntry]]:
    """The directory and entries a DIR-style argument names."""
    parts, pattern = _split(text)
    vol = img.drive
    if pattern is None and parts:
        entry = vol.stat(parts)
        if entry is None:
            raise DosError(2, f"file not found: {_dos_path(parts)}")
        if not entry.is_dir:
            return parts[:-1], [entry]
        pattern = "*.*"
    want = pattern_to_fcb(pattern or "*.*")
    entries = [e for e in vol.listdir(parts) if not e.is_label and fcb_matches(want, entry_fcb(e.name))]
    return parts, entries


def _attr_text(attr: int) -> str:
    return "".join(ch if attr & bit else "-" for ch, bit in
                   (("R", ATTR_READ_ONLY), ("H", ATTR_HIDDEN), ("S", ATTR_SYSTEM),
                    ("A", ATTR_ARCHIVE)))


def _dir_line(e: DirEntry) -> str:
    """One line as DOS 3.3 DIR prints it, plus the attributes."""
    if e.name in (".", ".."):
        base, ext = e.name, ""
    else:
        base, _, ext = e.name.partition(".")
    size = "<DIR>" if e.is_dir else str(e.size)
    y, mo, d = unpack_date(e.date)
    h, mi, _s = unpack_time(e.time)
    ampm = "a" if h < 12 else "p"
    h12 = h % 12 or 12
    return (f"{base:<8} {ext:<3} {size:>9}  {mo:>2}-{d:02}-{y % 100:02}  {h12:>2}:{mi:02}{ampm}"
            f"  {_attr_text(e.attr)}")


@click.group(name="disk")
def disk() -> None:
    """Look into diskette images (raw .img, PCjs .json or a catalogue name)."""


@disk.command("ls")
@click.argument("image")
@click.argument("path", required=False, default="\\")
def ls_cmd(image: str, path: str) -> None:
    """List a directory of IMAGE like DOS DIR (PATH may end in a wildcard)."""
    img = _open(image)
    try:
        parts, entries = _select(img, path)
        spc, bps, free, _total = img.drive.free_space()
    except _FAIL as exc:
        raise _fail(str(exc)) from None
    label = img.drive.volume_label
    click.echo(f" Volume in drive A is {label}" if label else " Volume in drive A has no label")
    click.echo(f" Directory of  A:{_dos_path(parts)}\n")
    for e in entries:
        click.echo(_dir_line(e))
    files = sum(1 for e in entries if not e.is_dir)
    click.echo(f"{len(entries):>9} File(s) {free * spc * bps:>9} bytes free"
               if entries else "File not found")
    if entries and files != len(entries):
        click.echo(f"{'':>9} ({files} files, {len(entries) - files} directories)")


def _host_target(out_dir: Path, parts: list[str]) -> Path:
    """The host path for DOS path `parts` under `out_dir`, refused unless every name is one
    DOS could have made: a name from an image never leaves the output folder."""
    for i, part in enumerate(parts):
        if not is_safe_host_name(part):
            where = _dos_path(parts[:i] + [part])
            raise _fail(f"the image has a directory entry {where!r} whose name is not a DOS name "
                        f"(it holds {_why_unsafe(part)}): refusing to extract it; nothing was written")
    target = out_dir.joinpath(*parts)
    base = out_dir.resolve()
    real = target.resolve()
    if real != base and base not in real.parents:
        raise _fail(f"{target} leads outside the output folder {out_dir} (through a link there): "
                    "refusing to write it")
    return target


def _why_unsafe(name: str) -> str:
    if name in ("", ".", ".."):
        return repr(name)
    bad = sorted({ch for ch in name if not is_safe_host_name("A" + ch) or ch == "."})
    return ", ".join(repr(ch) for ch in bad[:4]) or "characters DOS does not allow"


def _file_data(vol, path: list[str], e: DirEntry) -> bytes:
    data = vol.read_file(path)
    if len(data) != e.size:
        raise _fail(f"{_dos_path(path)}: its directory entry says {e.size} bytes but its clusters "
                    f"hold only {len(data)}: the image is damaged; nothing was written")
    return data


def _plan_extract(img: FloppyImage, files: tuple[str, ...], image: str, out_dir: Path
                  ) -> list[tuple[Path, DirEntry, list[str], str]]:
    """(host target, entry, DOS path, name to print) for everything to extract, all checked
    before anything is written."""
    vol = img.drive
    plan = []
    for spec in files:
        parts, pattern = _split(spec)
        named = vol.stat(parts) if parts and pattern is None else None
        if named is not None and named.is_dir:
            # a directory argument: copy the whole tree under its own name
            base = len(parts) - 1
            plan.append((_host_target(out_dir, parts[base:]), named, parts, ""))
            for sub, inner in vol.walk(parts):
                plan.append((_host_target(out_dir, sub[base:]), inner, sub,
                             _dos_path(sub[base:])[1:]))
            continue
        parent, entries = _select(img, spec)
        entries = [e for e in entries if not e.is_dir]
        if not entries:
            raise _fail(f"no file matches {spec!r} in {image}")
        for e in entries:
            plan.append((_host_target(out_dir, [e.name]), e, parent + [e.name], e.name))
    return plan


def _write_host(out: Path, data: bytes, e: DirEntry) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    moment = words_to_datetime(e.date, e.time)
    if moment is not None:
        ts = moment.timestamp()
        os.utime(out, (ts, ts))


@disk.command("extract")
@click.argument("image")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="Folder to write the files into.")
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
def extract_cmd(image: str, files: tuple[str, ...], out_dir: Path, force: bool) -> None:
    """Copy FILES (DOS paths, wildcards allowed; a directory is copied whole)
    out of IMAGE, keeping their DOS dates.

    Only names DOS allows become host names, and nothing is written outside the
    output folder: an image whose entries say otherwise is refused before any file
    is written.
    """
    img = _open(image)
    vol = img.drive
    try:
        plan = _plan_extract(img, files, image, out_dir)
        data = {id(e): _file_data(vol, path, e) for _t, e, path, _n in plan if not e.is_dir}
        for target, e, _path, _name in plan:
            if not e.is_dir and (target.exists() or target.is_symlink()) and not force:
                raise _fail(f"{target} already exists (use --force to overwrite)")
            if target.exists() and target.is_dir() != e.is_dir:
                raise _fail(f"{target} already exists and is {'a folder' if target.is_dir() else 'a file'}")
        for target, e, _path, name in plan:
            if e.is_dir:
                target.mkdir(parents=True, exist_ok=True)
            else:
                _write_host(target, data[id(e)], e)
                click.echo(f"{name} ({e.size} bytes)")
    except _FAIL as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        where = exc.filename or out_dir
        raise _fail(f"cannot write {where}: {exc.strerror or exc}") from None


@disk.command("info")
@click.argument("image")
def info_cmd(image: str) -> None:
    """Geometry, BPB, FAT, free space, label, MD5 and catalogue match of IMAGE."""
    img = _open(image)
    lay, geo, bpb = img.layout, img.geometry, img.layout.bpb
    try:
        spc, bps, free, total = img.drive.free_space()
        label = img.drive.volume_label
    except _FAIL as exc:
        raise _fail(str(exc)) from None
    match = next((d for d in _catalog_matches(img.source_md5)), None)
    oem = img.source_data()[3:11].decode("cp437", "replace")
    rows = [
        ("image", f"{img.name} ({len(img.source_data())} bytes)"),
        ("MD5", img.source_md5),
        ("catalogue", f"{match.name}: {match.title}" if match else "not a catalogued disk"),
        ("format", lay.format_name or "non-standard size"),
        ("geometry", f"{geo.cylinders} cylinders, {geo.heads} heads, "
                     f"{geo.sectors_per_track} sectors/track, {geo.bytes_per_sector} bytes/sector"),
        ("layout from", f"BPB in the boot sector (OEM name {oem!r})" if lay.from_boot_sector
         else "size and media byte (DOS 1.x disk, no BPB)"),
        ("media byte", f"{bpb.media:02X}h"),
        ("BPB", f"{bpb.bytes_per_sector} bytes/sector, {bpb.sectors_per_cluster} sectors/cluster, "
                f"{bpb.reserved_sectors} reserved, {bpb.fat_count} FATs of {bpb.sectors_per_fat} "
                f"sectors, {bpb.root_entries} root entries, {bpb.total_sectors} sectors"),
        ("FAT", f"FAT{lay.fat_type}: root directory at sector {lay.root_start}, "
                f"data at sector {lay.data_start}"),
        ("clusters", f"{total} of {spc * bps} bytes, {free} free ({free * spc * bps} bytes free)"),
        ("label", label or "(none)"),
    ]
    if match:
        rows.append(("programs", ", ".join(f"{p.file} ({p.title})" for p in match.programs)))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        click.echo(f"{key:<{width}}  {value}")


def _catalog_matches(md5: str):
    return (d for d in CATALOG.values() if d.md5 == md5)


@click.command("import")
@click.argument("json_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Image file to write (default: NAME.img in the current folder).")
@click.option("--force", is_flag=True, help="Overwrite an existing image file.")
def import_cmd(json_file: Path, out: Path | None, force: bool) -> None:
    """Convert a PCjs diskette JSON_FILE into a raw .img image."""
    try:
        data = load_pcjs(json_file)
    except _FAIL as exc:
        raise _fail(str(exc)) from None
    if out is None:
        out = Path.cwd() / (json_file.stem + ".img")
    if out.exists() and not force:
        raise _fail(f"{out} already exists (use --force to overwrite)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise _fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    md5 = hashlib.md5(data).hexdigest()
    match = next(_catalog_matches(md5), None)
    click.echo(f"wrote {out} ({len(data)} bytes, MD5 {md5})"
               + (f": catalogued disk {match.name}" if match else ""))


cli = click.Group("pcemu-disk", help="Diskette image tools.",
                  commands={"disk": disk, "import": import_cmd})

if __name__ == "__main__":
    cli()
