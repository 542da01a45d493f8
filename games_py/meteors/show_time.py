"""Where line 3560's first pass falls inside its BIOS tick (a human player's space), computed from
the start-up show as the original runs it (docs/meteors-internals.md, section 6, "The first game").

Everything from power-on is in whole instructions: line 10's first INT 3 comes at instruction
963,392 in every session, RANDOMIZE TIMER reads the time in the machine's 15th BIOS tick (index 14
from power-on), and the 8254 keeps IRQ 0 on the lattice of power-on's ticks (65536 PIT clocks),
shifted by half a music period at a fresh start and at the music's end.  So the show's music has
absolute times: its first SOUND (line 5120 from the title's first row) writes 0800h in the high
half of the tick after line 222's calibration ends, and its first interrupt comes half a tick and
half a music period after that tick's edge (timing.first_music_interrupt).  The show's last
``WHILE PLAY(0)`` (line 4360, for the title's eighth row) ends on the 45-instruction pass that
sees interrupt 96 of that music; line 4410's first INT 3 comes a fixed 25,357 instructions after
that pass's end (the last rows' 14 SOUNDs, lines 4370-4400, at every start time measured).  From
line 4410 the two TIMER waits (1.5 s, then line 1790's D = .1 with line 1800's INKEY$) are
followed pass by pass (polling.one_pass) with the music's interrupts and the BIOS ticks after the
tune's end, and line 3560's first INT 3 comes a fixed distance after line 1790's last pass.
"""
from __future__ import annotations

from games_py.meteors import polling, timing
from games_py.meteors.timing import FrameClock
from games_py.qbasic import mbf, rng, runtime_cost

SEED_TICK = 14                 # RANDOMIZE TIMER's time read is in power-on's tick 14
# Line 222's first INT 3 (X = 0), from power-on: this in colour and in mono (/C and /M parsed in
# lines 130-210), plus what RANDOMIZE TIMER's TIMER spends on the start time's values (at all 52
# start times measured); then X = 0 takes 22 to T = TIMER, which takes TIMER_STATEMENT and its
# paths, and each pass of WHILE ABS(TIMER - T) < .1 is polling.one_pass with X = X + 1 between
# (X_PLUS_ONE, by X's binary exponent: the alignment of 1 to X)
CALIBRATION_START = {True: 972_082, False: 972_604}
ZERO_X = 22
X_PLUS_ONE = {0: 93, 1: 98, 2: 101, 3: 104, 4: 107, 5: 110, 6: 111, 7: 107}
X_ZERO = 66                    # ... X = 0 (a zero operand)
X_CARRY = 4                    # ... more where X + 1 is a power of two (the sum normalised), X > 1
# Line 225 to line 3370 (GOSUB 3370: the show), besides line 450's and 480's paths (PROB =
# LEVEL * .1, METEOR = M(FNR(14))) and the BIOS ticks' handlers; one less with FAST false
TO_SHOW = 5_541
# The show's title, row by row (lines 4310-4360, GOSUB 5100 for each row's note), besides the
# interrupts' handlers, measured statement to statement at 46 start times (the same at all):
# line 3370 -> the first row's WHILE PLAY(0) (line 4360), in mono; in colour to the row's COLOR
# (line 4310, C = INT(RND * 5 + 2): COLOUR_ROW and its paths) and from it to line 4360
FIRST_ROW = {False: 65_876, True: 35_345}
FIRST_ROW_COLOURED = 30_448
COLOUR_ROW = 409
WAIT_TO_SOUND = (629, 623, 619, 615, 612, 612, 612, 608)    # line 4360's wait's end -> line 5120
ROW = (25_578, 24_859, 29_583, 26_123, 26_123, 26_123, 29_064)   # line 5120 -> the next row's 4360 (mono)
SOUND_TO_COLOUR = (580, 553, 553, 553, 553, 553, 553)       # ... in colour: line 5120 -> line 4310's COLOR
COLOURED_ROW = (24_859, 24_167, 28_891, 25_431, 25_431, 25_431, 28_372)  # ... and the COLOR -> line 4360
PLAY_WAIT_START = -1           # line 4360's INT 3 -> its WHILE PLAY(0)'s pass lattice (as wait_notes')
MUSIC_CLOCKS = 2048
LAST_SHOW_WAIT = 96            # the interrupt that ends the show's last WHILE PLAY(0) (line 4360)
TO_SHOW_PAUSE = 25_357         # that wait's end (0000:287C) -> line 4410's first INT 3
# the tune at line 4410's first INT 3: the note playing has NOTE_LEFT interrupts left, then the
# rest of the tune queued, the runtime's counter (DGROUP:0416) at COUNTER
NOTE_LEFT = 4
TUNE_LEFT = [16, 66] + [16, 33] * 14
COUNTER = 19
TIMER_STATEMENT = 609          # T = TIMER (lines 4410, 1790) besides TIMER's arithmetic
FIRST_PASS = -1                # the WHILE's first evaluation: one pass less this (lines 4410, 1790)
TO_KEY_WAIT = 118              # line 4410's last pass (line 4420) -> line 1790
KEY_WAIT_BODY = 189            # line 1800: IF INKEY$ ... (a pass's body besides the WHILE)
TO_KEY_LOOP = {False: 3_222, True: 3_236}   # line 1790's last pass (0000:121A) -> line 3560, mono, colour


