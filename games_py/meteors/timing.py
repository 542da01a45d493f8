"""The frame's pace (line 3231) as the original experiences it in virtual time.

``WHILE ABS(TIMER - T0) < .05: WEND`` with T0 the TIMER of the last frame's end.
DOS's time moves only at BIOS ticks (65536/1193182 s), so TIMER, an MBF single
computed from DOS's hours..hundredths, steps by 5 or 6 hundredths; near 43,200 s
a single resolves 1/256 s, and a 5-hundredth step can come out below .05 once
rounded.  The loop then waits for a second tick: frames take one tick or two,
depending on the time of day.

This module gives the TIMER the program reads at an absolute BIOS tick count,
the tick at which such a wait ends, and ``FrameClock``: the tick the program is in
from RANDOMIZE TIMER on.  It follows the program's work between its waits in
instructions (the costs below, measured on the exact machine from the instruction
counts at the statements' INT 3s) and the device events that work meets: with
sound off the BIOS ticks at 18.2 Hz, with sound on the music timer's 582 Hz
interrupts, one in 32 of which is a BIOS tick, while a note plays.  The waits
on TIMER (line 222's calibration, the frame's pace, the two-second pauses of a
game's end) end after a tick, those on PLAY(0) just after the interrupt that
starts the last note.  The frame's pace is followed pass by pass (polling.py: what
each pass costs the runtime for the time of day it reads and T0), so where it ends
inside its tick, up to a pass (831 to 1,067 instructions) after it, is computed;
the other waits end a measured distance after their tick (docs/meteors-internals.md,
section 6).
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction

from games_py.meteors import end_cost, polling
from games_py.meteors.polling import PACE, waited_enough
from games_py.qbasic import mbf, rng, runtime_cost
from games_py.qbasic.mbf import MBF

PIT_HZ = 1_193_182
TICK_SECONDS = Fraction(65536, PIT_HZ)
TICKS_PER_DAY = 0x1800B0
CALIBRATION = MBF.from_hex("CD CC 4C 7D")   # .1 at DGROUP:11A0 (line 222)


class DosTime:
    """DOS's time of day at BIOS tick counts, for a clock set to ``start`` when the
    tick count was ``start`` // tick (pcemu.timeofday.DosClock: the start's fraction of
    a tick is kept as an offset, readings are truncated to the hundredth)."""

    def __init__(self, start: tuple[int, int, int, int]) -> None:
        h, m, s, hs = start
        seconds = Fraction(h * 3600 + m * 60 + s) + Fraction(hs, 100)
        self.start_tick = min(int(seconds / TICK_SECONDS), TICKS_PER_DAY - 1)
        self.offset = seconds - self.start_tick * TICK_SECONDS

    def at(self, tick: int) -> tuple[int, int, int, int]:
        seconds = (tick % TICKS_PER_DAY) * TICK_SECONDS + self.offset
        whole = min(int(seconds), 86399)
        hundredths = int((seconds - int(seconds)) * 100)
        return whole // 3600, whole // 60 % 60, whole % 60, hundredths

    def timer(self, tick: int) -> MBF:
        return rng.timer(*self.at(tick))


def wait_ends(clock: DosTime, t0_tick: int, now_tick: int, span: MBF = PACE) -> int:
    """The tick at which a ``WHILE ABS(TIMER - T0) < span: WEND`` loop ends, entered at
    ``now_tick`` with T0 read at ``t0_tick`` (line 3231 by default)."""
    t0 = clock.timer(t0_tick)
    tick = now_tick
    while not waited_enough(clock.timer(tick), t0, span):
        tick += 1
    return tick


# The first game's start, from the end of line 222's wait (line 225) to the level screen's
# T0 (line 3232).  The show's notes (PLAY waits) take SHOW_TO_PAUSE ticks to line 4410, then
# the show waits on TIMER twice, each ``T = TIMER: WHILE ABS(TIMER - T) < span: WEND``: line
# 4410's 1.5 s (DGROUP:15E6; 28 ticks) and line 1790's D = .1 s (DGROUP:1008, set by its
# caller; 2 ticks).  Both are computed (wait_ends), so a wait that midnight falls into ends at
# the wrap, as on the original, where TIMER jumps from 86,399.9x to 0 (a start in the day's
# last 2 s: 23:59:59.50's show is 7 ticks, not 34).  Then PRESS ANY KEY with the tracer's
# keys (original.py): a human player's space (and with sound off F1) at line 3560's first
# pass, T0 in the same tick; the demo's F2 (and with sound off F1 before it), each followed
# by {TICKS:20} and typed by the tracer's run loop, then the space.  For 0, 1 or 2 such
# function keys: the ticks from 1790's wait to T0, and how far into that tick T0 is read
# (the run loop's keys are not at a point of the program: 7,200 to 11,700 instructions
# measured on the old PIT; now used only for F1 after a show midnight cut short, the demo's
# place coming from demo_start).  Measured on the original; see docs/meteors-internals.md,
# section 6.
SHOW_TO_PAUSE = 4
SHOW_PAUSE = MBF.from_hex("00 00 40 81")       # 1.5 at DGROUP:15E6 (line 4410)
SHOW_KEY_PAUSE = MBF.from_hex("CD CC 4C 7D")   # .1 in D (DGROUP:1008) at line 1790
STARTUP = {0: (0, None), 1: (21, 9_500), 2: (42, 9_500)}


def show_ends(clock: "DosTime", calibrated: int, function_keys: int) -> int:
    """The tick of the first level screen's T0 for line 222's wait ending at ``calibrated``."""
    tick = calibrated + SHOW_TO_PAUSE
    tick = wait_ends(clock, tick, tick, SHOW_PAUSE)           # line 4410
    tick = wait_ends(clock, tick, tick, SHOW_KEY_PAUSE)       # line 1790
    return tick + STARTUP[function_keys][0]
FULL_SHOW = 34                                 # ticks from line 225 to T0 with no function key


def show_cut(start: tuple[int, int, int, int]) -> bool:
    """Midnight cuts the show's TIMER waits short (a start in the day's last 2 s that is not
    in its last two ticks): its tune still plays at PRESS ANY KEY."""
    clock = DosTime(start)
    calibrated = wait_ends(clock, clock.start_tick, clock.start_tick, CALIBRATION)
    return show_ends(clock, calibrated, 0) - calibrated < FULL_SHOW


def keys_at_key_loop(settings) -> bool:
    """Whether the tracer types a human player's space (and with sound off its F1s) at points
    of the program (original.py), or, in demo mode and with sound off after a show midnight
    cut short, its run loop types the function keys with {TICKS:20} and then the space
    (STARTUP): the show's tune then still plays at line 3560 and the model does not know
    where its notes are (docs/meteors-internals.md, section 6)."""
    return not settings.demo and (settings.sound or not show_cut(settings.time))


# A human player's space is typed at line 3560's first pass (original.py): from there the
# first level screen's work to T0 is computed statement by statement (game.py, level_cost.py,
# level_cost.KEY_LOOP_EXIT).  The music there: the show's tune has ended during line 4410's
# wait, and the show's last PLAY (line 3530) writes 0800h to channel 0 941 instructions before
# line 3560's first INT 3 (at 3 start times), with a note of 33 interrupts and one of 3 queued;
# the 8254 loads it at the end of the BIOS tick's high half (first_music_interrupt), so the first
# interrupt comes half a tick and half a music period after the tick's edge, some 29,000
# instructions after line 3560 (before the first T0).  Where line 3560 falls inside its tick is
# where the show puts it, computed from power-on (show_time.key_loop_place: line 222's passes, the
# title's rows and their WHILE PLAY(0) waits on the show's music, then line 4410's 1.5 s and line
# 1790's D waits pass by pass; within an instruction of the original's at 143 of 145 start times
# measured; until branch h-place one number, 4,820, the middle of the 4,200 to 5,442 measured).  The
# runtime's counter (DGROUP:0416) reads 15 there (11 with sound off: the tracer's F1 twice in the
# show queue 36 interrupts more of it).
KEY_LOOP_WRITTEN = 941
KEY_LOOP_NOTES = [33, 3]
KEY_LOOP_COUNTER = {True: 15, False: 11}
# The demo (F2 typed by the tracer's run loop at PRESS ANY KEY, and with sound off F1 before it,
# each followed by {TICKS:20}, then the space; STARTUP's ticks): the pass of line 3560 that reads
# the space, where it falls in its tick and the music counter there, are computed from line 3560's
# first pass through the run loop's keys and F2's handler (demo_start.py); from there the first
# level screen's work is computed as after a human player's space.


# With sound off the tracer types F1 twice at the show's 1.5 s wait (line 4410: sound off and
# on again; the runtime hooks INT 1Ch there, and the joystick reads of its INT 1Ch handler are
# over before the game: original.py) and once more right behind the space: that F1's make and
# break codes (IRQ 1, 2 ms apart after the space's) and its ON KEY(1) handler (lines 4600-4620,
# SOUND.ON off) run in the level screen's work before T0, this much more besides a music
# interrupt that falls in it (line 3560's first INT 3 to 3232's: 800 more than with sound on at
# each of 24 start times, 775 where no interrupt fell in them).
MUTED = 775
# Line 3231 with FAST false (a start in the day's last tick): IF FAST AND T0 >= 0 goes on to
# line 3232 in this many instructions, T0 = -1 or not; with FAST true and T0 = -1, 42
# (level_cost.TO_T0 has them).
UNPACED = 18
PACED_LEVEL = 42

# The work between two waits, in instructions (1.2 MIPS: a tick is 65,910), measured
# on the exact machine with sound off: the BASIC lines each piece runs, from the
# instruction counts at the statements' INT 3s of 24 human sessions (6,600 frames).
# Only work with no wait between (a level screen and the steps and meteor after it,
# a game's end and start) can pass a tick, so only there does the estimate matter;
# the spread of each piece is a few hundred instructions (the BIOS tick's and the
# keyboard's interrupt handlers, PRINT's digits); where line 3231's wait ends is
# computed pass by pass (polling.py).
AFTER_WAIT = 1_540          # line 222's wait ends this far into its tick (the model's start)
# 3232 -> 1110 besides what the runtime spends on T0 = TIMER's arithmetic and on NEXT's and the
# next place's (lines 3232-3280, 930-960, 900-920; measured to the instruction on 3,763 frames):
PACE_TO_STEP = 3_946        # on a curved path, mono, a countdown of 2 digits ...
STRAIGHT_PACE_TO_STEP = 4_061  # ... on a straight path (lines 1060-1080, 1020-1040)
ABSORBED_PACE_TO_STEP = 3_540  # ... after an absorbed meteor (line 940: GOTO 1100) ...
ABSORBED_STRAIGHT = 14      # ... on a straight path more (line 1070's IF ABSORBED, as a level's return)
CURVED_LAST = -233          # ... the FOR's last NEXT (line 960: GOTO 1100) ...
STRAIGHT_LAST = -252        # ... line 1080's last (into 1090-1100)
COUNTDOWN_COLOUR = 14       # ... plus its PRINT in colour (line 3250's COLOR)
COUNTDOWN_DIGIT = 6         # ... and a digit of the countdown more or less
MOVE = 1_550                # D$ <> "": GOSUB 2830
# With sound off a step that neither hits nor is hit (1110 -> 3231) is the pieces of the
# sound-on step up to where its SOUND would be (the keys', the move's, the checks', the
# meteor's PRINT: Meteors.silent_step) and what the skipped SOUNDs leave (IF SOUND.ON,
# one pass of WHILE PLAY(0), the RETURNs): measured on 3,599 steps of seed 1612's two-minute
# random:2, 3, 6, 7 with no BIOS tick inside (a key's IRQ 1 may be): exact on 3,546, a few
# instructions off on 51 (a key's break code taken elsewhere), two string-space merges
SILENT_STEP = 132           # ... after the meteor's PRINT (line 1380) to line 3231 (line 1390's
                            # WHILE PLAY(0) from 1 in, its first pass 44, then 86 from line 1400:
                            # with line 3530's notes still queued it waits, game.py)
SILENT_BITE = 3_267         # ... a bite (lines 3010-3100 and the score, besides its values)
SILENT_ABSORBED = {False: 3_679, True: 3_965}   # ... an absorbed meteor (1300-1370), mono, colour
NEW_METEOR = 1_289            # after a path's extra step: RETURN, lines 720-730, 590-620 (to 630)
# A pass of line 630, 650 or 680 (with its IF, to the next pass or line) besides what the
# runtime spends on its values (games_py.qbasic.runtime_cost): (line's kind, the last pass)
METEOR_PASS = {("x1", False): 681, ("x1", True): 694, ("x2_same", False): 590, ("x2", False): 690,
               ("x2", True): 703, ("y2_above", False): 600, ("y2", False): 663, ("y2", True): 676}
CURVED_TO_STEP = 1_771        # lines 710-920 (to line 1110) besides the runtime's paths ...
STRAIGHT_TO_STEP = 1_691      # ... or 710-840 and 980-1040 besides line 990's SQR statement, whose
                              # 1,251-1,301 come from sqr_cost.sqr_line (DX, DY)
# (a level's end, its screen and a new game's start, lines 3232-4050 and 430-630: level_cost.py)
# (a hit, its way to line 1620 and the game over to line 1710: hit_cost.py)
# A game's end: line 1710's two-second waits are followed pass by pass (end_cost.py); the table (lines
# 5370-6550) costs TABLE plus its file and rows: METEORS.SCR is missing until the first
# name is saved, then read once (its one record); DGROUP:10C6, the table's count, comes
# only from that read, so the table never shows more than 2 rows in a session.  A name
# (a score above 0) is typed by the tracer at the prompt and takes NAME plus SAVED a
# record written and MOVED a row moved down.  What its statements spend on their values
# (the game, score and time printed, the rows' and the records' scores) is table_cost.py's;
# these are the rest, fitted to 139 tables of 41 sessions, sound on and off (end_probe.py: within 50
# instructions at 120 of them, within 158 at all; docs/meteors-internals.md, section 6).
# TABLE, TABLE_COLOUR, TABLE_MISSING and TABLE_ROW are traced (branch h-end2): the sums of
# their statements' INT 3 to INT 3 spans, the least over seed 1612's 50 x 30 s sessions' tables
# and seed 7's 120 s random:8's (the same at every table but where an interrupt fell in).
TABLE = 10_136 - 64         # 5370-5380, 5570, 5670-5690, 5740-5770 and its RETURN to the
                            # second pause (end_cost.TABLE_TO_PAUSE's 64 besides), 6360-6430, the
                            # rows' loop's first and last pass (6440: 70) and 6550: 14 + 18 + 14 +
                            # 14 + 669 + 349 + 153 + 14 + 14 + 189 + 14 + 171 + 3,304 + 915 + 17 +
                            # 328 + 3,676 + 14 + 70 + 179 (mono); until h-end2 10,094, 22 more
TABLE_COLOUR = 35 + 14 - 7  # ... in colour: 6370's COLOR 12, 1, 4 (35 more than mono's 7, 0), 6410's
                            # COLOR 14, 4 (14 more), 5690's COLOR 14, 1 (7 less); until h-end2 49
TABLE_MISSING = 21_626      # OPEN of the missing file, its error (5390-5430, 5510-5520: 14 + 4,537
                            # + 14 + 36 + 16,766 + 14 + 245; until h-end2 21,600), the session's first ...
FIRST_OPEN = 87             # ... whose part this is (its file buffer taken off the string space's end,
                            # 062B:8E07 and 8E48; string_space.ALIGNED_END where 8E07 runs short): line
                            # 5430's OPEN took 16,727 or (aligned) 16,720 at the first missing file's
                            # OPEN of 15 sessions (seed 1612's 30 s, seed 7's two-minute random:1), 16,640
                            # at the second of all of them; until 27 Nov 80 (a second OPEN 7 long)
TABLE_READ = 12_783 - 6 - 70   # lines 5390-5490 with the file's one record (OPEN, INPUT #): 14 + 4,537
                            # + 14 + 36 + 2,207 + 14 + 609 + 15 + 3,091 + 2,231 + 15 at a score of 41,
                            # less line 5430's CLOSE after an OPEN (table_cost.CLOSED_AFTER_OPEN, counted
                            # apart) and what line 5470's INPUT # of the score spends by its value
                            # (table_cost.record_read: 70 for 32 to 63).  Branch h-hmiss; until then
                            # 12,771 for every record, which held the CLOSE twice
TABLE_ROW = 8_623           # lines 6450-6540 and the loop's pass at 6440 (32): a row shown, its
                            # score's PRINT USING besides (32 + 32 + 34 + 158 + 206 + 800 + 5,391
                            # + 1,949 + 21; until h-end2 8,615) ...
TABLE_ROW_COLOUR = 14       # ... in colour: line 6470's COLOR 5, 0 or 14, 0 (6470 to 6500: 378 where
                            # mono's 7, 0 or 15, 0 take 364; seed 1612's 30 s random:2 and 3 of 50,
                            # seed 500's random:8; branch h-end)
# Line 5910 and LINE INPUT's end (0000:35DF) split a name's part (end_probe.py logs both since
# branch h-end).  NAME_PROMPT is traced (branch h-end2; until then 3,804, fitted to the modal
# 5910 error): a name's way leaves TABLE's score-0 path at line 5770 (its CLOSE 1 and RETURN, 45
# and 54, not taken: TABLE_NAMED), then 5780-5850 (14 + 14 + 36 + 2,261 + 14 + 14 + 18 + 14; line
# 5810's OPEN "O" 46 more when it creates the file, table_cost.CREATED), line 5860 with sound off
# (63), 5870 (328), 5880 (962), 5890 (table_cost.congratulations) and 5900 (171) to 5910's INT 3.
# NAME and NAME_COLOUR are FITTED (a colour name's part after 35DF 123 more in all, a mono one's
# 205): the medians of the named tables' totals (5370 to the second pause) once LINE INPUT, SAVED
# and a colour row were measured; not traced.
TABLE_NAMED = -(45 + 54)    # line 5770's CLOSE 1: RETURN, in TABLE, not taken with a name
PROMPT_TO_SOUND = TABLE_NAMED + 14 + 14 + 36 + 2_261 + 14 + 14 + 18 + 14   # ... to line 5860's INT 3
NAME_PROMPT = PROMPT_TO_SOUND + 63 + 328 + 962 + 171   # lines 5770-5910 with a name (5890's values besides) ...
NAME_PROMPT_COLOUR = 14 + 14    # ... in colour: 5870's COLOR 2, 0 and 5900's COLOR 14, 0 (until h-end2 31)
# ... 5910 -> LINE INPUT's end (0000:35DF): line_input.py, key byte by key byte
NAME = 10_060 + 663         # ... and after it (35DF) to the table's RETURN, besides the rows, records
                            # and moves: 35DF-6060 (153 + 14 + 45 + 205 + 18 + 14 + 14 + 49 + 18 + 17
                            # + 14), 6070 (23), 6110-6120 (14 + 184), 6140-6180 and the record loop's
                            # last pass (14 + 14 + 61 + 23 + 23 + 32), 6220-6290 (20 + 14 + 223 + 14
                            # + 14 + 46 + 38 + 54), the second draw's 6360-6440 and 6550 (8,509 + 179);
                            # line 6130's WHEN$ = DATE$ + " " + TIME$ 663 with under 50 hundredths
                            # (TIME$'s rounding: table_cost.time_rounded, since h-hmiss).  Enter's break
                            # (INT 9, 97 here) is line_input's late byte.
                            # Until h-end2 10,826, fitted: it held the break.
NAME_COLOUR = 35 + 14       # ... in colour: the second draw's 6370 and 6410 (until h-end2 42, fitted)
SAVED = 32 + 32 + 21 + 4_290 - 1_885   # a record written: the loop's 6180 and 6190 passes, 6210, and
                            # 6200 (4,290 for a score of 12 to 88, 4,286 for 1) less table_cost.saved_record
                            # (2,490 at all 15 scores seed 1612's 50 x 30 s sessions' first names had;
                            # branch h-end2; until then 2,495: h-end's 4,375 was a two-digit score's)
MOVED = 1 + 158 + 46 + 46 + 165 + 20   # an entry moved down: line 6070's FOR one more (24 where 23 with no
                            # move, in NAME) and 6080-6100, the old strings' frees besides (table_cost.REASSIGNED:
                            # 457 with two); at all 40 moves of seed 1612's 50 x 30 s and seed 7's random:4 and 8
                            # (branch h-hmiss; until then 427, not traced)
# In demo mode the score above 0 is saved as COMPUTER with no prompt (line 5840: GOTO 6020).  Traced
# (branch h-dticks; until then 12,679 and 12,749, the tables less the model's other pieces): a name's
# way from line 5770 (TABLE_NAMED) through 5780-5830 (14 + 14 + 36 + 2,261 + 14 + 14; 5810's CREATED
# besides), 5840's IF DEMO THEN N$ = "COMPUTER": GOTO 6020 (183), 6020-6060 (112), then NAME's part
# from line 6070 on (NAME less its 35DF-6060, 561): the statements' INT 3 to INT 3 spans at
# 02:16:12.85 /M and 05:40:06.83 /M (seed 1612's demo cases 9 and 23) ...
# ... and line 6120's NAME$(PLACE) = N$ a word longer to copy (COMPUTER's 8 characters, PLAYER's 6:
# 155 where 154 at 10:55:20.83 /M's first table against seed 1612's two-minute random:4's; until 27 Nov
# left out, which line 5700's STR$ of a three-digit score, then 1 long, made up for in most demo tables)
COMPUTER_NAME = 1
DEMO_SAVE_MONO = TABLE_NAMED + 14 + 14 + 36 + 2_261 + 14 + 14 + 183 + 112 + NAME - 561 + COMPUTER_NAME
DEMO_SAVE = {False: DEMO_SAVE_MONO, True: DEMO_SAVE_MONO + NAME_COLOUR}   # (colour: the second draw's)
# ... and COMPUTER's name where the model's pieces have PLAYER's (the tracer's): a record written
# (line 6200's PRINT #1, NAME$(I): 4,436 for a three-digit score where PLAYER's takes 138 less) and a
# row shown (line 6510's PRINT USING "  \<46>\"; NAME$(I): 5,249 where PLAYER's takes 5,391)
COMPUTER_RECORD = 138       # (139 until 27 Nov, against a PLAYER's record 1 short: table_cost.SAVED_HUNDREDS)
COMPUTER_ROW = -142
COMPUTER_READ = 224 - 46    # ... and its record read (lines 5390-5560: 12,988 at 14:49:10.77 /M's second
                            # table, seed 1612's demo case 61, a score of 196, where the missing file's
                            # take 7 less than TABLE_MISSING: so 12,995 against TABLE_READ; one table
                            # measured, the name's and the score's parts not split)
                            # (-46 at the merge with h-hmiss: TABLE_READ + record_read(196) is 46 more
                            # than the 12,771 this was measured against; record_read's law is measured to
                            # 90, so a score of 196's 110 is its extrapolation)
DEMO_SAVE_SOUND = 534 - 18 - 27   # line 6270 with sound on: its IF (17) and SOUND 2000, 1.0 (517 to
                            # 6280's INT 3, a fresh start), less the IF's way with sound off (18) and
                            # FRESH_START, which the model adds (until h-dticks 490, measured so)


# With sound on (docs/meteors-internals.md, section 6): each SOUND puts a note in the
# runtime's queue; with the queue empty it points INT 8 at the runtime's handler and
# loads PIT channel 0 with 0800h (582 Hz).  The handler takes the next note at the
# first interrupt and counts it down (so a note of D interrupts takes D + 1 from a
# fresh start and D behind another), chains to the BIOS (a tick) when its own counter
# DGROUP:0416, decremented at each interrupt, comes to 0 mod 32, and with the queue
# empty restores the BIOS vector and loads channel 0 with 0.  ``WHILE PLAY(0): WEND`` after
# each SOUND ends when the note starts.  The runtime writes both counts with no control word,
# so the 8254 loads each at the end of the half-cycle under way (``first_music_interrupt``,
# ``bios_tick_after_music``): IRQ 0 stays on
# the lattice of the BIOS's ticks, shifted by half a music period at most.
IPS = 1_200_000                              # pcemu's default speed
MUSIC_PERIOD = 2048 * IPS / PIT_HZ           # 2,059.7 instructions between 582 Hz interrupts
TICK = 65536 * IPS / PIT_HZ                  # 65,910.4
RELOAD = 70                                  # the handler's load of channel 0 after its interrupt
                                             # (within the music cycle's high half)
NOTES = {"fall": 16, "absorbed": 16, "ate_block": 16, "ate_meteor": 16, "hit": 264,
         "level": 132, "table": 16, "saved": 33}  # SOUND f, D: D * 32 interrupts (.5 -> 16); line 6270's
        # SOUND 2000, 1.0 was 0 until h-meteors15, but the original's IRQ 0s show 34 interrupts 2,060 apart
        # after its fresh start before the BIOS's tick comes back; 33 puts the second pause's end where
        # the original's is (32 does not), why not 32 was not traced
SOUND_MASKED = 160                           # IRQ 0 masked in SOUND (062B:440C) before the note is queued:
                                             # its CLI is the 273rd instruction from line 5120's INT 3 (of 432
                                             # to the queue), so an edge taken 273 in is held (16:44:38.39 /M's
                                             # frame 1325) and work_done's edges (taken at or before its end)
                                             # must stop at 272 (branch h-dticks; until then 159)
TIMER_STARTED = 50                           # ... and channel 0 loaded this much later, when the queue was idle
PLAY_EXIT = 150                              # the interrupt that starts the note -> the next statement
# The machine takes an interrupt between two instructions: at the first whole instruction count
# at or after the PIT's edge.  The model's edges (MUSIC_PERIOD, TICK apart, from where the
# program loaded channel 0) are fractions of an instruction off the program's whole instructions,
# by an amount it cannot know (how far into a PIT clock the load's instruction count fell, a
# matter of the count since power-on): against the program's instructions an edge is then most
# likely where it rounds to (the machine's interrupts stand -1 to +1 instruction from the
# model's edges, most near 0).  So an edge is taken before an instruction of the program when it
# is more than half an instruction before it: where the program's SOUND masks IRQ 0
# (``SOUND_MASKED``), where a pass of a polling loop reads the time or PLAY(0).
EDGE_ROUNDING = 0.5
# Where the model knows its lattice against power-on (a human player's session: show_time follows
# the show from power-on; a demo's: demo_start follows it on to the read pass; so an instruction
# count and its tick's edge in PIT clocks are known), it takes an edge as the machine does instead: IRQ 0's edges all lie on whole multiples of
# EDGE_CLOCKS PIT clocks from power-on (the BIOS's 65536, shifted by the 8254's deferred loads by
# half a music period, 1024, and half a tick), and pcemu takes one at the first whole instruction
# count at or after it (pcemu.clock.Clock.instructions_for_pit): ``FrameClock.taken_at``.
EDGE_CLOCKS = 1024


# Where a step's sounds are, with sound on, in instructions from the last place the
# program went on after a wait: the step's start (line 1110; plus its keys' handlers),
# a bite's sound (line 3120 after its PLAY(0) wait), an absorbed meteor's (line 1360).
# An absorbed meteor's, one number each where not computed piece by piece (the fall's and a
# bite's are, below; a hit's: hit_cost.py):
TO_SOUND = {("start", "absorbed"): 6_500, ("absorbed", "fall"): 1_520}
# The step's work to a fall's or a bite's SOUND, piece by piece (measured to the instruction
# at the statements' INT 3s of 52 sessions; what the runtime spends on the values comes from
# games_py.qbasic.runtime_cost).  From line 1110 to 1140, with no key ...
STEP_START = 283
KEY_PRESSED = {"UP": 922, "LEFT": 925, "RIGHT": 928, "DOWN": 929}   # ... more with an arrow key
# (IRQ 1, ON KEY(11-14): lines 4930-5070; D$'s length), besides its IF RND < .1 ...
FIRST_HOOK = 40             # ... the session's first event, whose poll hooks INT 1Ch (sound on: with sound
                            # off F1 in the show came first): 062B:70AC's first call runs 70B4-70F2 (33
                            # instructions, where later calls return at 70B3 after its flag test: 32 more)
                            # with two INT 21h (AH=35h, 25h) of 4 instructions each in the machine's DOS
                            # entry (8); 40 at the first key of the 6 sessions timed (branch h-human; it
                            # was -5, fitted from a drift that is 40 modulo a WHILE PLAY(0) pass of 45)
EVENT_SLOTS = 40            # the runtime's ON KEY event ring (DGROUP:062A: 0636h to 0686h, 2 bytes an event):
EVENT_WRAP = 2              # the event in its last slot costs one more where IRQ 1 puts it (062B:A1CE) and
                            # one more where the statement's poll takes it (A1B7): the 40th key, the 80th...
KEY_RELEASED = 97          # the key's break code: IRQ 1 again, 2 ms later (before the step's SOUND)
FREED = 11                  # a string assignment that frees the old string, more than one that
                            # frees none: the session's first K$ = INKEY$ (line 1110) frees the
                            # space of PRESS ANY KEY, the first key's D$ = ... frees nothing
RESEED = 608                # ... and RANDOMIZE TIMER besides TIMER's arithmetic; its time is read
KEY_TO_TIME_READ = {"UP": 745, "LEFT": 747, "RIGHT": 749, "DOWN": 751}   # this far from 1110
NO_MOVE = 118               # 1140 -> 1180 with D$ = "" ...
MOVE_TO_BITE = {"UP": 1_261, "DOWN": 1_261, "LEFT": 1_277, "RIGHT": 1_277}   # ... or GOSUB 2830 to
BITE_METEOR = 31            # a block's bite (line 5220; a crater's, 5250, this much more) ...
MOVE_ON = 405               # ... or, nothing eaten, on to 1180; lines 2930-2960 more where the row
MOVE_ROW = {("UP", "to 4"): 12, ("UP", "at 4"): -3, ("DOWN", "to 24"): 14, ("DOWN", "at 24"): -1,
            ("DOWN", "from 4"): -1,
            ("LEFT", 4): 11, ("LEFT", 24): 13, ("RIGHT", 4): 11, ("RIGHT", 24): 13}   # is clamped
# (("DOWN", "from 4"): line 2930's IF D$ = "UP" AND Y > 4 compares Y whatever D$ is, and its JLE
# (0000:1AF6) skips a DEC BX where Y is 4: the first DOWN off the top row, traced on 27 Nov from
# a one-instruction drift at every such frame of seed 7's two-minute random:9, 12, 0 and 2)
MOVE_WRAP = 28              # ... and where RIGHT or LEFT wraps at the screen's edge
CHECK = 661                 # 1180 -> 1380: the hit's first test, SCREEN(MY, MX), the clamps ...
CHECK_SECOND = 152          # ... the hit's second test (ABS(MX - X) < 2 was true)
CHECK_BLOCK = 99            # ... the meteor on a block: RND > PROB (it was 118, 19 over at each of the
                            # 34 steps with the meteor on a block and not absorbed of 695 timed)
CHECK_ROW = 21              # ... MY = 24 (an extra step at row 25)
METEOR_PRINT = 496          # 1380: LOCATE MY, MX: PRINT M$ ...
METEOR_PRINT_CONTROL = 29   # ... a control character (CHR$ below 32) more
COLUMN_80 = -1              # a character PRINTed in column 80 (the meteor's, lines 1300 and 1380;
                            # the player's erased and drawn by a move that does not wrap, lines
                            # 2880 and 3100): one instruction less, the runtime's cursor at the edge
PITCH = 438                 # 1380 -> 5120: the frequency from MY and PITCH (line 5110) ...
SOUND_QUEUED = 432          # ... 5120's INT 3 -> the note queued (IRQ 0 masked from 273 on)
BITE_QUEUED = 622           # the same for a bite's SOUND (line 5220)
AFTER_BITE = 3_262          # the bite's wait's end -> 1180: the score (GOSUB 3120) besides ...
SCORE_COLOUR = 14           # ... its colour (line 3190's COLOR) ...
CRATER_SCORE = -1           # ... a crater's (line 3070, no GOTO past 3040-3080) ...
SCORE_FIELD = 6             # ... and what the runtime spends on the new score: CSNG, the clamps,
                            # CINT, PRINT USING "SCORE:######" (runtime_cost.print_using_integer)
FREQUENCY_FACTOR = MBF.from_hex("8F C2 75 7B")   # .03 at DGROUP:1608 (line 5110)
ABSORBED_FACTOR = MBF.from_hex("BE 9F 2A 81")    # 1.333 at DGROUP:160C (line 5180)
# An absorbed meteor (sound on): 1180 -> its note queued (line 5190's INT 3 + 432), in mono or
# colour, besides the hit test's, RND > PROB's, the clamps', FNR(7)'s, the score's and the
# frequency's paths and the meteor's control character (measured to the instruction on the
# steps with no interrupt between of 4 sessions; its WHILE PLAY(0) at line 1350 starts with a
# NOP, as the bite's at 3010, so its first pass comes 129 after the note is queued) ...
ABSORBED_TO_QUEUE = {False: 5_336, True: 5_622}
ABSORBED_TO_PRINT = 14      # ... and from its wait's end to line 1380
# WHILE PLAY(0): WEND after a step's SOUND, pass by pass: the note queued -> the loop's first
# pass, each pass; an interrupt taken in a pass's first PLAY_SEEN instructions is seen by it,
# and the pass that sees the queue empty runs PLAY_LAST to the next statement's INT 3.
PLAY_LOOP = {"fall": 128, "ate": 129, "absorbed": 129, "hit": 129}
# (the hit's, line 1560, measured 129 on branch h-human: its INT 3 (0000:103A) to the first pass's (104C)
# is 45 where the fall's 0D91 to 0DA2 is 44, and 128 leaves line 1620 one instruction early at nearly
# every game over (end_probe).  129 since branch h-end, with the table's pieces measured at line 5910
# and LINE INPUT's end: line 1620 exact at every game over of seed 500's random:8 before event 203,
# which still differs, by its score-0 colour tables; docs/meteors-internals.md, section 8, h-end)
FRESH_START = 27            # ... more when SOUND started the music timer
PLAY_PASS = 45
PLAY_SEEN = 34
PLAY_LAST = 46
NOTE_TAKEN = 121            # the music handler taking the next note at a note's end ...
FRESH_NOTE_TAKEN = 119      # ... or the first after a fresh start
SOUND_EXIT = {"fall": 86, "ate": 0, "absorbed": 0, "hit": 0, "pause": 0,   # the wait's end -> on (a hit's: hit_cost)
              "silent": 86}         # (sound off, line 1390's wait on line 3530's notes: 1400 -> 3231)
# What an interrupt takes from the program (measured in line 3231's polling loop, pass by
# pass, where nothing else varies):
MUSIC_HANDLER = 25          # the music handler while a note goes on
NOTE_END_HANDLER = 99       # ... at a note's end with the queue empty (BIOS vector, channel 0 back)
# The runtime's note queue is a ring of 192 bytes (DGROUP:0382's descriptor: 0200h to 02C0h in the
# segment at DGROUP:034F), a note 6 bytes, so 32 slots; SOUND puts a note's bytes one by one
# (062B:7F22 -> 5CCC) and the handler takes them (7FD8 -> 5CE4), and each of the two runs one
# instruction more (MOV SI,[BX+4]) at the byte that brings its pointer to the ring's end: a note
# written to or taken from the last slot costs one more.  The handler sets both pointers back to the
# ring's start where the music ends (7FCB -> 7EB2 -> 5CFC -> 5CBC), so a slot is the count of notes
# written since the music last went idle; only a run of 32 notes with no silence between reaches
# the last (a bite's and a fall's notes frame after frame).
RING_SLOTS = 32
RING_WRAP = 1
CHAINED_TICK = 10           # ... plus the BIOS's INT 8 when the handler chains to it
BIOS_HANDLER = 14           # the BIOS's INT 8 with no music
STRIG_READ = 24             # the hook's INT 15h AH=84h for one joystick button (ON STRIG), ...
TICK_HOOK = 44 + 4 * STRIG_READ   # ... and in either, once the runtime hooks INT 1Ch (062B:6FD6, its
                            # event timer), which the BIOS's INT 8 calls: from the first ON KEY handler
                            # on (F1 or F2 at PRESS ANY KEY, or an arrow key in play); it reads the four
                            # buttons at every tick, as no stick is on the game port to press one
LEVEL_SOUND = 3_568 + 432   # a level's end (3232) -> its note queued (line 5280), besides T0's
                            # arithmetic and the countdown's colour (then level_cost.SOUND_TO_LEVEL)
TABLE_TO_SOUND = PROMPT_TO_SOUND + 45 + 17 + 432   # a name's SOUND (line 5860) queued, from TABLE's end
                            # (until h-end2 2,411 for PROMPT_TO_SOUND, fitted) ...
SOUND_TO_PROMPT = 45 + 17 + 432 + 58 - 63   # ... and on to line 5910: NAME_PROMPT less that, the SOUND's
                            # 58 after its note is queued, less the silent IF's PLAY(0) pass and 18
INPUT_TO_SOUND = 417 + 17 + 432   # LINE INPUT's end -> the name's SOUND (line 6000) queued
AFTER_SOUNDS = 435 + 18 + 102 - 58 - 17 - 432   # the rest, from line 6000's note to line 6270's,
                            # against NAME's silent IFs
SAVED_SOUND = 160           # the last (line 6270, whose duration constant is 1.0) this long before the table's end


def first_music_interrupt(written: float, bios_due: float) -> float:
    """The first 582 Hz interrupt after 0800h is written at ``written`` with the BIOS's next
    tick at ``bios_due``: in the tick's high half the count is loaded at that half's end and
    counts the low half (half a music period); in the low half the tick's own edge comes
    first, and the runtime's handler takes it as the music's first interrupt."""
    high_half_end = bios_due - TICK / 2
    if written < high_half_end:
        return high_half_end + MUSIC_PERIOD / 2
    return bios_due


def bios_tick_after_music(last_interrupt: float) -> float:
    """The BIOS's next tick after the handler writes 0 (``RELOAD`` into the interrupt's high
    half): loaded at that half's end, the 65536 count begins with its low half."""
    return last_interrupt + MUSIC_PERIOD / 2 + TICK / 2


