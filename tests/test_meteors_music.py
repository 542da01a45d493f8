"""The music timer at the step's SOUND statements: METEORS.EXE in the machine against the Python
game's FrameClock (games_py/meteors/music_probe.py; docs/meteors-internals.md, section 6), in
seed 500's 30 s session 14:03:32.60 /M random:29, where a bite's SOUND has the PIT's edge a fraction
of an instruction before where it masks IRQ 0 (found so: the same as seed 500's 07:50:55.79 /C
random:16 had, until INT 15h AH=84h read the game port and each BIOS tick took 96 instructions
more).  About 3 s."""
from __future__ import annotations

import pytest

from games_py.meteors import music_probe, sweep
from tests.machine_helpers import DISK1612, needs_originals

CASE = sweep.Case((14, 3, 32, 60), False, True, 30.0, "random:29")    # seed 500's case 29


@pytest.fixture(scope="module")
def paired() -> tuple[list[music_probe.Pair], str]:
    return music_probe.pairs(CASE.settings(), str(DISK1612))


@needs_originals
def test_every_sound_starts_the_music_timer_where_the_original_does(paired) -> None:
    """Each SOUND of a step or a level started the music timer (the queue idle: channel 0
    loaded with 0800h) in the Python game exactly where it did on the original, and the
    session is equal frame for frame (with the edge not rounded, a SOUND near the mask
    started the timer afresh in the model where the original queued its note)."""
    pairs, found = paired
    assert len(pairs) > 400 and found == "equal"
    assert sum(p.sound.fresh for p in pairs) > 100
    assert [p.sound.fresh for p in pairs] == [p.model_fresh for p in pairs]


@needs_originals
def test_a_fresh_starts_first_interrupt_is_where_the_model_puts_it(paired) -> None:
    """From the SOUND's INT 3 to the first interrupt of a fresh start (the note queued, channel
    0 loaded 50 later, 2,048 PIT clocks) the machine takes a whole number of instructions, the
    model's edge less than one instruction from it: the frequency, the divisor and where the
    BIOS tick stood do not move it (a tick taken before the load adds its handlers)."""
    pairs, _ = paired
    fresh = [p for p in pairs if p.sound.fresh and p.model_first is not None and not p.sound.ticked]
    assert len(fresh) > 100
    assert all(abs(p.sound.first - p.model_first) < 1 for p in fresh)
    assert {p.sound.first for p in fresh if p.sound.line == 5120} == {2541, 2542}


@needs_originals
def test_an_edge_within_half_an_instruction_of_the_mask_counts_where_it_rounds(paired) -> None:
    """Where the model's edge falls within an instruction of where the SOUND masks IRQ 0, the
    machine's whole-instruction edge decides: at the mask's start or after, the interrupt is
    held to the unmask (the note is queued behind the one playing), before it, taken.  The
    model counts its edge where it rounds to (timing.EDGE_ROUNDING): here -0.42 from the mask
    is the machine's 0, held; counted as before it (the edge not rounded) the model ends the
    note there and starts the timer afresh."""
    pairs, _ = paired
    near = [p for p in pairs if music_probe.near_the_mask(p)]
    assert near and any(-0.5 < p.model_edge < 0 for p in near)
    for p in near:
        held = p.sound.taken != p.sound.edge
        assert held == (p.sound.edge >= 0) == (p.model_edge > -0.5)
