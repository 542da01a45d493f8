"""What the demo player's step costs (line 1160's GOSUB 1830 and line 1200), statement by statement.

demo.DemoPlayer marks the statements where its way through lines 1830-2810 is decided (their
INT 3s' offsets in the program segment) with D$ there.  ``SEGMENTS`` has the instructions from
one mark to the next besides what the runtime spends on the values in between (runtime_cost:
the RNDs and their compares, line 1880's CSNG, subtraction, ABS and compare, line 2650's
multiply and CINT, line 2660-2670's multiply and compare, line 2750's FNR(4)); where D$'s
value changes them (its string compares, an assignment that frees the old string), the
exceptions are in ``BY_DIRECTION``.  Measured on the original at the statements' INT 3s of the
demo sweep's sessions of seeds 7 and 42 (``--count 20 --seconds 60``: 40 sessions, every
segment with no interrupt inside took the same number of instructions every time):
``python -m games_py.meteors.demo_probe`` (docs/meteors-internals.md, section 6).
"""
from __future__ import annotations

START = 0x0B39          # line 1160's second statement: IF DEMO THEN GOSUB 1830
END = 0x0B4D            # line 1170 (after the GOSUB's RETURN)
HUMAN = 18              # START -> END with DEMO false (in timing.NO_MOVE)
# Line 1200 in demo mode (IF DEMO AND SCORE < 29000 AND RND < .999 THEN 1230): line 1180 to
# 1380 less the human player's timing.CHECK, besides the RND's and the compare's paths, when
# line 1210's hit test is skipped (14,712 steps of seed 7), or made (8; its paths are the
# model's as in a human step); at a score of 29,000 or more, where no RND is spent, not
# measured (taken as made)
SKIPPED = -52
TESTED = 115
DEFAULT = 100           # a segment never measured (each is listed in ``missing``)
missing: set = set()

