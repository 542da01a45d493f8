"""Tommy's Meteors' high-score table: what a game's end shows (GOSUB 5370, whose
rows GOSUB 6360 draws), its entries, and the name the player types.

Line numbers are the original's (docs/meteors-internals.md, section 5, "The
high-score table").  The table is kept in memory for the session; the original
keeps it in METEORS.SCR on its own disk, which the Python game does not write: the
one read of that file (the first table after a name was saved) is followed in
memory, with the records as the original reads them back (unchanged: measured with
names that hold commas and quotes).

The times: TIME is ``INT(TEND - TSTART + .5)`` in MBF singles, TSTART the TIMER
of line 570 (after the player is placed), TEND that of line 1620 (the game over);
a new entry's WHEN is ``DATE$ + " " + TIME$`` at line 6130, after the name.  The
Python game knows the BIOS tick of each point from its clock (timing.FrameClock):
a copy of the clock is run ahead over the work up to there, so nothing here
changes the game's own timing.
"""
from __future__ import annotations

import copy
import datetime as _dt
from dataclasses import dataclass, field
from typing import Callable, Iterator

from games_py.meteors import line_input, table_cost, timing
from games_py.meteors.screen import COLUMNS, ROWS, Screen
from games_py.qbasic import mbf, rng

MAX = 9                  # DGROUP:1090 (line 5320): the table shows MAX + 1 rows, the top 10
SLOTS = 10 * MAX         # DGROUP:1092: the entries kept, and the records read at most
NAME_LIMIT = 255         # the runtime's line editor takes this many characters
COPYRIGHT = "TOMMY'S METEORS (C) COPYRIGHT 1986 BY TOMMY'S TOYS, BOX 11261, DENVER, CO 80211 "   # C$
DEMO_NAME = "COMPUTER"   # line 5840
TYPED_NAME = "PLAYER"    # what the tracer types (original.py), and the default here
# pcemu's machine starts on this date (pcemu.machine): the tracer's DATE$
START_DATE = _dt.date(1988, 1, 1)

# Where the clock is, in instructions, measured on the original (docs/meteors-internals.md,
# section 6): line 6130 (DATE$, TIME$) this far after the name's LINE INPUT (the table's work,
# timing.NAME_PROMPT and line_input.py before it) with sound off ...
INPUT_TO_WHEN = 1_054    # LINE INPUT's end (0000:35DF) -> line 6130
DEMO_TO_WHEN = 3_100     # ... or in demo mode (no prompt: lines 5840-6020) ...
SHIFTED_ROW = 450        # ... and a row moved down (lines 6070-6110) each
SOUND_TO_WHEN = 450      # with sound on: from the name's note (line 6000) to line 6130

Key = str      # one character, or ENTER, BKSP, DEL, LEFT, RIGHT, HOME, END, INS, ESC, TAB
MOVES = ("LEFT", "RIGHT", "HOME", "END")


def typed(text: str) -> Callable[[object], Key]:
    """A name hook that types ``text`` and Enter, as the tracer does."""
    keys: Iterator[Key] = iter([*text, "ENTER"])
    return lambda game: next(keys)


def str_(value: int) -> str:
    """STR$ of a number with an integer value: a leading space for the sign's place."""
    return f"{value}" if value < 0 else f" {value}"


def time_string(hour: int, minute: int, second: int, hundredths: int) -> str:
    """TIME$ (062B:3B07): DOS's time rounded to the second, carried into the minutes and
    hours (and not past them: 23:59:59.50 gives 24:00:00)."""
    if hundredths >= 50:
        second += 1
        if second == 60:
            second, minute = 0, minute + 1
            if minute == 60:
                minute, hour = 0, hour + 1
    return f"{hour:02d}:{minute:02d}:{second:02d}"


