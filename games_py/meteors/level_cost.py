"""What a level screen and a new game's start cost, statement by statement.

A level's end (lines 3232-3350), its new screen (GOSUB 3670: the status line, the score,
T0 = -1, the countdown, HIGH SCORE, LEVEL, GAME; GOSUB 3820: the block's character, the
rows, their colour, the rows of blocks, the player caught or not by them) and a new game's
start (lines 430-630: GAME, LEVEL, PROB, the meteor's character, GOSUB 3370: the
background, CLS, then the level screen; the player's place; TSTART = TIMER) are work with
no wait between, so where the next tick falls depends on every statement of it.  Each
statement costs a fixed part (the program's glue, the INT 3 handler, the runtime's PRINT,
LOCATE and COLOR) and what the runtime's routines spend on its values
(``runtime_cost``: TIMER, RND, CSNG, the multiply, add, INT and CINT of an FNR or an
INT(RND * n + m), the compares; PRINT USING and STR$ of an integer).  The fixed parts
were read at the statements' INT 3s of METEORS.EXE on the exact machine (sound off and on,
colour and mono, human and demo sessions; docs/meteors-internals.md, section 6): after the
values' costs are taken off, every statement took the same number of instructions every
time.  The costs of a path through the code are the sums here, with the lines' numbers.
"""
from __future__ import annotations

from games_py.qbasic import runtime_cost

# -- the level's end: 3232 (T0 = TIMER of the frame whose countdown reaches 0) -> 3330 --------
T0 = 609                    # line 3232: T0 = TIMER besides TIMER's arithmetic
COUNTDOWN_ZERO = 2_918      # 3233-3310 with COUNTDOWN 0 (its PRINT USING "####" of 0, bright
                            # on black), sound off, mono: to line 3320
LEVEL_COLOUR = 14           # ... line 3260's COLOR 15, background in colour
LEVEL_DOWN = 32             # 3320: LEVEL = LEVEL - 1, IF LEVEL < 1 ... to line 3330
LEVEL_WRAP = 14             # ... LEVEL = 9 (LEVEL was 1)
SOUND_TO_LEVEL = 58 + 26    # sound on: the level's note queued (line 5280) -> its RETURN, then line 3320
                            # (timing.FRESH_START more where its SOUND started the music timer)
# -- 3330 -> 3670 (PROB = LEVEL * .1 besides its CSNG's and multiply's paths, GOSUB 3670) ------
LEVEL_PROB = 131 + 28
# -- 1680 -> 3670: a new game -----------------------------------------------------------
GAME_TO_PROB = 15 + 14 + 15 + 15 + 17    # 1680 (GOTO 430), 430, 440: GAME + 1, LEVEL + 1, > 9
GAME_PROB = 131             # 450: PROB = LEVEL * .1 besides its paths
GAME_METEOR = 14 + 14 + 337 + 18 + 134 + 14 + 14   # 460-500: METEOR = M(FNR(14)), M$ = CHR$(METEOR)
GAME_SCREEN = 15 + 15 + 28 + 14 + 14 + 17          # 510: SCORE = -2, DS = 2, GOSUB 3370; 3370-3390
BACKGROUND_MONO = 14 + 18 + 15 + 15                 # 3580-3590: B = 0, GOTO 3630
BACKGROUND_PASS = 14 + 19 + 15                      # 3580-3600 in colour: B = 1 ...
BACKGROUND_FIRST = {True: 99 + 15 + 15, False: 100}  # ... IF RND < .5 THEN B = 5 (besides its
BACKGROUND_SECOND = {True: 99 + 15, False: 100}      # paths) ELSE IF RND < .5 THEN B = 8
BACKGROUND_AGAIN = 18                               # 3610: the same as before: again
BACKGROUND_DONE = 18 + 16 + 14                      # ... or BG = B; 3620
CLEAR = 174 + 422           # 3630: COLOR 7, 0, BG: CLS
BORDER = {True: 16 + 15 + 15, False: 17 + 16}       # 3640: BORDER = 4 if BG = 8, else BG
CLEARED = 16 + 14           # 3650-3660
# -- the first game (a human player's space at line 3560's first pass, original.py): 3560 ->
# 3580, the key read and the loop left (the space's IRQ 1, make and break), besides the music's
# interrupts (timing.KEY_LOOP_*); then as a new game's from 3580 ------------------------------
KEY_LOOP_EXIT = 497
# -- 3670 -> T0 (line 3232 after GOSUB 3230 with T0 = -1): the status line, the score ---------
STATUS = 14 + 171 + 161 + 3_092 + 161 + 741 + 14 + 28   # 3670-3710: COLOR, LOCATE 25, 1: PRINT
                            # SPACE$(80); LOCATE 25, 1: PRINT "TOMMY'S METEORS" ..., GOSUB 3120
