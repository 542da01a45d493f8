"""What METEORS.EXE's statements take from the runtime's string space, block for block
(games_py.qbasic.string_space), and the instructions the runtime's merging walks add.

Read on the original by logging every allocation (062B:82A9) and free (062B:854D) with
its BASIC line (docs/meteors-internals.md, section 6, "The string space").  Three kinds:

* a temporary (CHR$(27) at line 1110, SPACE$(80), STRING$(14, BLOCK), a concatenation's
  parts) is freed in its own statement, after it was made;
* a variable's assignment (D$, M$, K$, N$, the table's NAME$() and WHEN$(), ...) takes
  a block for the new string and then frees the old one;
* PRINT USING's string (the score, line 3200; the countdown, 3270; the level screen's
  HIGH SCORE and LEVEL, 3750-3760; the table's rows, 6500-6530) stays until the next
  PRINT USING, which frees it after taking its own.

The start-up's strings are the same in every session but for the passes of the show's
.1 s wait (lines 1790-1810, one CHR$(27) a pass): ``show_passes``, from show_time.  Each allocation
costs the instructions string_space counts; the program's measured costs (timing.py)
have the allocation at the rover (27) in them, so ``extra`` gathers what the others
cost beyond that: the walks that merge freed blocks once the rover has wrapped.
"""
from __future__ import annotations

from games_py.qbasic.string_space import StringSpace

START, END = 7552, 64758          # DGROUP:0428 and 042C at the first frame
FILE_BUFFER = 200                 # the first OPEN (line 5420) takes this off the end
AT_ROVER = 27                     # an allocation split at the rover, in the measured costs
TITLE_LETTERS = 760               # line 4330: a CHR$(25) per letter of the title


def show_passes(ticks) -> int:
    """The passes of the show's .1 s wait (lines 1790-1810), as show_time follows them pass by
    pass from power-on (timing.FrameClock.show: ``ticks.show_passes``; until branch h-start a
    tick-by-tick estimate with one fitted offset, one off at a quarter of the start times)."""
    return ticks.show_passes


