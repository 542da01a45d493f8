"""What the QuickBASIC 3.0 runtime's MBF routines cost, in instructions, for given values.

The routines' instruction counts depend on their operands: normalising shifts,
alignment shifts, rounding, sticky bits, which word a compare decides on, how far a
negation's carry runs.  ``mbf.counting_paths`` counts the paths the transcribed
routines take; ``instructions`` turns those counts into what the runtime spends on
top of each call's fixed part (its entry's prologue and the program's glue, which
callers count with the statement that makes the call).

The table was fitted to the instruction counts of METEORS.EXE's own runtime code
(BCOM30, runtime 5.60, as in GINRUMMY.EXE), each routine called alone in Unicorn
from a copy of the machine's memory: 19,903 calls of FAC+[DI] (062B:363D), [SI]-[DI]
(3633), [SI]+[DI] (3648), FAC*[DI] (3774), FAC/[DI] (37F4), the compares FAC:[DI]
(3144) and [SI]:[DI] (314F), INT([BX]) (33D3), CSNG(BX) (3198) and RND (3596), on
operands drawn over the whole range and like the game's (small integers, RND values,
their products, near-equal pairs).  With one fixed part per entry it is exact on
every one of them; the entries' fixed parts differ by a few instructions (363D 70,
3633 70, 3648 68, 3774 86, 37F4 30, 3144 38, 314F 36, 33D3 17, 3198 19, 3596 43
with these weights).  Paths not listed always come with others whose weights carry
them (e.g. ``add:word`` with one of its three ways on).  docs/meteors-internals.md,
section 6, says how it was measured and where the game uses it.

CINT's paths (062B:3236: zero, below a half, the 16-bit top, negative) were measured the
same way on 3,018 singles; PRINT USING of an integer (``print_using_integer``) on every
integer that fits a field of 4, 5, 6 or 7 (games_py/meteors/score_probe.py).
"""
from __future__ import annotations

from collections.abc import Mapping

PATH_COSTS = {
    # addition and subtraction (0C88:393D in GINRUMMY.EXE, the same code here)
    "add:a_zero": -27, "add:b_zero": -22, "add:far": -16, "add:swap": 3, "add:aligned": -9,
    "add:byte": 5, "add:byte_from_word": 7, "add:byte_exact": -1, "add:byte_sticky": 1, "add:word_sticky": 1,
    "add:right": 3, "add:right_from_direct": -3, "add:right_from_word": 4,
    "add:left": 4, "add:bits_sticky": 1, "add:sticky": 1,
    "add:same_signs": -7, "add:carry": 4, "add:negative": 5,
    "add:normalise.word": 5, "add:normalise.byte": 7, "add:normalise.bit": 5,
    "add:round.below": 12, "add:round.above": 11, "add:round.half": 14, "add:round.up": 3,
    # the rounding's carry out of the mantissa into the exponent (the shared tail 062B:374B: ADD DH,1;
    # ADC BX,0; JAE, which falls through to INC AH; JE: two instructions more), in all four routines
    # that round; none of the fitted calls rounded up to a power of two (METEORS.EXE's line 900,
    # XF = XF + SLOPE back to a power-of-two X1: docs/meteors-internals.md, section 8, h-human)
    "add:round.exponent": 2, "mul:round.exponent": 2, "div:round.exponent": 2, "fixed:round.exponent": 2,
    # add:byte_sticky is the sticky byte's OR DH,1 alone (1): before byte_from_word was counted apart
    # its 8 carried that path's 7 (FADD, FSUB, FMUL, FDIV on 60,000 drawn operands,
    # tests/test_runtime_cost.py, branch h-demo)
    # multiplication and division
    "mul:fac_zero": -58, "mul:other_zero": -55, "mul:sticky": 1, "mul:finish.shift": 1,
    "mul:round.below": -2, "mul:round.above": -3, "mul:round.up": 3,
    "div:correction": 4, "div:exact_divisor": -7, "div:sticky": 1, "div:finish.shift": 1,
    "div:round.below": 66, "div:round.above": 68,
    # compare
    "compare:other_zero": -6, "compare:both_zero": -1, "compare:fac_zero": -4,
    "compare:signs_differ": -4, "compare:negative": 1, "compare:low_word": 1, "compare:equal": 1,
    # a 32-bit magnitude normalised into the FAC: CSNG, RND, TIMER's parts
    "fixed:negative": 1, "fixed:normalise.word": 5, "fixed:normalise.byte": 7,
    "fixed:normalise.bit": 5, "fixed:round.below": 12,
    # INT
    "int:below_one": 15, "int:minus_one": -10, "int:negative": 35, "int:negate.carry": 4,
    "int:carried": 3, "int:point_in_byte0": 32, "int:point_in_byte1": 33, "int:point_in_byte2": 34,
    # CINT (062B:3236, the body of CINT(FAC) 3229 and CINT([SI]) 31E0)
    "cint:zero": -21, "cint:below_half": -17, "cint:below_half.negative": 2, "cint:top": -7,
    "cint:negative": 1,
}


