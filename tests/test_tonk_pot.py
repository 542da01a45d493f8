"""The bet and the pot kept in TONK.SCR.

'YOU START OUT BY SPECIFYING YOUR BET, $1 TO $999 (IF YOU WANT THE SAME BET AS LAST
TIME, JUST HIT THE <ENTER> KEY)'; 'THE COMPUTER WILL AUTOMATICALLY SAVE YOUR POT ON
THE DISK ... IF YOU WANT TO REFRESH YOUR POT JUST DELETE THE FILE TONK.SCR'.
"""
import os

import pytest
from hypothesis import given, strategies as st

from games_py.tonk.pot import (START_POT, BetError, Pot, format_pot, load_pot, parse_bet,
                               parse_pot, save_pot)
from games_py.tonk.state import Outcome, Reason

YOU, ME = 0, 1


def outcome(reason, winner, mult=1):
    return Outcome(reason, winner, None, (0, 0), mult)


# --------------------------------------------------------------- bets

@pytest.mark.parametrize("text,bet", [("1", 1), ("999", 999), ("$25", 25), (" 40 ", 40)])
def test_bet_from_one_to_999_dollars(text, bet):
    """'$1 TO $999'.
    [002_b5a441868e5ee1bb.txt line 65]"""
    assert parse_bet(text, None) == bet


@pytest.mark.parametrize("text", ["0", "1000", "-5", "ten", "2.5", "1e3"])
def test_bets_outside_the_range_or_not_numbers_are_refused_with_a_reason(text):
    """[002_b5a441868e5ee1bb.txt lines 64-66]"""
    with pytest.raises(BetError) as e:
        parse_bet(text, 10)
    assert "$1" in str(e.value) or "not an amount" in str(e.value)


def test_enter_repeats_the_last_bet():
    """'IF YOU WANT THE SAME BET AS LAST TIME, JUST HIT THE <ENTER> KEY'.
    [002_b5a441868e5ee1bb.txt line 65]"""
    assert parse_bet("", 37) == 37
    assert parse_bet("   ", 5) == 5
    with pytest.raises(BetError, match="no last bet"):
        parse_bet("", None)


# --------------------------------------------------------------- settling

def test_winner_takes_the_stake_loser_pays_it():
    """[002_b5a441868e5ee1bb.txt lines 63-64, 109-112]"""
    pot = Pot(balance=100)
    assert pot.settle(outcome(Reason.TONK, YOU), 30, YOU) == 30
    assert pot.settle(outcome(Reason.EXHAUSTED, ME), 45, YOU) == -45
    assert pot.balance == 85 and pot.last_bet == 45


def test_undercut_pays_double_the_amount_bet():
    """'THE TONKER LOSES AND MUST PAY THE OPPONENT *DOUBLE* THE AMOUNT BET'.
    [002_b5a441868e5ee1bb.txt line 111]"""
    pot = Pot()
    assert pot.settle(outcome(Reason.UNDERCUT, ME, 2), 40, YOU) == -80
    assert pot.settle(outcome(Reason.UNDERCUT, YOU, 2), 40, YOU) == 80
    assert pot.balance == 0


def test_dead_hand_carries_the_bet_over_to_the_next_hand():
    """'THE HAND IS CALLED DEAD AND THE BET IS CARRIED OVER TO THE NEXT HAND'.
    [002_b5a441868e5ee1bb.txt line 123]"""
    pot = Pot(balance=10)
    assert pot.settle(outcome(Reason.DEAD, None, 0), 20, YOU) == 0
    assert pot.carry == 20 and pot.balance == 10
    assert pot.settle(outcome(Reason.DEAD, None, 0), 5, YOU) == 0     # two dead hands in a row
    assert pot.carry == 25
    assert pot.stake(10) == 35
    assert pot.settle(outcome(Reason.TONK, YOU), 10, YOU) == 35
    assert pot.carry == 0 and pot.balance == 45
    assert pot.stake(10) == 10


def test_stake_refuses_a_bet_outside_the_range():
    """[002_b5a441868e5ee1bb.txt lines 64-66]"""
    with pytest.raises(BetError):
        Pot().stake(0)
    with pytest.raises(BetError):
        Pot().stake(1000)


# --------------------------------------------------------------- TONK.SCR

