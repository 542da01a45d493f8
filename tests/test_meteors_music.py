"""The music timer at the step's SOUND statements: METEORS.EXE in the machine against the Python
game's FrameClock (games_py/meteors/music_probe.py; docs/meteors-internals.md, section 6), in
seed 500's 30 s session 07:50:55.79 /C random:16, whose frame at BIOS tick 514,637 has the PIT's
edge a fraction of an instruction from where the fall's SOUND masks IRQ 0.  About 3 s."""
from __future__ import annotations

import pytest

from games_py.meteors import music_probe, sweep
from tests.machine_helpers import DISK1612, needs_originals

CASE = sweep.Case((7, 50, 55, 79), True, True, 30.0, "random:16")    # seed 500's case 16


@pytest.fixture(scope="module")
def paired() -> tuple[list[music_probe.Pair], str]:
    return music_probe.pairs(CASE.settings(), str(DISK1612))


@needs_originals
def test_every_sound_starts_the_music_timer_where_the_original_does(paired) -> None:
    """Each SOUND of a step or a level started the music timer (the queue idle: channel 0
    loaded with 0800h) in the Python game exactly where it did on the original, and the
    session is equal frame for frame (until the edge was rounded it was one tick off at
    event 204: the fall of tick 514,637 started the timer afresh in the model)."""
    pairs, found = paired
    assert len(pairs) > 400 and found == "equal"
    assert sum(p.sound.fresh for p in pairs) > 100
    assert [p.sound.fresh for p in pairs] == [p.model_fresh for p in pairs]


@needs_originals
def test_a_fresh_starts_first_interrupt_is_where_the_model_puts_it(paired) -> None:
    """From the SOUND's INT 3 to the first interrupt of a fresh start (the note queued, channel
    0 loaded 50 later, 2,048 PIT clocks) the machine takes a whole number of instructions, the
    model's edge less than one instruction from it: the frequency, the divisor and where the
    BIOS tick stood do not move it."""
    pairs, _ = paired
    fresh = [p for p in pairs if p.sound.fresh and p.model_first is not None]
    assert len(fresh) > 100
    assert all(abs(p.sound.first - p.model_first) < 1 for p in fresh)
    assert {p.sound.first for p in fresh if p.sound.line == 5120} == {2541, 2542}


@needs_originals
def test_an_edge_within_half_an_instruction_of_the_mask_counts_where_it_rounds(paired) -> None:
    """Where the model's edge falls within an instruction of where the SOUND masks IRQ 0, the
    machine's whole-instruction edge decides: at the mask's start or after, the interrupt is
    held to the unmask (the note is queued behind the one playing), before it, taken.  The
    model counts its edge where it rounds to (timing.EDGE_ROUNDING): here -0.06 from the mask
    is the machine's 0, held; counted as before it (the edge not rounded) the model ended the
    note there, started the timer afresh, and had no edge near the mask."""
    pairs, _ = paired
    near = [p for p in pairs if music_probe.near_the_mask(p)]
    assert near and any(-0.5 < p.model_edge < 0 for p in near)
    for p in near:
        held = p.sound.taken != p.sound.edge
        assert held == (p.sound.edge >= 0) == (p.model_edge > -0.5)