STATUS_COLOUR = 14          # (3680's COLOR in colour)
SCORE_ROUTINE = 2_726       # 3120-3210 besides what it spends on the new score (Meteors.score_work)
SCORE_COLOUR = 14           # (3190's COLOR in colour)
TO_T0 = 15 + 22 + 28 + 14 + 17 + 25   # 3710: COUNTDOWN = 101, T0 = -1, GOSUB 3230; 3230-3231
# -- T0 -> 4000 ------------------------------------------------------------------------------
COUNTDOWN_HUNDRED = 14 + 16 + 15 + 16 + 171 + 17 + 161 + 2_286 + 153 + 16 + 26   # 3233-3280 mono
HEADINGS = 171 + 14 + 161   # 3720-3740: COLOR, LOCATE 25, 46
HEADINGS_COLOUR = 14 + 14   # (3250's and 3720's COLORs in colour)
NO_HIGH = 77                # 3750: IF HIGH > -32768 (CSNG, the compare: their paths besides) ...
HIGH = 76 + 2_635           # ... THEN PRINT USING "HIGH SCORE:######"; HIGH (print_using_integer)
LEVEL_SHOWN = 161 + 1_369   # 3760: LOCATE 25, 64: PRINT USING "LEVEL:#"; LEVEL
GAME_SHOWN = 161 + 261 + 726   # 3770: LOCATE 25, 72: G$ = STR$(GAME): PRINT "GAME:" + the digits
GAME_DIGIT = 106            # ... a digit more
FIRST_STRING = -11          # G$ and X$ (line 3880) assigned for the first time: nothing freed
TO_BLOCKS = 14 + 153 + 28 + 14 + 14   # 3780-3830: COLOR 7, 0: GOSUB 3820
# 3840-3870: the block's character, drawn until it differs from the last; each draw by its
# branch (IF RND < .25: INT(RND * 39 + 180) ELSE IF RND < .9: INT(RND * 5 + 219) ELSE 254)
DRAW = {"low": 99 + 273 + 153 + 15 + 18, "high": 100 + 153 + 99 + 273 + 15 + 14 + 18,
        "full": 100 + 153 + 100 + 15 + 14 + 18}
BLOCK_STRINGS = 16 + 134 + 147 + 14 + 14   # 3880-3900: BLOCK, B$ = CHR$(BLOCK), X$ = STRING$(5, BLOCK)
ROWS_FIXED = 16 + 17 + 19 + 15   # 3910: SCORE < 1000: TOP = 12 - LEVEL, BOTTOM = 26 - 2 * LEVEL
ROWS_DRAWN = 17 + 14 + 14 + 14   # ... or 3920-3950: TOP = FNR(9) + 2, BOTTOM = FNR(17) + 7 ...
ROWS_PASS = 317 + 317 + 19  # ... a pass (two FNRs besides their paths; until 4 apart)
ROWS_COLOUR = {True: 17 + 409 + 15, False: 18 + 153}   # 3960: COLOR INT(RND * 5 + 2) or 7, 0
ROWS_START = 22             # 3970: FOR I = TOP TO BOTTOM
ROW = 19 + 4 * (157 + 816 + 19) + 20   # 3980-3990: a row: four LOCATE I, J: PRINT STRING$(14, BLOCK)
# -- 4000 -> the screen's RETURN ------------------------------------------------------------
BLOCKS_END = 153 + 14 + 14 + 16 + 26   # 4000-4030: COLOR 7, 0; FLAG = FALSE; IF the player's row
OUTSIDE = 26                # ... is not among the blocks' rows: RETURN
GAP_CHECK = 28 + 14 + 16    # ... else GOSUB 2310 (GAP = FALSE)
GAP_TEST = 25               # 2330-2360: one block's columns tested
IN_BLOCK = 26 + 18 + 16 + 26   # ... the player in that block: RETURN; 4040: FLAG = TRUE; RETURN
IN_GAP = 16 + 26 + 19 + 26  # ... in none: GAP = TRUE, RETURN; 4040; RETURN
SCREEN_RETURN = 26          # 3800: the level screen's RETURN
# -- then a level change goes on from 3340 to the frame (the path's NEXT and next place, or an
# absorbed meteor's step, counted where the Python game counts a frame's) ---------------------
LEVEL_RETURN = 45 + 26      # 3340: WHILE PLAY(0): WEND; 3350: RETURN (from GOSUB 3230)
# 3350's RETURN -> 1110, as from 3280's RETURN in a frame: on a curved path lines 930-960,
# NEXT, 900-920, 1100; on a straight one 1050-1080, 1020-1040, 1100 (their NEXT's and next
# place's paths counted with the frame's, Meteors.meteor); after an absorbed meteor 930-940
# or 1050-1070 and 1100 ...
RETURN_TO_STEP = {"curved": 456, "straight": 571}
ABSORBED_RETURN = {"curved": 50, "straight": 64}
CAUGHT = 93                 # ... or, new blocks caught the player (FLAG), 930 or 1050: RETURN,
                            # 720: IF FLAG THEN 1600, 1610: IF HIGH < SCORE, on to line 1620 ...
NEW_HIGH = 15               # ... THEN HIGH = SCORE
# -- ... and a new game from 520 to 630 ------------------------------------------------------
PLACE = 14 + 14             # 520-530
PLACE_PASS = 317 + 317 + 121   # 540: X = FNR(40) + 20: Y = FNR(8) + 16: IF SCREEN(Y, X) <> 32 (besides paths)
PLACED = 157 + 281 + 16 + 14   # 550-560: LOCATE Y, X: PRINT "☻";: FLAG = FALSE
TSTART = 609                # 570: TSTART = TIMER besides TIMER's arithmetic
TO_METEOR = 14 + 14 + 1_274 + 14 + 14   # 580-620: PLAY "MBMLT255L64"; to line 630's INT 3


def game_digits(game: int) -> int:
    """Line 3770 besides its fixed part: STR$(GAME) (062B:34A2 -> 8BC0) and PRINT of its digits."""
    return runtime_cost.str_integer(game) + GAME_DIGIT * (len(str(abs(game))) - 1)


def gap_check(px: int, blocks: tuple[int, ...]) -> int:
    """GOSUB 2310 from line 4040: the four blocks' columns tested until one holds the player."""
    for tested, column in enumerate(blocks, 1):
        if column <= px <= column + 13:
            return GAP_CHECK + GAP_TEST * tested + IN_BLOCK
    return GAP_CHECK + GAP_TEST * len(blocks) + IN_GAP
