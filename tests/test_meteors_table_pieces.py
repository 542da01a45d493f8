"""The high-score table's pieces traced statement by statement (branch h-end2; timing.py's
TABLE, TABLE_ROW, TABLE_COLOUR, NAME_PROMPT, NAME, SAVED and line_input's late byte).

Until h-end2 they were fitted to whole tables: a score-0 table came out 22 too long, a row 8
too short, a colour one 7 more too long, and NAME held Enter's break (INT 9, 98), which
line_input dropped at LINE INPUT's end.
"""
from __future__ import annotations

from games_py.meteors import end_probe, line_input, sweep
from tests.machine_helpers import DISK1612, needs_originals
from tests.test_meteors_line_input import Quiet


def test_enters_break_comes_after_line_input_a_key_gap_after_its_make() -> None:
    """PLAYER and Enter: 26 bytes from 2 after line 5910's INT 3, each 2,420 after the last,
    no interrupt; the 14th and the 16th come due at a pass's INT 16h and are taken after it
    (line_input.POLL_HELD, 2 each): Enter's make taken at 2 + 24 x 2,420 + 4, its break 2,420
    later, after LINE INPUT's end (58,910), and left for the statements after it."""
    clock = Quiet()
    late = line_input.name_input(clock, False, 0)
    assert clock.t == 58_910
    assert late == [(2 + 25 * line_input.KEY_GAP + 2 * line_input.POLL_HELD, line_input.LATE_BREAK)]


@needs_originals
def test_score_0_colour_tables_cost_what_the_originals_do() -> None:
    """Seed 7's 120 s random:8 (colour, sound on), of 24, from the original's line-3560 place:
    its first four tables (a name, then three of score 0 with a row) within 9 instructions of
    the original's, line 5370 to the second pause (before h-end2: +4, -15, -21, -21)."""
    case = sweep.with_human(sweep.demo_cases(24, seed=7, seconds=120))[8]
    rows = end_probe.compare(case.settings(), str(DISK1612), given_place=True)
    tables = []
    for row in rows[:4]:
        lines = [line for line, _ in row]
        second = lines.index(1710, lines.index(5370))
        tables.append(row[second][1] - dict(row)[5370])
    assert len(tables) == 4
    assert all(abs(error) <= 9 for error in tables), tables


@needs_originals
def test_a_three_digit_score_is_written_one_instruction_longer_than_str_says() -> None:
    """Seed 1612's two-minute random:4 (colour, sound on), of 24: its first name's score is 105,
    and every save after writes it (line 6200's PRINT #1, 1,893 where STR$'s law gives 1,892:
    table_cost.SAVED_HUNDREDS).  LINE INPUT's end to the second pause's first INT 3 as the
    original's at all its names (1 short at each until 27 Nov)."""
    case = sweep.with_human(sweep.demo_cases(24, seed=1612, seconds=120))[4]
    names = 0
    for row in end_probe.compare(case.settings(), str(DISK1612), given_place=True):
        lines = [line for line, _ in row]
        if 5940 in lines:
            names += 1
            at = lines.index(5940)
            assert row[at + 1][0] == 1710 and row[at + 1][1] - row[at][1] == 0
    assert names >= 8


@needs_originals
def test_a_three_digit_scores_result_line_is_one_instruction_shorter_than_str_says() -> None:
    """Line 5700's PRINT "GAME:" + STR$(GAME) + "  SCORE:" + STR$(SCORE) for a score of 100 or more
    takes 1 less than STR$'s law (table_cost.RESULT_HUNDREDS): seed 1612's two-minute random:4's
    first table (a score of 105), line 5370 to line 5910 as the original's (1 long until 27 Nov)."""
    case = sweep.with_human(sweep.demo_cases(24, seed=1612, seconds=120))[4]
    first = next(row for row in end_probe.compare(case.settings(), str(DISK1612), given_place=True)
                 if any(line == 5910 for line, _ in row))
    places = dict(first)
    assert places[5910] - places[5370] == 0


@needs_originals
def test_the_demos_name_is_a_word_longer_to_assign() -> None:
    """Demo mode saves COMPUTER, two characters more than the tracer's PLAYER, and line 6120's
    NAME$(PLACE) = N$ copies a word more (timing.COMPUTER_NAME): 10:55:20.83 /M's first table
    (a score of 195), line 5370 to the second pause's first INT 3 as the original's."""
    from games_py.meteors import trace
    settings = trace.Settings(time=(10, 55, 20, 83), colour_switch=False, sound=True, demo=True, seconds=30)
    rows = end_probe.compare(settings, str(DISK1612))
    places = rows[0]
    lines = [line for line, _ in places]
    assert lines[4] == 5370 and lines[5] == 1710
    assert places[5][1] - places[4][1] == 0


@needs_originals
def test_a_time_of_110_seconds_is_printed_as_the_original_prints_it() -> None:
    """Line 5730's STR$(TIME) of a TIME from 32 to 255 with one trailing zero takes 4 more than
    the law of its exponent and digits (table_cost.SECONDS_TEN; measured for every TIME to 2,100
    on the runtime's own code).  11:13:42.35 /M (sound off, the demo) ends its first game after
    110 s: its table, line 5370 to the second pause's first INT 3, as the original's (4 short
    until 27 Nov, which put the next game a pause's pass, and later a frame's tick, off)."""
    from games_py.meteors import trace
    settings = trace.Settings(time=(11, 13, 42, 35), colour_switch=False, sound=False, demo=True, seconds=130)
    places = end_probe.compare(settings, str(DISK1612))[0]
    lines = [line for line, _ in places]
    assert lines[4] == 5370 and lines[5] == 1710
    assert places[5][1] - places[4][1] == 0


@needs_originals
def test_line_5730s_law_is_the_runtimes_for_every_time_to_255() -> None:
    """table_cost.seconds_string against line 5730 run on METEORS.EXE's own code (time_probe.py)
    for every TIME from 0 to 255: the same difference at all of them (the bare run's fixed part)."""
    from games_py.meteors import table_cost, time_probe
    line = time_probe.TimeLine(str(DISK1612))
    residuals = {line.instructions(t) - table_cost.seconds_string(t) - 4 * (t == 1) for t in range(256)}
    assert len(residuals) == 1