def pit_to_instructions(clocks: int) -> float:
    """PIT clocks from power-on as instructions (fractional: the machine takes an edge at the
    first whole instruction at or after it)."""
    return clocks * timing.IPS / timing.PIT_HZ


def tick_clocks(tick: int) -> int:
    return tick * 65536


# With sound off the tracer types F1 twice at line 4410's first INT 3 (original.py): their IRQ 1s
# (make and break codes) and ON KEY(1) handlers (lines 4600-4620, the first hooking INT 1Ch: TICK_HOOK
# at every tick from there) take F1_KEYS in all from the wait's first passes, and the second queues
# a note of F1_NOTE interrupts behind the tune (measured against the same start times sound on)
F1_KEYS = 2_567
F1_NOTE = 36
FIRST_HOOKED_TICK = 4 * timing.STRIG_READ   # the first BIOS tick after the tune's end, INT 1Ch hooked,
                               # takes this much more (at all 44 sound-off start times; not traced why)
ODD_TAKE = 24                  # the handler's take of this note of TUNE_LEFT (a 16 after a 33) takes
ODD_TAKE_MORE = 1              # ... this much more than NOTE_TAKEN (at every start time; not traced)


class ShowClock(FrameClock):
    """A FrameClock whose ``t`` counts instructions from power-on (not from the last tick), its
    edges the PIT's (``_due``); one take of the tune's notes costs ODD_TAKE_MORE more, and with
    INT 1Ch hooked the first BIOS tick after the music FIRST_HOOKED_TICK more."""

    tune_over = False
    tune_notes: int | None = None   # the tune's notes queued at line 4410 (ODD_TAKE counts from there)
    # its edges go in EDGE_ROUNDING early (_due), and the machine takes one at the first whole
    # instruction at or after it: a pass of WHILE PLAY(0) sees it when that instruction is before
    # PLAY_SEEN, so when the edge is PLAY_SEEN - 1 or less into the pass
    seen_rounding = 1 + timing.EDGE_ROUNDING
    # ... and a pass of a TIMER wait reads the tick count after its INT 21h (interrupts off from
    # there), its 21st instruction: an edge taken before it is seen, one at or after it is not
    time_read = polling.TIME_READ - 1

    last_tick = 0.0                 # where the last BIOS tick's edge was (a chained one while music plays)
    first_hooked_tick = FIRST_HOOKED_TICK

    def _fire(self) -> float:
        ticks = self.now
        at = super()._fire()
        if self.now != ticks:
            self.last_tick = at + timing.EDGE_ROUNDING
        return at

    def work_done(self, instructions: float) -> None:
        playing, ticks, queued = self.playing, self.now, len(self.queue)
        super().work_done(instructions)
        if self.tune_notes is not None and len(self.queue) < queued:
            taken = self.tune_notes - queued
            if taken <= ODD_TAKE < self.tune_notes - len(self.queue):
                self.t += ODD_TAKE_MORE
        if playing and not self.playing:
            self.tune_over = True
        elif self.tune_over and self.now != ticks:
            self.t += self.first_hooked_tick * self.hooked
            self.tune_over = False


def _due(clocks: int) -> float:
    # FrameClock takes an edge before instruction x when due <= x - EDGE_ROUNDING; the machine
    # when the edge <= x: its edges go in this much earlier
    return pit_to_instructions(clocks) - timing.EDGE_ROUNDING


