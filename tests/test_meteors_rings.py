"""A few instructions the runtime spends by its state, not by the statement: its note ring's and
its event ring's wraps, the rounding's carry into the exponent, and the first event's hook of INT
1Ch (timing.RING_SLOTS, EVENT_SLOTS, FIRST_HOOK; runtime_cost's round.exponent; branch h-human,
docs/meteors-internals.md, section 8).  The first tests are the model's own; the last plays two
of seed 500's 30 s sessions on the original (about 4 s)."""
from __future__ import annotations

from games_py.meteors import music_probe, sweep, timing
from games_py.meteors.game import Meteors
from games_py.qbasic import mbf, runtime_cost
from tests.machine_helpers import DISK1612, needs_originals


def _run_of_notes(count: int) -> tuple[timing.FrameClock, list[float], list[float]]:
    """A SOUND at each 16th interrupt, the music never idle: how long each SOUND's masked window
    (to its note queued) took, and what the handler took at each interrupt that took a note
    (a chained BIOS tick's part left out).  Each SOUND comes just after an interrupt, so no
    other falls in its window."""
    clock = timing.FrameClock((12, 0, 0, 0), 0)
    windows, takes = [], []
    for _ in range(count):
        before = clock.t
        clock.sound("fall")
        windows.append(clock.t - before)
        for _ in range(16):
            due, queued, ticks = clock.interrupt_due, len(clock.queue), clock.now
            clock.work_done(due - clock.t + 1)
            handler = clock.t - due - 1 - timing.CHAINED_TICK * (clock.now != ticks)
            if len(clock.queue) < queued:
                takes.append(handler)
    return clock, windows, takes


def test_the_note_in_the_rings_last_slot_costs_one_more_to_queue_and_to_take() -> None:
    """The ring holds 32 notes: the 32nd written since the music was idle (its bytes' pointer
    meeting the ring's end, 062B:5CCC) takes one instruction more to queue, and its take by the
    handler (5CE4) one more; the 64th again."""
    _, windows, takes = _run_of_notes(64)
    assert [i for i, w in enumerate(windows) if w != timing.SOUND_MASKED] == [31, 63]
    assert windows[31] == timing.SOUND_MASKED + timing.RING_WRAP == timing.SOUND_MASKED + 1
    # the first note is taken at the fresh start, the rest behind another
    assert [i for i, h in enumerate(takes) if h != timing.NOTE_TAKEN] == [0, 31, 63]
    assert takes[0] == timing.FRESH_NOTE_TAKEN
    assert takes[31] == takes[63] == timing.NOTE_TAKEN + timing.RING_WRAP


def test_the_music_going_idle_sets_the_ring_back() -> None:
    """Where the music ends (its handler's 7EB2 -> 5CFC -> 5CBC) both pointers go back to the
    ring's start: after 20 notes and the music's end, the next SOUND's note is in slot 0."""
    clock, _, _ = _run_of_notes(20)
    while clock.playing:
        clock.work_done(timing.MUSIC_PERIOD)
    assert (clock.written, clock.taken) == (0, 0)
    clock.sound("fall")
    assert (clock.written, clock.queue) == (1, [timing.NOTES["fall"]])


def test_a_rounding_up_to_a_power_of_two_costs_two_more() -> None:
    """XF = XF + SLOPE (line 900) for a path from X1 = 16 to X2 = 8, Y2 = 24: XF = 16 - SLOPE
    comes back to exactly 16, the rounding carrying out of the mantissa into the exponent
    (062B:3753 INC AH, JE): two instructions the original spent at seed 500's 10:19:00.18 /M
    random:21, frame 44, and at 13 other such paths of that sweep, that the fitted table had not."""
    x1, slope = mbf.from_int(16), mbf.div(mbf.sub(mbf.from_int(8), mbf.from_int(16)), mbf.from_int(23))
    xf = mbf.sub(x1, slope)
    with mbf.counting_paths() as paths:
        back = mbf.add(xf, slope)
    assert back == x1
    assert paths["add:round.exponent"] == 1
    assert runtime_cost.instructions(paths) - runtime_cost.instructions(
        {name: n for name, n in paths.items() if name != "add:round.exponent"}) == 2


def _key_work(events_before: int, first: bool) -> int:
    game = Meteors(sweep.Case((12, 0, 0, 0), False, True, 30.0, "random:1").settings())
    game.random.randomize_timer(12, 0, 0, 0)
    game.events_queued = events_before
    game.ticks.hooked = not first
    game.direction = "UP"
    game.frame = {}
    game.key_work = 0
    game.key_pressed("UP")
    return game.key_work


def test_the_fortieth_key_and_the_first_cost_more() -> None:
    """The runtime's ON KEY events go through a ring of 40 (DGROUP:062A): the one in its last
    slot costs two more (put at IRQ 1, taken by the poll); the session's first event hooks INT
    1Ch in its poll, 40 more (062B:70B4-70F2 and two INT 21h)."""
    plain = _key_work(0, False)
    assert _key_work(39, False) - plain == timing.EVENT_WRAP == 2
    assert _key_work(79, False) - plain == 2
    assert _key_work(40, False) == plain
    assert _key_work(0, True) - plain == timing.FIRST_HOOK == 40


@needs_originals
def test_the_model_keeps_the_originals_place_through_the_wraps() -> None:
    """Given the original's place of line 3560, each frame's line 1110 stays where the
    original's is, up to WHILE PLAY(0) passes: seed 500's 10:19:00.18 /M random:21 to its game
    over at frame 137 (the note ring's wrap at frame 39, a rounding into the exponent at frame
    44's path), 08:26:59.83 /M random:17 to frame 227 (the event ring's wrap at the 40th key,
    frame 191).  Each moved 2 at those frames before branch h-human."""
    for case, last in ((sweep.Case((10, 19, 0, 18), False, True, 30.0, "random:21"), 136),
                       (sweep.Case((8, 26, 59, 83), False, True, 30.0, "random:17"), 227)):
        moves = [(frame, change) for frame, _, change in music_probe.place_drift(case.settings(), str(DISK1612))
                 if frame <= last]
        assert all(change % timing.PLAY_PASS == 0 for _, change in moves), (case.human, moves)
