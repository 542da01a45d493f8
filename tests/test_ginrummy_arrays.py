"""The program's straight arrays, word for word: S() and the lay-offs' copy SL().

The lay-off routine overwrites its straight count with a straight's new size (lines
6390/6440) and then scans rows of SL() past the knocker's straights, whose cells are
whatever earlier arrangements left there (docs/ginrummy-internals.md, section 12).  So
the Python game keeps S() as the program does, stale cells included.  These tests
check it against the machine's memory and exercise the lay-off scan on such cells.
"""
from __future__ import annotations

import pytest

from games_py.ginrummy import computer, game
from games_py.qbasic import rng
from games_py.ginrummy.deal import OriginalRandom
from pcemu.trace import ginrummy as tracer
from pcemu.trace.sweep import MAX_HANDS_PER_GAME, _first_game
from tests.ginrummy_helpers import card, empty_table, with_hand
from tests.machine_helpers import DISK1612, needs_originals


def _machine_arrays(monkeypatch, settings) -> list[list[int]]:
    """S() in the machine at each line 2630 (after line 2540 arranged the knocker)."""
    seen = []
    arranged_again = tracer.GinRummyTracer._arranged_again

    def spy(self):
        if self.in_hand and not self.done:
            rows = self.process.array2(tracer.STRAIGHTS, 4, 52)
            seen.append([rows[w % computer.ROWS][w // computer.ROWS] for w in range(computer.ARRAY_WORDS)])
        arranged_again(self)
    monkeypatch.setattr(tracer.GinRummyTracer, "_arranged_again", spy)
    tracer.trace_original(settings, hands=MAX_HANDS_PER_GAME, disk=str(DISK1612), first_game=True)
    monkeypatch.undo()
    return seen


def _python_arrays(monkeypatch, settings) -> list[list[int]]:
    """The Python game's S() right after its line-2540 arrangement."""
    seen = []
    arrange = computer.arrange

    def spy(t, p, places, random, **kwargs):
        arrange(t, p, places, random, **kwargs)
        if kwargs.get("final"):
            seen.append(list(t.arrays.s))
    monkeypatch.setattr(computer, "arrange", spy)
    _first_game(game.python_trace(settings, MAX_HANDS_PER_GAME))
    monkeypatch.undo()
    return seen


@needs_originals
@pytest.mark.originals
@pytest.mark.parametrize("settings", [
    game.Settings(time=(0, 0, 0, 0), variant="standard", demo=True),
    game.Settings(time=(23, 59, 59, 99), variant="cowboy", sound=False, colour=False, demo=True),
], ids=["00:00:00.00-standard", "23:59:59.99-cowboy-mono"])
def test_every_word_of_s_is_the_machines_at_each_lay_off(monkeypatch, settings):
    """A whole first game each (about 10 s); the dead hands have no line 2630."""
    machine = _machine_arrays(monkeypatch, settings)
    python = _python_arrays(monkeypatch, settings)
    assert len(machine) >= 3
    assert python[:len(machine)] == machine        # (the Python trace goes on into game 2)
    stale = [w for w in range(computer.ARRAY_WORDS) if machine[-1][w] and w % computer.ROWS
             and w // computer.ROWS > machine[-1][w % computer.ROWS]]
    assert stale                                  # cells past a row's size: what the model is for


def _table(knocker_straight: list[str], other_hand: list[str]) -> computer.Table:
    t = with_hand(with_hand(empty_table(top=40), 1, knocker_straight), 2, other_hand)
    # the knocker last, as at line 2540: S() then holds his straights
    computer.arrange(t, 2, len(other_hand), OriginalRandom(rng.QuickBasicRandom(2)))
    computer.arrange(t, 1, len(knocker_straight), OriginalRandom(rng.QuickBasicRandom(1)))
    return t


def test_a_phantom_row_takes_a_card_that_fits_its_stale_cells():
    # you hold 6H..AH; the computer lays off 7H, NSL becomes 7, and row 7 of SL() is row 2
    # one column on: stale size AC (27 >= 3), top 3D, so 4D "extends" it at the top
    t = _table(["6H", "5H", "4H", "3H", "2H", "AH", "AC", "2S", "3S", "4C"],
               ["QS", "QD", "QC", "3D", "4D", "8H", "7S", "10D", "4S", "7H"])
    s = t.arrays.s
    s[computer.cell(2, 0)], s[computer.cell(2, 1)] = 0, card("AC")
    s[computer.cell(2, 2)], s[computer.cell(2, 3)] = card("3D"), 0
    laid, pv = computer.program_lay_offs(t, 1, 2)
    cards = [(str(computer._card(item.card)), item.flat, item.row) for item in laid]
    assert cards[:2] == [("7H", False, 1), ("4D", False, 7)]
    assert ("8H", False, 1) in cards
    assert pv == t.pv[2] - 7 - 4 - 8


def test_a_read_just_past_sl_finds_the_heap_header_and_further_stops_the_python_game():
    t = _table(["6H", "5H", "4H", "3H", "2H", "AH", "AC", "2S", "3S", "4C"],
               ["QS", "QD", "QC", "3D", "9D", "JC", "7S", "10D", "4S", "7H"])
    t.arrays.s[computer.cell(2, 1)] = 52          # a stale card number (KS) as row 7's size:
    laid, _pv = computer.program_lay_offs(t, 1, 2)   # its last card is word 267, padding (0)
    assert [str(computer._card(item.card)) for item in laid] == ["7H"]
    t = _table(["6H", "5H", "4H", "3H", "2H", "AH", "AC", "2S", "3S", "4C"],
               ["QS", "QD", "QC", "3D", "9D", "JC", "7S", "10D", "4S", "7H"])
    t.arrays.s[computer.cell(2, 1)] = 60          # a size reaching FL()'s words (word 307)
    with pytest.raises(computer.UnmodelledMemory, match="in FL"):
        computer.program_lay_offs(t, 1, 2)