@dataclass
class Printer:
    """PRINT at the cursor as the runtime does it: a character past column 80 goes on
    at the next row's first column."""
    screen: Screen
    row: int = 1
    col: int = 1

    def locate(self, row: int, col: int) -> None:
        self.row, self.col = row, col

    def color(self, foreground: int, background: int) -> None:
        self.screen.color(foreground, background)

    def print(self, text: str, newline: bool = False) -> None:
        for ch in text.encode("cp437", "replace"):
            if self.col > COLUMNS:
                self.row, self.col = self.row + 1, 1
            if self.row <= ROWS:
                self.screen.put(self.row, self.col, ch)
            self.col += 1
        if newline:
            self.row, self.col = self.row + 1, 1


@dataclass
class NameEditor:
    """The runtime's line editor (LINE INPUT, line 5940), as measured on the original:
    overwrite mode, INS toggles insertion (a cursor move ends it), BKSP deletes before
    the cursor, DEL at it, RIGHT past the end adds a space, TAB types spaces to the next
    multiple of 8, ESC clears the line; at most 255 characters.  Each change is echoed
    from the prompt's end in the COLOR in force; cells a shorter line leaves are blanked."""
    printer: Printer
    text: list[str] = field(default_factory=list)
    cursor: int = 0
    insert: bool = False
    shown: int = 0

    def __post_init__(self) -> None:
        self.start = (self.printer.row, self.printer.col)

    def key(self, key: Key) -> bool:
        """Apply one key; True at Enter."""
        if key == "ENTER":
            return True
        if key in MOVES:
            self.insert = False
        if key == "INS":
            self.insert = not self.insert
        elif key == "LEFT":
            self.cursor = max(self.cursor - 1, 0)
        elif key == "RIGHT":
            if self.cursor == len(self.text):
                self._type(" ")
            else:
                self.cursor += 1
        elif key == "HOME":
            self.cursor = 0
        elif key == "END":
            self.cursor = len(self.text)
        elif key == "BKSP":
            if self.cursor > 0:
                self.cursor -= 1
                del self.text[self.cursor]
        elif key == "DEL":
            if self.cursor < len(self.text):
                del self.text[self.cursor]
        elif key == "ESC":
            self.text, self.cursor = [], 0
        elif key == "TAB":
            self._type(" ")
            while self.cursor % 8:
                self._type(" ")
        elif len(key) == 1 and key.isprintable():
            self._type(key)
        self._echo()
        return False

    def _type(self, ch: str) -> None:
        if self.insert or self.cursor == len(self.text):
            if len(self.text) >= NAME_LIMIT:
                return
            self.text.insert(self.cursor, ch)
        else:
            self.text[self.cursor] = ch
        self.cursor += 1

    def _echo(self) -> None:
        self.shown = max(self.shown, len(self.text))
        self.printer.locate(*self.start)
        self.printer.print("".join(self.text).ljust(self.shown))

    def done(self) -> str:
        """Enter: the line typed (what follows LOCATEs anew: the cursor does not matter)."""
        return "".join(self.text)


@dataclass
class Entry:
    name: str = ""
    level: int = 0
    score: int = 0            # 0: an empty slot (the table ends at the first)
    when: str = ""


