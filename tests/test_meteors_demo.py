"""The demo's time: METEORS.EXE in the machine against the Python game's model of the demo
player's steps (demo_cost.py) and of the demo's start (demo_start.py: the pass that reads the space),
timed at the statements' INT 3s by games_py/meteors/demo_probe.py (docs/meteors-internals.md,
section 6).  About 10 s."""
from __future__ import annotations

import pytest

from games_py.meteors import compare, demo_cost, demo_probe, demo_start, sweep
from tests.machine_helpers import DISK1612, needs_originals

# seed 1612's demo sweep of 20 sessions (not the sessions demo_cost was fitted to: seeds 7 and 42)
STEPS = sweep.Case((3, 4, 35, 60), True, False, 20.0)        # /C, sound off
START = [sweep.Case((0, 0, 0, 0), True, True, 1.0), sweep.Case((4, 46, 30, 9), False, False, 1.0)]


@needs_originals
def test_every_segment_of_the_demo_players_steps_costs_what_the_table_says() -> None:
    """Each segment between two of the demo player's marks that no interrupt came into took, on
    the original, the instructions demo_cost gives it besides the runtime's paths for the model's
    values, every time; and the original passed the model's marks in the model's order at every
    frame (a wrong mark, a path not counted or a missing segment fails here)."""
    table, differing = demo_probe.segments(STEPS.settings(), str(DISK1612))
    assert differing == 0
    assert sum(sum(c.values()) for c in table.values()) > 3_000
    for (a, b, d), counts in table.items():
        expected = demo_cost.BY_DIRECTION.get((a, b, d), demo_cost.SEGMENTS.get((a, b)))
        assert dict(counts) == {expected: sum(counts.values())}, (hex(a), hex(b), d)


@needs_originals
@pytest.mark.parametrize("case", START, ids=sweep.options)
def test_the_demos_first_t0_is_where_the_model_puts_it(case) -> None:
    """The first level screen's T0: in the same tick as the model's (from line 225), the music's
    counter as the model's (the show's notes and F2's beep), and within an instruction or two of
    the model's place in its tick (demo_start's chain; with one number per sound setting, until
    branch h-demostart, -36 and +62 off at these two)."""
    original = demo_probe.original_start(case.settings(), str(DISK1612))
    model = demo_probe.model_start(case.settings())
    assert original["t0"] == model["t0"]
    assert original["counter"] == model["counter"]
    assert abs(original["since"] - model["since"]) <= 2


# The original's first T0 (ticks from line 225, instructions since its tick's IRQ 0) at four more of
# seed 1612's demo sessions (demo_probe start): F2 caught by line 3560's second statement or (06:46 and
# 17:40) its first; the space's IRQ 1 in the pass before the one that reads it or (10:32, 17:40) in
# its first instructions.  One number per sound setting was -108, +110, +33 and -54 off.
MEASURED_T0 = [(sweep.Case((10, 32, 29, 72), True, True, 1.0), 55, 29_285),
               (sweep.Case((13, 56, 49, 47), False, False, 1.0), 76, 23_778),
               (sweep.Case((6, 46, 46, 4), False, True, 1.0), 55, 29_191),
               (sweep.Case((17, 40, 19, 30), True, False, 1.0), 76, 23_829)]


@pytest.mark.parametrize("case, ticks, since", MEASURED_T0, ids=lambda v: sweep.options(v) if isinstance(v, sweep.Case) else "")
def test_the_models_first_demo_t0_is_the_measured_one(case, ticks, since) -> None:
    model = demo_probe.model_start(case.settings())
    assert model["t0"] == ticks
    assert abs(model["since"] - since) <= 2


def test_the_run_loops_first_key_goes_in_at_the_second_check_after_line_3560() -> None:
    """F2 (with sound off F1) at 3,389,910 or 3,455,820 from power-on, the later keys a fixed
    distance after it (the 20 sessions of seed 1612)."""
    assert demo_start.key_sends(3_334_739, True) == [("F2", 3_389_910), (" ", 4_747_570)]
    assert demo_start.key_sends(3_401_629, False) == [("F1", 3_455_820), ("F2", 4_813_480),
                                                       (" ", 6_190_111)]


@needs_originals
def test_the_demos_string_space_is_the_originals_at_every_frame(monkeypatch) -> None:
    """The runtime's string space in demo mode (F2's handler's strings at the start-up, the demo
    player's D$ = ...): the blocks and the rover at every frame's line 1110 and each allocation's
    instructions equal the model's (test_meteors_strings' watchers on a demo session: without
    F2's strings the first frame differs, without the D$ assignments the second)."""
    import tests.test_meteors_strings as watched
    monkeypatch.setattr(watched, "CASE", STEPS)
    theirs, their_costs, passes = watched.watch_original()
    mine, my_costs = watched.watch_python(len(theirs), passes)
    assert len(mine) == len(theirs) > 250
    assert mine == theirs
    assert my_costs[:len(their_costs)] == their_costs[:len(my_costs)]