def instructions(paths: Mapping[str, int]) -> int:
    """What the paths counted by ``mbf.counting_paths`` cost beyond the calls' fixed parts."""
    return sum(PATH_COSTS.get(name, 0) * times for name, times in paths.items())


# PRINT USING of an integer in a field of '#'s (062B:2C83 -> 8B91): the integer's magnitude
# is cut into decimal digits (8CF7: a DIV by 10000 only when it is 10000 or more, a DIV
# splitting the rest at 100 only when that is 100 or more), its leading zeros skipped
# (8C74) and its trailing ones counted (8D64), then the field is padded with spaces
# (A9CF), the sign written and the digits copied (A9F5-AA06).  Zero takes its own way
# (8BAF).  Measured on METEORS.EXE's own code for every integer that fits a field of 4, 5,
# 6 or 7 (games_py/meteors/score_probe.py): docs/meteors-internals.md, section 6.
USING_DIGIT = 6             # a significant digit
USING_NEGATIVE = 3          # NEG, the '-' in the field
USING_TEN_THOUSANDS = 5     # the DIV by 10000, its digit, one more leading-zero pass
USING_HUNDREDS = 4          # the DIV at 100 of what is left under 10000
USING_FULL = -2             # digits and sign fill the field exactly
USING_ZERO = -18            # 0, for all of the above


def print_using_integer(value: int, width: int) -> int:
    """What PRINT USING spends on the integer ``value`` in a field of ``width`` '#'s beyond
    its fixed part (the format's text, the field, the characters written: all the same
    for every value that fits)."""
    if value == 0:
        return USING_ZERO
    magnitude, negative = abs(value), value < 0
    digits = len(str(magnitude))
    return (USING_DIGIT * digits + USING_NEGATIVE * negative
            + USING_TEN_THOUSANDS * (magnitude >= 10000) + USING_HUNDREDS * (magnitude % 10000 >= 100)
            + USING_FULL * (digits + negative == width))


# STR$ of an integer (062B:34A2 -> 8BC0, the formatter PRINT uses): the same cutting into
# digits, with its own weights.  Measured on METEORS.EXE's own line 3770 (G$ = STR$(GAME)) in
# a bare Unicorn for every integer from -32768 to 32767: exact on all of them with these.
STR_DIGIT = 3               # a digit more than one
STR_NEGATIVE = 2
STR_TEN_THOUSANDS = 4
STR_HUNDREDS = 4            # what is left under 10000 is 100 or more ...
STR_HUNDRED = -1            # ... and the magnitude is 100 or more
STR_TRAILING_ZERO = -1      # each trailing zero
STR_ZERO = -26              # 0, for all of the above


def str_integer(value: int) -> int:
    """What STR$ spends on the integer ``value`` beyond what it spends on a one-digit positive
    value (1 to 9 cost the same)."""
    if value == 0:
        return STR_ZERO
    text = str(abs(value))
    magnitude = abs(value)
    return (STR_DIGIT * (len(text) - 1) + STR_NEGATIVE * (value < 0)
            + STR_TEN_THOUSANDS * (magnitude >= 10000) + STR_HUNDREDS * (magnitude % 10000 >= 100)
            + STR_HUNDRED * (magnitude >= 100) + STR_TRAILING_ZERO * (len(text) - len(text.rstrip("0"))))