class FrameClock:
    """The BIOS tick the program is in, as the Python game follows it: the program's
    work between waits (``work_done``, the costs above) in instructions, the device
    events it meets (BIOS ticks at 18.2 Hz, or the music's 582 Hz interrupts), and the
    waits on TIMER (which end just after a tick) and on PLAY(0)."""

    seen_rounding = EDGE_ROUNDING          # a pass of WHILE PLAY(0) sees an edge this much before PLAY_SEEN
    time_read = polling.TIME_READ          # a pass of a TIMER wait reads the time this far in

    def __init__(self, start: tuple[int, int, int, int], function_keys: int, muted: bool = False,
                 demo: bool = False) -> None:
        self.clock = DosTime(start)
        self.clock_start = start
        self.now = self.clock.start_tick            # line 120's RANDOMIZE TIMER
        self.t0: int | None = None                  # the tick of T0, None for T0 = -1
        self.fast = True                            # line 225
        self.function_keys = function_keys          # typed by the tracer's run loop (the demo's)
        self.muted = muted                          # F1 behind the space at line 3560 (MUTED)
        self.key_loop_place: float | None = None    # line 3560's first INT 3 into its tick (show_time;
                                                    # given: music_probe's given place)
        self.demo = demo                            # F2 (DEMO_*)
        self.hooked = function_keys > 0             # INT 1Ch hooked by the runtime (TICK_HOOK)
        self.t = float(AFTER_WAIT)                  # instructions, from the last tick before
        self.bios_due: float | None = TICK          # channel 0 at 18.2 Hz: the next BIOS tick
        self.playing = False                        # the runtime's handler is in INT 8
        self.interrupt_due = 0.0
        self.note_left = 0
        self.queue: list[int] = []
        self.written = 0                            # notes written to the ring since the music was idle ...
        self.taken = 0                              # ... and taken from it (RING_SLOTS)
        self.counter = 0                            # DGROUP:0416
        self.t0_paths: dict = {}                    # the runtime's paths in the last T0 = TIMER
        self.loop_start = 0.0                       # where the last SOUND's WHILE PLAY(0) begins
        self.passes = 0                             # the last TIMER wait's passes (_poll)
        self.show_passes: int | None = None         # line 1790's passes in the show (show_time)
        self.sound_log: list | None = None          # (note, fresh, masked from, the next edge then, the
                                                    # first interrupt): music_probe times them
        self.key_loop_at: tuple[int, int] | None = None   # line 3560's first INT 3 from power-on:
                                                    # (its instruction count, its tick's edge in PIT clocks)
        self.origin: float | None = None            # t = 0 from power-on, in instructions (exact), where
                                                    # the model knows it (key_loop_at): ``taken_at``
        self.last_taken: tuple[float, int, int] | None = None   # the last interrupt: where it was taken,
                                                    # its handler, the tick count before it (at_int3)

    def time_of_day(self) -> tuple[int, int, int, int]:
        return self.clock.at(self.now)

    def time_of_day_after(self, instructions: float) -> tuple[int, int, int, int]:
        """The time of day a TIMER read this much later sees (the work itself is counted
        where the caller counts it)."""
        ahead = copy.copy(self)
        ahead.queue = list(self.queue)
        ahead.work_done(instructions)
        return ahead.time_of_day()

    def now_at_int3(self) -> int:
        """The tick count a statement's INT 3 at ``t`` sees.  The last interrupt taken, if its handler
        is all the work since, may be at or after that INT 3's instruction: a piece of work that
        took it was followed by a negative one (timing.CURVED_LAST, the FOR's last NEXT), and the
        machine takes an edge at the INT 3 after it, INT 3 having cleared IF (2 later, where the
        runtime's handler sets it again).  Then the INT 3 sees the count before it: seed 99's
        two-minute random:49's frame 377, a music interrupt chaining the BIOS tick 1 after line
        1110's INT 3, which the model counted in the frame before until 27 Nov."""
        if self.origin is not None and self.last_taken is not None:
            taken, handler, before = self.last_taken
            if taken >= self.t - handler - 1e-6:
                return before
        return self.now

    def since(self, tick: int, now: int | None = None) -> int:
        """BIOS ticks from ``tick`` to ``now`` (the clock's) as the tick count at 0040:006C
        shows them (it starts again at 0 at midnight)."""
        return (self.now if now is None else now) % TICKS_PER_DAY - tick % TICKS_PER_DAY

    # -- the devices ------------------------------------------------------------------
    def _next_event(self) -> float | None:
        if self.playing:
            return self.interrupt_due
        return self.bios_due

    def _fire(self) -> float:
        """The next device event: returns its time."""
        if not self.playing:
            at = self.bios_due
            self.bios_due = at + TICK
            self.now += 1
            return at
        at = self.interrupt_due
        self.interrupt_due = at + MUSIC_PERIOD
        self.counter = (self.counter - 1) & 31
        if self.counter == 0:
            self.now += 1                           # chained to the BIOS
        if self.note_left > 0:
            self.note_left -= 1
        if self.note_left == 0:
            if self.queue:
                self.note_left = self.queue.pop(0)
                self.taken += 1
            else:
                self.playing = False
                self.bios_due = bios_tick_after_music(at)
                self.written = self.taken = 0       # the ring's pointers back to its start
        return at

    def _take_wrapped(self) -> int:
        """The note just taken came from the ring's last slot (RING_WRAP more)."""
        return RING_WRAP * (self.taken % RING_SLOTS == 0)

    def taken_at(self, due: float) -> float:
        """Where the machine takes an edge due at ``due``: with the lattice known (``origin``), at
        the first whole instruction from power-on at or after the edge's PIT clock; otherwise the
        edge rounded to the program's instructions (EDGE_ROUNDING)."""
        if self.origin is None:
            return due + EDGE_ROUNDING
        clocks = round((self.origin + due) * PIT_HZ / IPS / EDGE_CLOCKS) * EDGE_CLOCKS
        return -(-clocks * IPS // PIT_HZ) - self.origin

    def _before(self, due: float, end: float) -> bool:
        """The machine takes the edge due at ``due`` before the program's instruction at ``end``."""
        if self.origin is None:
            return due <= end - EDGE_ROUNDING
        return self.taken_at(due) <= end + 1e-6     # (whole instructions from power-on both)

    def work_done(self, instructions: float) -> None:
        """Work with no wait (or polling: line 3231's loop), and the interrupts due
        meanwhile, whose handlers take their time from it."""
        end = self.t + instructions
        while (due := self._next_event()) is not None and self._before(due, end):
            end += self.take_interrupt()[1]
        self.t = end

    def take_interrupt(self) -> tuple[float, int]:
        """The next device event: its time and what its handler takes."""
        music, ticks = self.playing, self.now
        fresh, queued = self.note_left == 0, len(self.queue)
        at = self._fire()
        handler = self._handler(music, ticks, fresh, queued)
        self.last_taken = (self.taken_at(at) if self.origin is not None else at, handler, ticks)
        return at, handler

    def _handler(self, music: bool, ticks: int, fresh: bool, queued: int) -> int:
        """What the interrupt just fired takes (take_interrupt)."""
        if not music:
            return BIOS_HANDLER + TICK_HOOK * self.hooked
        if len(self.queue) < queued:                # it took the next note (a level's, during its screen)
            handler = (FRESH_NOTE_TAKEN if fresh else NOTE_TAKEN) + self._take_wrapped()
        else:
            handler = MUSIC_HANDLER if self.playing else NOTE_END_HANDLER
        if self.now != ticks:
            handler += CHAINED_TICK + TICK_HOOK * self.hooked
        return handler

    def _run_until(self, done) -> float:
        """Wait (polling) until ``done()`` after a device event: that event's time."""
        while True:
            at = self._fire()
            if done():
                return at

    # -- what the program does ----------------------------------------------------------
    def sound(self, note: str) -> None:
        """SOUND f, D with music in the background, ``SOUND_MASKED`` instructions before
        it queues the note: the runtime masks IRQ 0 for them, so an interrupt that falls
        due then (the end of the note playing) comes after the note is queued.  The timer
        is started if the queue was idle (a note of no length too: two interrupts)."""
        masked, edge = self.t, self._next_event()
        self.t += SOUND_MASKED + RING_WRAP * (self.written % RING_SLOTS == RING_SLOTS - 1)
        self.written += 1
        fresh = not self.playing
        if self.playing:
            self.queue.append(NOTES[note])
        else:
            self.interrupt_due = first_music_interrupt(self.t + TIMER_STARTED, self.bios_due)
            self.playing, self.bios_due = True, None
            self.note_left, self.queue = 0, [NOTES[note]]
        if self.sound_log is not None:
            self.sound_log.append((note, fresh, masked, edge, self.interrupt_due))
        kind = "ate" if note.startswith("ate") else note
        self.work_done(0)          # an interrupt held back by the mask comes now: its handler
        self.loop_start = self.t + PLAY_LOOP.get(kind, 128) + FRESH_START * fresh   # delays the loop

    def wait_notes(self, kind: str) -> None:
        """WHILE PLAY(0): WEND right after a step's SOUND, pass by pass: where the pass
        lattice puts its end after the interrupt that starts the note (``SOUND_EXIT``
        on from there)."""
        self.work_done(self.loop_start - self.t)
        start, shift = self.t, 0.0
        if not self.queue:                          # started already: the first pass sees it
            self.t = start + PLAY_LAST
            self.work_done(SOUND_EXIT[kind])
            return
        while True:
            playing, ticks, queued = self.note_left > 0, self.now, len(self.queue)
            at = self._fire()
            chained = (CHAINED_TICK + TICK_HOOK * self.hooked) * (self.now != ticks)
            if not self.queue:
                handler = (NOTE_TAKEN if playing else FRESH_NOTE_TAKEN) + self._take_wrapped() + chained
                break
            # a note taken with another still queued behind it (the first frame's fall behind line
            # 3530's notes) costs the handler a note's take, not a count
            took = len(self.queue) < queued
            shift += ((NOTE_TAKEN if playing else FRESH_NOTE_TAKEN) + self._take_wrapped()) * took \
                + MUSIC_HANDLER * (not took) + chained
        if self.origin is None:
            into = (at - start - shift) % PLAY_PASS
            seen = into < PLAY_SEEN - self.seen_rounding
        else:                                       # the instruction it is taken at, into the pass
            at = self.taken_at(at)
            into = round(at - start - shift) % PLAY_PASS
            seen = into < PLAY_SEEN
        self.t = at + handler + PLAY_LAST - into + (0 if seen else PLAY_PASS)
        self.work_done(SOUND_EXIT[kind])

    def wait_play(self, after: float = PLAY_EXIT) -> None:
        """WHILE PLAY(0): WEND: until the last note queued has started."""
        if self.queue:
            at = self._run_until(lambda: not self.queue)
            self.t = at if self.origin is None else self.taken_at(at)
            self.work_done(after)

    def calibrate(self) -> bool:
        """Line 222: WHILE ABS(TIMER - T) < .1 counts loop passes; line 225: FAST when
        more than 60.  A pass takes about a fortieth of a tick, and the loop lasts two
        ticks or more (5 or 6 hundredths a tick), except when TIMER wraps at midnight
        in the first: then FAST is false and the frames are not paced at all."""
        start = self.now
        self.now = wait_ends(self.clock, self.now, self.now, CALIBRATION)
        self.t, self.bios_due = float(AFTER_WAIT), TICK
        self.fast = self.now - start >= 2
        return self.fast

    def show(self, colour: bool = False, start_paths: int = 0, colours: list[int] | None = None) -> None:
        """The start-up show and PRESS ANY KEY (game 1).  A human player's space is typed at
        line 3560's first pass: the clock stops there, ``key_loop_place`` into its tick, with line
        3530's notes just queued and the music timer's first interrupt on the tick's lattice (the
        work on to T0 is the caller's, ``muted`` for F1 typed behind the space).  The demo's
        function keys are typed by the tracer's run loop: the clock stops at the pass that reads
        the space (demo_start.key_read, with the music counter there); F1 typed after a
        show midnight cut short: at the level screen's T0 (STARTUP)."""
        self.now = show_ends(self.clock, self.now, self.function_keys)
        if self.demo:                               # the pass of line 3560 that reads the space
            from games_py.meteors import demo_start, show_time
            self.t, self.counter, chain = demo_start.key_read(
                self.clock_start, colour, self.function_keys == 1, start_paths, colours or [])
            self.now, self.bios_due = chain.now, TICK     # (show_ends' with STARTUP's ticks at all 60
            if self.show_passes is None:                  # demo sessions of seeds 1612, 7 and 42)
                self.show_passes = chain.show_passes
            if self.key_loop_place is None:
                self.key_loop_place = chain.first_place
            if not chain.playing:                   # (still playing: not met in the measured sessions)
                self.on_lattice(*show_time.lattice_point(chain))
            return
        if self.show_passes is None:                # the show as show_time follows it (the run
            from games_py.meteors import show_time  # loop's keys come after it)
            place, self.show_passes, at = show_time.key_loop(
                self.clock_start, colour, not self.muted, start_paths, colours or [])
            if self.key_loop_place is None:
                self.key_loop_place, self.key_loop_at = place, at
        if self.function_keys:
            self.t, self.bios_due = float(STARTUP[self.function_keys][1]), TICK
            return
        self.t, self.bios_due = self.key_loop_place, TICK
        if self.key_loop_at is not None:            # the lattice from power-on: the machine's edges
            self.on_lattice(*self.key_loop_at)
        self.interrupt_due = first_music_interrupt(self.t - KEY_LOOP_WRITTEN, self.bios_due)
        self.playing, self.bios_due = True, None
        self.note_left, self.queue = 0, list(KEY_LOOP_NOTES)
        self.written, self.taken = len(KEY_LOOP_NOTES), 0   # (the show's tune ended: the ring reset)
        self.counter = KEY_LOOP_COUNTER[not self.muted]
        self.hooked = self.hooked or self.muted     # (F1 in the show)

    def on_lattice(self, at: int, edge: int) -> None:
        """Put the clock on the machine's lattice: now is instruction ``at`` from power-on, in the
        tick whose edge is PIT clock ``edge`` (a human player's line 3560, ``key_loop_at``; the
        demo's read pass, from demo_start's chain, which follows the show, line 3530's notes, F2's
        beep and the BIOS's ticks from power-on); the edges after it are taken where the machine
        takes them (``taken_at``)."""
        self.origin = edge * IPS / PIT_HZ
        self.t, self.bios_due = at - self.origin, (edge + 65536) * IPS / PIT_HZ - self.origin
        self.time_read = polling.TIME_READ - 1  # (read at its 21st instruction: ShowClock's)

    def press_any_key(self, work: int) -> None:
        """A human player's way from line 3560's first pass (the demo's: from the pass that reads
        the space) to the first T0: ``work`` (the space read, the background, CLS, the status
        line), and with sound off F1's."""
        self.work_done(work + MUTED * self.muted)

    def pace(self, wait: bool = True) -> None:
        """Lines 3231-3232 (no wait when T0 = -1, a level screen's): the polling loop pass
        by pass (polling.py), each pass reading the time of day ``TIME_READ`` instructions
        in and costing what the runtime spends on that time and T0, the interrupts that
        come during it taking what they take from the loop.  It ends at line 3232."""
        if not self.fast:                           # line 3231 never waits
            if wait and self.t0 is not None:
                self.work_done(UNPACED)
        elif wait and self.t0 is not None:
            t0 = self.clock.timer(self.t0)
            self.t += polling.ENTRY
            self._poll(lambda time_of_day: polling.one_pass(time_of_day, t0))
        self.t0 = self.now
        with mbf.counting_paths() as paths:        # line 3232: T0 = TIMER, its arithmetic
            rng.timer(*self.clock.at(self.now))
        self.t0_paths = paths

    def idle(self, instructions: float) -> None:
        """A wait that ends at a fixed time whatever the interrupts meanwhile take (LINE INPUT
        while the tracer's keys come): the device events come, their handlers take nothing from it."""
        end = self.t + instructions
        while (due := self._next_event()) is not None and \
                (due <= end if self.origin is None else self._before(due, end)):
            self._fire()
        self.t = end

    def pause_passes(self, entered: int = 0) -> None:
        """Line 1710, pass by pass (end_cost.py; the music's interrupts, if it plays, take
        their handlers' time): from its first INT 3 (or ``entered`` on) to line 1730's RETURN
        (0000:1196), where the last pass ends."""
        self.work_done(end_cost.TO_T_READ - entered)
        with mbf.counting_paths() as paths:
            start = rng.timer(*self.clock.at(self.now))
        self.work_done(end_cost.ENTRY + runtime_cost.instructions(paths) - end_cost.TO_T_READ)   # (to 0000:1150)
        self._poll(lambda time_of_day: end_cost.pause_pass(time_of_day, start))

    def _poll(self, one_pass: Callable[[tuple[int, int, int, int]], tuple[int, bool]]) -> None:
        """A TIMER polling loop pass by pass: each pass reads the time of day ``TIME_READ``
        instructions in and costs what ``one_pass`` says for it (the same for every pass between
        two ticks), the interrupts meanwhile taking their handlers' time; the pass that ends it
        runs on to the next statement (``passes``: how many it made)."""
        cached: tuple[int, tuple[int, bool]] | None = None
        self.passes = 0
        while True:
            self.passes += 1
            self.work_done(self.time_read)
            if cached is None or cached[0] != self.now:
                cached = self.now, one_pass(self.clock.at(self.now))
            cost, done = cached[1]
            self.work_done(cost - self.time_read)
            if done:
                return