class HighScores:
    """The table's state (the original's arrays and counters) and its screens."""

    def __init__(self) -> None:
        self.slots = [Entry() for _ in range(SLOTS + 2)]    # 1..SLOTS (and one past, as DIMmed)
        self.count = 0            # N, DGROUP:10C6: the records read from the file
        self.file_read = False    # DGROUP:10C0
        self.saved: list[Entry] | None = None              # METEORS.SCR: None while missing
        self.place = 1            # DGROUP:10C8: where the new score goes
        self.rank = 0             # DGROUP:10CA: its rank (the row shown bright)
        self.counted = 0          # DGROUP:10CC: entries of this level seen
        self.index = 0            # DGROUP:10C4: line 5620's FOR variable after the loop
        self.moved = 0            # entries moved down for the last name (lines 6070-6110)
        self.opened = False       # line 5420's OPEN has run (the first takes the file's buffer)
        self.first_open = False   # ... for the first time in the last table
        self.typed = ""           # N$, the last name typed (line 5940's LINE INPUT frees it)
        self.tstart = mbf.ZERO    # TSTART (DGROUP:0FB8), line 570
        self.tend = mbf.ZERO      # DGROUP:1002, line 1620
        self.date = START_DATE    # DOS's date when the session started (DATE$ counts on from it)
        # a point of the table's code was drawn: (line, screen); the tests' and the terminal's
        self.seen: Callable[[int, Screen], None] | None = None

    # -- the times ------------------------------------------------------------------
    def started(self, game) -> None:
        """Line 570: TSTART = TIMER (called where game.py's work reaches its INT 3)."""
        self.tstart = rng.timer(*game.ticks.time_of_day())

    def ended(self, game) -> None:
        """Line 1620: the game over reads TIMER at once."""
        self.tend = rng.timer(*game.ticks.time_of_day())

    def seconds(self) -> int:
        """Lines 5710-5720: TIME = TEND - TSTART (a day more if negative), rounded."""
        return table_cost.time_taken(self.tend, self.tstart)[0]

    # -- the table (GOSUB 5370) ----------------------------------------------------------
    def show(self, game) -> None:
        """The table after a game (lines 5370-6290) on ``game.screen``, the name asked
        through ``game.name_key`` (None: PLAYER is typed)."""
        start_clock = copy.deepcopy(game.ticks)
        file_work = self._read_file(game)
        shown = self._rank(game.score, game.level)
        game.table_value("table", table_cost.rank(game.score, [e.score for e in self.slots[1:self.count + 1]]))
        out = Printer(game.screen)
        out.color(7, 0)                                  # line 5680: COLOR 7, 0, 0: CLS
        game.screen.clear()
        self.draw(out, game)
        out.locate(14, 1)                                # lines 5690-5740
        out.color(*((14, 1) if game.colour else (7, 0)))
        out.print("GAME:" + str_(game.games) + "  SCORE:" + str_(game.score))
        seconds, arithmetic = table_cost.time_taken(self.tend, self.tstart)
        game.string_space("table_result", game.games, game.score, seconds)
        game.table_value("table", table_cost.result(game.games, game.score) + arithmetic
                         + table_cost.seconds_string(seconds))     # lines 5700-5730
        out.print("  TIME:" + str_(seconds) + " SEC")
        if seconds != 1:
            out.print("S")
        out.color(7, 0)
        if game.score <= 0 or MAX + 1 < self.rank:       # line 5770
            self.reached(1670, game)
            return
        game.table_value("table", table_cost.CREATED * (self.saved is None))   # line 5800: OPEN "O"
        if game.demo_on:                                 # line 5840
            name = DEMO_NAME
        else:
            name = self._ask_name(out, game)
        if game.demo_on:
            game.string_space("name_set", name)
        else:
            game.string_space("name_typed", name)
            game.string_space("name_checked", name)
        shifted = self.moved = self._insert(name, game)
        when = self._when(start_clock, game, file_work + game._table_row() * shown, shifted)   # (the game's row)
        # line 6130's TIME$ rounding, in the demo too (its DEMO_SAVE has NAME's 663, the time with
        # fewer than 50 hundredths: 19:47:06.54 /C off's first table took 666, branch h-steps)
        game.table_value("saved", table_cost.time_rounded(*start_clock.time_of_day()))
        self.slots[self.place].when = when
        self._save(game)
        self.draw(out, game, "saved")                    # line 6270
        self.reached(1670, game)

    def _read_file(self, game) -> int:
        """Lines 5380-5490: the first table after METEORS.SCR exists reads its records
        (N, at most SLOTS) and never again; returns the work timing.py counts for it."""
        self.first_open = False
        if self.file_read:
            return timing.TABLE
        for entry in self.slots[1:SLOTS + 1]:
            entry.score = 0
        self.count = 0
        game.table_value("table", table_cost.CLOSED_AFTER_OPEN * self.opened)   # line 5430: CLOSE 1
        game.string_space("table_opened")                # line 5420: OPEN "I", 1, "METEORS.SCR"
        first, self.opened = not self.opened, True
        self.first_open = first
        if self.saved is None:                           # OPEN fails: error 53, RESUME 5570
            return timing.TABLE + timing.TABLE_MISSING - timing.FIRST_OPEN * (not first)   # (as the game)
        for record in self.saved[:SLOTS]:
            self.count += 1
            self.slots[self.count] = copy.copy(record)
            game.string_space("record_read", self.count, record.name, record.when)
            game.table_value("table", table_cost.record_read(record.score))   # line 5470's INPUT #
        self.file_read = True
        return timing.TABLE + timing.TABLE_READ

    def _rank(self, score: int, level: int) -> int:
        """Lines 5580-5650: the new score's place and rank among the N entries read (not
        those added since: the quirk that keeps the table at 2 rows).  Returns the rows
        the table shows now."""
        if score > 0:
            self.place, self.rank, self.counted = 1, 1, 0
            if self.count < 1:
                self.count = 0
            else:
                self.index = 1
                while self.index <= self.count:
                    entry = self.slots[self.index]
                    if entry.level == level:
                        self.counted += 1
                        if entry.score >= score:
                            self.place, self.rank = self.index + 1, self.counted + 1
                        if MAX + 1 <= self.counted:
                            break
                    self.index += 1
        return len(self._rows(level))

    def _rows(self, level: int) -> list[Entry]:
        """Lines 6440-6540: the entries shown, up to the first empty slot, 10 at most."""
        rows = []
        for entry in self.slots[1:SLOTS + 1]:
            if entry.score <= 0:
                break
            if entry.level == level:
                if MAX + 1 < len(rows) + 1:
                    break
                rows.append(entry)
        return rows

    def _ask_name(self, out: Printer, game) -> str:
        """Lines 5860-5990, until a name is typed.  A name that starts with a space
        becomes one space: line 5980 means to drop leading spaces but keeps
        LEFT$(N$, 1)."""
        keys = game.name_key or typed(TYPED_NAME)
        while True:
            out.locate(16, 1)
            out.color(*((2, 0) if game.colour else (7, 0)))
            level = str_(game.level) + " LEVEL" if game.level > 0 else ""
            out.print("CONGRATULATIONS, YOUR" + level)
            game.string_space("name_asked", game.score)
            game.table_value("name", table_cost.congratulations(game.score))   # line 5890
            out.print(" SCORE OF" + str_(game.score) + " IS IN THE TOP 10!", newline=True)
            out.color(*((14, 0) if game.colour else (7, 0)))
            self.reached(5910, game)
            out.print("WHAT IS YOUR NAME? ")
            out.color(*((14, 0) if game.colour else (15, 0)))
            editor = NameEditor(out)
            self.reached(5920, game)
            while not editor.key(keys(game)):
                pass
            name = editor.done()
            game.table_value("typed", table_cost.REASSIGNED * bool(self.typed))   # LINE INPUT N$
            self.typed = name
            out.color(7, 0)
            self.reached(5950, game)
            if not name:
                continue
            if name[0] == " ":
                name = " "
            return name

    def _insert(self, name: str, game) -> int:
        """Lines 6030-6120: the entries from PLACE move down one, as far as N + 1 (or
        the last one counted), and the new one takes PLACE.  Returns the rows moved."""
        last = self.count + 1 if MAX >= self.counted else self.index
        last = min(last, SLOTS)
        moved = 0
        if last >= 1:
            for i in range(last - 1, self.place - 1, -1):
                game.string_space("entry_moved", i + 1, self.slots[i].name, self.slots[i].when)
                old = self.slots[i + 1]
                game.table_value("saved", table_cost.REASSIGNED * (bool(old.name) + bool(old.when)))
                self.slots[i + 1] = copy.copy(self.slots[i])
                moved += 1
        old = self.slots[self.place]                     # lines 6120-6130: NAME$, WHEN$ assigned
        game.table_value("saved", table_cost.REASSIGNED * (bool(old.name) + bool(old.when)))
        self.slots[self.place] = Entry(name, game.level, game.score)
        game.string_space("entry_written", self.place, name)
        return moved

    def _when(self, clock: timing.FrameClock, game, work: int, shifted: int) -> str:
        """DATE$ + " " + TIME$ at line 6130: the clock of the table's start run ahead as
        game.high_score_table runs it, to line 6130."""
        to_when = SHIFTED_ROW * shifted
        walks = game.table_extra or {"table": 0, "name": 0, "typed": 0, "checked": 0, "saved": 0}   # so far
        if game.demo_on:
            clock.work_done(work + DEMO_TO_WHEN + to_when)
            return self._when_string(clock)
        prompt = timing.NAME_PROMPT + timing.NAME_PROMPT_COLOUR * game.colour
        if game.sound:
            masked = timing.SOUND_MASKED
            clock.work_done(work + timing.TABLE_TO_SOUND - masked + walks["table"])
            clock.wait_play(0)
            clock.sound("table")
            clock.work_done(prompt - timing.TABLE_TO_SOUND + timing.SOUND_TO_PROMPT + walks["name"])
            line_input.name_input(clock, game.colour, walks["typed"])
            clock.work_done(timing.INPUT_TO_SOUND - masked + walks["checked"])
            clock.sound("table")
            clock.work_done(SOUND_TO_WHEN + to_when + walks["saved"])
        else:
            clock.work_done(work + prompt + walks["table"] + walks["name"])
            line_input.name_input(clock, game.colour, walks["typed"])
            clock.work_done(INPUT_TO_WHEN + walks["checked"] + to_when + walks["saved"])
        return self._when_string(clock)

    def _when_string(self, clock: timing.FrameClock) -> str:
        day = self.date + _dt.timedelta(days=clock.now // timing.TICKS_PER_DAY)
        return f"{day:%m-%d-%Y} {time_string(*clock.time_of_day())}"

    def _save(self, game) -> None:
        """Lines 6160-6240: the records of this level, up to the first empty slot (for a
        level of 1 or more the loop runs from 9 to 0: nothing; never here, LEVEL is 0)."""
        first, last = (0, 0) if game.level < 1 else (MAX, 0)
        records = []
        for each in range(first, last + 1):
            for entry in self.slots[1:SLOTS + 1]:
                if entry.score <= 0:
                    break
                if entry.level == each:
                    records.append(copy.copy(entry))
                    game.table_value("saved", table_cost.saved_record(entry.score))   # line 6200: PRINT #1
        self.saved = records

    # -- GOSUB 6360 ---------------------------------------------------------------------
    def draw(self, out: Printer, game, phase: str = "table") -> None:
        """The copyright line, the title, the heading and the rows, the new score's
        rank bright: a row is 83 characters (PRINT USING), its last 3 go on at the next
        row's start."""
        out.color(*((12, 1) if game.colour else (7, 0)))
        out.locate(25, 1)
        out.print(COPYRIGHT + " " * (80 - len(COPYRIGHT)))
        out.locate(1, 1)
        out.color(0, 7)
        out.print("HIGH SCORES")
        if game.level > 0:
            out.print(str_(game.level) + " LEVEL")
        out.locate(2, 1)
        out.color(*((14, 4) if game.colour else (1, 0)))
        out.print("RANK NAME" + " " * 45 + "SCORE  WHEN" + " " * 15)
        game.string_space("table_rows", len(self._rows(game.level)))
        for r, entry in enumerate(self._rows(game.level), start=1):
            game.table_value(phase, table_cost.row_score(entry.score))   # line 6520
            out.locate(r + 2, 1)
            if self.rank == r:
                out.color(*((14, 0) if game.colour else (15, 0)))
            else:
                out.color(*((5, 0) if game.colour else (7, 0)))
            out.print(f" {r:2d}" + "  " + entry.name[:46].ljust(46) + f"   {entry.score:5d}"
                      + "  " + entry.when[:21].ljust(21) + " ")
        out.color(7, 0)

    def reached(self, line: int, game) -> None:
        """The program reached ``line`` (1640, 1670, 5910, 5920, 5950): ``seen`` is told, with the screen."""
        if self.seen is not None:
            self.seen(line, game.screen)
