"""The runtime's music queue is a ring of 32 notes (DGROUP:0382: 192 bytes from 0200h, 6 a note):
the byte written or read at its end costs one instruction more, so in a run of notes with the
music never idle the 32nd costs SOUND one more and the handler that takes it one more
(timing.QUEUE_NOTES).  Timed on the original at the fall's SOUND (line 5120's INT 3) and at the
end of its ``WHILE PLAY(0)`` (line 1400's INT 3) in seed 1612's 15:48:23.38 /M demo, whose 57th
frame queues its fall as the 32nd note of such a run: the model's wait ends where the original's
does but for whole passes of the loop (45; the demo's start was not exact to the instruction
until branch h-demostart), where without the ring it ended 2 instructions early.  About 5 s."""
from __future__ import annotations

from games_py.meteors import original, timing, trace
from games_py.meteors.game import Meteors
from tests.machine_helpers import DISK1612, needs_originals

SETTINGS = trace.Settings(time=(15, 48, 23, 38), colour_switch=False, sound=True, demo=True, human=None,
                          frames=60)
QUEUE, WRITE = 0x0382, 0x0C          # the ring's descriptor; its write place at +0Ch
FALL, WAIT_END = 5120, 0x0DA6        # line 5120's INT 3; line 1400's (after line 1390's WHILE PLAY(0))


def _original() -> tuple[list[tuple[int, int, int]], int]:
    tracer = original.MeteorsTracer(SETTINGS, str(DISK1612))
    m, p = tracer.machine, tracer.process
    falls: list[list[int]] = []      # [INT 3, notes in the ring before it, line 1400]
    p.at_line(FALL, lambda: falls.append([m._instr_now(), (p.word(QUEUE + WRITE) - 0x200) // 6]))
    p.at_offset(WAIT_END, lambda: falls and len(falls[-1]) == 2 and falls[-1].append(m._instr_now()))
    events = tracer.run()
    return [tuple(f) for f in falls if len(f) == 3], sum(e["event"] == "frame" for e in events)


def _model(frames: int) -> list[tuple[float, float]]:
    game = Meteors(SETTINGS)
    clock, falls = game.ticks, []
    sound, wait = clock.sound, clock.wait_notes

    def sounded(note: str) -> None:
        if note == "fall":
            falls.append([clock.t - (timing.SOUND_QUEUED - timing.SOUND_MASKED)])
        sound(note)

    def waited(kind: str) -> None:
        wait(kind)
        if kind == "fall":
            falls[-1].append(clock.t - timing.SOUND_EXIT["fall"])
    clock.sound, clock.wait_notes = sounded, waited
    game.random.randomize_timer(*SETTINGS.time)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return [tuple(f) for f in falls]


@needs_originals
def test_the_32nd_note_in_a_row_costs_its_write_and_its_read_one_more() -> None:
    theirs, frames = _original()
    mine = _model(frames)
    theirs = theirs[:len(mine)]                   # (the original's trace runs on a little)
    assert len(theirs) > 50
    assert any(before == 31 for _, before, _ in theirs)   # the 32nd note of a run is met
    waits = [(end - at) - (my_end - my_at) for (at, _, end), (my_at, my_end) in zip(theirs, mine)]
    assert all(w % timing.PLAY_PASS == 0 for w in waits), waits
