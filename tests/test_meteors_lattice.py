"""The music's and the BIOS's edges against the program's whole instructions (docs/meteors-internals.md,
section 6, "Interrupts at whole instructions"): where the model knows its lattice from power-on
(a human player's session, line 3560's place from show_time; the demo's, the read pass from
demo_start), FrameClock takes an edge where pcemu's machine does, at the first whole instruction
count at or after the edge's PIT clock, not at the edge rounded to the nearest instruction.  Pure
Python (the model against the original's measured numbers), about 3 s."""
from __future__ import annotations

import math

import pytest

from games_py.meteors import demo_probe, sweep, timing
from games_py.meteors.timing import FrameClock
from pcemu.clock import Clock

START = (12, 0, 0, 0)


def _edge_with_fraction(low: float, high: float, after: int = 3_000_000) -> int:
    """An IRQ 0 edge (a multiple of 1024 PIT clocks from power-on) whose instruction count has
    a fraction in [low, high)."""
    clocks = after // 1024 * 1024
    while True:
        x = clocks * timing.IPS / timing.PIT_HZ
        if low <= x - math.floor(x) < high:
            return clocks
        clocks += 1024


def _clock_at(tick_edge: int) -> FrameClock:
    clock = FrameClock(START, 0)
    clock.origin = tick_edge * timing.IPS / timing.PIT_HZ
    return clock


def test_an_edge_is_taken_at_the_machines_instruction() -> None:
    """For 2,000 edges on the 1024-clock lattice the model's instruction is pcemu's
    (Clock.instructions_for_pit), though the edge lies up to a whole instruction before it."""
    machine = Clock()
    tick = 52 * 65536
    clock = _clock_at(tick)
    for k in range(2_000):
        edge = tick + 1024 * k
        due = edge * timing.IPS / timing.PIT_HZ - clock.origin
        assert round(clock.origin + clock.taken_at(due)) == machine.instructions_for_pit(edge)


def _play_wait(edge: int, into: int) -> float:
    """WHILE PLAY(0) with its pass begun ``into`` whole instructions before the instruction at or
    after ``edge``, whose interrupt takes the note queued: where the wait ends, from the pass."""
    tick = edge - edge % 65536
    clock = _clock_at(tick)
    due = edge * timing.IPS / timing.PIT_HZ - clock.origin
    start = math.ceil(clock.origin + due) - into - clock.origin   # a whole instruction from power-on
    clock.t = clock.loop_start = start
    clock.playing, clock.bios_due, clock.interrupt_due = True, None, due
    clock.note_left, clock.queue, clock.counter = 1, [16], 5
    clock.wait_notes("ate")
    return clock.t - start


def test_a_play_pass_sees_an_edge_by_the_instruction_it_is_taken_at() -> None:
    """A pass of WHILE PLAY(0) sees an interrupt taken in its first PLAY_SEEN (34) instructions.
    An edge 33.1 to 33.4 instructions into a pass is taken at its 35th instruction (34 in) and
    not seen: the wait ends a pass later.  Rounded to the nearest instruction (the rule where
    the lattice is not known) it was seen (22:09:30.06 /C's frame 76, branch h-demo)."""
    ends = timing.NOTE_TAKEN + timing.PLAY_LAST
    late = _edge_with_fraction(0.1, 0.4)
    assert round(_play_wait(late, 34)) == ends + timing.PLAY_PASS
    assert round(_play_wait(late, 33)) == ends
    early = _edge_with_fraction(0.6, 0.9)
    assert round(_play_wait(early, 34)) == ends + timing.PLAY_PASS


def test_the_time_read_sees_an_edge_taken_before_its_21st_instruction() -> None:
    """A TIMER wait's pass reads the tick count at its 21st instruction: with the lattice known
    an edge taken at or before it is seen, one after it is not (show_time's rule)."""
    for fraction in ((0.1, 0.4), (0.6, 0.9)):
        edge = _edge_with_fraction(*fraction)
        for into, seen in ((20, True), (21, False)):
            tick = edge - 65536
            clock = _clock_at(tick)
            clock.key_loop_at = (0, tick)           # the read's place as FrameClock.show sets it
            clock.time_read = timing.polling.TIME_READ - 1
            due = edge * timing.IPS / timing.PIT_HZ - clock.origin
            clock.t = math.ceil(clock.origin + due) - into - clock.origin
            clock.bios_due = due
            now = clock.now
            clock.work_done(clock.time_read)
            assert (clock.now == now + 1) is seen


# The original's first T0 in demo mode (line 3232's INT 3): its tick's edge in PIT clocks and its
# instruction count, both from power-on (demo_probe start, seed 7's 20 sessions: the edge the
# model's at all 20, T0 0 or +1 after it), sound on and off.  The edge lies off the 65536 lattice of
# power-on: line 3530's notes (and sound on F2's beep) ended, the BIOS's ticks go on from there.
DEMO_T0 = [(sweep.Case((5, 44, 52, 77), True, True, 1.0), 4_765_696, 4_822_300),
           (sweep.Case((7, 18, 19, 77), True, False, 1.0), 6_139_904, 6_198_940),
           (sweep.Case((18, 3, 16, 58), False, False, 1.0), 6_074_368, 6_132_821)]


@pytest.mark.parametrize("case, edge, at", DEMO_T0, ids=lambda v: sweep.options(v) if isinstance(v, sweep.Case) else "")
def test_the_demos_first_t0_is_on_the_machines_lattice(case, edge, at) -> None:
    """The demo session knows its lattice from demo_start's chain (the read pass from power-on):
    the first T0's tick began at the original's edge, and T0 is at its instruction or one before
    (with EDGE_ROUNDING and no origin, until branch h-demolattice, the model had no lattice)."""
    model = demo_probe.model_start(case.settings())
    assert model["edge"] == edge
    assert 0 <= at - model["at"] <= 1
