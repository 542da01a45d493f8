"""The computer's player (F2, demo mode): lines 1830-2810 of METEORS.EXE, every
RND in its place.  It only sets the direction D$; the game moves the player.

What a step of it costs (``DemoPlayer.cost``) is followed statement by statement: the
player marks the statements where its way through the lines is decided (``_at``: their
INT 3s' offsets in the program segment), and demo_cost.py has what the program takes
from one mark to the next besides what the runtime spends on the values (the RNDs,
the compares, line 1880's distances, line 2650's middle row, line 2750's FNR(4)).
"""
from __future__ import annotations

from collections import Counter

from games_py.meteors import demo_cost
from games_py.qbasic import mbf, runtime_cost
from games_py.qbasic.mbf import MBF

C = MBF.from_float
NINE_TENTHS = MBF.from_hex("66 66 66 80")        # .9 (DGROUP:1244)
NINETY_FIVE = MBF.from_hex("33 33 73 80")        # .95 (DGROUP:1268)
HUNDREDTH = MBF.from_hex("0A D7 23 7A")          # .01 (DGROUP:1270)
TWO_HUNDREDTHS = MBF.from_hex("0A D7 23 7B")     # .02 (DGROUP:1274)
NINETY_NINE = MBF.from_hex("A4 70 7D 80")        # .99 (DGROUP:1278)
TENTH = MBF.from_hex("CD CC 4C 7D")
HALF, QUARTER = C(0.5), C(0.25)
FOUR, FIVE = C(4), C(5)
SPACE = 0x20
SIDEWAYS = ("LEFT", "RIGHT")
UNSET = 0                                         # DGROUP:1018, read at line 1960, never written


def _abs(x: MBF) -> MBF:
    """ABS (062B:3375): the sign bit cleared."""
    return MBF(bytes([x.raw[0], x.raw[1], x.raw[2] & 0x7F, x.raw[3]]))


