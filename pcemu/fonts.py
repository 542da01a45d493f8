"""The IBM PC's character-generator fonts, read from real font files on the host.

``load_cp437_font(height)`` returns the 256 glyphs of code page 437 in ROM
order, one ``bytes`` of ``height`` rows per glyph, the leftmost pixel in bit 7
(the layout of a character generator ROM):

* 8  - the IBM CGA ROM font (8x8, double-dot strokes), also what the BIOS
  keeps at F000:FA6E for graphics-mode text;
* 14 - the IBM MDA ROM font (9x14 cells: the ROM holds 8 columns, the card
  makes the 9th; see ``MDA_LINE_GRAPHICS``);
* 16 - the IBM VGA 8x16 font.

Where the glyphs come from, in this order:

1. Debian's package ``fonts-pc`` (``/usr/share/fonts/pc/Px_IBM_CGA.ttf``,
   ``Px_IBM_MDA.ttf``, ``Px_IBM_VGA8.ttf``): VileR's "Ultimate Oldschool PC
   Font Pack", pixel-exact conversions of the IBM ROM fonts themselves, so the
   CGA text looks like a CGA and not like a VGA.  The same files from the pack
   under their upstream names (``Px437_IBM_CGA.ttf``, ``PxPlus_IBM_CGA.ttf``)
   are found in the usual font folders too.  Each outline is a union of
   100-unit squares, so rendering it without anti-aliasing at one pixel per
   square (FreeType, through pygame-ce, a dependency already) gives the
   ROM's bitmap exactly.
2. A Linux console font (PSF1 or PSF2, optionally gzipped) of the right
   height whose Unicode table covers all of CP437, from
   ``/usr/share/consolefonts`` or kbd's folders.
3. ``PCEMU_FONT_8`` / ``PCEMU_FONT_14`` / ``PCEMU_FONT_16``: a path to any such
   TTF or PSF file, tried first.

No PyPI package ships these bitmaps (``pcface`` only rasterises TTF files it
does not include), so they come from the system; when none is found the error
says which Debian package to install.  Glyphs are matched to CP437 code points
through each font's Unicode map, never by assuming its order.
"""
from __future__ import annotations

import functools
import gzip
import os
import struct
from pathlib import Path

from pcemu.cp437 import CP437
from pcemu.errors import PcemuError

DEBIAN_PACKAGE = "fonts-pc"
SIZES = (8, 14, 16)
MDA_LINE_GRAPHICS = range(0xC0, 0xE0)     # the MDA repeats column 8 into column 9 for these

# font family per height: (Debian fonts-pc file, upstream pack names), cell width
_TTF_NAMES = {
    8: (("Px_IBM_CGA.ttf", "Px437_IBM_CGA.ttf", "PxPlus_IBM_CGA.ttf"), 8),
    14: (("Px_IBM_MDA.ttf", "Px437_IBM_MDA.ttf", "PxPlus_IBM_MDA.ttf"), 9),
    16: (("Px_IBM_VGA8.ttf", "Px437_IBM_VGA8.ttf", "PxPlus_IBM_VGA8.ttf",
          "Px437_IBM_VGA_8x16.ttf", "PxPlus_IBM_VGA_8x16.ttf"), 8),
}
_CONSOLE_FONT_DIRS = ("/usr/share/consolefonts", "/usr/share/kbd/consolefonts",
                      "/usr/lib/kbd/consolefonts")
# A few console fonts map these CP437 glyphs to a sibling code point instead.
_UNICODE_ALIASES = {"►": "▶", "◄": "◀"}


class FontNotFound(PcemuError):
    """No usable CP437 font on this system."""


def _font_dirs() -> list[Path]:
    home = Path.home()
    dirs = [Path("/usr/share/fonts/pc"), Path("/usr/share/fonts/truetype/pc"),
            Path("/usr/local/share/fonts"), home / ".local/share/fonts", home / ".fonts",
            home / "Library/Fonts", Path("/Library/Fonts")]
    windir = os.environ.get("WINDIR")
    if windir:
        dirs.append(Path(windir) / "Fonts")
    return dirs


def cp437_unicode() -> list[str]:
    """The character each CP437 code shows, as Unicode (00h and FFh are blank)."""
    return list(CP437)