def test_pot_is_saved_and_restored(tmp_path):
    """'THE COMPUTER WILL AUTOMATICALLY SAVE YOUR POT ... AND RESTORE IT'.
    [002_b5a441868e5ee1bb.txt lines 68-69]"""
    path = tmp_path / "TONK.SCR"
    assert save_pot(path, Pot(-123, 45, 60)) is None
    loaded = load_pot(path)
    assert loaded.pot == Pot(-123, 45, 60) and loaded.message is None and loaded.may_save
    assert not (tmp_path / "TONK.SCR.tmp").exists()


def test_deleting_the_file_refreshes_the_pot(tmp_path):
    """'IF YOU WANT TO REFRESH YOUR POT JUST DELETE THE FILE TONK.SCR'.
    [002_b5a441868e5ee1bb.txt line 69]"""
    path = tmp_path / "TONK.SCR"
    save_pot(path, Pot(500, 10, 0))
    path.unlink()
    loaded = load_pot(path)
    assert loaded.pot == Pot(START_POT, None, 0) and loaded.may_save
    assert "fresh pot" in loaded.message


@pytest.mark.parametrize("content", [
    b"", b"garbage", b"TONK.SCR 1\npot 12\nbet 10\n",                 # missing carry
    b"TONK.SCR 1\npot twelve\nbet 10\ncarry 0\n",
    b"TONK.SCR 1\npot 12\nbet 1000\ncarry 0\n",                      # bet out of range
    b"TONK.SCR 1\npot 12\nbet 10\ncarry -4\n",                       # negative carry
    b"TONK.SCR 1\npot 12\npot 13\nbet 10\ncarry 0\n",                # duplicate line
    b"\xff\xfe\x00binary",
])
def test_a_damaged_file_is_kept_aside_and_play_starts_fresh(tmp_path, content):
    """A corrupt TONK.SCR is never overwritten: it is renamed to TONK.SCR.bad, the player
    is told why, and a fresh pot is used (which may then be saved).
    [002_b5a441868e5ee1bb.txt lines 68-70]"""
    path = tmp_path / "TONK.SCR"
    path.write_bytes(content)
    loaded = load_pot(path)
    assert loaded.pot == Pot() and loaded.may_save
    assert "damaged" in loaded.message and "TONK.SCR.bad" in loaded.message
    assert (tmp_path / "TONK.SCR.bad").read_bytes() == content
    assert not path.exists()


def test_a_second_damaged_file_does_not_replace_the_first(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    path = tmp_path / "TONK.SCR"
    path.write_bytes(b"first")
    load_pot(path)
    path.write_bytes(b"second")
    loaded = load_pot(path)
    assert (tmp_path / "TONK.SCR.bad").read_bytes() == b"first"
    assert (tmp_path / "TONK.SCR.bad2").read_bytes() == b"second"
    assert "TONK.SCR.bad2" in loaded.message


def test_an_unreadable_pot_file_is_not_saved_over(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    path = tmp_path / "TONK.SCR"
    path.mkdir()                           # a directory where the file should be
    loaded = load_pot(path)
    assert not loaded.may_save and "Cannot read" in loaded.message
    assert path.is_dir()


def test_saving_into_a_missing_directory_reports_instead_of_raising(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    msg = save_pot(tmp_path / "no" / "such" / "TONK.SCR", Pot(3, 3, 0))
    assert msg is not None and "Could not save" in msg


def test_the_file_format_is_the_documented_text():
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    assert format_pot(Pot(-35, 10, 0)) == "TONK.SCR 1\npot -35\nbet 10\ncarry 0\n"
    assert format_pot(Pot()) == "TONK.SCR 1\npot 0\nbet none\ncarry 0\n"


@given(balance=st.integers(-10 ** 9, 10 ** 9), bet=st.one_of(st.none(), st.integers(1, 999)),
       carry=st.integers(0, 10 ** 6))
def test_format_and_parse_round_trip(balance, bet, carry):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    pot = Pot(balance, bet, carry)
    assert parse_pot(format_pot(pot)) == pot


@given(st.binary(max_size=80))
def test_parsing_junk_either_fails_with_value_error_or_gives_a_valid_pot(data):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    try:
        pot = parse_pot(data.decode("latin-1"))
    except ValueError:
        return
    assert pot.carry >= 0 and (pot.last_bet is None or 1 <= pot.last_bet <= 999)


def test_file_on_disk_is_plain_text(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    path = tmp_path / "TONK.SCR"
    save_pot(path, Pot(7, 8, 9))
    assert path.read_text(encoding="ascii").splitlines() == ["TONK.SCR 1", "pot 7", "bet 8", "carry 9"]
    assert os.path.getsize(path) < 64
