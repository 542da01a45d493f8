"""The demo's time: METEORS.EXE in the machine against the Python game's model of the demo
player's steps (demo_cost.py) and of the demo's start (timing.DEMO_KEY_READ, demo_counter),
timed at the statements' INT 3s by games_py/meteors/demo_probe.py (docs/meteors-internals.md,
section 6).  About 10 s."""
from __future__ import annotations

import pytest

from games_py.meteors import demo_cost, demo_probe, sweep, timing
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
    counter as the model's (the show's notes and F2's beep), and within the spread of where the
    pass that reads the space falls in its lattice (the model's place is one number per sound
    setting; until this branch 9,500 into the tick, 14,000 to 20,000 off)."""
    original = demo_probe.original_start(case.settings(), str(DISK1612))
    model = demo_probe.model_start(case.settings())
    assert original["t0"] == model["t0"]
    assert original["counter"] == model["counter"] == timing.demo_counter(case.sound)
    assert abs(original["since"] - model["since"]) < 200


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
