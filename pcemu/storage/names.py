"""DOS 8.3 file names: validation, the 11-byte FCB form and wildcard matching.

DOS compares names in the 11-byte "FCB" form: 8 bytes of base name and 3 of
extension, each padded with spaces ("FOO.TXT" is ``b"FOO     TXT"``).  A
wildcard pattern is packed the same way, with ``*`` expanded to ``?`` up to the
end of its field, and matching is then byte by byte with ``?`` matching any
byte - including the padding spaces.  That is why, exactly as in DOS:

* ``*.*`` matches every name (and the ``.`` and ``..`` entries);
* ``*`` (no dot) packs to ``"????????   "`` and matches only names *without* an
  extension;
* ``FOO?.T*`` matches ``FOO.TXT`` and ``FOOD.TEX`` (a ``?`` can match the pad);
* characters after a ``*`` in the same field are ignored (``A*B.C`` = ``A*.C``).

Names are Python ``str`` whose characters stand for code page 437 bytes.  Only
ASCII a-z are upper-cased: DOS upper-cases accented letters through the
country table, which this layer does not model.
"""

from __future__ import annotations

from .errors import FILE_NOT_FOUND, PATH_NOT_FOUND, DosError

CODEPAGE = "cp437"
BASE_LEN = 8
EXT_LEN = 3
FCB_LEN = BASE_LEN + EXT_LEN

# Punctuation DOS 3.x accepts in a file name; letters, digits and every byte
# from 80h up are also valid.  Everything else (space, control characters,
# . " / \ [ ] : | < > + = ; , * ?) is not.
_VALID_PUNCTUATION = frozenset(b"!#$%&'()-@^_`{}~")
_DOT_ENTRIES = {".": b".".ljust(FCB_LEN), "..": b"..".ljust(FCB_LEN)}


class InvalidNameError(DosError):
    """A name that DOS would refuse; carries DOS error 2 (file not found), the
    code DOS returns when a name cannot match any directory entry."""

    def __init__(self, name: str, why: str, code: int = FILE_NOT_FOUND):
        super().__init__(code, f"invalid file name {name!r}: {why}")
        self.name = name


def is_valid_byte(b: int) -> bool:
    """True if byte `b` may appear in a DOS file name."""
    return (
        0x30 <= b <= 0x39
        or 0x41 <= b <= 0x5A
        or 0x61 <= b <= 0x7A
        or b >= 0x80
        or b in _VALID_PUNCTUATION
    )


def _encode(name: str) -> bytes:
    try:
        return name.encode(CODEPAGE)
    except UnicodeEncodeError:
        raise InvalidNameError(name, "it has characters outside code page 437") from None


def _upper(raw: bytes) -> bytes:
    # bytes.upper() only touches ASCII a-z, exactly what we want.
    return raw.upper()


def _pack_field(text: bytes, width: int, name: str, wild: bool, truncate: bool) -> bytes:
    out = bytearray()
    for b in text:
        if wild and b == ord("*"):
            out.extend(b"?" * (width - len(out)))
            break  # DOS ignores the rest of the field after a '*'
        if not (is_valid_byte(b) or (wild and b == ord("?"))):
            raise InvalidNameError(name, f"character {chr(b)!r} is not allowed")
        if len(out) == width:
            if truncate:
                break
            raise InvalidNameError(name, f"more than {width} characters in a field of 8.3")
        out.append(b)
    return bytes(out).ljust(width, b" ")


def _pack(name: str, wild: bool, truncate: bool) -> bytes:
    if name in _DOT_ENTRIES:
        return _DOT_ENTRIES[name]
    raw = _upper(_encode(name))
    if not raw:
        raise InvalidNameError(name, "it is empty")
    base, dot, ext = raw.partition(b".")
    if b"." in ext:
        raise InvalidNameError(name, "it has more than one dot")
    if not base:
        raise InvalidNameError(name, "it has no name before the dot")
    return _pack_field(base, BASE_LEN, name, wild, truncate) + _pack_field(
        ext, EXT_LEN, name, wild, truncate
    )


def to_fcb(name: str, *, truncate: bool = True) -> bytes:
    """Pack a file name into the 11-byte FCB form, upper-cased.

    With `truncate` (what DOS does for handle calls) an over-long base or
    extension is cut to 8 or 3 characters; without it that is an error.
    ``"."`` and ``".."`` pack to the directory's dot entries.
    """
    return _pack(name, wild=False, truncate=truncate)


