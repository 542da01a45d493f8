"""The music timer at the step's SOUND statements: METEORS.EXE in the machine against the Python
game's FrameClock (games_py/meteors/music_probe.py; docs/meteors-internals.md, section 6), in
seed 500's 30 s session 14:03:32.60 /M random:29 (549 SOUNDs, 122 fresh starts): the model
starts the music timer where the original does, the 8254 takes the runtime's count at the end
of the BIOS tick's half-cycle, and an edge in the SOUND's masked window waits for the unmask.
About 3 s."""
from __future__ import annotations

import pytest

from games_py.meteors import music_probe, sweep, timing
from tests.machine_helpers import DISK1612, needs_originals

CASE = sweep.Case((14, 3, 32, 60), False, True, 30.0, "random:29")    # seed 500's case 29


@pytest.fixture(scope="module")
def paired() -> tuple[list[music_probe.Pair], str]:
    return music_probe.pairs(CASE.settings(), str(DISK1612), given_place=True)


@needs_originals
def test_every_sound_starts_the_music_timer_where_the_original_does(paired) -> None:
    """Given where line 3560's first INT 3 came inside its BIOS tick on the original (4,361
    here; until branch h-place the model's own was one number, 4,820, and with it one SOUND of
    the 549, a fresh start on the original behind a BIOS tick, queued its note in the model;
    show_time now computes it), each SOUND of a step or a level started the music timer (the queue idle:
    channel 0 written with 0800h) in the Python game exactly where it did on the original, and
    the session is equal frame for frame."""
    pairs, found = paired
    assert len(pairs) > 400 and found == "equal"
    assert sum(p.sound.fresh for p in pairs) > 100
    assert [p.sound.fresh for p in pairs] == [p.model_fresh for p in pairs]


@needs_originals
def test_a_fresh_starts_first_interrupt_is_where_the_8254_puts_it(paired) -> None:
    """The runtime writes 0800h with no control word, so the 8254 loads it at the end of the
    BIOS tick's half-cycle under way (timing.first_music_interrupt): written in the high half,
    the first interrupt comes half a music period after that half's end (some 20,000 to 33,000
    instructions after the SOUND's INT 3), in the low half it is the tick's own edge.  From the
    machine's own load and BIOS lattice the rule puts every fresh start's first interrupt where
    the machine takes it: at the whole instruction at or after the edge, up to 5 later (the CPU
    takes it between instructions with IF set).  With the count loaded at once it came 2,541 or
    2,542 after a fall's INT 3, wherever the tick stood."""
    pairs, _ = paired
    fresh = [p for p in pairs if p.sound.fresh and not p.sound.ticked]
    assert len(fresh) > 100
    late = [p.sound.first - p.sound.rule for p in fresh]
    assert all(0 <= d < 5 for d in late)
    assert sum(d < 1 for d in late) > 0.8 * len(late)
    assert any(p.sound.rule < 10_000 for p in fresh) and any(p.sound.rule > 20_000 for p in fresh)
    assert 2541 not in {p.sound.first for p in fresh if p.sound.line == 5120}


@needs_originals
def test_an_edge_in_the_sounds_masked_window_is_held_to_the_unmask(paired) -> None:
    """SOUND (062B:440C) masks IRQ 0 for SOUND_MASKED instructions before it queues its note:
    on the machine an edge of the music timer inside that window is taken at the unmask (the
    note queued behind the one ending, not a fresh start), one before it where it falls (the
    model's ``FrameClock.sound`` and ``work_done``)."""
    pairs, _ = paired
    held = [p for p in pairs if p.sound.edge is not None and 0 <= p.sound.edge < timing.SOUND_MASKED]
    before = [p for p in pairs if p.sound.edge is not None and p.sound.edge < 0]
    assert len(held) > 10 and len(before) > 10
    assert all(p.sound.taken == timing.SOUND_MASKED and not p.sound.fresh for p in held)
    assert all(0 <= p.sound.taken - p.sound.edge < 5 for p in before)


@needs_originals
def test_the_model_keeps_the_originals_place_through_the_first_key() -> None:
    """Given the original's place of line 3560, seed 500's 02:35:10.13 /M random:5 keeps the
    original's place at each frame's line 1110 up to a WHILE PLAY(0) pass (the two waits ending
    on different passes of its lattice) through the first frame, whose fall waits behind line
    3530's notes (a note taken mid-wait: NOTE_TAKEN, not MUSIC_HANDLER), and the first arrow key
    at frame 6 (the first event handler: timing.FIRST_HOOK), to frame 60."""
    case = sweep.Case((2, 35, 10, 13), False, True, 30.0, "random:5")
    moves = [(frame, change) for frame, _, change in music_probe.place_drift(case.settings(), str(DISK1612))
             if frame <= 60]
    assert all(change % timing.PLAY_PASS == 0 for _, change in moves), moves