def key_loop_from_show_pause(start: tuple[int, int, int, int], colour: bool, sound: bool,
                             show_pause: float, calibrated_abs: int, pause_tick: int) -> "ShowClock":
    """The clock at line 3560's first INT 3, in instructions from power-on, for line 4410's first INT 3 at
    ``show_pause`` (from power-on) in DOS tick ``pause_tick``; ``calibrated_abs``: the power-on
    tick index in which line 222's wait ended (the show's music's lattice)."""
    clock = ShowClock(start, 0)
    clock.t = float(show_pause)
    clock.now = pause_tick
    first = tick_clocks(calibrated_abs + 1) + 32768 + MUSIC_CLOCKS // 2
    index = LAST_SHOW_WAIT
    while pit_to_instructions(first + index * MUSIC_CLOCKS) < show_pause:
        index += 1
    clock.playing, clock.bios_due = True, None
    clock.interrupt_due = _due(first + index * MUSIC_CLOCKS)
    clock.note_left, clock.queue, clock.counter = NOTE_LEFT, list(TUNE_LEFT), COUNTER
    clock.hooked = not sound
    if not sound:
        clock.queue.append(F1_NOTE)
    clock.tune_notes = len(clock.queue)
    for span in (timing.SHOW_PAUSE, timing.SHOW_KEY_PAUSE):
        clock.work_done(clock.time_read)
        with mbf.counting_paths() as paths:
            t = rng.timer(*clock.clock.at(clock.now))
        clock.work_done(TIMER_STATEMENT + runtime_cost.instructions(paths) - clock.time_read + FIRST_PASS
                        + F1_KEYS * (not sound and span is timing.SHOW_PAUSE))
        body = 0 if span is timing.SHOW_PAUSE else KEY_WAIT_BODY
        clock._poll(lambda time_of_day, t=t, span=span, body=body: _pass(time_of_day, t, span, body))
        if span is timing.SHOW_PAUSE:
            clock.work_done(TO_KEY_WAIT)
    clock.show_passes = clock.passes - 1            # line 1800's (one CHR$(27) each: strings.py), not
                                                    # in the WHILE's last evaluation
    clock.work_done(TO_KEY_LOOP[colour])
    return clock


# What a pass of these waits spends beyond polling.one_pass on paths line 3231's passes never take:
# TIMER - T's rounding over more than a tick (line 4410's wait), ...
WIDE_PATHS = {"add:round.half": 18, "add:round.above": 15, "add:round.up": 3}
# ... and in line 4410's passes (not line 1790's: not traced why) TIMER's addition to a zero, with
# the hours and minutes 0 (the day's first minute), and with the seconds 0 too.  Measured on the
# 30,000 passes of 29 start times (eight of them in the day's first hour), which these make exact.
ZERO_HOURS = {1: -3, 2: -5}


def _pass(time_of_day, t, span, body) -> tuple[int, bool]:
    cost, done = polling.one_pass(time_of_day, t, span)
    with mbf.counting_paths() as read:
        now = rng.timer(*time_of_day)
    with mbf.counting_paths() as paths:
        polling.waited_enough(now, t, span)
    cost += sum(WIDE_PATHS.get(name, 0) * n for name, n in paths.items())
    if span is timing.SHOW_PAUSE and read["add:b_zero"]:
        cost += ZERO_HOURS[1 + bool(read["add:a_zero"])]
    return (cost, True) if done else (cost + body, False)


def x_plus_one(x: int) -> int:
    """Line 222's X = X + 1 for X (a single)."""
    if x == 0:
        return X_ZERO
    exponent = min(x.bit_length() - 1, 7)
    return X_PLUS_ONE[exponent] + X_CARRY * (x > 1 and (x + 1) & x == 0)


def calibrated(start: tuple[int, int, int, int], colour: bool) -> ShowClock:
    """Line 222's wait pass by pass from power-on: the clock at line 225's INT 3."""
    clock = ShowClock(start, 0)
    clock.now = clock.clock.start_tick
    clock.playing, clock.bios_due = False, _due(tick_clocks(SEED_TICK + 1))
    with mbf.counting_paths() as paths:
        rng.timer(*start)
    clock.t = float(CALIBRATION_START[colour] + runtime_cost.instructions(paths) + ZERO_X)
    clock.work_done(clock.time_read)
    with mbf.counting_paths() as paths:
        t = rng.timer(*clock.clock.at(clock.now))
    clock.work_done(TIMER_STATEMENT + runtime_cost.instructions(paths) - clock.time_read)
    x = 0
    while True:
        clock.work_done(clock.time_read)
        cost, done = _calibration_pass(clock.clock.at(clock.now), t)
        clock.work_done(cost - clock.time_read)
        if done:
            clock.fast = x > 60
            return clock
        clock.work_done(x_plus_one(x))
        x += 1