def pattern_to_fcb(pattern: str) -> bytes:
    """Pack a wildcard pattern (``*`` and ``?``) into the 11-byte FCB form."""
    return _pack(pattern, wild=True, truncate=True)


def from_fcb(fcb: bytes) -> str:
    """The display form of an 11-byte FCB name: ``b"FOO     TXT"`` -> ``"FOO.TXT"``."""
    if len(fcb) != FCB_LEN:
        raise ValueError(f"an FCB name is {FCB_LEN} bytes, got {len(fcb)}")
    base = fcb[:BASE_LEN].rstrip(b" ").decode(CODEPAGE)
    ext = fcb[BASE_LEN:].rstrip(b" ").decode(CODEPAGE)
    return f"{base}.{ext}" if ext else base


def normalize_name(name: str, *, truncate: bool = True) -> str:
    """Upper-case and validate a single 8.3 name; returns e.g. ``"FOO.TXT"``."""
    if name in _DOT_ENTRIES:
        raise InvalidNameError(name, "'.' and '..' name directories, not files")
    return from_fcb(to_fcb(name, truncate=truncate))


def is_83_name(name: str) -> bool:
    """True if `name` (any case) is already a valid 8.3 name, no truncation needed."""
    if name in _DOT_ENTRIES:
        return False
    try:
        to_fcb(name, truncate=False)
    except InvalidNameError:
        return False
    return True


def fcb_matches(pattern_fcb: bytes, name_fcb: bytes) -> bool:
    """DOS FINDFIRST matching of two 11-byte names: ``?`` matches any byte."""
    return all(p == 0x3F or p == n for p, n in zip(pattern_fcb, name_fcb))


def has_wildcards(text: str) -> bool:
    return "*" in text or "?" in text


def wildcard_match(pattern: str, name: str) -> bool:
    """True if DOS would list `name` for the search pattern `pattern`."""
    return fcb_matches(pattern_to_fcb(pattern), to_fcb(name))


def parse_path(text: str, *, truncate: bool = False) -> list[str]:
    """Split a DOS-style path (``\\SUB\\FILE.TXT``, ``A:SUB/FILE.TXT``) into a
    list of upper-case 8.3 components from the drive root, resolving ``.`` and
    ``..``.  For tools and tests: the emulated DOS resolves its own paths
    against the current directory."""
    if len(text) >= 2 and text[1] == ":":
        text = text[2:]
    parts: list[str] = []
    for part in text.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise InvalidNameError(text, "'..' goes above the root", PATH_NOT_FOUND)
            parts.pop()
            continue
        parts.append(normalize_name(part, truncate=truncate))
    return parts


def is_safe_host_name(name: str) -> bool:
    """True if a name read from a disk image may become a host file or folder name.

    Only valid 8.3 names qualify (in either case, as some tools wrote them), so never ``.``, ``..``, an empty name, ``/``, ``\\``, ``:``, a control character or a
    space (a damaged or hostile directory entry may hold any of these bytes).
    """
    if not isinstance(name, str) or name in _DOT_ENTRIES:
        return False
    try:
        return from_fcb(to_fcb(name, truncate=False)) == _upper(name.encode(CODEPAGE)).decode(CODEPAGE)
    except (InvalidNameError, UnicodeEncodeError):
        return False


def entry_fcb(name: str) -> bytes:
    """The 11-byte FCB form of a name as a directory entry lists it, for matching.

    Unlike `to_fcb` this accepts names DOS would refuse to create (a damaged entry
    with ``/``, a space or a control character in it): FINDFIRST and DIR compare the
    stored bytes and list such entries, they do not reject them.
    """
    if name in _DOT_ENTRIES:
        return _DOT_ENTRIES[name]
    try:
        return to_fcb(name, truncate=False)
    except InvalidNameError:
        pass
    raw = name.encode(CODEPAGE, "replace")
    base, dot, ext = raw.rpartition(b".") if b"." in raw[1:] else (raw, b"", b"")
    if len(base) > BASE_LEN or len(ext) > EXT_LEN:
        base, ext = raw[:BASE_LEN], raw[BASE_LEN:]
    return base[:BASE_LEN].ljust(BASE_LEN) + ext[:EXT_LEN].ljust(EXT_LEN)
