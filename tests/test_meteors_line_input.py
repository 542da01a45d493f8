"""Line 5940's LINE INPUT N$ while the tracer's name comes (line_input.py), against METEORS.EXE
(about 20 s).

Until branch h-end it was a fixed wait from line 5910 (timing.NAME_INPUT, 58,909 mono and 58,864
colour), with N$'s assignment counted before line 5910: with sound on the original's end moves
by the INT 16h poll's lattice (27 later at seed 1612's 30 s random:5's third name, of 24), and
the assignment's 11 and the string space's walks come inside it.
"""
from __future__ import annotations

from games_py.meteors import end_probe, line_input, sweep, timing
from tests.machine_helpers import DISK1612, needs_originals


class Quiet:
    """A clock with one interrupt (``at``, ``handler``) or none, off the lattice (FrameClock's
    ``origin`` None: an edge taken where it rounds to)."""

    origin = None

    def __init__(self, at: float | None = None, handler: int = 0) -> None:
        self.t, self.at, self.handler = 0.0, at, handler

    def _next_event(self) -> float | None:
        return self.at

    def _before(self, due: float, end: float) -> bool:
        return due <= end - timing.EDGE_ROUNDING

    def take_interrupt(self) -> tuple[float, int]:
        at, self.at = self.at, None
        return at, self.handler


def test_the_end_is_where_the_original_has_it_from_its_tick() -> None:
    """Sound off, one BIOS tick (hooked: 154) inside, where the original took it (seed 1612's 30 s
    random:3, 2 and 19, of 24, logged from line 5910): 58,887 mono and 58,901 colour with N$
    empty, 58,898 when it held a string (its old string freed)."""
    for tick, colour, assigned, end in ((22_569, False, 0, 58_887), (21_895, False, 11, 58_898),
                                        (23_423, True, 0, 58_901), (34_009, False, 11, 58_898)):
        clock = Quiet(at=tick, handler=154)
        line_input.name_input(clock, colour, assigned)
        assert clock.t == end


def test_the_end_moves_by_the_poll_lattice_not_by_the_handlers() -> None:
    """The same tick 198 earlier (the model's place in random:19 before the table's pieces were
    split at line 5910) puts Enter's key just after a pass: seen a pass (59) later; with no tick
    the end is 23 later, not 154 earlier."""
    clock = Quiet(at=33_811, handler=154)
    line_input.name_input(clock, False, 11)
    assert clock.t == 58_898 + 59
    clock = Quiet()
    line_input.name_input(clock, False, 0)
    assert clock.t == 58_887 + 23


def on_lattice(into: int) -> timing.FrameClock:
    """A sound-off clock on the machine's lattice (INT 1Ch hooked: the BIOS's tick 154), line
    5910's INT 3 ``into`` instructions into the tick whose edge is PIT clock 65536 x 1000."""
    clock = timing.FrameClock((12, 0, 0, 0), 0)
    edge = 65_536 * 1_000
    clock.on_lattice(round(edge * timing.IPS / timing.PIT_HZ) + into, edge)
    clock.hooked = True
    return clock


def test_on_the_lattice_the_tick_and_the_keys_behind_it_are_taken_at_whole_instructions() -> None:
    """The next BIOS tick's edge (65,910.4 instructions after the last) falls while the name comes;
    the machine takes it at the first whole instruction from power-on at or after it
    (FrameClock.taken_at), and a key's IRQ 1 held behind its handler at that handler's end: every
    byte, Enter's break among them, at a whole instruction.  Until branch h-hmiss name_input
    compared the edge's raw time, and the bytes after the tick came a fraction of an instruction
    early (Enter's break 0.13 early here; at 7,837 Enter's make came 0.4 before a pass's INT 16h,
    where now it comes at it: LINE INPUT's end a pass, 59, apart, as at 72 of the 65,911 places of
    line 5910 in its tick in mono and 48 in colour)."""
    for into in (7_837, 20_000, 40_000):
        clock = on_lattice(into)
        late = line_input.name_input(clock, False, 0)
        for at in (clock.t, late[0][0]):
            assert abs((at + clock.origin) - round(at + clock.origin)) < 1e-6


