"""What a hit and a game over cost, statement by statement.

The hit's step (line 1110 to the hit test at 1210, which jumps to 1420), the explosion (lines
1420-1570: the colour, the player erased, the word by FNR(11), its place and clamps, the three
rows of CHR$(177) around it, the hit's SOUND), the way back to line 1620 and the game over
(1620-1710: TEND = TIMER, KEY(1..14) STOP, GOSUB 1700) are work with no wait but the hit's
note, so where the first two-second pause begins depends on each statement.  Each costs a fixed
part (the program's glue, the INT 3 handler, LOCATE, COLOR and PRINT) and what the runtime's
routines spend on its values (``runtime_cost``: RND, the multiply, add, INT and CINT of the
colours and of FNR(11), the word's place, TIMER's arithmetic).  The fixed parts were read at the
statements' INT 3s of METEORS.EXE on the exact machine (games_py/meteors/end_probe.py; colour
and mono, sound off and on): once the values' costs are taken off, each statement took the same
number of instructions every time.  Until this module a hit was one number (timing.HIT_STEP,
HIT, HIT_COLOUR, GAME_OVER) and line 1620 came up to 900 instructions from where the original
ran it (docs/meteors-internals.md, section 6).
"""
from __future__ import annotations

# -- the hit's step: line 1180 -> 1420 ---------------------------------------------------------
HIT_TEST = 46 + 305         # 1180-1210 with both halves of ABS(MX - X) < 2 AND ABS(MY - Y) < 2
                            # true, besides their subtractions' and compares' paths
# -- 1420 -> 1550 -----------------------------------------------------------------------------
COLOUR_PICK = {True: 14 + 17 + 273 + 15, False: 14 + 18 + 15}   # 1420-1430: C = INT(RND * 5 + 2)
                            # in colour (besides its paths), else C = 7
ERASE = 153 + 157 + 252     # 1440: COLOR C, 0: LOCATE Y, X: PRINT " ";
WORD = 14 + 485 + 28        # 1450-1460: W$ = W$(FNR(11)) (the CSNG of N and FNR's paths besides),
                            # L = LEN(W$) ...
WORD_ODD = 1                # ... 1 more for a word of 5 letters (the copy's odd byte)
PLACE = 298                 # 1460: X = CINT(X - 1 - L * .5) besides its paths
X_CLAMP = {"low": 16 + 15 + 15, "high": 17 + 19 + 19, "inside": 17 + 20}   # 1470: X < 1, X > 77 - L
Y_CLAMP = {"low": 16 + 15 + 15, "high": 17 + 16 + 15, "inside": 17 + 17}   # 1480: Y < 2, Y > 22
ROW = {4: 674, 5: 506}      # 1500, 1530: PRINT STRING$(L, 177) by the word's length (all are 4 or 5)
ABOVE = 14 + 159            # 1490-1500: LOCATE Y - 1, X + 2 (then ROW)
WORD_COLOUR = {True: 17 + 409 + 15, False: 18 + 153}   # 1510: COLOR INT(RND * 5 + 10), 0 (its
                            # paths besides) or COLOR 15, 0
WORD_ROW = {4: 157 + 976 + 153, 5: 157 + 1_012 + 153}   # 1520: LOCATE, PRINT the word in its
                            # box, COLOR C, 0
BELOW = 159 + 153           # 1530: LOCATE Y + 1, X + 2, ROW, COLOR 7, 0
TO_SOUND_TEST = 14 + 46     # 1540-1550: WHILE PLAY(0): WEND (its one pass)
SILENT = 18 + 46            # 1550: IF SOUND.ON (no), 1560: WHILE PLAY(0): WEND (one pass)
TO_QUEUED = 17 + 28 + 14 + 432   # ... or (yes) GOSUB 5140; 5150's SOUND queues the note
# -- 1560's wait's end (line 1570) -> 1620 -----------------------------------------------------
FLAG_SET = 16               # 1560: FLAG = TRUE
RETURN = {"gosub": 87, "goto": 44}   # 1570: RETURN to line 920 or 1040 (IF FLAG THEN RETURN,
                            # line 720) or, from a path's extra step (GOTO 1100), to line 720
GAME_END = 14 + 18          # 1600-1610: IF HIGH < SCORE ...
NEW_HIGH = 15               # ... THEN HIGH = SCORE
# -- 1620 -> 1710's first INT 3 ---------------------------------------------------------------
TEND = 609                  # 1620: TEND = TIMER besides TIMER's arithmetic
TO_PAUSE = 46 + 19 + 14 * 102 + 13 * 19 + 19 + 14 + 22 + 28 + 14   # WHILE PLAY(0): WEND,
                            # KEY(1..14) STOP; 1630-1640: LEVEL? (T = 2), GOSUB 1700; 1700


def x_clamp(x: int, length: int) -> str:
    return "low" if x < 1 else "high" if x > 80 - length - 3 else "inside"


def y_clamp(y: int) -> str:
    return "low" if y < 2 else "high" if y > 22 else "inside"
