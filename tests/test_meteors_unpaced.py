"""Tommy's Meteors with sound off and FAST false (a start in the day's last tick or two):
line 3231 never waits, so every frame's BIOS tick, and the tick an arrow key's RANDOMIZE
TIMER reads, comes from the cost of every statement since the first level screen's T0
(docs/meteors-internals.md, section 6, "The first game's start" and "Line 3231 with FAST
false").  Checked on the original: where that T0 comes after line 3560's first pass (the
tracer's space, and with sound off its F1), and an unpaced session's frames, tick for tick.
"""
from __future__ import annotations

import pytest

from games_py.meteors import compare, sweep, timing, trace
from games_py.meteors.game import Meteors
from tests.machine_helpers import DISK1612, needs_originals


def _model_first_t0(settings: trace.Settings) -> tuple[float, int, int]:
    """Instructions from line 3560's first INT 3 to the first level screen's T0 (line
    3232's INT 3) in the Python game, and the note's interrupts left and the music
    counter mod 32 there."""
    game = Meteors(settings)
    game.random.randomize_timer(*settings.time)
    game.start()
    seen: list[tuple[float, int, int]] = []
    pace, show, shown = game.ticks.pace, game.ticks.show, []

    def key_loop(*args) -> None:
        show(*args)
        shown.append(game.ticks.t)                  # line 3560's first INT 3

    def first_pace(wait: bool = True) -> None:
        if not seen:
            seen.append((game.ticks.t - shown[0], game.ticks.note_left, game.ticks.counter))
        pace(wait)
    game.ticks.show, game.ticks.pace = key_loop, first_pace
    game.play(lambda g: g.total_frames > 1)
    return seen[0]


@needs_originals
@pytest.mark.parametrize("time,colour", [((4, 52, 47, 42), False), ((19, 7, 4, 16), True),
                                         ((23, 59, 59, 99), False)],
                         ids=["04:52:47.42 mono", "19:07:04.16 colour", "23:59:59.99 mono"])
def test_the_first_t0_comes_where_the_key_loops_first_pass_puts_it(time, colour) -> None:
    """Sound on and off (F1 behind the space, and twice at the show's 1.5 s wait), mono and
    colour (the background's RNDs), FAST true and false (line 3231's IF): the instructions
    from line 3560's first pass to T0 and the music there, as the model has them."""
    from games_py.meteors import startup_probe
    for sound in (True, False):
        settings = trace.Settings(time=time, colour_switch=colour, sound=sound, demo=False,
                                  human="random:1", seconds=0.2, frames=1)
        ticks, _since, note, counter, from_key_loop, _place = startup_probe.measure(time, colour, str(DISK1612),
                                                                                   sound)
        assert ticks == 34
        assert (from_key_loop, note, counter) == _model_first_t0(settings)


def _original_frame_starts(settings: trace.Settings) -> tuple[list[dict], list[int], float]:
    """The original's events, the instructions from line 3560's first INT 3 to each frame's
    line 1110 until the first hit, and how far into its BIOS tick that INT 3 came."""
    from games_py.meteors import original, startup_probe
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    place = startup_probe.key_loop_place(tracer)
    machine, marks, first, hit = tracer.machine, [], [], []
    tracer.process.at_line(original.LINE_ANY_KEY, lambda: first or first.append(machine._instr_now()))
    tracer.process.at_line(original.LINE_HIT, lambda: hit.append(True))
    tracer.process.at_line(original.LINE_STEP, lambda: hit or marks.append(machine._instr_now() - first[0]))
    return tracer.run(), marks, place[0]


def _model_frame_starts(settings: trace.Settings, frames: int, place: float) -> tuple[list[dict], list[float]]:
    game = Meteors(settings)
    game.ticks.key_loop_place = place
    game.random.randomize_timer(*settings.time)
    game.start()
    marks: list[float] = []
    one_step = game.one_step

    def marked() -> None:
        if not any(e["event"] == "hit" for e in game.events):
            marks.append(game.ticks.t - place)
        one_step()
    game.one_step = marked
    game.play(lambda g: g.total_frames > frames)
    return game.events, marks


@needs_originals
def test_an_unpaced_session_is_followed_tick_for_tick() -> None:
    """23:59:59.99, /M, sound off, random:23 for 20 s: FAST is false; given where line 3560's
    first INT 3 comes inside its BIOS tick on the original (show_time computes it too; given
    here, so that this tests what follows), the Python game's trace equals the original's, a key's
    reseed from the time of day included, and up to the first hit every frame's line 1110
    comes where the original's does, within 2 instructions (a key's break code), so its tick
    is the original's (the ticks are not compared in the trace: a hit's and the high-score
    table's pieces are not yet exact, and nothing paces the frames after them).  Line 3530's
    notes start half a tick after line 3560 on the 8254, so the first frame's WHILE PLAY(0)
    (line 1390) waits for the second to start (12,000 instructions): without that wait the
    reseed at event 206 read another tick.  (With the old constant place, 4,820
    against the original's 5,277 here, the trace was equal too.)"""
    settings = sweep.Case((23, 59, 59, 99), False, False, 20.0, "random:23").settings()
    original, at, place = _original_frame_starts(settings)
    assert original[0]["fast"] is False
    frames = sum(1 for e in original if e["event"] == "frame")
    python, model = _model_frame_starts(settings, frames, place)
    assert compare.describe(compare.first_divergence(original, python)) == "equal"
    assert any(e.get("reseed") for e in original)
    assert len(at) > 50 and len(model) == len(at)
    assert max(abs(a - b) for a, b in zip(at, model)) <= 2
    ticks = [[e["tick"] for e in events if e["event"] == "frame"][:len(at)] for events in (original, python)]
    assert ticks[0] == ticks[1]


def test_line_3231_costs_its_if_when_fast_is_false() -> None:
    """With FAST false the pace adds line 3231's IF and nothing else (no pass of the loop)."""
    clock = timing.FrameClock((23, 59, 59, 99), 0)
    assert clock.calibrate() is False
    clock.t0 = clock.now
    before = clock.t
    clock.pace()
    assert clock.t == before + timing.UNPACED