def show_pause(start: tuple[int, int, int, int], colour: bool, start_paths: int,
               colours: list[int]) -> ShowClock:
    """The clock at line 4410's first INT 3, followed from power-on: ``start_paths``, what lines
    450 and 480 spend on their values; ``colours``, what each title row's COLOR INT(RND * 5 + 2)
    spends (colour)."""
    clock = calibrated(start, colour)
    clock.calibrated_abs = SEED_TICK + clock.now - clock.clock.start_tick
    clock.counter = 0
    clock.work_done(TO_SHOW - (not clock.fast) + start_paths)
    clock.work_done(FIRST_ROW[colour])
    if colour:
        clock.work_done(COLOUR_ROW + colours[0] + FIRST_ROW_COLOURED)
    for row in range(8):
        clock.loop_start = clock.t + PLAY_WAIT_START
        clock.wait_notes("pause")                   # line 4360: WHILE PLAY(0) (the row before's note)
        if row == 7:
            break
        clock.work_done(WAIT_TO_SOUND[row] + timing.SOUND_QUEUED - timing.SOUND_MASKED)
        clock.sound("fall")                         # line 5120: SOUND for the row (16 interrupts), to
        if colour:
            clock.work_done(SOUND_TO_COLOUR[row] - timing.SOUND_QUEUED + COLOUR_ROW + colours[row + 1]
                            + COLOURED_ROW[row])
        else:
            clock.work_done(ROW[row] - timing.SOUND_QUEUED)
    clock.queue.append(len(TUNE_LEFT) * 99)         # (the tune goes on: its ticks come as they do)
    clock.idle(TO_SHOW_PAUSE)                       # (measured with the handlers in it)
    return clock


def key_loop_place(start: tuple[int, int, int, int], colour: bool, sound: bool, start_paths: int,
                   colours: list[int]) -> float:
    """Where line 3560's first INT 3 falls inside its BIOS tick (instructions from the tick's
    edge: timing.FrameClock.key_loop_place), for a session started at ``start`` (``start_paths``
    and ``colours``: show_pause's)."""
    return key_loop(start, colour, sound, start_paths, colours)[0]


def key_loop(start: tuple[int, int, int, int], colour: bool, sound: bool, start_paths: int,
             colours: list[int]) -> tuple[float, int, tuple[int, int]]:
    """key_loop_place's place, the passes of line 1790's .1 s wait (strings.py), and line 3560's
    first INT 3 from power-on: its instruction count and its tick's edge in PIT clocks
    (``FrameClock.key_loop_at``: the lattice the machine's IRQ 0 keeps after it)."""
    clock = key_loop_clock(start, colour, sound, start_paths, colours)
    # in whole PIT clocks, as the machine's PIT counts it (startup_probe.place_in_tick), which is
    # what the model's pieces after line 3560 were measured from (the given place of music_probe)
    # (after a show that midnight cut short the tune still plays: its last chained tick)
    return place_in_tick(clock), clock.show_passes, lattice_point(clock)


def key_loop_clock(start: tuple[int, int, int, int], colour: bool, sound: bool, start_paths: int,
                   colours: list[int]) -> "ShowClock":
    """The clock at line 3560's first INT 3, in instructions from power-on (key_loop's)."""
    pause = show_pause(start, colour, start_paths, colours)
    return key_loop_from_show_pause(start, colour, sound, pause.t, pause.calibrated_abs, pause.now)


def lattice_point(clock: "ShowClock") -> tuple[int, int]:
    """``clock.t`` from power-on as the machine's whole instruction, and its tick's edge in PIT
    clocks (``FrameClock.on_lattice``)."""
    return round(clock.t), round(clock.last_tick * timing.PIT_HZ / timing.IPS)


def place_in_tick(clock: "ShowClock") -> float:
    """Where ``clock.t`` falls inside its BIOS tick, in whole PIT clocks (key_loop's measure)."""
    pit_clocks = int(clock.t) * timing.PIT_HZ // timing.IPS
    return pit_to_instructions(pit_clocks) - clock.last_tick


# What line 222's passes spend beyond polling.one_pass on paths line 3231's never take: T = 0 (a
# start at 00:00:00.00: TIMER - T with T zero, and with TIMER zero too) and the day's first
# hundredths read against 23:59:59.99 (the last start time, FAST false).  Measured on those two
# start times' passes (the sweeps' first and last; one pass for the second's paths, whose three
# sticky paths are taken to cost one less each: not traced further); the compare's equal path (1)
# is polling.one_pass's since branch h-dticks (line 4740's wait meets it too)
CALIBRATION_PATHS = {"add:a_zero": -58, "add:b_zero": -9,
                     "add:round.above": 15, "add:round.up": 3,
                     "add:sticky": -1, "add:word_sticky": -1, "add:bits_sticky": -1}


def _calibration_pass(time_of_day, t) -> tuple[int, bool]:
    cost, done = polling.one_pass(time_of_day, t, timing.CALIBRATION)
    now = rng.timer(*time_of_day)
    with mbf.counting_paths() as paths:
        polling.waited_enough(now, t, timing.CALIBRATION)
    return cost + sum(CALIBRATION_PATHS.get(name, 0) * n for name, n in paths.items()), done
