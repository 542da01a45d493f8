"""The CP437 fonts: read from real font files, mapped to code points through their Unicode tables."""
from __future__ import annotations

import gzip
import random
import struct
from pathlib import Path

import pytest

from pcemu import fonts
from pcemu.fonts import FontFormatError, FontNotFound, load_cp437_font, load_font_file, parse_psf


def _font_or_skip(height: int) -> list[bytes]:
    try:
        return load_cp437_font(height)
    except FontNotFound as exc:
        pytest.skip(f"no font on this system ({exc})")


@pytest.mark.parametrize("height", [8, 14, 16])
def test_each_size_has_256_glyphs_of_that_many_rows(height):
    font = _font_or_skip(height)
    assert len(font) == 256
    assert all(isinstance(g, bytes) and len(g) == height for g in font)


@pytest.mark.parametrize("height", [8, 14, 16])
def test_the_glyphs_are_the_cp437_shapes(height):
    font = _font_or_skip(height)
    assert font[0x20] == bytes(height) and font[0x00] == bytes(height) and font[0xFF] == bytes(height)
    assert font[0xDB] == b"\xff" * height                       # full block
    top = font[0xDF].rstrip(b"\x00")                           # ▀: full rows, then blank ones
    assert set(top) == {0xFF} and height // 2 - 1 <= len(top) <= height // 2
    vertical = set(font[0xB3])                                  # │: one column run, every row
    assert len(vertical) == 1 and vertical.pop() not in (0, 0xFF)
    assert sum(row == 0xFF for row in font[0xC4]) >= 1          # ─: a full-width row...
    assert sum(row != 0 for row in font[0xC4]) == sum(row == 0xFF for row in font[0xC4])
    printable = [font[c] for c in range(0x21, 0x7F)]
    assert all(any(g) for g in printable)                       # every printable glyph draws
    assert len(set(printable)) == len(printable)                # ...and each differently
    assert font[ord("A")] != font[ord("a")]
    for suit in (3, 4, 5, 6):                                   # ♥♦♣♠ are drawn, and differ
        assert any(font[suit])
    assert len({font[3], font[4], font[5], font[6]}) == 4


def test_the_bios_font_at_f000_fa6e_is_the_cga_font_but_for_four_glyphs():
    """The CGA's 'thick' ROM font and the BIOS's 8x8 font differ in club, spade, sun and S only."""
    font = _font_or_skip(8)
    from pcemu import Machine
    m = Machine(boot=False)
    rom = m.memory.read(0xFFA6E, 128 * 8)
    assert rom == b"".join(fonts.load_bios_font())
    differing = {c for c in range(128) if rom[c * 8:c * 8 + 8] != font[c]}
    assert differing <= {0x05, 0x06, 0x0F, 0x53}


def test_the_mda_ninth_column_is_the_cards_rule_for_line_graphics():
    """The MDA ROM has 8 columns; the card copies the 8th into the 9th for C0h-DFh only.

    The 9x14 font file draws all 9, so it must agree with that rule everywhere."""
    _font_or_skip(14)
    path = Path(fonts.font_source(14))
    if path.suffix.lower() != ".ttf":
        pytest.skip(f"the 14-line font here ({path}) has no ninth column to check")
    width, cells = fonts.ttf_cells(path, 14)
    assert width == 9
    for code, rows in enumerate(cells):
        for row in rows:
            expected = (row >> 1) & 1 if code in fonts.MDA_LINE_GRAPHICS else 0
            assert row & 1 == expected, f"glyph {code:02X}h"
    assert any(rows[7] & 1 for rows in [cells[0xC4]])           # ─ does reach the 9th column


def _psf2(glyphs: list[bytes], order: list[int], height: int, with_table: bool = True) -> bytes:
    """A PSF2 font holding ``glyphs`` in a shuffled order, its Unicode table saying which is which."""
    header = struct.pack("<8I", 0x864AB572, 0, 32, 1 if with_table else 0, len(order), height, height, 8)
    body = b"".join(glyphs[code] for code in order)
    cp437 = fonts.cp437_unicode()
    table = b"".join(cp437[code].encode() + (b"\xfe" + "e\u0301".encode() if code == 0x41 else b"")
                     + b"\xff" for code in order) if with_table else b""
    return header + body + table