class DemoPlayer:
    def __init__(self, game) -> None:
        self.g = game
        self.marks: list[tuple[int, str]] = []
        self.cost = 0                 # the last step's instructions in lines 1160-1170 (demo_cost)
        self.paths: Counter = Counter()
        self.log: list | None = None  # (marks, the runtime's paths between them): demo_probe fits them

    def _at(self, offset: int, key: str | None = None) -> None:
        """The program reaches the statement at ``offset`` (its INT 3); what it takes from there
        to the next mark is looked up by the offsets and D$ (or ``key``)."""
        self.marks.append((offset, self.g.direction if key is None else key))
        if self.log is not None:
            self.log[-1][1].append(Counter(self.paths))

    def set(self, direction: str) -> None:
        """D$ = ...: the string space's part (strings.py) as an arrow key's."""
        self.g.direction = direction
        self.g.string_space("key", direction)

    def below(self, limit: MBF) -> bool:
        """RND < limit, spending one RND."""
        return mbf.compare(self.g.rnd(), limit) < 0

    def decide(self) -> None:
        """GOSUB 1830 (line 1160), and what it costs."""
        self.marks = []
        if self.log is not None:
            self.log.append((self.marks, []))
        with mbf.counting_paths() as paths:
            self.paths = paths
            self._at(demo_cost.START)
            self._decide()
            self._at(demo_cost.END)
        self.cost = demo_cost.cost(self.marks) + runtime_cost.instructions(paths)

    def _decide(self) -> None:
        g = self.g
        self.gap = self.in_gap(g.px)                              # GOSUB 2310
        self.normal()                                             # GOSUB 2080
        self._at(0x1233)
        # line 1880: a meteor close by: ABS(Y - MY) < 4 AND ABS(X - MX) < 5, in singles
        if mbf.compare(_abs(mbf.sub(mbf.from_int(g.py), g.my)), FOUR) >= 0:
            return self._at(0x1280)
        self._at(0x1259)
        if mbf.compare(_abs(mbf.sub(mbf.from_int(g.px), g.mx)), FIVE) >= 0:
            return self._at(0x1280)
        self._at(0x1287)
        if self.below(NINE_TENTHS):                               # 1915
            return self._at(0x129B)
        if g.direction == "":                                     # 1920
            return self.pick_sideways()
        self._at(0x12B5)
        self.dodge()

    def _wrap(self, nx: int, below: int, not_below: int, above: int) -> int:
        """IF NX < 1 THEN NX = 80 ELSE IF NX > 80 THEN NX = 1 (lines 1970, 2220, 2550), marking
        the statement each way reaches."""
        if nx < 1:
            self._at(below)
            return 80
        self._at(not_below)
        if nx > 80:
            self._at(above)
            return 1
        return nx

    def in_gap(self, x: int) -> bool:
        """GOSUB 2310 for column x (lines 2550-2560 put NX in X for it): TRUE when x is
        between the blocks; it returns at the first block that holds x."""
        for i, c in enumerate((5, 25, 45, 65)):
            if c <= x <= c + 13:
                self._at((0x15BD, 0x15E3, 0x1609, 0x162F)[i])
                return False
        self._at(0x163C)
        return True

    def dodge(self) -> None:
        """Lines 1950-2060."""
        g = self.g
        if g.direction in SIDEWAYS:
            self._at(0x12E5)
            # line 1960 reads a variable nothing ever sets (DGROUP:1018, always 0) where
            # the player's column was meant: NX is 1 or, wrapped, 80 (a bug of the original)
            self._at(0x12F6 if g.direction == "LEFT" else 0x1302)
            nx = self._wrap(UNSET + 1 if g.direction == "LEFT" else UNSET - 1, 0x1315, 0x1320, 0x132B)
            self._at(0x1332)
            if g.screen.char(g.py, nx) == SPACE:
                self._at(0x134E)
                if g.py != 1:
                    self._at(0x135D)
                    if g.screen.char(g.py - 1, g.px) != SPACE:
                        self._at(0x137A)
                        if g.py < 24:
                            self.set("DOWN")
                            return self._at(0x1391)
        self.reverse()

    def reverse(self) -> None:
        """Lines 2040-2060."""
        g = self.g
        self._at(0x1398)
        self._at(0x13AA if g.direction == "LEFT" else 0x13BA)
        self.set("RIGHT" if g.direction == "LEFT" else "LEFT")
        self._at(0x13C6)

    def normal(self) -> None:
        """GOSUB 2080."""
        g = self.g
        self._at(0x13CD)
        if g.direction == "" and g.countdown > 20:               # 2090
            return self.pick_sideways()
        self._at(0x13ED)
        if g.countdown > 20:                                      # 2110
            self._at(0x13FC)
            if not self.gap:
                self._at(0x140C)
            if not self.gap and g.bottom_row < g.py:              # 2140
                self._at(0x1419)
                if self.below(NINE_TENTHS):
                    self.set("UP")
                    return self._at(0x1438)
            self._at(0x143E)
            if g.top_row > g.py:                                  # 2150
                self._at(0x144B)
                if self.below(NINE_TENTHS):
                    self.set("DOWN")
                    return self._at(0x146A)
            self._at(0x1470)
            if not self.below(NINETY_FIVE):                       # 2170
                self._at(0x1487)
                if g.direction not in ("UP", "DOWN"):             # 2200
                    self._at(0x14B5)
                    self._at(0x14C6 if g.direction == "LEFT" else 0x14D2)
                    nx = self._wrap(g.px - 1 if g.direction == "LEFT" else g.px + 1, 0x14E5, 0x14F0, 0x14FB)
                    self._at(0x1502)
                    if g.screen.char(g.py, nx) == SPACE:          # 2230
                        self._at(0x151E)
                        if not self.below(HALF):                  # 2250
                            self._at(0x1535)
                            if not self.gap:                      # 2260
                                self._at(0x1543)
                                if g.py - g.top_row > 3:
                                    self.set("UP")
                                    return self._at(0x1560)
                                return self._at(0x156A)
                        self._at(0x1570)
                        if g.bottom_row > g.py:                   # 2270
                            self.set("DOWN")
                            return self._at(0x1589)
        return self.late()                                        # 2290: GOTO 2400

    def late(self) -> None:
        """Lines 2400-2620."""
        g = self.g
        self._at(0x1643)
        if self.gap:
            self._at(0x1650)
        if self.gap and g.direction == "UP":                      # 2410
            return self.pick_sideways()
        self._at(0x1664)
        if g.countdown > 20:                                      # 2440
            return self.aim()
        self._at(0x1674)
        if not self.gap:                                          # 2450
            return self.pick_sideways()
        self._at(0x1685)
        if g.py < 24:                                             # 2470
            self._at(0x1691)
            if self.below(TENTH):
                self.set("DOWN")
                return self._at(0x16B0)
        self._at(0x16B6)
        if self.below(QUARTER):                                   # 2500
            self.set("")
            return self._at(0x16D7)
        self._at(0x16DD)
        if g.direction not in SIDEWAYS:                           # 2520
            self._at(0x1709)
            nx = g.px
        else:
            self._at(0x1725 if g.direction == "LEFT" else 0x1731)
            nx = g.px - 1 if g.direction == "LEFT" else g.px + 1
        nx = self._wrap(nx, 0x1745, 0x1750, 0x175B)
        self._at(0x1762)
        there = self.in_gap(nx)                                   # 2560: X = NX: GOSUB 2310 ...
        self._at(0x1778)
        self.gap = self.in_gap(g.px)                              # ... X back: GOSUB 2310
        self._at(0x178E)
        if there:                                                 # 2570
            return self._at(0x179A)
        self.reverse()

    def pick_sideways(self) -> None:
        """Lines 2590-2620."""
        g = self.g
        self._at(0x17A8)
        if g.direction in SIDEWAYS:
            return self._at(0x17D2)
        right = self.below(HALF)
        self._at(0x17EB if right else 0x17FB)
        self.set("RIGHT" if right else "LEFT")
        self._at(0x1807)

    def aim(self) -> None:
        """Lines 2640-2810."""
        g = self.g
        self._at(0x180E)
        middle = mbf.cint(mbf.mul(mbf.from_int(g.bottom_row + g.top_row), HALF))
        if g.py < middle:
            self._at(0x1833)                                      # SIZE = ABS(DIFF): a NEG more
        diff = g.py - middle
        size = abs(diff)
        self._at(0x1840)
        if not self.gap:
            self._at(0x184E)
        if not self.gap and g.countdown > 20 and diff > 0:        # 2660
            self._at(0x186E)
            if mbf.compare(g.rnd(), mbf.mul(mbf.from_int(size), HUNDREDTH)) < 0:
                self.set("UP")
                return self._at(0x18A2)
        self._at(0x18A8)
        if diff < 0:                                              # 2670
            self._at(0x18B3)
            if mbf.compare(g.rnd(), mbf.mul(mbf.from_int(size), HUNDREDTH)) < 0:
                self.set("DOWN")
                return self._at(0x18E7)
        self._at(0x18ED)
        if not (g.countdown < 21 or g.direction == "UP" or self.gap):   # 2700
            self._at(0x191E)
            if not g.py - g.bottom_row < 4:                       # 2710
                self._at(0x1932)
                if self.below(HUNDREDTH):                         # 2720
                    self.set("UP")
                    return self._at(0x1951)
        self._at(0x1958)
        if not (g.direction == "DOWN" or self.gap):               # 2740
            self._at(0x1978)
            far, _ = g.fnr_costed(4)
            self.paths.update(_)
            if not g.py - g.bottom_row >= far + 2:                # 2750
                self._at(0x19A0)
                if self.below(TWO_HUNDREDTHS):                    # 2760
                    self.set("DOWN")
                    return self._at(0x19BF)
        self._at(0x19C6)
        if g.direction in SIDEWAYS:                               # 2790
            self._at(0x19F0)
            if self.below(NINETY_NINE):
                return self._at(0x1A03)
        self._at(0x1A09)
        left = self.below(HALF)                                   # 2800
        self._at(0x1A1C if left else 0x1A2C)
        self.set("LEFT" if left else "RIGHT")
        self._at(0x1A38)


def wrap_column(x: int) -> int:
    if x < 1:
        return 80
    if x > 80:
        return 1
    return x