# (from, to): instructions
SEGMENTS = {
    (0x0b39, 0x15bd): 156,
    (0x0b39, 0x15e3): 181,
    (0x0b39, 0x1609): 206,
    (0x0b39, 0x162f): 231,
    (0x0b39, 0x163c): 247,
    (0x1233, 0x1259): 181,
    (0x1233, 0x1280): 182,
    (0x1259, 0x1280): 154,
    (0x1259, 0x1287): 154,
    (0x1280, 0x0b4d): 26,
    (0x1287, 0x129b): 113,
    (0x1287, 0x12b5): 170,
    (0x1287, 0x17a8): 170,
    (0x129b, 0x0b4d): 26,
    (0x12b5, 0x12e5): 132,
    (0x12b5, 0x1398): 124,
    (0x12e5, 0x12f6): 59,
    (0x12e5, 0x1302): 52,
    (0x12f6, 0x1320): 49,
    (0x1302, 0x1315): 33,
    (0x1315, 0x1332): 30,
    (0x1320, 0x1332): 17,
    (0x1332, 0x134e): 121,
    (0x1332, 0x1398): 121,
    (0x134e, 0x135d): 31,
    (0x135d, 0x137a): 122,
    (0x135d, 0x1398): 122,
    (0x137a, 0x1391): 176,
    (0x1391, 0x0b4d): 26,
    (0x1398, 0x13aa): 73,
    (0x1398, 0x13ba): 66,
    (0x13aa, 0x13c6): 176,
    (0x13ba, 0x13c6): 160,
    (0x13c6, 0x0b4d): 26,
    (0x13c6, 0x1233): 26,
    (0x13cd, 0x13ed): 70,
    (0x13cd, 0x17a8): 86,
    (0x13ed, 0x13fc): 31,
    (0x13ed, 0x1643): 46,
    (0x13fc, 0x140c): 46,
    (0x13fc, 0x143e): 47,
    (0x140c, 0x1419): 17,
    (0x140c, 0x143e): 18,
    (0x1419, 0x1438): 258,
    (0x1419, 0x143e): 100,
    (0x1438, 0x1233): 26,
    (0x143e, 0x1470): 18,
    (0x1470, 0x1487): 114,
    (0x1470, 0x1643): 129,
    (0x1487, 0x14b5): 121,
    (0x1487, 0x1643): 144,
    (0x14b5, 0x14c6): 59,
    (0x14b5, 0x14d2): 52,
    (0x14c6, 0x14e5): 48,
    (0x14c6, 0x14f0): 49,
    (0x14d2, 0x14f0): 34,
    (0x14e5, 0x1502): 30,
    (0x14f0, 0x14fb): 16,
    (0x14f0, 0x1502): 17,
    (0x14fb, 0x1502): 15,
    (0x1502, 0x151e): 121,
    (0x1502, 0x1643): 136,
    (0x151e, 0x1535): 114,
    (0x151e, 0x1570): 114,
    (0x1535, 0x1543): 18,
    (0x1535, 0x1570): 19,
    (0x1543, 0x1560): 177,
    (0x1543, 0x156a): 19,
    (0x1560, 0x1233): 26,
    (0x156a, 0x1233): 26,
    (0x1570, 0x1589): 177,
    (0x1570, 0x1643): 47,
    (0x1589, 0x1233): 26,
    (0x15bd, 0x13cd): 54,
    (0x15bd, 0x1778): 26,
    (0x15e3, 0x13cd): 54,
    (0x15e3, 0x1778): 26,
    (0x1609, 0x13cd): 54,
    (0x1609, 0x1778): 26,
    (0x162f, 0x13cd): 54,
    (0x162f, 0x1778): 26,
    (0x163c, 0x13cd): 54,
    (0x163c, 0x1778): 26,
    (0x163c, 0x178e): 26,
    (0x1643, 0x1650): 31,
    (0x1643, 0x1664): 32,
    (0x1650, 0x1664): 52,
    (0x1650, 0x17a8): 58,   # line 2410's jump to 2590, met at 10:04:29.88 /M on (seed 1612's demo
                            # case 41, frame 1177, D$ UP: 988 to 1046; branch h-steps), not in the
                            # sweeps measured (DEFAULT's 100 there: 42 long)
    (0x1664, 0x1674): 45,
    (0x1664, 0x180e): 45,
    (0x1674, 0x1685): 19,
    (0x1674, 0x17a8): 19,
    (0x1685, 0x1691): 30,
    (0x1685, 0x16b6): 31,
    (0x1691, 0x16b0): 248,
    (0x1691, 0x16b6): 100,
    (0x16b0, 0x1233): 26,
    (0x16b6, 0x16d7): 223,
    (0x16b6, 0x16dd): 128,
    (0x16d7, 0x1233): 26,
    (0x16dd, 0x1709): 117,
    (0x16dd, 0x1725): 177,
    (0x16dd, 0x1731): 170,
    (0x1709, 0x1750): 48,
    (0x1725, 0x1745): 62,
    (0x1725, 0x1750): 63,
    (0x1731, 0x1750): 48,
    (0x1745, 0x1762): 30,
    (0x1750, 0x175b): 16,
    (0x1750, 0x1762): 17,
    (0x175b, 0x1762): 15,
    (0x1762, 0x15bd): 115,
    (0x1762, 0x15e3): 140,
    (0x1762, 0x1609): 165,
    (0x1762, 0x162f): 190,
    (0x1762, 0x163c): 206,
    (0x1778, 0x163c): 206,
    (0x178e, 0x1398): 19,
    (0x178e, 0x179a): 17,
    (0x179a, 0x1233): 26,
    (0x17a8, 0x17d2): 116,
    (0x17a8, 0x17eb): 216,
    (0x17a8, 0x17fb): 217,
    (0x17d2, 0x1233): 26,
    (0x17eb, 0x1807): 165,
    (0x17fb, 0x1807): 149,
    (0x1807, 0x0b4d): 26,
    (0x1807, 0x1233): 26,
    (0x180e, 0x1833): 176,
    (0x180e, 0x1840): 194,
    (0x1833, 0x1840): 19,
    (0x1840, 0x184e): 18,
    (0x1840, 0x18a8): 19,
    (0x184e, 0x186e): 25,
    (0x184e, 0x18a8): 25,
    (0x186e, 0x18a2): 410,
    (0x186e, 0x18a8): 252,
    (0x18a2, 0x1233): 26,
    (0x18a8, 0x18b3): 16,
    (0x18a8, 0x18ed): 17,
    (0x18b3, 0x18e7): 411,
    (0x18b3, 0x18ed): 252,
    (0x18e7, 0x1233): 26,
    (0x18ed, 0x191e): 89,
    (0x18ed, 0x1958): 89,
    (0x191e, 0x1932): 19,
    (0x191e, 0x1958): 19,
    (0x1932, 0x1958): 114,
    (0x1958, 0x1978): 56,
    (0x1958, 0x19c6): 56,
    (0x1978, 0x19a0): 278,
    (0x1978, 0x19c6): 278,
    (0x19a0, 0x19bf): 259,
    (0x19a0, 0x19c6): 114,
    (0x19bf, 0x1233): 26,
    (0x19c6, 0x19f0): 116,
    (0x19c6, 0x1a09): 109,
    (0x19f0, 0x1a03): 99,
    (0x19f0, 0x1a09): 100,
    (0x1a03, 0x1233): 26,
    (0x1a09, 0x1a1c): 99,
    (0x1a09, 0x1a2c): 100,
    (0x1a1c, 0x1a38): 175,
    (0x1a2c, 0x1a38): 161,
    (0x1a38, 0x1233): 26,
}
# ... and (from, to, D$ at from) where D$ makes them differ
BY_DIRECTION = {
    (0x12b5, 0x1398, 'DOWN'): 123,
    (0x1398, 0x13ba, 'UP'): 67,
    (0x13cd, 0x13ed, ''): 86,
    (0x1487, 0x1643, 'DOWN'): 145,
    (0x1650, 0x1664, ''): 57,
    (0x1691, 0x16b0, 'DOWN'): 259,
    (0x1691, 0x16b0, 'LEFT'): 259,
    (0x1691, 0x16b0, 'RIGHT'): 259,
    (0x16b6, 0x16d7, 'DOWN'): 234,
    (0x16b6, 0x16d7, 'LEFT'): 234,
    (0x16b6, 0x16d7, 'RIGHT'): 234,
    (0x16dd, 0x1709, 'DOWN'): 108,
    (0x17a8, 0x17eb, 'DOWN'): 207,
    (0x17a8, 0x17eb, 'UP'): 208,
    (0x17a8, 0x17fb, 'DOWN'): 208,
    (0x17a8, 0x17fb, 'UP'): 209,
    (0x17eb, 0x1807, 'DOWN'): 176,
    (0x17eb, 0x1807, 'UP'): 176,
    (0x17fb, 0x1807, 'DOWN'): 160,
    (0x17fb, 0x1807, 'UP'): 160,
    (0x18ed, 0x1958, 'UP'): 96,
    (0x1958, 0x1978, 'UP'): 57,
    (0x1958, 0x19c6, 'DOWN'): 65,
    (0x19c6, 0x1a09, 'DOWN'): 108,
}


def cost(marks: list[tuple[int, str]]) -> int:
    """The instructions from line 1160's second statement to line 1170 beyond the human
    player's (DEMO false), besides the runtime's paths."""
    total = -HUMAN
    for (a, d), (b, _) in zip(marks, marks[1:]):
        if (a, b, d) in BY_DIRECTION:
            total += BY_DIRECTION[a, b, d]
        elif (a, b) in SEGMENTS:
            total += SEGMENTS[a, b]
        else:
            missing.add((a, b, d))
            total += DEFAULT
    return total