def test_the_space_taken_29_into_a_pass_is_read_by_that_pass() -> None:
    """10:55:20.83 /M sound on (seed 1612's demo case 45): the space's IRQ 1 is taken 29
    instructions after the INT 3 of line 3560's first statement at 4,747,542 from power-on, and the
    original reads it in that pass (INKEY$'s INT 16h AH=11h is its 34th instruction: KEY_READ).
    With KEY_READ 28 the model read it a pass (190) later and its first T0 was 190 off."""
    marks = demo_probe.model_chain(sweep.Case((10, 55, 20, 83), False, True, 1.0).settings())
    assert marks["read"] == 4_747_542


def test_a_wait_that_ends_on_an_exact_difference_pays_the_compares_equal_path() -> None:
    """16:44:38.39 /M sound on (seed 1612's demo case 69): line 4740's .5 s wait ends on a pass whose
    ABS(TIMER - T) is exactly .5; the original's last pass takes 980 instructions where
    polling.one_pass without the compare's equal path said 979, and line 4750's INT 3 came at
    4,069,819 from power-on, the model's then 4,069,818 (and its first T0 one early)."""
    marks = demo_probe.model_chain(sweep.Case((16, 44, 38, 39), False, True, 1.0).settings())
    assert marks["wait"] == 4_069_819


def test_an_edge_at_sounds_cli_is_held_until_the_note_is_queued() -> None:
    """16:44:38.39 /M sound on, frame 1325 (seed 1612's demo case 69): the fall's note ends on the
    edge taken 273 instructions after line 5120's INT 3, the instruction SOUND's CLI (062B:440C's
    call) executes at; the original holds it, queues the new note and takes the edge at 432 in,
    which starts it (no fresh start).  With SOUND_MASKED 159 the model took the edge first, the
    music ended, and its fresh start put the wait's end 1,790 instructions late."""
    from games_py.meteors.game import Meteors
    game = Meteors(sweep.Case((16, 44, 38, 39), False, True, 120.0).settings())
    game.random.randomize_timer(16, 44, 38, 39)
    game.start()
    game.ticks.sound_log = []
    game.play(lambda g: g.total_frames > 1326)
    fresh = [entry[1] for entry in game.ticks.sound_log]
    assert len(fresh) > 1400
    assert fresh[-2:] == [False, False]


def _table_spans(case: sweep.Case, frames: int) -> list[float]:
    """The model's demo tables: line 5370's INT 3 to the second pause's first (1710), each."""
    from games_py.meteors.game import Meteors
    game = Meteors(case.settings())
    game.place_log = []
    game.random.randomize_timer(*case.time)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    places = [(line, t) for line, t, _, _ in game.place_log]
    return [places[i + 1][1] - t for i, (line, t) in enumerate(places) if line == 5370]


def test_the_demos_saved_table_is_its_statements() -> None:
    """02:16:12.85 /M sound on (seed 1612's demo case 9): the game over's table (COMPUTER saved, a
    score of 176, the file created, one row) takes 63,308 instructions from line 5370's INT 3 to
    the second pause's on the original; with DEMO_SAVE fitted (12,679) and PLAYER's row and record
    the model had 63,280."""
    assert _table_spans(sweep.Case((2, 16, 12, 85), False, True, 120.0), 240) == [63_308]


def test_line_5730_for_a_time_of_32_seconds_or_more() -> None:
    """Line 5730's PRINT of STR$(TIME) as the original took it at seed 1612's 120 s demo tables
    (games of 16 to 101 seconds): the binary exponent's 4 each held to 31 but not from 32 on."""
    from games_py.meteors import table_cost
    measured = {13: 1_638, 16: 1_642, 31: 1_642, 34: 1_626, 62: 1_626, 67: 1_630, 99: 1_630, 101: 1_671}
    assert {t: table_cost.seconds_string(t) for t in measured} == measured


def test_the_second_pauses_play_wait_starts_its_passes_44_after_line_1710() -> None:
    """10:55:20.83 /M sound on (seed 1612's demo case 45): in the second pause the passes of line
    1710's WHILE PLAY(0) start at 0000:1136's INT 3, 44 after 0000:1125's (end_cost.PLAY_LOOP).  The
    original's frame at event 2195 is at tick 1686 (its trace); with PLAY_LOOP 88, one instruction
    early in the pass's phase, the model's was 1685."""
    settings = sweep.Case((10, 55, 20, 83), False, True, 120.0).settings()
    python = compare.python_trace(settings, 2_400)
    assert python[2195]["event"] == "frame"
    assert python[2195]["tick"] == 1686
