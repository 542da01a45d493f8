"""What a game's end costs with no music: line 1710's two-second pause, pass by pass.

``T = TIMER: WHILE ABS(TIMER - T) < 2: A$ = INKEY$: WEND`` (0000:1125-1196, GOSUB'd from
lines 1640 and 1670) is line 3231's polling loop with INKEY$ in it: each pass is the WEND's
INT 3 (0000:1193), TIMER and the compare (``polling.one_pass`` for its time of day and T),
then line 1720's statements; the pass that ends the loop runs ``one_pass`` to line 1730's
RETURN (0000:1196).  Where the loop ends inside the tick that ends it is where the pass
lattice puts it, so it depends on where the pause began: with a fixed number for the
pause's end the next game's frames were up to a pass (about 1,200) off their ticks.
Measured at the statements' INT 3s of METEORS.EXE on the exact machine (sound off; seed 64's
30 s random:2 and seed 1612's sessions; docs/meteors-internals.md, section 6).
"""
from __future__ import annotations

from games_py.meteors import polling
from games_py.qbasic.mbf import MBF

PAUSE = MBF.from_hex("00 00 00 82")     # 2 at DGROUP:1224
# (line 1620 to the first pause: hit_cost.TEND, TO_PAUSE)
TO_T_READ = 317         # 1710's first INT 3 (0000:1125) -> T = TIMER's time read
ENTRY = 905             # 1710's first INT 3 -> the WHILE's first pass (0000:1150), besides T = TIMER's
                        # arithmetic (1,164 to 1,169 in all)
BODY = 190              # a pass that goes on: line 1720 (A$ = INKEY$) to the WEND's INT 3
TO_GAME = 1_851         # 1730's RETURN -> line 1680 (KEY(1..14) ON, GOTO 430) after the second
TO_TABLE = 91           # ... or -> line 5370 (LEVEL = 0: PROB = 0: GOSUB 5370) after the first
TABLE_TO_PAUSE = 64     # the table's RETURN (line 1670) -> the second pause's first INT 3
PLAY_PASS = 45          # 1710's WHILE PLAY(0): WEND, one pass (0000:1125 -> 113A), in ENTRY
PLAY_LOOP = 44          # ... with a note queued (the table's last, line 6270): its passes' lattice
                        # starts this far after 0000:1125 (as timing.PLAY_LOOP after a step's SOUND):
                        # the passes' INT 3s (0000:1136) come 44 after 1125's (traced, branch h-dticks;
                        # until then 88, a phase one instruction early; 44 lost seed 500's 30 s
                        # random:25 until h-hmiss traced the table's read, and with it keeps it)


def pause_pass(time_of_day: tuple[int, int, int, int], start: MBF) -> tuple[int, bool]:
    """One pass of line 1710's loop reading ``time_of_day``, from the WEND's INT 3 to the
    next (or to line 1730's RETURN when it ends the loop), and whether it ends it."""
    cost, done = polling.one_pass(time_of_day, start, PAUSE)
    return (cost, True) if done else (cost + BODY, False)


def play_wait(clock) -> None:
    """Sound on: line 1710's ``WHILE PLAY(0): WEND`` while a note is still queued (the table's
    last, line 6270, behind the name's), pass by pass as a step's (FrameClock.wait_notes), from
    the pause's first INT 3 to its next statement (0000:113A); ``pause_passes(PLAY_PASS)`` goes on."""
    clock.loop_start = clock.t + PLAY_LOOP
    clock.wait_notes("pause")
