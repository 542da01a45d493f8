"""What the high-score table's statements spend on their values (GOSUB 5370).

Most of the table's statements (its CLS, LOCATEs, COLORs, the heading, the file's OPEN and
CLOSE, the name's prompt) take the same number of instructions every time; those are
timing.TABLE, TABLE_MISSING, TABLE_READ, TABLE_ROW, NAME and SAVED.  A few depend on the
values they work on, and are counted here, statement by statement, from the values the
Python game computes (measured at the statements' INT 3s of METEORS.EXE on the exact
machine with games_py/meteors/end_probe.py; docs/meteors-internals.md, section 6):

* lines 5580-5660: the new score's place among the N entries read (skipped for a score of 0
  or less; N is 0 or 1 in a session: section 7), each entry by whether its score is above;
* line 5700: ``PRINT "GAME:" + STR$(GAME) + "  SCORE:" + STR$(SCORE)``: STR$ of each integer
  (``runtime_cost.str_integer``) and 35 a character of the two numbers' strings;
* line 5710: ``TIME = TEND - TSTART`` (the subtraction's paths; a day more when negative) and
  5720: ``TIME = INT(TIME + .5)`` (the add's and INT's paths);
* line 5730: ``PRINT "  TIME:" + STR$(TIME) + " SEC"``: STR$ of a single, by its exponent and
  digits (``seconds_string``), then ``IF TIME <> 1 THEN PRINT "S"``;
* line 5890 (a name asked): ``" SCORE OF" + STR$(SCORE) + ...`` as 5700;
* line 6200 (each record saved): ``PRINT #1, SCORE(I), LEVEL(I)``;
* line 6520 (each row shown): ``PRINT USING "   #####"; SCORE(I)`` (``print_using_integer``);
* the file: line 5430's CLOSE 1 takes 6 more once a file was opened, line 5800's OPEN "O" 46
  more when it creates METEORS.SCR, the session's first OPEN 87 more (timing.FIRST_OPEN);
* an assignment of a string (line 5940's LINE INPUT N$; NAME$(), WHEN$(): lines 6080-6090,
  6120-6130) 11 more when the variable held a string before (the runtime frees it).
"""
from __future__ import annotations

from games_py.qbasic import mbf, runtime_cost
from games_py.qbasic.mbf import MBF

DAY = MBF.from_hex("00 C0 28 91")      # 86400 at DGROUP:1634 (line 5710)
HALF = MBF.from_hex("00 00 00 80")     # .5 at DGROUP:1228 (line 5720)
RANK_SKIPPED = 17           # 5580: IF SCORE <= 0 THEN 5670
RANK_EMPTY = 17 + 14 + 15 + 15 + 15 + 16 + 15 + 15   # 5580-5610 with N < 1: N = 0: GOTO 5670
RANK_LOOP = 17 + 14 + 15 + 15 + 15 + 17 + 14 + 22 + 32 + 15 + 19 + 20 + 14   # ... or the FOR
ENTRY_ABOVE = 31 + 17 + 17  # 5620 an entry of the level: its score >= the new: PLACE, RANK ...
ENTRY_BELOW = 32            # ... or not (measured with N = 1, all a session reaches)
CLOSED_AFTER_OPEN = 6       # 5430: CLOSE 1 once a file has been opened
CREATED = 46                # 5800: OPEN "O" of a file that does not exist
REASSIGNED = 11             # a string variable's old string freed
CHARACTER = 35              # a character of a STR$ in a concatenation printed (5700, 5890)
RESULT = 1_518              # 5700 besides STR$ and the characters ...
RESULT_HUNDREDS = -1        # ... and 1 less for a SCORE of 100 or more: 1,736 and 1,774 at 117, 118, 105
                            # (games 1 to 4) and 112, 103 (12, 13) where the law said 1 more, exact at the
                            # 229 tables of scores 1 to 99 (seed 1612's 50 x 30 s, 24 x 120 s random:4, 8,
                            # 14, 19); line 5890's STR$(SCORE) is exact at all of them (measured, not traced)