@functools.lru_cache(maxsize=None)
def _cached(height: int, path: str | None) -> tuple[tuple[bytes, ...], str]:
    if height not in SIZES:
        raise ValueError(f"no {height}-line CP437 font: choose one of {SIZES}")
    tried: list[str] = []
    candidates: list[Path] = []
    override = path or os.environ.get(f"PCEMU_FONT_{height}")
    if override:
        if not Path(override).is_file():
            raise FontNotFound(f"the font file {override} (PCEMU_FONT_{height} or the path given) "
                               "does not exist")
        candidates.append(Path(override))
    names, _width = _TTF_NAMES[height]
    for folder in _font_dirs():
        candidates.extend(folder / name for name in names)
    for folder in _CONSOLE_FONT_DIRS:
        if os.path.isdir(folder):
            candidates.extend(sorted(Path(folder).glob(f"*{height}.psf*")))
    for candidate in candidates:
        if not candidate.is_file():
            continue
        try:
            glyphs = load_font_file(candidate, height)
        except (FontFormatError, OSError) as exc:
            tried.append(f"{candidate}: {exc}")
            if override and candidate == Path(override):
                raise FontNotFound(f"the font file {candidate} can't be used: {exc}") from None
            continue
        return tuple(glyphs), str(candidate)
    detail = ("; ".join(tried[:3]) + ("; ..." if len(tried) > 3 else "")) if tried else ""
    raise FontNotFound(
        f"no {height}-line CP437 font found. Install Debian's package {DEBIAN_PACKAGE} "
        f"(apt-get install {DEBIAN_PACKAGE}), or set PCEMU_FONT_{height} to a TTF from the "
        f"Ultimate Oldschool PC Font Pack or a PSF console font covering CP437"
        + (f" (unusable: {detail})" if detail else ""))


def load_cp437_font(height: int, path: str | Path | None = None) -> list[bytes]:
    """256 glyphs of ``height`` rows each, in CP437 order (see the module docstring)."""
    glyphs, _source = _cached(height, str(path) if path else None)
    return list(glyphs)


@functools.lru_cache(maxsize=None)
def load_bios_font() -> tuple[bytes, ...]:
    """The 128 glyphs (00h-7Fh, 8 rows) the IBM BIOS keeps at F000:FA6E for graphics text.

    From ``Px_IBM_BIOS.ttf`` (Debian's ``fonts-pc-extra``) when it is there;
    otherwise the CGA card's font, which differs from the BIOS's in four
    glyphs (club, spade, sun and S) only.
    """
    for folder in _font_dirs():
        for name in ("Px_IBM_BIOS.ttf", "Px437_IBM_BIOS.ttf", "PxPlus_IBM_BIOS.ttf"):
            path = folder / name
            if path.is_file():
                try:
                    return tuple(_ttf_glyphs(path, 8)[:128])
                except FontFormatError:
                    continue
    return tuple(load_cp437_font(8)[:128])


def font_source(height: int) -> str:
    """The file the ``height``-line font was read from."""
    return _cached(height, None)[1]


class FontFormatError(ValueError):
    pass


def load_font_file(path: Path, height: int) -> list[bytes]:
    """Read a TTF (pixel outline) or PSF font file into 256 CP437 glyphs."""
    head = path.read_bytes()[:4]
    if head[:2] == b"\x1f\x8b" or head[:2] == b"\x36\x04" or head == b"\x72\xb5\x4a\x86":
        return _psf_glyphs(path, height)
    if head in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        return _ttf_glyphs(path, height)
    raise FontFormatError("neither a TrueType nor a PSF font")


# -- pixel-outline TrueType (fonts-pc) ---------------------------------------------------
def _ttf_metrics(data: bytes) -> tuple[int, int, int, int]:
    """(units per em, ascender, descender, advance width of glyph 0) from head/hhea/hmtx."""
    count = struct.unpack(">H", data[4:6])[0]
    tables = {}
    for i in range(count):
        tag, _sum, offset, _length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    try:
        units = struct.unpack(">H", data[tables[b"head"] + 18:tables[b"head"] + 20])[0]
        ascender, descender = struct.unpack(">hh", data[tables[b"hhea"] + 4:tables[b"hhea"] + 8])
        advance = struct.unpack(">H", data[tables[b"hmtx"]:tables[b"hmtx"] + 2])[0]
    except (KeyError, struct.error):
        raise FontFormatError("TrueType file without head/hhea/hmtx tables") from None
    return units, ascender, descender, advance


