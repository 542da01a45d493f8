"""Options and CRIBBAGE.CFG, from CRIBBAGE.DOC "The Options Menu"."""
import pytest

from games_py.cribbage import config as cfg
from games_py.cribbage.config import Options


def test_defaults_from_the_document():
    """Doc: "The default name is 'PLAYER'"; SKUNKING and BIG CARDS are off
    until "changed to YES"; the board is 121 holes.
    [004_fa271ff1c123496e.txt lines 91-130]"""
    o = Options()
    assert (o.name, o.score_limit, o.skunking, o.big_cards, o.pointer) == \
        ("PLAYER", 121, False, False, 1)


def test_name_allowed_characters_and_eight_at_most():
    """Doc: "Upper and lower case letters, numbers 0 through 9, characters
    ! . , " - : / ? and spaces are also allowed.  The name can be a maximum of
    eight characters long".
    [004_fa271ff1c123496e.txt line 96]"""
    for ch in 'aZ09!.,"-:/? ':
        assert cfg.name_allowed(ch), ch
    for ch in "@#_*()é\t|":
        assert not cfg.name_allowed(ch), ch
    assert cfg.clean_name("Bob_Smith@home") == "BobSmith"
    assert cfg.clean_name('Al "Ace"!') == 'Al "Ace"'
    assert cfg.valid_name("Ron-Hill") and cfg.valid_name("J. Doe")
    assert not cfg.valid_name("TooLongName") and not cfg.valid_name("")
    assert not cfg.valid_name("   ")


def test_score_limit_cycles_between_121_and_61():
    """Doc: "Clicking on SCORE LIMIT cycles the pegging board total between 121
    and 61 pegs".
    [004_fa271ff1c123496e.txt line 101]"""
    o = cfg.cycle_limit(Options())
    assert o.score_limit == 61
    assert cfg.cycle_limit(o).score_limit == 121


def test_toggles_and_seven_pointer_shapes():
    """Doc: 'K' toggles skunking, 'B' big cards; "There are seven different
    shapes ... 'P' still toggles".
    [004_fa271ff1c123496e.txt lines 104-123]"""
    o = Options()
    assert cfg.toggle_skunking(o).skunking and not cfg.toggle_skunking(cfg.toggle_skunking(o)).skunking
    assert cfg.toggle_big_cards(o).big_cards
    shapes = []
    for _ in range(8):
        o = cfg.next_pointer(o)
        shapes.append(o.pointer)
    assert shapes == [2, 3, 4, 5, 6, 7, 1, 2]


def test_save_then_load_gives_the_same_options(tmp_path):
    """Doc: "SAVE will save all options to the CRIBBAGE.CFG file.  This file
    is loaded when the program is run".
    [004_fa271ff1c123496e.txt line 126]"""
    path = tmp_path / cfg.CONFIG_FILE
    o = Options(name='J. Doe?', score_limit=61, skunking=True, big_cards=True, pointer=6)
    assert cfg.save_config(path, o) is None
    loaded, messages = cfg.load_config(path)
    assert loaded == o and messages == []


def test_missing_file_is_created_with_defaults(tmp_path):
    """Doc: "If this file is not present ... it will be created with the
    default options".
    [004_fa271ff1c123496e.txt lines 128-129]"""
    path = tmp_path / cfg.CONFIG_FILE
    options, messages = cfg.load_config(path)
    assert options == Options()
    assert path.exists() and cfg.parse_config(path.read_text()) == Options()
    assert "not found" in messages[0]


@pytest.mark.parametrize("content, reason", [
    (b"\x00\xff\x13garbage", "not a text file"),
    (b"NAME=PLAYER\nLIMIT=100\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=1\n", "LIMIT"),
    (b"NAME=PLAYER\nLIMIT=121\nSKUNKING=MAYBE\nBIGCARDS=NO\nPOINTER=1\n", "YES or NO"),
    (b"NAME=PLAYER\nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=9\n", "POINTER"),
    (b"NAME=PLAYER\nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\n", "missing POINTER"),
    (b"NAME=PLAYER\nNAME=DAVE\nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=1\n", "twice"),
    (b"NAME=Bob_Smith\nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=1\n", "not a valid name"),
    (b"NAME=PLAYER\nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=1\nCOLOR=RED\n", "unknown"),
    (b"just some words\n", "KEY=value"),
])
def test_corrupt_file_is_recreated_with_defaults_and_kept_aside(tmp_path, content, reason):
    """Doc: "If this file is ... corrupted, it will be created with the
    default options"; the damaged file is kept as CRIBBAGE.CFG.BAD so nothing
    the user had is lost, and the message says what was wrong.
    [004_fa271ff1c123496e.txt line 128]"""
    path = tmp_path / cfg.CONFIG_FILE
    path.write_bytes(content)
    options, messages = cfg.load_config(path)
    assert options == Options()
    assert len(messages) == 1 and "corrupt" in messages[0] and reason in messages[0]
    assert (tmp_path / "CRIBBAGE.CFG.BAD").read_bytes() == content
    assert cfg.parse_config(path.read_text()) == Options()


def test_unreadable_config_gives_defaults_and_a_message(tmp_path):
    """[004_fa271ff1c123496e.txt lines 125-130]"""
    path = tmp_path / cfg.CONFIG_FILE
    path.mkdir()                                 # a folder where the file should be
    options, messages = cfg.load_config(path)
    assert options == Options()
    assert "Could not read" in messages[0]


def test_save_failure_is_a_message_not_an_exception(tmp_path):
    """[004_fa271ff1c123496e.txt lines 125-130]"""
    error = cfg.save_config(tmp_path / "no such folder" / cfg.CONFIG_FILE, Options())
    assert error is not None and error.startswith("Could not save")


def test_comments_blank_lines_and_case_are_accepted():
    """[004_fa271ff1c123496e.txt lines 125-130]"""
    text = "; my options\n\nname=Dave\r\nlimit=61\nSkunking=yes\nbigcards=no\npointer=3\n"
    assert cfg.parse_config(text) == Options("Dave", 61, True, False, 3)


def test_a_name_keeps_its_spaces():
    """[004_fa271ff1c123496e.txt lines 91-98]"""
    text = "NAME= A B \nLIMIT=121\nSKUNKING=NO\nBIGCARDS=NO\nPOINTER=1\n"
    assert cfg.parse_config(text).name == " A B "