TIME_DIFFERENCE = 95        # 5710: TIME = TEND - TSTART besides the subtraction's paths
NEGATIVE = 25               # ... its IF TIME < 0 (not taken) ...
NEGATIVE_TAKEN = 25 + 120   # ... or taken: TIME = TIME + 86400 besides the add's paths (a game
                            # over a midnight; not met in the sweeps, an estimate)
TIME_ROUNDED = 112          # 5720: TIME = INT(TIME + .5) besides the add's and INT's paths
SECONDS_ZERO = 1_172        # 5730: PRINT "  TIME:" + STR$(TIME) + " SEC" for a TIME of 0 ...
SECONDS_BASE = 1_282 - 4 * 2   # ... else by the single's binary exponent (4 each) and its
SECONDS_ONE = 1_290         # ... decimal digits (CHARACTER each after the first); 1 takes its own way
PLURAL = {0: 50 + 252, 1: 57}   # 5730: IF TIME <> 1 (50 for 0, 54 otherwise) THEN PRINT "S" (252)
PLURAL_OTHER = 54 + 252
SECONDS_UNROUND = 4         # ... STR$(TIME) of two digits or more not ending in 0
SECONDS_WIDE = -20          # ... and a TIME of 32 or more (binary exponent 6 or more) this much: line
                            # 5730 takes 1,626 for 34 to 62, 1,630 for 67 to 99, 1,671 for 101 where
                            # the exponent's 4 each said 20 more (27 demo tables of seed 1612's 100 x
                            # 120 s, branch h-dticks; TIMEs of 13 to 31 exact before; 110's 1,670 is
                            # 16 less, not followed)
SECONDS_TEN = 4             # ... and a TIME of 32 to 255 with one trailing zero (40 to 90, 110 to 190, 210 to
                            # 250) 4 more: line 5730 run in a bare Unicorn for every TIME from 0 to 2,100
                            # (time_probe.py) is then the law's at every TIME up to 255; from 256 on the law
                            # is 12 to 28 long (not modelled: a game of over 4 min 15 s).  Until 27 Nov
                            # 110 s was 4 short (a 5-minute demo session's miss, 11:13:42.35 /M off)
CONGRATULATIONS = 1_785     # 5890 besides STR$(SCORE) and its characters
SAVED_RECORD = 1_880        # 6200: PRINT #1, SCORE(I), LEVEL(I) besides STR$ and a character each ...
SAVED_HUNDREDS = 1          # ... and 1 more for a score of 100 or more: 1,893 at 103, 104, 105, 112 and
                            # 118 (seed 1612's two-minute random:4, 8, 10, 14, 18, 19, 23), where STR$'s
                            # law said 1,892 (its STR_HUNDRED, -1, not run by PRINT #; measured, not traced;
                            # 100 and 1,000 up not met).  Until 27 Nov every save after such a score was 1 short
ROW_SCORE = 1_447           # 6520: PRINT USING "   #####"; SCORE(I) for a score of one digit ...
SCORE_FIELD = 5             # ... besides print_using_integer over its field


def str_length(value: int) -> int:
    """STR$'s length: the digits and a sign or a space."""
    return len(str(abs(value))) + 1


def result(game: int, score: int) -> int:
    """Line 5700."""
    return (RESULT + runtime_cost.str_integer(game) + runtime_cost.str_integer(score)
            + CHARACTER * (str_length(game) + str_length(score)) + RESULT_HUNDREDS * (abs(score) >= 100))


