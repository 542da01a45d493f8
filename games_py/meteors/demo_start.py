"""The demo's start: the pass of line 3560 that reads the space, computed from line 3560's first pass
(show_time) through the tracer's run loop's keys and F2's handler (docs/meteors-internals.md,
section 6, "The demo's start").

Everything is in instructions from power-on, on show_time's clock at line 3560's first INT 3.  The
run loop (original.py, pcemu.Machine.type) types F2 (with sound off F1 before it) once PRESS ANY KEY
is on the screen, and the space after each key's {TICKS:20}: its text checks come every half tick
on a lattice fixed from power-on (the typed command's keys before it take the same time in every
session), and each later key comes a fixed distance after the one before (the key's codes read,
its hold, 20 ticks, the slice that ends the hold).  These are the machine's run loop, not the
program: measured at all 20 demo sessions of seed 1612 (a probe kept out of the repository).

Line 3560 is ``K$ = INKEY$: IF K$ = "" THEN 3560``: two statements (INT 3s at 0000:20DD and 20EB),
134 and 56 instructions besides the interrupts' handlers.  The runtime checks for a trapped key
(ON KEY) a few instructions into each statement; the handler (F1's line 4600, F2's 4640) comes a
fixed distance after the INT 3 of the statement that caught it, and its RETURN resumes that
statement.  F2's handler (lines 4640-4790) runs a fixed 6,531 (colour) or 6,517 (mono) to line
4740 with sound on (with its beep, SOUND 200, 1.0, queued behind line 3530's notes, which still
play), then waits .5 s on TIMER (line 4740, as line 4410's wait: show_time), and returns to the
loop.  The space is read by the pass whose INKEY$ reads the keyboard after its IRQ 1.
"""
from __future__ import annotations

from games_py.meteors import show_time, timing
from games_py.meteors.show_time import ShowClock
from games_py.qbasic import mbf, rng, runtime_cost
from games_py.qbasic.mbf import MBF

# The run loop's text checks (Machine.run_until: every half tick, instructions_for_ticks(.5)): a
# check at FIRST_CHECK + k * CHECK_EVERY from power-on; the first key goes in at the second check
# after the text is on the screen (the second sees the program poll the keyboard), so at the second
# after line 3560's first INT 3 (it falls 4,200 to 5,500 into its tick, the checks some 26,400 and
# 59,400 in: no check between the text and line 3560)
FIRST_CHECK = 3_324_000
CHECK_EVERY = 32_955
# each later key's codes sent this long after the key before's (its make and break codes read, the
# hold, {TICKS:20}, and the slice the hold ends in): while line 3530's notes play (sound on F2 ->
# the space, sound off F1 -> F2), and sound off F2 -> the space
NEXT_KEY = 1_357_660          # (1,357,661 after a first key at 3,455,820: the model is 1 early there)
NEXT_KEY_SILENT = 1_376_631
KEY_IRQ = 1                 # the codes sent -> their IRQ 1 (1 to 5 measured: later where another
                            # interrupt's handler runs then, not followed: 3 F1s of seed 7 caught a
                            # statement later than the model's, their F2s where the model has them)
BREAK_CODE = 2_420          # the make code's IRQ 1 -> the break code's
MAKE_HANDLER = {"F1": 89, "F2": 90}   # a trapped key's make code (IRQ 1)

READ = 134                  # 0000:20DD (K$ = INKEY$) -> 20EB (IF K$ = "" THEN 3560)
BACK = 56                   # 20EB -> 20DD
TRAP_CHECK = 6              # a key's IRQ 1 this far after a statement's INT 3 is caught by it (caught
                            # at 3 in, not at 8, at the 60 F1s and F2s of seeds 1612's and 7's 20
                            # sessions; which statement catches it moves the handler, not the loop's
                            # passes after its RETURN: 134 + 56 either way; chosen between the
                            # bounds measured, the instruction itself not traced) ...
KEY_READ = 34               # ... and read by the pass's INKEY$: its INT 16h AH=11h (the BIOS answers
                            # at the INT) is the 34th instruction from 20DD's INT 3, so an IRQ 1 taken
                            # 33 in or before is read (29 in at 10:55:20.83 /M, seed 1612's demo
                            # case 45), one 35 in is not (branch h-dticks; until then 28, chosen
                            # between 22 and 35)
# a statement's INT 3 -> the handler's first line (its key's IRQ 1 besides): F1's (line 4600), F2's
# (4640, sound on and off)
TO_HANDLER = {"F1": 542, ("F2", True): 543, ("F2", False): 503}
F1_RETURN = 14 + 17 + 18 + 94   # line 4600 -> 4620 -> the loop's next INT 3 (0000:20DD) ...
RESUME_READ = 78            # ... this much more to 20EB when the key was caught at 20DD
# F2's handler: line 4640 -> line 4740's first INT 3, the break code's IRQ 1 and (sound on) line
# 3530's notes' interrupts in it: sound on, off; mono, colour
TO_WAIT = {(True, False): 6_517, (True, True): 6_531, (False, False): 5_803, (False, True): 5_817}
BEEP = 33                   # SOUND 200, 1.0 (line 4650): as line 6270's SOUND 2000, 1.0 (timing.NOTES)
FIRST_HOOKED_TICK = 0       # show_time's 96 more at the first BIOS tick after the show's tune with INT
                            # 1Ch hooked (F1 at line 4410, sound off) is not there after line 3530's notes
                            # and F2's beep: with it line 4740's wait ended 80 to 182 late at all 10
                            # sound-on sessions of seed 1612 and F2's handler came 40 to 96 off at all 10
                            # sound-off ones (exact without it); why the show's has it not traced
