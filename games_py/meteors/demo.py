"""The computer's player (F2, demo mode): lines 1830-2810 of METEORS.EXE, every
RND in its place.  It only sets the direction D$; the game moves the player."""
from __future__ import annotations

from games_py.qbasic import mbf
from games_py.qbasic.mbf import MBF

C = MBF.from_float
NINE_TENTHS = MBF.from_hex("66 66 66 80")        # .9 (DGROUP:1244)
NINETY_FIVE = MBF.from_hex("33 33 73 80")        # .95 (DGROUP:1268)
HUNDREDTH = MBF.from_hex("0A D7 23 7A")          # .01 (DGROUP:1270)
TWO_HUNDREDTHS = MBF.from_hex("0A D7 23 7B")     # .02 (DGROUP:1274)
NINETY_NINE = MBF.from_hex("A4 70 7D 80")        # .99 (DGROUP:1278)
TENTH = MBF.from_hex("CD CC 4C 7D")
HALF, QUARTER = C(0.5), C(0.25)
SPACE = 0x20
SIDEWAYS = ("LEFT", "RIGHT")
UNSET = 0                                         # DGROUP:1018, read at line 1960, never written


class DemoPlayer:
    def __init__(self, game) -> None:
        self.g = game

    def below(self, limit: MBF) -> bool:
        """RND < limit, spending one RND."""
        return mbf.compare(self.g.rnd(), limit) < 0

    def decide(self) -> None:
        """GOSUB 1830."""
        g = self.g
        self.gap = g.in_gap(g.px)                                 # GOSUB 2310
        self.normal()                                             # GOSUB 2080
        # line 1880: a meteor close by
        if not (abs(g.py - int(g.my.to_float())) < 4 and abs(g.px - int(g.mx.to_float())) < 5):
            return
        if self.below(NINE_TENTHS):                               # 1915
            return
        if g.direction == "":                                     # 1920
            return self.pick_sideways()
        self.dodge()

    def dodge(self) -> None:
        """Lines 1950-2060."""
        g = self.g
        if g.direction in SIDEWAYS:
            # line 1960 reads a variable nothing ever sets (DGROUP:1018, always 0) where
            # the player's column was meant: NX is 1 or, wrapped, 80 (a bug of the original)
            nx = wrap_column(UNSET + 1 if g.direction == "LEFT" else UNSET - 1)
            if g.screen.char(g.py, nx) == SPACE and g.py != 1 \
                    and g.screen.char(g.py - 1, g.px) != SPACE and g.py < 24:
                g.direction = "DOWN"
                return
        self.reverse()

    def reverse(self) -> None:
        """Lines 2040-2060."""
        g = self.g
        g.direction = "RIGHT" if g.direction == "LEFT" else "LEFT"

    def normal(self) -> None:
        """GOSUB 2080."""
        g = self.g
        if g.direction == "" and g.countdown > 20:               # 2090
            return self.pick_sideways()
        if g.countdown > 20:                                      # 2110
            if not self.gap and g.bottom_row < g.py and self.below(NINE_TENTHS):   # 2140
                g.direction = "UP"
                return
            if g.top_row > g.py and self.below(NINE_TENTHS):      # 2150
                g.direction = "DOWN"
                return
            if not self.below(NINETY_FIVE):                       # 2170
                if g.direction not in ("UP", "DOWN"):             # 2200
                    nx = wrap_column(g.px - 1 if g.direction == "LEFT" else g.px + 1)
                    if g.screen.char(g.py, nx) == SPACE:          # 2230
                        if not self.below(HALF):                  # 2250
                            if not self.gap:                      # 2260
                                if g.py - g.top_row > 3:
                                    g.direction = "UP"
                                return
                        if g.bottom_row > g.py:                   # 2270
                            g.direction = "DOWN"
                            return
        return self.late()                                        # 2290: GOTO 2400

    def late(self) -> None:
        """Lines 2400-2620."""
        g = self.g
        if self.gap and g.direction == "UP":                      # 2410
            return self.pick_sideways()
        if g.countdown > 20:                                      # 2440
            return self.aim()
        if not self.gap:                                          # 2450
            return self.pick_sideways()
        if g.py < 24 and self.below(TENTH):                       # 2470
            g.direction = "DOWN"
            return
        if self.below(QUARTER):                                   # 2500
            g.direction = ""
            return
        if g.direction not in SIDEWAYS:                           # 2520
            nx = g.px
        else:
            nx = g.px - 1 if g.direction == "LEFT" else g.px + 1
        nx = wrap_column(nx)
        if g.in_gap(nx):                                          # 2560-2570
            self.gap = g.in_gap(g.px)
            return
        self.gap = g.in_gap(g.px)
        self.reverse()

    def pick_sideways(self) -> None:
        """Lines 2590-2620."""
        g = self.g
        if g.direction in SIDEWAYS:
            return
        g.direction = "RIGHT" if self.below(HALF) else "LEFT"

    def aim(self) -> None:
        """Lines 2640-2810."""
        g = self.g
        diff = g.py - mbf.cint(mbf.mul(mbf.from_int(g.bottom_row + g.top_row), HALF))
        size = abs(diff)
        chance = mbf.mul(mbf.from_int(size), HUNDREDTH)
        if not self.gap and g.countdown > 20 and diff > 0:        # 2660
            if mbf.compare(g.rnd(), chance) < 0:
                g.direction = "UP"
                return
        if diff < 0:                                              # 2670
            if mbf.compare(g.rnd(), chance) < 0:
                g.direction = "DOWN"
                return
        if not (g.countdown < 21 or g.direction == "UP" or self.gap):   # 2700
            if not g.py - g.bottom_row < 4:                       # 2710
                if self.below(HUNDREDTH):                         # 2720
                    g.direction = "UP"
                    return
        if not (g.direction == "DOWN" or self.gap):               # 2740
            if not g.py - g.bottom_row >= g.fnr(4) + 2:           # 2750
                if self.below(TWO_HUNDREDTHS):                    # 2760
                    g.direction = "DOWN"
                    return
        if g.direction in SIDEWAYS and self.below(NINETY_NINE):   # 2790
            return
        g.direction = "LEFT" if self.below(HALF) else "RIGHT"     # 2800


def wrap_column(x: int) -> int:
    if x < 1:
        return 80
    if x > 80:
        return 1
    return x