class MeteorsStrings:
    def __init__(self, show_passes: int, demo: bool = False) -> None:
        self.space = StringSpace(START, END)
        self.variables: dict[str, int] = {}
        self.using: int | None = None
        self.extra = 0
        self.file_opened = False
        self.demo = demo
        self._start_up(show_passes)
        self.extra = 0

    # -- the three kinds -----------------------------------------------------------------
    def _allocate(self, length: int) -> int | None:
        at = self.space.allocate(length)
        if at is not None:
            self.extra += self.space.cost - AT_ROVER
        return at

    def temporary(self, *lengths: int) -> None:
        """Temporaries made one after another, then freed."""
        made = [self._allocate(n) for n in lengths]
        for at in made:
            if at is not None:
                self.space.free(at)

    def assign(self, name: str, length: int) -> None:
        at = self._allocate(length)
        old = self.variables.pop(name, None)
        if old is not None:
            self.space.free(old)
        if at is not None:
            self.variables[name] = at

    def print_using(self, length: int) -> None:
        at = self._allocate(length)
        if self.using is not None:
            self.space.free(self.using)
        self.using = at

    def take_extra(self) -> int:
        extra, self.extra = self.extra, 0
        return extra

    # -- the program ---------------------------------------------------------------------
    def _start_up(self, show_passes: int) -> None:
        """Lines 120-3560 and game 1's level screen, as logged on the original."""
        for name, length in (("7440", 2), ("145", 11), ("6610", 11), ("250a", 4), ("250b", 4),
                             ("250c", 4), ("250d", 5), ("260a", 4), ("260b", 5), ("260c", 4),
                             ("260d", 5), ("260e", 5), ("270a", 4), ("270b", 4), ("340a", 1),
                             ("340b", 1), ("BLOCK$", 1), ("350", 1), ("5320", 11)):
            self.assign(name, length)
        self.game_started()                                  # line 480: M$
        space = self.space                                   # lines 3430-3440
        a1, a44 = self._allocate(1), self._allocate(44)
        space.free(a1)
        a54, b1, a55 = self._allocate(54), self._allocate(1), self._allocate(55)
        for at in (a54, b1, a44):
            space.free(at)
        a50 = self._allocate(50)                             # lines 4090-4100
        self.assign("4100", 80)
        space.free(a50)
        for line, length in ((4160, 67), (4170, 62), (4180, 62), (4190, 67), (4200, 67),
                             (4210, 67), (4220, 67), (4230, 67)):
            self.assign(str(line), length)
        for _ in range(TITLE_LETTERS):                       # line 4330
            self.temporary(1)
        for _ in range(show_passes):                         # lines 1790-1810
            self.temporary(1)
        self.assign("W$", 22)                                # line 3520
        space.free(a55)
        if self.demo:                                        # F2's handler, line 4710:
            for i in range(1, 9):                            # X$ = X$ + CHR$(SCREEN(1, I))
                letter = self._allocate(1)
                joined = self._allocate(i)
                space.free(letter)
                old = self.variables.pop("X$", None)
                if old is not None:
                    space.free(old)
                self.variables["X$"] = joined
        self.assign("K$", 1)                                 # line 3560: the key pressed

    def game_started(self) -> None:
        """Line 480: M$ = CHR$(METEOR)."""
        self.assign("M$", 1)

    def frame(self, first: bool) -> None:
        """Line 1110: K$ = INKEY$ (empty: the first frame frees the start's key)."""
        if first:
            self.assign("K$", 0)

    def escape_tested(self) -> None:
        """Line 1110's second statement, IF K$ = CHR$(27) (after the ON KEY handlers of
        a key pressed at the first, which its INT 3 runs)."""
        self.temporary(1)

    def key(self, direction: str) -> None:
        """Lines 4950-5070: D$ = "UP" ... (and the demo player's D$ = ..., lines 1830-2810)."""
        self.assign("D$", len(direction))

    def name_set(self, name: str) -> None:
        """Line 5840 in demo mode: N$ = "COMPUTER" (no LINE INPUT, no line 5970)."""
        self.assign("N$", len(name))

    def score(self) -> None:
        """Line 3200: PRINT USING "SCORE:######"."""
        self.print_using(12)

    def countdown(self) -> None:
        """Line 3270: PRINT USING "COUNTDOWN:####"."""
        self.print_using(14)

    def level_screen_head(self) -> None:
        """Line 3690: SPACE$(80)."""
        self.temporary(80)

    def level_screen_tail(self, high_shown: bool, game: int) -> None:
        """Lines 3750-3880: HIGH SCORE, LEVEL, the game's number (STR$ kept, MID$ printed),
        the block's character and a string of 5."""
        if high_shown:
            self.print_using(17)
        self.print_using(7)
        digits = len(str(game))
        self.assign("G$", digits + 1)
        self.temporary(digits)
        self.assign("BLOCK$", 1)
        self.assign("3880", 5)

    def blocks(self, rows: int) -> None:
        """Line 3980: STRING$(14, BLOCK), four to a row."""
        for _ in range(4 * rows):
            self.temporary(14)

    def hit(self, word: str) -> None:
        """Lines 1460-1530: the explosion's rows around the word."""
        n = len(word)
        self.assign("W$", n)
        self.temporary(n)
        space = self.space
        a2, a = self._allocate(2), self._allocate(n + 2)
        space.free(a2)
        b2, b = self._allocate(2), self._allocate(n + 4)
        for at in (a, b2, b):
            space.free(at)
        self.temporary(n)

    # -- the high-score table (GOSUB 5370) -----------------------------------------------
    def table_opened(self) -> None:
        """Line 5420's OPEN: the first takes a file buffer off the string space's end, after
        compacting the live strings if the last block is not a free one big enough (the
        instructions that adds are in ``extra``; the strings held move with their blocks)."""
        if not self.file_opened:
            self.file_opened = True
            space = self.space
            moved = space.lower_end(FILE_BUFFER)    # (through 062B:8E07: string_space.ALIGNED_END)
            self.extra += space.cost
            self.variables = {name: moved.get(at, at) for name, at in self.variables.items()}
            if self.using is not None:
                self.using = moved.get(self.using, self.using)

    def record_read(self, index: int, name: str, when: str) -> None:
        """Lines 5470-5480: INPUT #1 of a record's name (read into a temporary, then
        assigned to NAME$(N)) and its date (WHEN$(N))."""
        self.temporary(len(name))
        self.assign(f"NAME$({index})", len(name))
        self.assign(f"WHEN$({index})", len(when))

    def table_rows(self, rows: int) -> None:
        """GOSUB 6360: the copyright line, the heading, the rows (PRINT USING)."""
        space = self.space
        self.temporary(80)                                   # line 6380
        a45, a54 = self._allocate(45), self._allocate(54)    # line 6420
        space.free(a45)
        a65 = self._allocate(65)
        space.free(a54)
        a15, a80 = self._allocate(15), self._allocate(80)
        for at in (a65, a15, a80):
            space.free(at)
        for _ in range(rows):                                # lines 6500-6530
            for length in (3, 48, 8, 24):
                self.print_using(length)

    def table_result(self, game: int, score: int, seconds: int) -> None:
        """Lines 5700-5730: "GAME:" + STR$(GAME) + "  SCORE:" + STR$(SCORE), then
        "  TIME:" + STR$(TIME) + " SEC"."""
        self._concatenation(5, str_length(game), 8, str_length(score))
        self._concatenation(7, str_length(seconds), 4)

    def name_asked(self, score: int) -> None:
        """Line 5890: " SCORE OF" + STR$(SCORE) + " IS IN THE TOP 10!"."""
        self._concatenation(9, str_length(score), 18)

    def name_typed(self, name: str) -> None:
        """Line 5940: LINE INPUT N$ (its assignment, before LINE INPUT's end)."""
        self.assign("N$", len(name))

    def name_checked(self, name: str) -> None:
        """Line 5970's LEFT$(N$, 1) when N$ is not empty (after LINE INPUT's end)."""
        if name:
            self.temporary(1)

    def entry_moved(self, to: int, name: str, when: str) -> None:
        """Lines 6080-6090: NAME$(I + 1) = NAME$(I): WHEN$(I + 1) = WHEN$(I)."""
        self.assign(f"NAME$({to})", len(name))
        self.assign(f"WHEN$({to})", len(when))

    def entry_written(self, place: int, name: str) -> None:
        """Line 6120: NAME$(PLACE) = N$; line 6130: WHEN$(PLACE) = DATE$ + " " + TIME$."""
        self.assign(f"NAME$({place})", len(name))
        space = self.space
        date = self._allocate(10)
        spaced = self._allocate(11)
        space.free(date)
        time = self._allocate(8)
        when = self._allocate(19)
        space.free(spaced)
        space.free(time)
        old = self.variables.pop(f"WHEN$({place})", None)
        if old is not None:
            space.free(old)
        self.variables[f"WHEN$({place})"] = when

    def _concatenation(self, head: int, number: int, middle: int, second: int | None = None) -> None:
        """A PRINT of "text" + STR$(a) + "text" [+ STR$(b)]: each + makes a temporary and
        frees what it was made of."""
        space = self.space
        n = self._allocate(number)
        joined = self._allocate(head + number)
        space.free(n)
        longer = self._allocate(head + number + middle)
        space.free(joined)
        if second is None:
            space.free(longer)
            return
        m = self._allocate(second)
        total = self._allocate(head + number + middle + second)
        for at in (longer, m, total):
            space.free(at)


def str_length(value: int) -> int:
    """LEN(STR$(value)): a sign or a space, then the digits."""
    return len(str(abs(value))) + 1