HALF = MBF.from_hex("00 00 00 80")   # .5 (line 4740)
WAIT_TO_RETURN = 942        # line 4740's last pass (line 4750's INT 3) -> line 4790's INT 3
RETURN_TO_LOOP = 1_104      # line 4790's INT 3 -> the loop's next 20DD (F2 caught at 20EB)


def key_sends(first_pass: float, sound: bool) -> list[tuple[str, int]]:
    """The run loop's keys and when their codes are sent, for line 3560's first INT 3 at
    ``first_pass`` (instructions from power-on)."""
    k = int((first_pass - FIRST_CHECK) // CHECK_EVERY) + 1
    at = FIRST_CHECK + (k + 1) * CHECK_EVERY
    if sound:
        return [("F2", at), (" ", at + NEXT_KEY)]
    return [("F1", at), ("F2", at + NEXT_KEY), (" ", at + NEXT_KEY + NEXT_KEY_SILENT)]


def _step(clock: ShowClock, statement: int, extra: list[tuple[int, int]]) -> int:
    """One statement of line 3560 from its INT 3 to the next's; ``extra``: other key interrupts
    (time, handler cost) whose handlers come in it."""
    span = READ if statement == 0 else BACK
    for when, cost in list(extra):
        if when < clock.t + span:
            span += cost
            extra.remove((when, cost))
    clock.work_done(span)
    return statement ^ 1


def key_read(start: tuple[int, int, int, int], colour: bool, sound: bool, start_paths: int,
             colours: list[int]) -> tuple[float, int, ShowClock]:
    """The pass of line 3560 that reads the space: where its INT 3 falls in its tick (whole PIT
    clocks, as show_time.key_loop_place), the music counter (DGROUP:0416) there, and the clock
    (``first_place``: line 3560's first pass in its tick; ``show_passes``: show_time's; ``marks``: where
    the model puts the handlers' lines, from power-on, for a probe)."""
    clock = show_time.key_loop_clock(start, colour, True, start_paths, colours)   # (the show as a human's)
    clock.first_place = show_time.place_in_tick(clock)
    # line 3530's notes, written KEY_LOOP_WRITTEN before line 3560 (timing.FrameClock.show's human
    # start; the counter is show_time's, 15), or behind the show's tune where midnight cut its waits
    # short (a start in the day's last 2 s: not measured here)
    if clock.playing:
        clock.queue += timing.KEY_LOOP_NOTES
    else:
        clock.interrupt_due = timing.first_music_interrupt(clock.t - timing.KEY_LOOP_WRITTEN, clock.bios_due)
        clock.playing, clock.bios_due = True, None
        clock.note_left, clock.queue = 0, list(timing.KEY_LOOP_NOTES)
        clock.written, clock.taken = len(timing.KEY_LOOP_NOTES), 0
    clock.tune_notes = None
    clock.first_hooked_tick = FIRST_HOOKED_TICK
    keys = key_sends(clock.t, sound)
    statement, extra = 0, []
    clock.marks = {}
    for name, sent in keys[:-1]:
        irq = sent + KEY_IRQ
        while irq >= clock.t + TRAP_CHECK:          # the statement whose check comes after the IRQ 1
            statement = _step(clock, statement, extra)
        clock.hooked = True                         # the first ON KEY handler hooks INT 1Ch
        if name == "F1":
            clock.work_done(MAKE_HANDLER[name] + TO_HANDLER[name])
            clock.marks[name] = clock.t
            clock.work_done(F1_RETURN + RESUME_READ * (statement == 0))
            extra.append((irq + BREAK_CODE, timing.KEY_RELEASED))
            statement ^= 1
            continue
        clock.work_done(MAKE_HANDLER[name] + TO_HANDLER[name, sound])
        clock.marks[name] = clock.t
        if sound:                                   # line 4650's beep, behind line 3530's notes
            clock.queue.append(BEEP)
        clock.idle(TO_WAIT[sound, colour])          # (measured with the interrupts' handlers in it)
        clock.marks["4740"] = clock.t
        _wait(clock)
        clock.marks["wait"] = clock.t
        clock.work_done(WAIT_TO_RETURN)
        clock.marks["4790"] = clock.t
        clock.work_done(RETURN_TO_LOOP + RESUME_READ * (statement == 0))
        statement ^= 1
    # the space's IRQ 1 (113) is not taken here: the model's work from the read pass has it (as after a
    # human player's space, level_cost.KEY_LOOP_EXIT), so where it came in the pass before (17 of seed
    # 1612's 20) the original's read pass comes 113 after the model's and its T0 where the model's is
    space = keys[-1][1] + KEY_IRQ
    while statement != 0 or space >= clock.t + KEY_READ:   # the pass whose INKEY$ comes after the IRQ 1
        statement = _step(clock, statement, extra)
    clock.marks["read"] = clock.t
    return show_time.place_in_tick(clock), clock.counter, clock


def _wait(clock: ShowClock) -> None:
    """Line 4740: T = TIMER: WHILE ABS(TIMER - T) < .5: WEND, as line 4410's (show_time)."""
    clock.work_done(clock.time_read)
    with mbf.counting_paths() as paths:
        t = rng.timer(*clock.clock.at(clock.now))
    clock.work_done(show_time.TIMER_STATEMENT + runtime_cost.instructions(paths) - clock.time_read
                    + show_time.FIRST_PASS)
    clock._poll(lambda time_of_day: show_time._pass(time_of_day, t, HALF, 0))