def _psf1(glyphs: list[bytes], order: list[int], height: int) -> bytes:
    header = bytes([0x36, 0x04, 0x02, height])                   # 256 glyphs, with a table
    body = b"".join(glyphs[code] for code in order)
    cp437 = fonts.cp437_unicode()
    table = b""
    for code in order:
        extra = [ord("\u2027")] if code == 0xF9 else []          # a second character for one glyph
        table += struct.pack(f"<{1 + len(extra)}H", ord(cp437[code]), *extra) + b"\xff\xff"
    return header + body + table


@pytest.mark.parametrize("kind", ["psf1", "psf2", "psf2.gz"])
def test_console_fonts_are_mapped_through_their_unicode_table(tmp_path, kind):
    real = _font_or_skip(16)
    order = list(range(256))
    random.Random(1612).shuffle(order)                      # glyphs not in CP437 order
    data = _psf1(real, order, 16) if kind == "psf1" else _psf2(real, order, 16)
    if kind.endswith(".gz"):
        data = gzip.compress(data)
    path = tmp_path / f"font.{kind}"
    path.write_bytes(data)
    assert load_font_file(path, 16) == real
    glyphs, table, width, height = parse_psf(data)
    assert (width, height, len(glyphs)) == (8, 16, 256)
    assert "e" not in table or table["e"] == order.index(ord("e"))   # sequences are not singles


def test_a_console_font_without_a_unicode_table_is_refused(tmp_path):
    real = _font_or_skip(16)
    path = tmp_path / "plain.psf"
    path.write_bytes(_psf2(real, list(range(256)), 16, with_table=False))
    with pytest.raises(FontFormatError, match="no Unicode table"):
        load_font_file(path, 16)


def test_a_console_font_of_another_height_or_lacking_glyphs_is_refused(tmp_path):
    real = _font_or_skip(16)
    path = tmp_path / "f.psf"
    path.write_bytes(_psf2(real, list(range(256)), 16))
    with pytest.raises(FontFormatError, match="16 lines high, not 8"):
        load_font_file(path, 8)
    path.write_bytes(_psf2(real, list(range(128)), 16))     # only the first half
    with pytest.raises(FontFormatError, match="no glyph for CP437 80h"):
        load_font_file(path, 16)


def test_no_font_anywhere_names_the_debian_package(monkeypatch, tmp_path):
    fonts._cached.cache_clear()
    monkeypatch.setattr(fonts, "_font_dirs", lambda: [tmp_path])
    monkeypatch.setattr(fonts, "_CONSOLE_FONT_DIRS", ())
    monkeypatch.delenv("PCEMU_FONT_8", raising=False)
    try:
        with pytest.raises(FontNotFound, match="apt-get install fonts-pc"):
            load_cp437_font(8)
    finally:
        fonts._cached.cache_clear()


def test_a_font_named_by_the_environment_is_used_or_refused_clearly(monkeypatch, tmp_path):
    real = _font_or_skip(16)
    fonts._cached.cache_clear()
    try:
        bad = tmp_path / "notafont.ttf"
        bad.write_bytes(b"hello, world")
        monkeypatch.setenv("PCEMU_FONT_16", str(bad))
        with pytest.raises(FontNotFound, match="notafont.ttf can't be used"):
            load_cp437_font(16)
        fonts._cached.cache_clear()
        good = tmp_path / "mine.psf"
        order = list(range(255, -1, -1))
        good.write_bytes(_psf2(real, order, 16))
        monkeypatch.setenv("PCEMU_FONT_16", str(good))
        assert load_cp437_font(16) == real
        assert fonts.font_source(16) == str(good)
        fonts._cached.cache_clear()
        monkeypatch.setenv("PCEMU_FONT_16", str(tmp_path / "missing.psf"))
        with pytest.raises(FontNotFound, match="missing.psf .* does not exist"):
            load_cp437_font(16)
    finally:
        fonts._cached.cache_clear()


def test_unsupported_heights_are_a_clear_error():
    with pytest.raises(ValueError, match="choose one of"):
        load_cp437_font(12)
