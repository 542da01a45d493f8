"""Import a PCjs diskette JSON file into a raw image.

PCjs (pcjs.org) publishes diskettes as JSON.  Version 2 is an object with
``imageInfo`` (geometry, ``hash`` = MD5 of the raw image), ``volTable``,
``fileTable`` and ``diskData``; version 1 is the bare ``diskData`` array.
``diskData`` is cylinders -> heads -> sector objects, each with its sector
number (``s``, or ``sector`` in v1), length (``l``/``length``, default 512)
and data as signed 32-bit little-endian words (``d``/``data``).  A data
array shorter than the sector is completed by repeating its last word (v2),
or by the ``pattern`` word when one is given (v1; 0 if neither); very old
files carry unsigned ``bytes`` instead.

The raw image is the sectors in C/H/S order, sector numbers ascending; a
diskette whose tracks differ (copy protection) cannot be stored raw and is
refused.  When the JSON states an MD5 the result must match it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .errors import ImageError


MAX_SECTOR = 8192                 # bytes; diskettes use 128 to 1,024
MAX_IMAGE = 4 * 1024 * 1024       # bytes of raw image; the largest diskette is 2.88 MB
MAX_JSON = 64 * 1024 * 1024       # bytes of JSON text (a 2.88 MB diskette is about 15 MB of it)


class PcjsFormatError(ImageError):
    """A JSON file that is not a usable PCjs diskette."""


def _fail(source: str, why: str) -> PcjsFormatError:
    return PcjsFormatError(f"{source} is not a usable PCjs diskette: {why}")


def _int(value, source: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(source, f"{where} should be an integer, not {value!r}")
    return value


def _sector_bytes(sector: dict, source: str, where: str, default_len: int) -> tuple[int, bytes]:
    number = sector.get("s", sector.get("sector"))
    if number is None:
        raise _fail(source, f"{where} has no sector number ('s')")
    number = _int(number, source, f"{where} sector number")
    length = _int(sector.get("l", sector.get("length", default_len)), source, f"{where} length")
    if length <= 0 or length % 4 or length > MAX_SECTOR:
        raise _fail(source, f"{where} has an impossible length {length} (a sector holds 4 to "
                    f"{MAX_SECTOR} bytes, a multiple of 4)")
    where = f"{where} (sector {number})"
    if "bytes" in sector and "d" not in sector and "data" not in sector:
        values = sector["bytes"]
        if not isinstance(values, list) or len(values) > length:
            raise _fail(source, f"{where}: 'bytes' is not a list of at most {length} bytes")
        raw = bytearray()
        for v in values:
            if _int(v, source, f"{where} byte") not in range(256):
                raise _fail(source, f"{where}: byte value {v} out of range")
            raw.append(v)
        fill = _int(sector.get("pattern", 0), source, f"{where} pattern") & 0xFF
        return number, bytes(raw) + bytes([fill]) * (length - len(raw))
    words = sector.get("d", sector.get("data"))
    if not isinstance(words, list):
        raise _fail(source, f"{where} has no data array ('d')")
    if len(words) > length // 4:
        raise _fail(source, f"{where} has {len(words)} data words, more than its {length} bytes hold")
    for v in words:
        if _int(v, source, f"{where} data word") < -0x80000000 or v > 0xFFFFFFFF:
            raise _fail(source, f"{where}: data word {v} is not 32-bit")
    if "pattern" in sector:
        fill = _int(sector["pattern"], source, f"{where} pattern")
    elif "d" in sector and words:
        fill = words[-1]
    else:
        fill = 0
    words = list(words) + [fill] * (length // 4 - len(words))
    return number, b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


def pcjs_to_image(doc, source: str = "the JSON") -> bytes:
    """Raw image bytes from a parsed PCjs diskette document."""
    if isinstance(doc, dict):
        if "diskData" not in doc:
            raise _fail(source, "it has no 'diskData'")
        info = doc.get("imageInfo") or {}
        if not isinstance(info, dict):
            raise _fail(source, "'imageInfo' is not an object")
        disk = doc["diskData"]
    elif isinstance(doc, list):
        info, disk = {}, doc
    else:
        raise _fail(source, "the top level is neither an object nor a list of cylinders")
    if not isinstance(disk, list) or not disk:
        raise _fail(source, "'diskData' is not a non-empty list of cylinders")
    default_len = info.get("sectorDefault", 512)
    image = bytearray()
    shape: tuple[int, int, int] | None = None
    for c, cylinder in enumerate(disk):
        if not isinstance(cylinder, list) or not cylinder:
            raise _fail(source, f"cylinder {c} is not a list of heads")
        for h, track in enumerate(cylinder):
            where = f"cylinder {c} head {h}"
            if not isinstance(track, list) or not track:
                raise _fail(source, f"{where} is not a list of sectors")
            sectors = {}
            for sector in track:
                if not isinstance(sector, dict):
                    raise _fail(source, f"{where} holds {sector!r} instead of a sector object")
                number, data = _sector_bytes(sector, source, where, default_len)
                if number in sectors:
                    raise _fail(source, f"{where} has sector {number} twice")
                sectors[number] = data
            numbers = sorted(sectors)
            lengths = {len(d) for d in sectors.values()}
            this = (len(cylinder), numbers[-1], lengths.pop() if len(lengths) == 1 else -1)
            if numbers != list(range(1, len(numbers) + 1)) or this[2] < 0:
                raise _fail(source, f"{where} has sectors {numbers} of sizes "
                            f"{sorted({len(d) for d in sectors.values()})}: not a regular "
                            "track that a raw image can hold")
            if shape is None:
                shape = this
            elif this != shape:
                raise _fail(source, f"{where} differs from the first track "
                            f"({this[1]} sectors of {this[2]} bytes, {this[0]} heads vs "
                            f"{shape[1]} of {shape[2]}, {shape[0]} heads): a raw image "
                            "needs uniform tracks")
            for n in numbers:
                image += sectors[n]
            if len(image) > MAX_IMAGE:
                raise _fail(source, f"its sectors come to more than {MAX_IMAGE // 2**20} MB by "
                            f"{where}: larger than any diskette")
    assert shape is not None
    _check_info(info, source, len(disk), shape, image)
    return bytes(image)


def _check_info(info: dict, source: str, cylinders: int, shape, image: bytes) -> None:
    """Check the result against what imageInfo says, if it says it."""
    stated = {
        "cylinders": cylinders, "heads": shape[0], "trackDefault": shape[1],
        "sectorDefault": shape[2], "diskSize": len(image),
    }
    for key, actual in stated.items():
        if key in info and info[key] != actual:
            raise _fail(source, f"imageInfo says {key} = {info[key]!r} but diskData has {actual}")
    want = info.get("hash")
    if isinstance(want, str) and len(want) == 32:
        got = hashlib.md5(image).hexdigest()
        if got != want.lower():
            raise _fail(source, f"the sectors give an image with MD5 {got}, but imageInfo "
                        f"says {want}: the file is damaged")


def load_pcjs(path: str | os.PathLike) -> bytes:
    """Read a PCjs JSON file and return the raw image bytes."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_JSON + 1)
        if len(raw) > MAX_JSON:
            raise _fail(str(path), f"it is larger than {MAX_JSON // 2**20} MB")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise PcjsFormatError(f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise _fail(str(path), "it is not UTF-8 text") from None
    except IsADirectoryError:
        raise PcjsFormatError(f"{path} is a folder, not a PCjs JSON file") from None
    except OSError as exc:
        raise PcjsFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(str(path), f"invalid JSON at line {exc.lineno} column {exc.colno}: "
                    f"{exc.msg}") from None
    except RecursionError:
        raise _fail(str(path), "its JSON is nested too deeply") from None
    return pcjs_to_image(doc, str(path))


def import_pcjs(json_path: str | os.PathLike, out_path: str | os.PathLike, *,
                overwrite: bool = False) -> Path:
    """Convert a PCjs JSON diskette into a raw image file at `out_path`."""
    image = load_pcjs(json_path)
    out = Path(out_path)
    if out.exists() and not overwrite:
        raise ImageError(f"{out} already exists; choose another name or allow overwriting")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(image)
    return out
