"""DOS 8.3 names: packing into the FCB form and FINDFIRST wildcard semantics."""

import pytest
from hypothesis import given, strategies as st

from pcemu.storage.errors import DosError
from pcemu.storage.names import (
    InvalidNameError, fcb_matches, from_fcb, is_83_name, normalize_name, parse_path,
    pattern_to_fcb, to_fcb, wildcard_match,
)


@pytest.mark.parametrize("name, fcb", [
    ("FOO.TXT", b"FOO     TXT"),
    ("foo.txt", b"FOO     TXT"),
    ("GINRUMMY.EXE", b"GINRUMMYEXE"),
    ("A", b"A          "),
    ("README.", b"README     "),
    (".", b".          "),
    ("..", b"..         "),
    ("$X~1.{}", b"$X~1    {} "),
])
def test_to_fcb_and_back(name, fcb):
    assert to_fcb(name) == fcb
    expected = name.upper().rstrip(".") if name not in (".", "..") else name
    assert from_fcb(fcb) == expected


def test_long_names_are_truncated_like_dos_handle_calls():
    assert to_fcb("LONGFILENAME.TEXT") == b"LONGFILETEX"
    assert normalize_name("verylongname.html") == "VERYLONG.HTM"


def test_strict_packing_refuses_long_names():
    with pytest.raises(InvalidNameError, match="more than 8"):
        to_fcb("LONGFILENAME.TXT", truncate=False)
    assert not is_83_name("LONGFILENAME.TXT")
    assert is_83_name("readme.txt")


@pytest.mark.parametrize("bad", ["", "A B", "A+B", "A.B.C", ".PROFILE", "X|Y", "A*", "Q?",
                                 'A"B', "A/B", "A\\B", "A:B", "A;B", "A,B", "A=B", "A[1]",
                                 "TAB\tX", "\u4e2d.TXT"])
def test_invalid_names_are_refused_with_dos_error(bad):
    with pytest.raises(DosError) as info:
        normalize_name(bad)
    assert info.value.code == 2
    assert repr(bad) in str(info.value)


def test_high_cp437_characters_are_valid_and_kept():
    # e-acute is byte 82h in code page 437: a valid name byte, and not
    # upper-cased (DOS would do that through its country table, not modelled).
    assert to_fcb("caf\u00e9.txt") == b"CAF\x82    TXT"
    assert from_fcb(b"CAF\x82    TXT") == "CAF\u00e9.TXT"


@pytest.mark.parametrize("pattern, fcb", [
    ("*.*", b"???????????"),
    ("*", b"????????   "),
    ("*.", b"????????   "),
    ("FOO?.T*", b"FOO?    T??"),
    ("A*B.C", b"A???????C  "),
    ("???", b"???        "),
    ("*.EXE", b"????????EXE"),
])
def test_pattern_packing(pattern, fcb):
    assert pattern_to_fcb(pattern) == fcb


@pytest.mark.parametrize("pattern, name, hit", [
    ("*.*", "GO.BAT", True),
    ("*.*", "README", True),
    ("*.*", "..", True),
    ("*", "README", True),
    ("*", "GO.BAT", False),          # no dot: only names without extension
    ("*.", "README", True),
    ("*.", "GO.BAT", False),
    ("FOO?.T*", "FOO.TXT", True),    # '?' matches the padding space
    ("FOO?.T*", "FOOD.TEX", True),
    ("FOO?.T*", "FOODS.TXT", False),
    ("FOO?.T*", "FOO.DOC", False),
    ("G*.EXE", "GINRUMMY.EXE", True),
    ("G*.EXE", "METEORS.EXE", False),
    ("A*B.C", "AXXXX.C", True),       # text after '*' is ignored
    ("?.*", "A.B", True),
    ("?.*", "AB.C", False),
    ("go.bat", "GO.BAT", True),       # patterns are upper-cased too
    ("GO.BA", "GO.BAT", False),
])
def test_wildcard_matching_follows_dos(pattern, name, hit):
    assert wildcard_match(pattern, name) is hit


@given(st.from_regex(r"[A-Z0-9_$#~!-]{1,8}(\.[A-Z0-9_$#~!-]{1,3})?", fullmatch=True))
def test_round_trip_and_self_match(name):
    fcb = to_fcb(name)
    assert len(fcb) == 11
    assert from_fcb(fcb) == name
    assert fcb_matches(fcb, fcb)
    assert fcb_matches(pattern_to_fcb("*.*"), fcb)


def test_parse_path():
    assert parse_path("\\SUB\\file.txt") == ["SUB", "FILE.TXT"]
    assert parse_path("A:sub/./x/../y.dat") == ["SUB", "Y.DAT"]
    assert parse_path("\\") == []
    with pytest.raises(DosError) as info:
        parse_path("..\\X")
    assert info.value.code == 3