def names_typed_as_on_the_original(cases: list[sweep.Case]) -> int:
    """From the original's line-3560 place: line 5910 to LINE INPUT's end as the original's at
    every name of ``cases`` (up to where a session first differs); how many names there were."""
    names = 0
    for case in cases:
        for row in end_probe.compare(case.settings(), str(DISK1612), given_place=True):
            places = dict(row)
            if 5910 in places:
                names += 1
                assert places[5940] - places[5910] == 0
    return names


@needs_originals
def test_line_input_ends_where_the_original_ends_it() -> None:
    """Seed 1612's 30 s random:2 (colour, sound off) and 5 (mono, sound on: its third name's Enter
    a pass later on main, the music's interrupts having moved the lattice), of 24, from the
    original's line-3560 place: line 5910 to LINE INPUT's end as the original's at all 5 names.
    (random:7's second name is 118 longer on the original: a string-space walk at N$'s
    assignment the model does not make; not followed.)"""
    cases = sweep.with_human(sweep.demo_cases(24, seed=1612, seconds=30))
    names = names_typed_as_on_the_original([cases[i] for i in (2, 5)])
    assert names == 5


@needs_originals
def test_a_missing_file_opened_again_costs_no_first_open() -> None:
    """Seed 1612's 30 s random:1 (mono, sound on), of 50: its first table (score 0) opens the
    missing METEORS.SCR for the session's first time, its second (a name) again: line 5910 where
    the original's is from line 5370 (77 early while TABLE_MISSING's first OPEN, 80, was counted at
    every missing file's table; 7 late while the first OPEN's part was 80, not 87: the second
    OPEN takes 16,640 where the first took 16,727)."""
    case = sweep.with_human(sweep.demo_cases(50, seed=1612, seconds=30))[1]
    named = [dict(row) for row in end_probe.compare(case.settings(), str(DISK1612), given_place=True)
             if any(line == 5910 for line, _ in row)]
    assert named[0][5910] - named[0][5370] == 0


def test_a_tick_taken_before_int_9s_read_delays_the_next_byte() -> None:
    """The runtime's INT 9 hook begins with STI and reads port 60h at its 20th instruction
    (line_input.READ); the keyboard offers the next byte 2,400 after that read.  A music
    interrupt taken in between nests in the hook and delays the read by its handler, so every
    byte after it comes that much later; one taken after the read (still inside the hook)
    delays nothing."""
    first = line_input.FIRST_KEY
    nested, after = Quiet(at=first + 5, handler=25), Quiet(at=first + 40, handler=25)
    late_nested = line_input.name_input(nested, False, 0)
    late_after = line_input.name_input(after, False, 0)
    assert late_nested[0][0] - late_after[0][0] == 25


@needs_originals
def test_line_input_ends_where_the_original_ends_it_when_a_tick_nests_in_int_9() -> None:
    """Seed 7's two-minute random:4 and random:8 (colour, sound on), of 24: a music interrupt
    taken inside a Shift's INT 9 before its read of port 60h (5 instructions in, at random:8's
    second name) delays every byte after it by 25.  Without that, the model's Enter came a pass
    or two early (LINE INPUT's end 59 and 118 early) and both sessions differed at a frame's
    tick after the next pause."""
    cases = sweep.with_human(sweep.demo_cases(24, seed=7, seconds=120))
    names = names_typed_as_on_the_original([cases[i] for i in (4, 8)])
    assert names >= 10


@needs_originals
def test_a_key_due_at_a_polls_int_16h_is_seen_by_the_next_pass() -> None:
    """Seed 7's two-minute random:5 and random:21 (mono, sound on), of 24: Enter's make due at a
    pass's INT 16h (or at its service's IRET, interrupts off) is taken after them, so that pass
    does not see it (line_input.POLL_HELD).  Counted as seen, the model's LINE INPUT ended a pass
    (59) early at random:5's second and thirteenth names and random:21's tenth."""
    cases = sweep.with_human(sweep.demo_cases(24, seed=7, seconds=120))
    names = names_typed_as_on_the_original([cases[i] for i in (5, 21)])
    assert names >= 20