def ttf_cells(path: Path, height: int) -> tuple[int, list[list[int]]]:
    """(cell width, per glyph its rows as ``width``-bit integers, leftmost pixel highest)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    import pygame.freetype

    units, ascender, descender, advance = _ttf_metrics(path.read_bytes())
    cell_height = ascender - descender
    if cell_height <= 0 or cell_height % height:
        raise FontFormatError(f"cells are {cell_height} units high, not a multiple of {height} lines")
    unit = cell_height // height                    # font units per pixel
    if units % unit or advance % unit:
        raise FontFormatError("not a pixel-outline font (em or advance off the pixel grid)")
    ppem, width, baseline = units // unit, advance // unit, ascender // unit
    if width not in (8, 9):
        raise FontFormatError(f"cells are {width} pixels wide, not 8 or 9")
    pygame.freetype.init()
    font = pygame.freetype.Font(str(path), size=ppem)
    font.antialiased = False                        # one font square per pixel, all or nothing
    font.origin = True
    font.pad = False
    surface = pygame.Surface((width, height), depth=8)
    cells, missing = [], []
    for code, char in enumerate(cp437_unicode()):
        surface.fill(0)
        if char.strip():
            if font.get_metrics(char)[0] is None:
                missing.append(code)
            else:
                font.render_to(surface, (0, baseline), char, fgcolor=(255, 255, 255))
        cells.append([sum(1 << (width - 1 - x) for x in range(width) if surface.get_at((x, y))[0])
                      for y in range(height)])
    if missing:
        raise FontFormatError("no glyph for CP437 " + ", ".join(f"{c:02X}h" for c in missing[:8]))
    return width, cells


def _ttf_glyphs(path: Path, height: int) -> list[bytes]:
    """The 8 ROM columns of each cell (a 9th column, where there is one, is the card's doing)."""
    width, cells = ttf_cells(path, height)
    return [bytes((row >> (width - 8)) & 0xFF for row in rows) for rows in cells]


# -- Linux console fonts (PSF1 / PSF2) ----------------------------------------------------
def parse_psf(data: bytes) -> tuple[list[bytes], dict[str, int], int, int]:
    """(glyph bitmaps, unicode character -> glyph index, width, height) of a PSF1/PSF2 font."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[:2] == b"\x36\x04":                         # PSF1
        mode, charsize = data[2], data[3]
        count = 512 if mode & 0x01 else 256
        width, height, start = 8, charsize, 4
        glyphs = [data[start + i * charsize:start + (i + 1) * charsize] for i in range(count)]
        table = _psf1_table(data[start + count * charsize:], count) if mode & 0x06 else {}
    elif data[:4] == b"\x72\xb5\x4a\x86":               # PSF2
        (_version, header_size, flags, count, charsize,
         height, width) = struct.unpack("<7I", data[4:32])
        start = header_size
        glyphs = [data[start + i * charsize:start + (i + 1) * charsize] for i in range(count)]
        table = _psf2_table(data[start + count * charsize:], count) if flags & 0x01 else {}
    else:
        raise FontFormatError("not a PSF font")
    if any(len(g) != len(glyphs[0]) for g in glyphs) or not glyphs:
        raise FontFormatError("truncated PSF font")
    return glyphs, table, width, height


def _psf1_table(raw: bytes, count: int) -> dict[str, int]:
    """PSF1: per glyph, UCS-2 code points, then FFFEh-led sequences, ended by FFFFh."""
    table: dict[str, int] = {}
    glyph, in_sequence = 0, False
    for (value,) in struct.iter_unpack("<H", raw[:len(raw) & ~1]):
        if glyph >= count:
            break
        if value == 0xFFFF:
            glyph, in_sequence = glyph + 1, False
        elif value == 0xFFFE:
            in_sequence = True                   # combining sequences: not single characters
        elif not in_sequence:
            table.setdefault(chr(value), glyph)
    return table


def _psf2_table(raw: bytes, count: int) -> dict[str, int]:
    """PSF2: per glyph, UTF-8 characters, then FEh-led sequences, ended by FFh."""
    table: dict[str, int] = {}
    for glyph, entry in enumerate(raw.split(b"\xff")[:count]):
        singles = entry.split(b"\xfe")[0]
        for char in singles.decode("utf-8", errors="ignore"):
            table.setdefault(char, glyph)
    return table


def _psf_glyphs(path: Path, height: int) -> list[bytes]:
    glyphs, table, width, font_height = parse_psf(path.read_bytes())
    if font_height != height:
        raise FontFormatError(f"{font_height} lines high, not {height}")
    if width > 8:
        raise FontFormatError(f"{width} pixels wide: a character generator has 8")
    if not table:
        raise FontFormatError("no Unicode table, so its glyphs can't be matched to CP437")
    out, missing = [], []
    for code, char in enumerate(cp437_unicode()):
        index = table.get(char, table.get(_UNICODE_ALIASES.get(char, char)))
        if index is None and not char.strip():      # 00h, 20h and FFh are blank anyway
            out.append(bytes(height))
            continue
        if index is None:
            missing.append(code)
            continue
        out.append(glyphs[index][:height])     # 8-wide PSF rows are one byte each
    if missing:
        raise FontFormatError("no glyph for CP437 " + ", ".join(f"{c:02X}h" for c in missing[:8]))
    return out