def time_taken(tend: MBF, tstart: MBF) -> tuple[int, int]:
    """Lines 5710-5720: TIME = TEND - TSTART (a day more if negative), rounded, and the
    instructions its arithmetic takes."""
    with mbf.counting_paths() as paths:
        t = mbf.sub(tend, tstart)
    work = TIME_DIFFERENCE + runtime_cost.instructions(paths)
    negative = bool(t.raw[3] and t.raw[2] & 0x80)
    with mbf.counting_paths() as paths:
        if negative:
            t = mbf.add(t, DAY)
        t = mbf.int_(mbf.add(t, HALF))
    work += (NEGATIVE_TAKEN if negative else NEGATIVE) + TIME_ROUNDED + runtime_cost.instructions(paths)
    return int(t.to_float()), work


def seconds_string(seconds: int) -> int:
    """Line 5730: the PRINT of STR$(TIME), TIME a single holding a whole number, and its IF."""
    if seconds == 0:
        printed = SECONDS_ZERO
    elif seconds == 1:
        printed = SECONDS_ONE
    else:
        exponent = abs(seconds).bit_length()
        printed = (SECONDS_BASE + 4 * exponent + SECONDS_WIDE * (exponent >= 6)
                   + CHARACTER * (len(str(abs(seconds))) - 1)
                   + SECONDS_UNROUND * (abs(seconds) >= 10 and seconds % 10 != 0)
                   + SECONDS_TEN * (32 <= abs(seconds) and seconds % 10 == 0 and seconds % 100 != 0))
    return printed + runtime_cost.str_integer(seconds) + PLURAL.get(seconds, PLURAL_OTHER)


def congratulations(score: int) -> int:
    """Line 5890."""
    return CONGRATULATIONS + runtime_cost.str_integer(score) + CHARACTER * str_length(score)


def saved_record(score: int) -> int:
    """Line 6200, a record written."""
    return (SAVED_RECORD + runtime_cost.str_integer(score) + len(str(abs(score)))
            + SAVED_HUNDREDS * (abs(score) >= 100))


def record_read(score: int) -> int:
    """Line 5470's INPUT # of a record's SCORE(N) (its LEVEL(N) is 0), besides timing.TABLE_READ:
    50 a digit, 5 less for each binary digit of the value.  Measured, not traced to the runtime's
    instructions: the statement's span (INT 3 to INT 3) at the 50 read tables of seed 1612's 50 x
    30 s sessions, the same for every score of a class: 1 -> 45, 2 -> 40, 6 -> 35, 12 and 15 -> 80,
    18 to 28 -> 75, 32 to 63 -> 70, 67 to 90 -> 65 (above 99 not met).  Until branch h-hmiss one
    number for all (TABLE_READ 12,771: a score of 32 to 63 12 short, of 1 13 long)."""
    return 50 * len(str(abs(score))) - 5 * abs(score).bit_length()


def time_rounded(hour: int, minute: int, second: int, hundredths: int) -> int:
    """Line 6130's TIME$ (062B:3B1B-3B32) rounds DOS's time to the second: at 50 hundredths or
    more INC DH, CMP DH, 60, JB (3 instructions), where the second carries into the minute 4 more
    (MOV DH, 0, INC CL, CMP, JB), into the hour 2 more (MOV CL, 0, INC CH).  Until branch h-hmiss
    not costed (NAME's 663 for the statement is the time with fewer than 50 hundredths)."""
    if hundredths < 50:
        return 0
    if second + 1 < 60:
        return 3
    return 7 if minute + 1 < 60 else 9


def row_score(score: int) -> int:
    """Line 6520, a row shown."""
    return (ROW_SCORE + runtime_cost.print_using_integer(score, SCORE_FIELD)
            - runtime_cost.print_using_integer(1, SCORE_FIELD))


def rank(score: int, entries: list[int]) -> int:
    """Lines 5580-5660 for the scores of the N entries read (all of this level: LEVEL is 0)."""
    if score <= 0:
        return RANK_SKIPPED
    if not entries:
        return RANK_EMPTY
    return RANK_LOOP + sum(ENTRY_ABOVE if entry >= score else ENTRY_BELOW for entry in entries)
