"""Tommy's Meteors as METEORS.EXE plays it, statement for statement where it
matters: every RND the original spends, in its order, with the runtime's MBF
arithmetic (games_py.qbasic), and the screen cells the program reads back with
SCREEN(row, col).  Line numbers in comments are the original's
(docs/meteors-internals.md, section 5).

The player's moves come from ``demo.DemoPlayer`` (F2, the computer plays) or
from a human policy (``human.py``); the rules here only carry them out.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from games_py.meteors import demo, demo_cost, end_cost, hit_cost, level_cost, line_input, scores, show, sqr_cost, strings, timing, trace
from games_py.meteors.screen import Screen
from games_py.qbasic import mbf, rng, runtime_cost, string_space
from games_py.qbasic.mbf import MBF

C = MBF.from_float
ONE, TWO, FOUR, FIVE = C(1), C(2), C(4), C(5)
HALF, TENTH, TWENTY, TWENTY_FOUR, EIGHTY = C(0.5), MBF.from_hex("CD CC 4C 7D"), C(20), C(24), C(80)
RND_999 = MBF.from_hex("77 BE 7F 80")        # .999 at DGROUP:1234

SPACE, PLAYER, EXPLOSION = 0x20, 0x02, 0xB1
METEOR_CHARS = (4, 15, 18, 19, 25, 173, 179, 239, 248, 25, 25, 25, 25, 25)   # lines 300-310
WORDS = ("BANG", "BOOM", "BLAM", "BOING", "WHAM", "SPLAT", "POWW", "BOINK", "SMASH", "ZONK", "BONK")
BLOCK_COLUMNS = (5, 25, 45, 65)              # line 3980: FOR J = 5 TO 65 STEP 20, 14 wide
DEMO_IMMUNE_BELOW = 29000                    # line 1200
MAX_INT, MIN_INT = 32767, -32768


def sqr(x: MBF) -> MBF:
    """SQR(x), rounded to the nearest single (the runtime's own routine at 062B:39C6
    is not transcribed; see docs/meteors-internals.md, section 7)."""
    return MBF.from_float(math.sqrt(x.to_float()))


class SessionOver(Exception):
    """The frames asked for are played."""


# The high-score table's string statements by where they come in its timeline: before the
# name prompt's SOUND (line 5860; the first GOSUB 6360, 5700-5730, the file's read), between
# it and the name's (6000), and after that (the entries moved and written, the second 6360).
# LINE INPUT's assignment of N$ ("typed") is spent after its keys have come, before its end
# (0000:35DF), and line 5970's LEFT$(N$, 1) ("checked") after that.
TABLE_PHASES = {"name_asked": "name", "name_typed": "typed", "name_checked": "checked",
                "entry_moved": "saved", "entry_written": "saved"}


class Unmodelled(Exception):
    """The original does something here the Python game cannot know (the time of day)."""


class GameOver(Exception):
    """FLAG set: line 720 goes to 1600."""


SCORE_TOP, SCORE_BOTTOM = C(32767), C(-32768)   # line 3130's clamps (DGROUP:127C, 1280)


def _abs(x: MBF) -> MBF:
    """ABS (062B:3375): the sign bit cleared."""
    return MBF(bytes([x.raw[0], x.raw[1], x.raw[2] & 0x7F, x.raw[3]]))


def wrap16(value: int) -> int:
    value &= 0xFFFF
    return value - 0x10000 if value & 0x8000 else value


@dataclass
class Meteors:
    """One session of the program from RANDOMIZE TIMER on."""

    settings: trace.Settings
    random: rng.QuickBasicRandom = field(default_factory=rng.QuickBasicRandom)
    events: list = field(default_factory=list)

    def __post_init__(self) -> None:
        s = self.settings
        self.colour = s.colour
        self.sound = s.sound
        self.demo_on = s.demo
        self.screen = Screen()
        self.level = 0
        self.prob = mbf.ZERO
        self.games = 0
        self.high = MIN_INT
        self.score = 0
        self.ds = 0
        self.px = self.py = 0
        self.direction = ""
        self.countdown = 0
        self.block = 0xDB                 # line 350
        self.top_row = self.bottom_row = 0
        self.background = 0
        self.shown = False
        self.meteor_char = 0
        self.mx = self.my = mbf.ZERO
        self.absorbed = False
        self.flag = False
        self.frames = 0                  # this game's
        self.total_frames = 0            # the session's, the one asked for included
        self.frame: dict | None = None
        self.player = demo.DemoPlayer(self)
        self.on_tick = None               # play: called at each frame's tick (the pace, the keys)
        self.on_show = None               # play: called at PRESS ANY KEY TO START (the key)
        self.time_of_day = None           # play: the clock RANDOMIZE TIMER reads at a key press
        self.pitch = 300                  # line 4520
        self.policy = None
        self.pending: list[str] = []      # keys pressed whose ON KEY handlers have not run
        self.keys_handled = 0             # in this step
        # the BIOS tick the program is in (timing.py), with sound off and on
        # (a human player's space, and with sound off F1, are typed at line 3560: original.py)
        at_key_loop = timing.keys_at_key_loop(s)
        self.ticks = timing.FrameClock(s.time, 0 if at_key_loop else int(not s.sound) + int(s.demo),
                                       muted=at_key_loop and not s.sound, demo=s.demo)
        # ON KEY events the runtime has queued (timing.EVENT_SLOTS): with sound off F1 typed twice at line
        # 4410 and once behind the space (muted), or by the run loop (the demo's F2 and F1, a cut show's F1)
        self.events_queued = self.ticks.function_keys + 3 * self.ticks.muted
        self.anchor = "start"             # sound on: where the step went on after a PLAY(0) wait
        self.game_tick = 0                # the tick at line 510 of this game
        self.table_rows = 0               # the high-score table's rows shown (line 5370)
        self.table_file = "missing"       # METEORS.SCR: missing, written, read
        self.step_from = "gosub"          # GOSUB 1100 from a path's loop, or GOTO 1100 (hit_cost.RETURN)
        self.drawn_at_edge = 0            # a bite's move: the player drawn in column 80 (move())
        self.straight = False             # the meteor's path is straight (lines 980-1090)
        self.absorbed_paths: dict = {}    # COLOR FNR(7)'s runtime paths (line 1310)
        self.cost_log: list | None = None   # (piece, instructions, frame): the model's pieces, to time them
        self.place_log: list | None = None  # (line, instructions, tick): the clock at a statement's INT 3
        self.show_paths = 0               # what lines 450 and 480 spend on their values in game 1 (show_time)
        self.screens = 0                  # level screens drawn (G$ and X$ are empty before the first)
        self.scores = scores.HighScores()  # the high-score table's state and screens
        self.name_key = None               # play: the next key of the name typed (None: PLAYER)
        # the runtime's string space (strings.py; in demo mode with F2's handler's strings and
        # the demo player's D$): from the first game's show (new_game_screen), whose .1 s wait
        # makes passes show_time counts; no statement before it touches the string space
        self.strings: strings.MeteorsStrings | None = None
        self.table_extra: dict | None = None   # the string space's walks in the table, by phase
        self.late_keys: list[tuple[float, int]] = []   # the name's bytes after LINE INPUT (line_input.py)
        if s.human is not None:
            from games_py.meteors.human import policy_from
            self.policy = policy_from(s.human)

    # -- the runtime's pieces ---------------------------------------------------------
    def string_space(self, statement: str, *args) -> None:
        """The string space's part of ``statement`` (a MeteorsStrings method): the
        instructions its merging walks take beyond an allocation at the rover."""
        if self.strings is None:
            return
        try:
            getattr(self.strings, statement)(*args)
        except string_space.Compaction as exc:
            self.strings = None               # no longer followed (never met in the human sweeps)
            if self.on_tick is None and not self.demo_on:   # a trace ends here; play goes on, and
                raise Unmodelled(f"the runtime compacts its string space (062B:8385): {exc}") from None
            return                            # a demo trace (its frames' states still compared)
        extra = self.strings.take_extra()
        if statement == "entry_written" and self.table_extra is not None:
            self.table_extra["written"] = True
        if extra and self.table_extra is not None:         # the table's, put in its timeline
            phase = TABLE_PHASES.get(statement, "saved" if self.table_extra["written"] else "table")
            self.table_extra[phase] += extra
        elif extra:
            if self.cost_log is not None:
                self.cost_log.append(("strings:" + statement, extra, self.total_frames))
            self.ticks.work_done(extra)

    def table_value(self, phase: str, instructions: int) -> None:
        """What a statement of the high-score table spends on its values (table_cost.py), put
        in the table's timeline with the string space's walks."""
        if self.table_extra is not None:
            self.table_extra[phase] += instructions

    def rnd(self) -> MBF:
        return self.random.rnd()

    def fnr(self, n: int) -> int:
        """DEF FNR(N) = INT(N * RND + 1) (0000:00FA)."""
        return self.random.random_int(n)

    def int_rnd(self, scale: MBF, offset: MBF) -> int:
        """CINT(INT(RND * scale + offset))."""
        return mbf.cint(mbf.int_(mbf.add(mbf.mul(self.rnd(), scale), offset)))

    # -- the session ------------------------------------------------------------------
    def start(self) -> None:
        start = trace.start_event(self.settings, self.random.state, "python", fast=True)
        self.events.append(start)
        start["fast"] = self.ticks.calibrate()
        if not start["fast"]:                   # frames not paced by line 3231 (timing.UNPACED)
            start["metadata_keys"] = trace.metadata_keys(self.settings, fast=False)

    def play(self, stop) -> None:
        """Games until ``stop(self)`` says enough (checked at every frame)."""
        self.stop = stop
        try:
            while True:
                self.game()
        except SessionOver:
            pass
        except Unmodelled as exc:
            self.events.append({"event": "unmodelled", "reason": str(exc)})

    def game(self) -> None:
        # lines 430-550
        self.games += 1
        self.level += 1
        if self.level > 9:
            self.level = 1
        with mbf.counting_paths() as paths:            # line 450: PROB = LEVEL * .1
            self.prob = mbf.mul(mbf.from_int(self.level), TENTH)
        meteor, more = self.fnr_costed(14, csng=True)   # line 480: METEOR = M(FNR(14))
        self.meteor_char = METEOR_CHARS[meteor - 1]
        self.score, self.ds = -2, 2
        if self.games > 1:                              # (the first game's T0 is the show's)
            self._work("game_start", level_cost.GAME_TO_PROB + level_cost.GAME_PROB + level_cost.GAME_METEOR,
                       paths + more)
            self.string_space("game_started")           # line 480: M$ = CHR$(METEOR)
        else:                                           # (the show's time: show_time.py)
            self.show_paths = runtime_cost.instructions(paths + more)
        self.game_tick = self.ticks.now                 # line 510
        self.events.append({"event": "game_start", "game": self.games, "level": self.level,
                            "char": self.meteor_char, "rnd": self.random.state})
        self.frames = 0
        if self.games > 1:
            self._work("game_start", level_cost.GAME_SCREEN, {})
        self.new_game_screen()
        self._work("blocks_end", level_cost.PLACE, {})  # lines 520-560: the player's place
        while True:
            x, paths = self.fnr_costed(40)
            y, more = self.fnr_costed(8)
            self.px, self.py = x + 20, y + 16
            self._work("blocks_end", level_cost.PLACE_PASS, paths + more)
            if self.screen.char(self.py, self.px) == SPACE:
                break
        self._work("blocks_end", level_cost.PLACED, {})
        with mbf.counting_paths() as paths:             # line 570: TSTART = TIMER
            self.scores.started(self)
        self._work("blocks_end", level_cost.TSTART + level_cost.TO_METEOR, paths)   # to line 630
        self.screen.put(self.py, self.px, PLAYER)
        self.flag = False
        try:
            while True:
                self.choose_meteor()
                self.meteor()
                if self.flag:
                    raise GameOver
        except GameOver:
            self.game_over()

    def _rnd_below_half(self, paths: Counter) -> bool:
        """IF RND < .5 (the background's draws), its MBF paths added to ``paths``."""
        with mbf.counting_paths() as more:
            below = mbf.compare(self.rnd(), HALF) < 0
        paths.update(more)
        return below

    def fnr_costed(self, n: int, csng: bool = False) -> tuple[int, Counter]:
        """FNR(n) (0000:00FA: INT(N * RND + 1)) in the runtime's arithmetic, and the paths its
        RND, multiply, add, INT and CINT take (and the CSNG of N where the caller converts an
        integer variable, ``csng``; constants are copied as singles)."""
        r = self.random
        if not csng:
            factor = mbf.from_int(n, r.fac)
        with mbf.counting_paths() as paths:
            if csng:
                factor = mbf.from_int(n, r.fac)
            r.fac = factor
            value = mbf.int_(mbf.add(mbf.mul(r.rnd(), factor), rng.ONE))
            r.fac = value
            result = mbf.cint(value)
        return result, paths

    def game_over(self) -> None:
        self.place(1620)
        with mbf.counting_paths() as paths:
            self.scores.ended(self)                        # line 1620: TEND = TIMER
        if self.high < self.score:
            self.high = self.score
        self.events.append({"event": "game_over", "game": self.games, "score": self.score,
                            "high": self.high, "frames": self.frames, "tick": self.game_ticks()})
        self._work("game_over", hit_cost.TEND + hit_cost.TO_PAUSE, paths)   # to line 1710's first INT 3
        self.scores.reached(1640, self)                # play: the explosion stays for the pause
        self.two_second_pause(end_cost.TO_TABLE)       # line 1640: GOSUB 1700
        self.level = 0
        self.prob = mbf.ZERO
        self.place(5370)
        self.high_score_table()
        self.ticks.work_done(end_cost.TABLE_TO_PAUSE)  # the table's RETURN -> 1710
        self.two_second_pause(end_cost.TO_GAME)        # line 1670: GOSUB 1700
        self.place(1680)

    def two_second_pause(self, after_passes: int) -> None:
        """GOSUB 1700, pass by pass (end_cost.py), ``after_passes`` on from line 1730's RETURN.
        With sound on the music's interrupts come in its passes (the hit's note in the first),
        and the second begins by waiting for the table's last note to start."""
        self.place(1710)
        if self.sound and self.ticks.queue:
            end_cost.play_wait(self.ticks)
            self.ticks.pause_passes(end_cost.PLAY_PASS)
        else:
            self.ticks.pause_passes()
        self.place(1196)
        self.ticks.work_done(after_passes)

    def high_score_table(self) -> None:
        """GOSUB 5370: what it costs (its screen has no part in the trace).  METEORS.SCR
        is read once, the first time it exists (after the first name); the table's count
        (DGROUP:10C6) comes from that read alone, so it shows at most 2 rows.  A score
        above 0 asks for a name (not in demo mode, line 5840), which the tracer types,
        and the table is saved (timing.py)."""
        self.table_extra = {"table": 0, "name": 0, "typed": 0, "checked": 0, "saved": 0, "written": False}
        self.scores.show(self)                             # its screens (scores.py)
        extra, self.table_extra = self.table_extra, None   # (its walks, where they come)
        work = (timing.TABLE + timing.TABLE_COLOUR * self.colour + self._table_row() * self.table_rows
                + extra["table"])
        if self.table_file == "missing":             # (TABLE_MISSING holds the first OPEN's part)
            work += timing.TABLE_MISSING - timing.FIRST_OPEN * (not self.scores.first_open)
        elif self.table_file == "written":
            work += timing.TABLE_READ + timing.COMPUTER_READ * self.demo_on
            self.table_file = "read"
        if self.score > 0:                 # a name, and the table saved (line 6270's SOUND last)
            self.table_rows = min(self.table_rows + 1, 2)
            if self.table_file == "missing":
                self.table_file = "written"
            work = (self._computer_saved if self.demo_on else self._name_saved)(work, extra)
        self.ticks.work_done(work)

    def _table_row(self) -> int:
        """A row of the table shown (lines 6450-6540), its score's PRINT USING besides (in demo mode
        every row's name is COMPUTER)."""
        return timing.TABLE_ROW + timing.TABLE_ROW_COLOUR * self.colour + timing.COMPUTER_ROW * self.demo_on

    def _computer_saved(self, work: float, extra: dict) -> float:
        """Demo mode: COMPUTER saved with no prompt (line 5840); the work left after line 6270's
        SOUND (sound on), or all of it."""
        after = (timing.DEMO_SAVE[self.colour] + timing.MOVED * self.scores.moved
                 + (timing.SAVED + timing.COMPUTER_RECORD + self._table_row()) * self.table_rows
                 + extra["saved"] + extra["name"])
        if not self.sound:
            return work + after
        self.ticks.work_done(work + after + timing.DEMO_SAVE_SOUND - timing.SAVED_SOUND - timing.SOUND_MASKED)
        return self._saved_sound()

    def _name_saved(self, work: float, extra: dict) -> float:
        """The name's statements (lines 5770-6350) but LINE INPUT: before it (to line 5910, where
        the tracer types the name) and after it, and LINE INPUT itself, which ends where the last
        key comes (they come at fixed times), whatever interrupts take; the work left after line
        6270's SOUND (sound on), or after LINE INPUT."""
        prompt = timing.NAME_PROMPT + timing.NAME_PROMPT_COLOUR * self.colour
        after = (timing.NAME + timing.NAME_COLOUR * self.colour + timing.MOVED * self.scores.moved
                 + (timing.SAVED + self._table_row()) * self.table_rows + extra["saved"])
        if not self.sound:
            self.ticks.work_done(work + prompt + extra["name"])
            self._name_typed(extra)
            self._work_after_input(after + extra["checked"])
            return 0
        masked = timing.SOUND_MASKED       # lines 5860 (after WHILE PLAY(0)), 6000 and 6270
        self.ticks.work_done(work + timing.TABLE_TO_SOUND - masked)
        self.ticks.wait_play(0)
        fresh = not self.ticks.playing
        self.ticks.sound("table")
        self.ticks.work_done(prompt - timing.TABLE_TO_SOUND + timing.SOUND_TO_PROMPT
                             + timing.FRESH_START * fresh + extra["name"])
        self._name_typed(extra)
        self._work_after_input(timing.INPUT_TO_SOUND - masked + extra["checked"])
        fresh = not self.ticks.playing
        self.ticks.sound("table")
        self._work_after_input(after - timing.AFTER_SOUNDS + timing.FRESH_START * fresh - masked)
        return self._saved_sound()

    def _name_typed(self, extra: dict) -> None:
        """Line 5910's INT 3 to LINE INPUT's end (0000:35DF, logged as 5940): the name's keys
        byte by byte (line_input.py), then N$'s assignment (its old string freed, the string
        space's walks: end_probe measures them there)."""
        self.place(5910)
        self.late_keys = line_input.name_input(self.ticks, self.colour, extra["typed"])
        self.place(5940)

    def _work_after_input(self, instructions: float) -> None:
        """Work after LINE INPUT, with the name's bytes still to come (Enter's break: its INT 9
        takes its time from the statements it comes in)."""
        while self.late_keys and self.late_keys[0][0] < self.ticks.t + instructions:
            at, length = self.late_keys.pop(0)
            before = max(0.0, at - self.ticks.t)
            self.ticks.work_done(before)
            self.ticks.work_done(length)
            instructions -= before
        self.ticks.work_done(instructions)

    def _saved_sound(self) -> float:
        """Line 6270's SOUND queued now: the table's work left after it."""
        fresh = not self.ticks.playing
        self.ticks.sound("saved")
        return timing.SAVED_SOUND + timing.FRESH_START * fresh

    def place(self, line: int) -> None:
        """The model's clock is at line ``line``'s INT 3 (end_probe.py pairs these with the
        original's)."""
        if self.place_log is not None:
            self.place_log.append((line, self.ticks.t, self.ticks.now, self.ticks.bios_due))

    def game_ticks(self) -> int:
        return self.ticks.since(self.game_tick)

    # -- screens ----------------------------------------------------------------------
    def new_game_screen(self) -> None:
        """GOSUB 3370."""
        first = self.games <= 1
        if first:
            colours, costs = None, []
            if self.colour:                        # line 4310: each row of the title
                colours = []
                for _ in range(8):
                    with mbf.counting_paths() as paths:
                        colours.append(self.int_rnd(FIVE, TWO))
                    costs.append(runtime_cost.instructions(paths))
            self.ticks.show(self.colour, self.show_paths, costs)
            self.strings = strings.MeteorsStrings(strings.show_passes(self.ticks), demo=self.settings.demo)
            show.draw(self.screen, colours)
            if self.on_show is not None:
                self.on_show(self)                 # play: PRESS ANY KEY TO START
            if self.demo_on:
                self.score = 0                     # F2 at PRESS ANY KEY: line 4770
        work, paths = 0, Counter()
        while True:                                # lines 3580-3610
            if not self.colour:
                self.background = 0
                work += level_cost.BACKGROUND_MONO
                break
            work += level_cost.BACKGROUND_PASS
            b = 1
            below = self._rnd_below_half(paths)
            work += level_cost.BACKGROUND_FIRST[below]
            if below:
                b = 5
            else:
                below = self._rnd_below_half(paths)
                work += level_cost.BACKGROUND_SECOND[below]
                if below:
                    b = 8
            if self.background != b:
                self.background = b
                work += level_cost.BACKGROUND_DONE
                break
            work += level_cost.BACKGROUND_AGAIN
        work += level_cost.CLEAR + level_cost.BORDER[self.background == 8] + level_cost.CLEARED
        # from line 3560's pass that reads the space (timing.show): the first pass for a human
        # player, a later one for the demo (after F2's handler)
        key_loop = first and (self.ticks.function_keys == 0 or self.demo_on)
        if not first:
            self._work("game_start", work, paths)
        elif key_loop:
            work += level_cost.KEY_LOOP_EXIT
            self.ticks.press_any_key(work + runtime_cost.instructions(paths))
        self.screen.clear()
        self.shown = True
        # (the demo's first T0 is the show's: timing.STARTUP)
        self.level_screen("game_start" if not first else "first_screen" if key_loop else None)

    def level_screen(self, piece: str | None) -> None:
        """GOSUB 3670: the status line, the score (adding DS once more), the countdown,
        new blocks.  ``piece``: the model's name for the work before its T0 (None: the first
        game's, whose T0 the show's timing places)."""
        self.status_colour()
        self.string_space("level_screen_head")
        self.screen.write(25, 1, b" " * 80)           # LOCATE 25, 1: PRINT SPACE$(80);
        self.screen.write(25, 1, b"TOMMY'S METEORS")
        self.add_score()
        if piece is not None:                         # lines 3670-3710, GOSUB 3120, 3230-3231
            unpaced = (timing.UNPACED - timing.PACED_LEVEL) * (not self.ticks.fast)   # FAST false
            self._work(piece, level_cost.STATUS + level_cost.SCORE_ROUTINE + level_cost.TO_T0 + unpaced
                       + (level_cost.STATUS_COLOUR + level_cost.SCORE_COLOUR) * self.colour
                       + self.score_work(self.score), {})
        self.countdown = 101
        self.tick(wait=False)
        self.status_colour()
        if self.high > MIN_INT:
            self.screen.write(25, 46, f"HIGH SCORE:{self.high:6d}".encode())
        self.screen.write(25, 64, f"LEVEL:{self.level}".encode())
        self.screen.write(25, 72, f"GAME:{self.games}".encode())
        self.screen.color(7, 0)
        self.string_space("level_screen_tail", self.high > MIN_INT, self.games)
        self._work("blocks", self.headings_work(), self.ticks.t0_paths)
        self.draw_blocks()
        self.screens += 1

    def headings_work(self) -> int:
        """Lines 3232-3830 from T0 on besides T0 = TIMER's paths: the countdown of 100, HIGH
        SCORE (its compare, and its PRINT USING for the value), LEVEL, GAME (STR$ and its
        digits), to GOSUB 3820."""
        lc = level_cost
        with mbf.counting_paths() as paths:        # line 3750: IF HIGH > -32768
            mbf.compare(mbf.from_int(self.high), SCORE_BOTTOM)
        high = (lc.HIGH + runtime_cost.print_using_integer(self.high, timing.SCORE_FIELD)
                if self.high > MIN_INT else lc.NO_HIGH)
        return (lc.T0 + lc.COUNTDOWN_HUNDRED + lc.HEADINGS + lc.HEADINGS_COLOUR * self.colour
                + high + runtime_cost.instructions(paths) + lc.LEVEL_SHOWN + lc.GAME_SHOWN
                + lc.game_digits(self.games) + lc.FIRST_STRING * (self.screens == 0) + lc.TO_BLOCKS)

    def status_colour(self, foreground: int = 7) -> None:
        """Lines 3680/3190: the status line's colours (the border's, 4 for grey's 8)."""
        if self.colour:
            self.screen.color(foreground, 4 if self.background == 8 else self.background)
        elif foreground == 7:
            self.screen.color(0, 7)        # reverse video
        else:
            self.screen.color(foreground, 0)   # the last 20 of the countdown: bright on black

    def draw_blocks(self) -> None:
        """GOSUB 3820 (its cost statement by statement: level_cost)."""
        lc = level_cost
        work, paths = 0, Counter()
        while True:                                   # lines 3840-3870
            with mbf.counting_paths() as more:
                if mbf.compare(self.rnd(), C(0.25)) < 0:
                    branch, blk = "low", self.int_rnd(C(39), C(180))
                elif mbf.compare(self.rnd(), MBF.from_hex("66 66 66 80")) < 0:
                    branch, blk = "high", self.int_rnd(FIVE, C(219))
                else:
                    branch, blk = "full", 254
            paths += more
            work += lc.DRAW[branch]
            if blk != self.block:
                break
        self.block = blk
        work += lc.BLOCK_STRINGS + lc.FIRST_STRING * (self.screens == 0)
        if self.score < 1000:                          # lines 3910-3950
            self.top_row, self.bottom_row = 12 - self.level, 26 - 2 * self.level
            work += lc.ROWS_FIXED
        else:
            work += lc.ROWS_DRAWN
            while True:
                top, more = self.fnr_costed(9)
                bottom, also = self.fnr_costed(17)
                self.top_row, self.bottom_row = top + 2, bottom + 7
                paths += more + also
                work += lc.ROWS_PASS
                if self.bottom_row - self.top_row >= 4:
                    break
        if self.colour:                                # line 3960
            with mbf.counting_paths() as more:
                self.screen.color(self.int_rnd(FIVE, TWO), 0)
            paths += more
        else:
            self.screen.color(7, 0)
        work += lc.ROWS_COLOUR[self.colour]
        for row in range(self.top_row, self.bottom_row + 1):
            for col in BLOCK_COLUMNS:
                for i in range(14):
                    self.screen.put(row, col + i, self.block)
        self.events.append({"event": "blocks", "char": self.block, "rows": [self.top_row, self.bottom_row]})
        self.string_space("blocks", self.bottom_row - self.top_row + 1)
        self._work("blocks", work + lc.ROWS_START + lc.ROW * (self.bottom_row - self.top_row + 1), paths)
        self.screen.color(7, 0)
        self.flag = False                              # lines 4000-4050
        work = lc.BLOCKS_END + lc.SCREEN_RETURN
        if self.top_row > self.py or self.bottom_row < self.py:
            work += lc.OUTSIDE
        else:
            work += lc.gap_check(self.px, BLOCK_COLUMNS)
            self.flag = not self.in_gap(self.px)
        self._work("blocks_end", work, {})

    @staticmethod
    def in_gap(x: int) -> bool:
        """GOSUB 2310: TRUE when column x is between the blocks."""
        return not any(c <= x <= c + 13 for c in BLOCK_COLUMNS)

    # -- the meteor ---------------------------------------------------------------------
    def choose_meteor(self) -> None:
        """Lines 630-690: each pass of each line costs what its statements' runtime calls
        spend on its values (runtime_cost) besides its fixed part (timing.py)."""
        self.y1 = ONE
        work = 0 if self.frames == 0 else timing.NEW_METEOR
        while True:                                    # line 630, IF at 640
            with mbf.counting_paths() as paths:
                x = mbf.from_int(self.px)
                a = mbf.sub(x, mbf.mul(self.rnd(), TWENTY))
                self.x1 = mbf.int_(mbf.add(a, mbf.mul(self.rnd(), TWENTY)))
                # (| not or: the compiled OR evaluates both compares, and both cost)
                outside = (mbf.compare(self.x1, ONE) < 0) | (mbf.compare(self.x1, EIGHTY) > 0)
            work += self._pass_cost("x1", not outside, paths)
            if not outside:
                break
        while True:                                    # line 650, IF at 660
            with mbf.counting_paths() as paths:
                x = mbf.from_int(self.px)
                spread = mbf.from_int(15 - self.level)
                r1 = self.rnd()
                d = mbf.sub(r1, self.rnd())
                self.x2 = mbf.int_(mbf.add(x, mbf.mul(spread, d)))
                same = mbf.compare(self.x2, self.x1) == 0
                outside = not same and (mbf.compare(self.x2, ONE) < 0) | (mbf.compare(self.x2, EIGHTY) > 0)
            work += self._pass_cost("x2_same" if same else "x2", not (same or outside), paths)
            if not (same or outside):
                break
        while True:                                    # line 680, IF at 690
            with mbf.counting_paths() as paths:
                y = mbf.from_int(self.py)
                r1 = self.rnd()
                p = mbf.mul(mbf.mul(r1, self.rnd()), TWENTY_FOUR)
                self.y2 = mbf.int_(mbf.add(y, p))
                above = mbf.compare(self.y2, self.y1) <= 0
                outside = not above and (mbf.compare(mbf.from_int(18 - self.level), self.y2) > 0) \
                    | (mbf.compare(self.y2, TWENTY_FOUR) > 0)
            work += self._pass_cost("y2_above" if above else "y2", not (above or outside), paths)
            if not (above or outside):
                break
        self.events.append({"event": "meteor", "from": [int(self.x1.to_float()), 1],
                            "to": [int(self.x2.to_float()), int(self.y2.to_float())],
                            "rnd": self.random.state})
        self.ticks.work_done(work)

    def _pass_cost(self, kind: str, last: bool, paths) -> int:
        """A pass of lines 630-700: its fixed part, and what the runtime spent on its values."""
        cost = timing.METEOR_PASS[kind, last] + runtime_cost.instructions(paths)
        if self.cost_log is not None:
            self.cost_log.append((kind + "_last" * last, cost, self.total_frames))
        return cost

    def meteor(self) -> None:
        """GOSUB 780.  The work up to the first step (lines 700-920 or 980-1040) costs its
        fixed part and what the runtime spends on its values (runtime_cost): the clamps of
        lines 790-820 never act on these values, but their compares take a longer way for a
        value equal to the bound (X1 or X2 at 1 or 80, Y2 at 24)."""
        self.flag = False
        self.straight = False
        with mbf.counting_paths() as paths:
            for value, top in ((self.x1, EIGHTY), (self.x2, EIGHTY), (self.y1, TWENTY_FOUR), (self.y2, TWENTY_FOUR)):
                mbf.compare(value, ONE)
                mbf.compare(value, top)
            straight = mbf.compare(self.rnd(), TENTH) < 0
        if straight:
            return self.straight_meteor(paths)
        with mbf.counting_paths() as more:
            n = mbf.from_int(self.random.random_int_in_mbf(2) + 1)
            slope = mbf.mul(mbf.div(mbf.sub(self.x2, self.x1), mbf.sub(self.y2, self.y1)), n)
            xf = mbf.sub(self.x1, slope)
            y = self.y1
            going = mbf.compare(y, self.y2) <= 0       # FOR Y = Y1 TO Y2 STEP N
            if going:
                xf = mbf.add(xf, slope)
                self.mx = mbf.int_(mbf.add(xf, HALF))
        self._work("curved", timing.CURVED_TO_STEP, paths + more)
        while going:
            self.my = y
            if self.path_ends():
                return
            with mbf.counting_paths() as paths:
                y = mbf.add(y, n)                      # NEXT (lines 960, 900)
                going = mbf.compare(y, self.y2) <= 0
                if going:
                    xf = mbf.add(xf, slope)
                    self.mx = mbf.int_(mbf.add(xf, HALF))
            self._work("next", 0 if going else timing.CURVED_LAST, paths)
        self.my = y                                    # line 960: GOTO 1100, Y one step on
        self.step(gosub=False)

    def straight_meteor(self, paths) -> None:
        """Lines 980-1090."""
        self.straight = True
        with mbf.counting_paths() as more:
            n = mbf.add(mbf.mul(self.rnd(), FIVE), TWO)
            dx = mbf.sub(self.x2, self.x1)
            dy = mbf.sub(self.y2, self.y1)
        with mbf.counting_paths():                 # its cost measured whole (sqr_cost.py)
            d = sqr(mbf.add(mbf.mul(dx, dx), mbf.mul(dy, dy)))
        root = sqr_cost.sqr_line(int(dx.to_float()), int(dy.to_float()))
        with mbf.counting_paths() as rest:
            dx = mbf.div(mbf.mul(n, dx), d)
            dy = mbf.div(mbf.mul(n, dy), d)
            xf, yf = self.x1, self.y1
            self.mx = mbf.int_(mbf.add(xf, HALF))
            self.my = mbf.int_(mbf.add(yf, HALF))
        self._work("straight", timing.STRAIGHT_TO_STEP + root, paths + more + rest)
        while True:
            if self.path_ends():
                return
            with mbf.counting_paths() as paths:        # lines 1080, 1020
                xf = mbf.add(xf, dx)
                yf = mbf.add(yf, dy)
                going = mbf.compare(yf, self.y2) < 0
                if going:
                    self.mx = mbf.int_(mbf.add(xf, HALF))
                    self.my = mbf.int_(mbf.add(yf, HALF))
            self._work("next", 0 if going else timing.STRAIGHT_LAST, paths)
            if not going:
                break
        self.step(gosub=False)                         # line 1090 falls into 1100

    def _work(self, piece: str, fixed: int, paths) -> None:
        """Work with no wait: its fixed part and what the runtime spent on its values."""
        cost = fixed + runtime_cost.instructions(paths)
        if self.cost_log is not None:
            self.cost_log.append((piece, cost, self.total_frames))
        self.ticks.work_done(cost)

    def path_ends(self) -> bool:
        """One place of the meteor's path, in both of its loops: the step (GOSUB 1100) and
        the pace (GOSUB 3230); True when the path stops there (the player hit or caught,
        or the meteor absorbed: line 940's GOTO 1100, one step more)."""
        self.step()
        if self.flag:
            return True
        self.tick()
        if self.flag:
            return True
        if self.absorbed:
            self.step(gosub=False)                     # line 940 or 1070: GOTO 1100
            return True
        return False

    # -- one step: GOSUB 1100 -------------------------------------------------------------
    def step(self, gosub: bool = True) -> None:
        """GOSUB 1100 from a path's loop (lines 920, 1040), or GOTO 1100 (``gosub`` False: a
        path's extra step, an absorbed meteor's), which RETURNs straight to line 720."""
        self.step_from = "gosub" if gosub else "goto"
        self.keys_handled = 0
        self.key_work = 0                 # the keys' ON KEY handlers, to the instruction
        self.move_work = timing.NO_MOVE   # 1140 -> 1180 (or -> a bite's SOUND: move())
        self.drawn_at_edge = 0            # a bite's move: the player drawn in column 80, after its SOUND
        self.anchor = "start"
        self.one_step()
        if not self.sound and not self.flag:   # with sound on its notes' waits did (note_played),
            work = self.silent_step()          # a hit its own (player_hit)
            if self.ticks.queue and not self.frame.get("ate") and not self.absorbed:
                # line 3530's notes still queued (the first frames): line 1390's WHILE PLAY(0)
                # waits for the last to start, pass by pass (SILENT_STEP begins with its first pass)
                self.ticks.work_done(work - timing.SILENT_STEP)
                self.ticks.loop_start = self.ticks.t
                self.ticks.wait_notes("silent")
            else:
                self.ticks.work_done(work)

    def silent_step(self) -> int:
        """Sound off, a step with no hit: 1110 -> 3231, the sound-on step's pieces without its
        SOUNDs and their waits (timing.SILENT_STEP ...)."""
        control = timing.METEOR_PRINT_CONTROL * (self.meteor_char < 32) + self.meteor_at_edge()
        work = (timing.STEP_START + self.key_work + self.move_work + self.check_work + timing.METEOR_PRINT
                + control + timing.SILENT_STEP)
        ate = self.frame.get("ate")
        if ate:                              # the bite's new score (before an absorbed meteor's -2)
            work += self.bite_score_work(wrap16(self.score + 2 * self.absorbed), ate == "meteor", silent=True)
        if self.absorbed:
            work += (timing.SILENT_ABSORBED[self.colour] + self.score_work(self.score) + control
                     + runtime_cost.instructions(self.absorbed_paths))
        return work

    def meteor_at_edge(self) -> int:
        """PRINT M$ in column 80 (timing.COLUMN_80)."""
        return timing.COLUMN_80 * (int(self.mx.to_float()) == 80)

    def one_step(self) -> None:
        self.total_frames += 1
        if self.stop(self):
            raise SessionOver
        self.frames += 1
        mx, my = int(self.mx.to_float()), int(self.my.to_float())
        self.frame = {"event": "frame", "n": self.frames, "tick": self.ticks.since(self.game_tick, self.ticks.now_at_int3()),
                      "player": [self.px, self.py],
                      "dir": self.direction, "meteor": [mx, my], "score": self.score,
                      "countdown": self.countdown, "level": self.level, "game": self.games,
                      "rnd": self.random.state}
        self.events.append(self.frame)
        self.place(1110)
        self.string_space("frame", self.total_frames == 1)   # line 1110
        self.key_work += timing.FREED * (self.total_frames == 1)   # (K$'s first assignment frees the space)
        if self.policy is not None:
            key = self.policy.choose(self.frame)
            if key is not None:
                self.pending.append(key)
        while self.pending:                # ON KEY(11-14) at line 1110's second statement
            self.key_pressed(self.pending.pop(0))
        self.string_space("escape_tested")
        if self.demo_on:
            self.player.decide()
            self.key_work += self.player.cost     # (before the move, as a key's handler)
        if self.direction:
            self.move()
        check_hit = True
        with mbf.counting_paths() as immune:      # line 1200
            if self.demo_on and self.score < DEMO_IMMUNE_BELOW:
                if mbf.compare(self.rnd(), RND_999) < 0:
                    check_hit = False
        self.check_work = timing.CHECK
        if self.demo_on:
            self.check_work += (demo_cost.TESTED if check_hit else demo_cost.SKIPPED) + runtime_cost.instructions(immune)
        with mbf.counting_paths() as paths:       # line 1210: ABS(MX - X) < 2 AND ABS(MY - Y) < 2
            near = False
            if check_hit:
                near = mbf.compare(_abs(mbf.sub(self.mx, mbf.from_int(self.px))), TWO) < 0
                if near:
                    self.check_work += timing.CHECK_SECOND
                    near = mbf.compare(_abs(mbf.sub(self.my, mbf.from_int(self.py))), TWO) < 0
        if near:
            return self.player_hit(paths)
        self.absorbed = False
        with mbf.counting_paths() as more:        # lines 1240-1280
            if self.screen.char(my, mx) == self.block:
                self.check_work += timing.CHECK_BLOCK
                if mbf.compare(self.rnd(), self.prob) > 0:
                    self.absorbed = True
            if mbf.compare(self.mx, ONE) >= 0:
                mbf.compare(self.mx, EIGHTY)
            if mbf.compare(self.my, TWENTY_FOUR) > 0:
                self.check_work += timing.CHECK_ROW
        self.check_work += runtime_cost.instructions(paths + more)
        mx = min(max(mx, 1), 80)
        my = min(my, 24)
        self.mx, self.my = mbf.from_int(mx), mbf.from_int(my)
        if self.absorbed:
            with mbf.counting_paths() as paths:    # line 1310: COLOR FNR(7) + 8 in colour
                shade = self.random.random_int_in_mbf(7) + 8 if self.colour else 15
            self.absorbed_paths = paths
            self.screen.color(shade, 0)
            self.screen.put(my, mx, self.meteor_char)
            self.screen.color(7, 0)
            self.ds = -2
            self.add_score()
            self.sound_effect("absorbed")
        self.screen.put(my, mx, self.meteor_char)
        self.sound_effect("fall")

    def sound_effect(self, name: str) -> None:
        if self.sound and self.frame is not None:
            self.frame.setdefault("sound", []).append(name)
        if self.sound and name != "level":
            self.note_played(name)

    def note_played(self, name: str) -> None:
        """Sound on: the step's work up to this SOUND, the note, WHILE PLAY(0): WEND."""
        kind = "ate" if name.startswith("ate") else name
        if kind == "fall" and self.anchor in ("start", "ate", "absorbed"):
            work = self._to_fall_sound()
        elif kind == "absorbed" and self.anchor in ("start", "ate"):
            work = self._to_absorbed_sound()
        elif (self.anchor, kind) == ("start", "ate"):
            work = timing.STEP_START + self.key_work + self.move_work + timing.BITE_QUEUED
        else:
            work = timing.TO_SOUND[(self.anchor, kind)]
            if self.anchor == "start":
                work += self.key_work
                if kind in ("fall", "absorbed", "hit") and self.direction:
                    work += timing.MOVE
        self.ticks.work_done(work - timing.SOUND_MASKED)
        self.ticks.sound(name)
        self.ticks.wait_notes(kind)
        self.anchor = kind

    def _to_fall_sound(self) -> int:
        """From the step's start (or a bite's wait) to the fall's note queued (line 5120):
        the pieces' fixed parts and what the runtime spends on their values."""
        if self.anchor == "start":
            work = timing.STEP_START + self.key_work + self.move_work + self.check_work
        elif self.anchor == "absorbed":            # its wait's end -> line 1380
            work = timing.ABSORBED_TO_PRINT
        else:                                      # the bite's score (GOSUB 3120), lines 3020-3100
            work = self.bite_score_work(self.score, self.frame.get("ate") == "meteor") + self.check_work
        with mbf.counting_paths() as paths:        # line 5110: the frequency from MY and PITCH
            pitch = mbf.from_int(self.pitch)
            mbf.cint(mbf.mul(pitch, mbf.sub(ONE, mbf.mul(self.my, timing.FREQUENCY_FACTOR))))
        return (work + timing.METEOR_PRINT
                + timing.METEOR_PRINT_CONTROL * (self.meteor_char < 32) + self.meteor_at_edge()
                + timing.PITCH + runtime_cost.instructions(paths) + timing.SOUND_QUEUED)

    def bite_score_work(self, score: int, crater: bool, silent: bool = False) -> int:
        """A bite's wait's end -> line 1180: its new score (GOSUB 3120, lines 3020-3100); with
        ``silent`` (sound off) the bite's statements whole, with no SOUND or wait."""
        return ((timing.SILENT_BITE if silent else timing.AFTER_BITE) + timing.SCORE_COLOUR * self.colour
                + timing.CRATER_SCORE * crater + self.score_work(score) + self.drawn_at_edge)

    @staticmethod
    def score_work(score: int) -> int:
        """What GOSUB 3120 spends on the new score beyond its fixed part: CSNG, the clamps'
        compares, CINT (lines 3130-3150) and PRINT USING "SCORE:######" (line 3200)."""
        with mbf.counting_paths() as paths:
            value = mbf.from_int(score)
            mbf.compare(value, SCORE_TOP)
            mbf.compare(value, SCORE_BOTTOM)
            mbf.cint(value)
        return runtime_cost.instructions(paths) + runtime_cost.print_using_integer(score, timing.SCORE_FIELD)

    def _to_absorbed_sound(self) -> int:
        """From the step's start (or a bite's wait) to an absorbed meteor's note queued (lines
        1180-1340, the score, line 5180): the fixed parts and what the runtime spends on the
        values (the hit test's, RND > PROB's, the clamps', COLOR FNR(7)'s, the score's, the
        frequency's)."""
        if self.anchor == "ate":                   # the bite's score, before the absorbed's -2
            before = (self.score + 2 + 32768) % 65536 - 32768
            to_check = self.bite_score_work(before, self.frame.get("ate") == "meteor")
        else:
            to_check = timing.STEP_START + self.key_work + self.move_work
        with mbf.counting_paths() as paths:
            pitch = mbf.from_int(self.pitch)
            mbf.cint(mbf.mul(mbf.mul(pitch, mbf.sub(ONE, mbf.mul(self.my, timing.FREQUENCY_FACTOR))),
                             timing.ABSORBED_FACTOR))
        return (to_check + self.check_work - timing.CHECK - timing.CHECK_BLOCK
                + timing.ABSORBED_TO_QUEUE[self.colour] + timing.METEOR_PRINT_CONTROL * (self.meteor_char < 32)
                + self.meteor_at_edge() + self.score_work(self.score) + runtime_cost.instructions(paths + self.absorbed_paths))

    def player_hit(self, test_paths) -> None:
        """Lines 1420-1570, and the hit's step from line 1180 (the hit test) and on to line 1620,
        statement by statement (hit_cost.py)."""
        hc = hit_cost
        if self.anchor == "ate":                   # sound on: from the bite's wait's end
            to_test = self.bite_score_work(self.score, self.frame.get("ate") == "meteor")
        else:
            to_test = timing.STEP_START + self.key_work + self.move_work
            ate = self.frame.get("ate")
            if ate and not self.sound:             # the bite's statements without its SOUND
                to_test += self.bite_score_work(self.score, ate == "meteor", silent=True)
        self._work("hit_step", to_test + hc.HIT_TEST, test_paths)
        self.place(1420)
        mx, my = int(self.mx.to_float()), int(self.my.to_float())
        self.events.append({"event": "hit", "player": [self.px, self.py], "meteor": [mx, my]})
        with mbf.counting_paths() as paths:         # line 1430
            shade = self.int_rnd(FIVE, TWO) if self.colour else 7
        self.screen.color(shade, 0)
        self.screen.put(self.py, self.px, SPACE)
        number, more = self.fnr_costed(11, csng=True)   # line 1460: W$ = W$(FNR(11))
        paths += more
        word = WORDS[number - 1]
        length = len(word)
        self.string_space("hit", word)
        with mbf.counting_paths() as more:          # X = CINT(X - 1 - L * .5)
            x = mbf.sub(mbf.from_int(self.px - 1), mbf.mul(mbf.from_int(length), HALF))
            self.px = mbf.cint(x)
        paths += more
        work = (hc.COLOUR_PICK[self.colour] + hc.ERASE + hc.WORD + hc.WORD_ODD * (length % 2) + hc.PLACE
                + hc.X_CLAMP[hc.x_clamp(self.px, length)] + hc.Y_CLAMP[hc.y_clamp(self.py)])
        if self.px < 1:
            self.px = 1
        elif self.px > 80 - length - 3:
            self.px = 80 - length - 3
        self.py = min(max(self.py, 2), 22)
        self.screen.write(self.py - 1, self.px + 2, bytes([EXPLOSION]) * length)
        hit_colour = self.screen.attribute
        with mbf.counting_paths() as more:          # line 1510
            self.screen.color(self.int_rnd(FIVE, C(10)) if self.colour else 15, 0)
        paths += more
        self.screen.write(self.py, self.px, bytes([EXPLOSION]) * 2 + word.encode() + bytes([EXPLOSION]) * 2)
        self.screen.attribute = hit_colour
        self.screen.write(self.py + 1, self.px + 2, bytes([EXPLOSION]) * length)
        self.screen.color(7, 0)
        work += (hc.ABOVE + hc.ROW[length] + hc.WORD_COLOUR[self.colour] + hc.WORD_ROW[length]
                 + hc.BELOW + hc.ROW[length] + hc.TO_SOUND_TEST)
        self._work("explosion", work, paths)
        self.flag = True
        back = hc.FLAG_SET + hc.RETURN[self.step_from] + hc.GAME_END + hc.NEW_HIGH * (self.high < self.score)
        if not self.sound:
            self._work("hit_end", hc.SILENT + back, {})
            return
        self.frame.setdefault("sound", []).append("hit")
        self.ticks.work_done(hc.TO_QUEUED - timing.SOUND_MASKED)   # GOSUB 5140: SOUND (line 5150)
        self.ticks.sound("hit")
        self.ticks.wait_notes("hit")                # line 1560: WHILE PLAY(0): WEND, to its end
        self._work("hit_end", back, {})

    def move(self) -> None:
        """GOSUB 2830: one cell in D$'s direction; eat what is there."""
        d = self.direction
        before, column = self.py, self.px
        self.screen.put(self.py, self.px, SPACE)
        if d == "RIGHT":
            self.px += 1
            if self.px > 80:
                self.px = 1
                self.py -= 1
        if d == "LEFT":
            self.px -= 1
            if self.px < 1:
                self.px = 80
                self.py += 1
        if d == "UP" and self.py > 4:
            self.py -= 1
        if d == "DOWN" and self.py < 24:
            self.py += 1
        if self.py < 5:
            self.py = 4
        elif self.py > 23:
            self.py = 24
        wrapped = abs(self.px - column) > 1
        # the player erased (line 2880) and drawn (3100) in column 80, where no wrap's cost has it
        self.move_work = (timing.MOVE_TO_BITE[d] + self._move_branches(d, before, wrapped)
                          + timing.COLUMN_80 * (column == 80 and not wrapped))
        drawn_at_edge = timing.COLUMN_80 * (self.px == 80 and not wrapped)
        here = self.screen.char(self.py, self.px)
        if here != self.block:
            self.move_work += timing.BITE_METEOR if here == self.meteor_char else timing.MOVE_ON
        if here in (self.block, self.meteor_char):
            self.drawn_at_edge = drawn_at_edge            # after the bite's SOUND
        else:
            self.move_work += drawn_at_edge
        if here == self.block:
            self.frame["ate"] = "block"
            self.sound_effect("ate_block")
            self.ds = 2
            self.add_score()
        elif here == self.meteor_char:
            self.frame["ate"] = "meteor"
            self.sound_effect("ate_meteor")
            self.ds = 1
            self.add_score()
        self.screen.put(self.py, self.px, PLAYER)

    def _move_branches(self, d: str, before: int, wrapped: bool) -> int:
        """What lines 2880-2960 cost beyond the direction's own: the row's clamps, a wrap."""
        if d == "UP":
            return timing.MOVE_ROW.get(("UP", "at 4" if before <= 4 else "to 4" if self.py == 4 else ""), 0)
        if d == "DOWN":
            return timing.MOVE_ROW.get(("DOWN", "at 24" if before >= 24 else "to 24" if self.py == 24
                                        else "from 4" if before <= 4 else ""), 0)
        row = 4 if self.py <= 4 else 24 if self.py >= 24 else None
        return timing.MOVE_ROW.get((d, row), 0) + timing.MOVE_WRAP * wrapped

    def key_pressed(self, name: str) -> None:
        """ON KEY(11-14), lines 4930-5070.  The key is pressed at the frame's first
        statement (line 1110, K$ = INKEY$); IRQ 1 comes before the next, whose INT 3
        runs the handler: before the frame's move and before anything else of the
        frame spends an RND."""
        self.keys_handled += 1
        first_hook = not self.ticks.hooked
        self.ticks.hooked = True          # the first event handler hooks INT 1Ch (timing.TICK_HOOK)
        # the event's ring (timing.EVENT_SLOTS): put at IRQ 1, taken by the poll, both before the handler
        self.key_work += timing.EVENT_WRAP * (self.events_queued % timing.EVENT_SLOTS == timing.EVENT_SLOTS - 1)
        self.events_queued += 1
        self.key_work += timing.FIRST_HOOK * first_hook      # (in the poll, before the handler too)
        with mbf.counting_paths() as paths:
            reseed = mbf.compare(self.rnd(), TENTH) < 0
        spent = runtime_cost.instructions(paths)
        read_at = self.key_work + timing.KEY_TO_TIME_READ[name] + spent
        self.key_work += (timing.KEY_PRESSED[name] + spent + timing.KEY_RELEASED
                          - timing.FREED * (self.direction == ""))     # D$ = ... frees nothing the first time
        if reseed:
            if self.time_of_day is not None:
                self.random.randomize_timer(*self.time_of_day())
                self.string_space("key", name)
                self.direction = name
                return
            with mbf.counting_paths() as paths:
                self.random.randomize_timer(*self.ticks.time_of_day_after(read_at))
            self.key_work += timing.RESEED + runtime_cost.instructions(paths)
            self.string_space("key", name)
            self.direction = name
            self.frame["key"] = name
            self.frame["reseed"] = True
            self.frame["rnd_after_key"] = self.random.state
            return
        self.string_space("key", name)
        self.direction = name
        self.frame["key"] = name
        self.frame["rnd_after_key"] = self.random.state

    def pitch_down(self) -> None:
        """F9, line 4860: PITCH = PITCH - FNR(15), not below 50."""
        self.pitch = max(50, self.pitch - self.fnr(15))

    def pitch_up(self) -> None:
        """F10, line 4900: PITCH = PITCH + FNR(15), not above 1000."""
        self.pitch = min(1000, self.pitch + self.fnr(15))

    def add_score(self) -> None:
        """GOSUB 3120: an integer ADD, which wraps before the clamps could act."""
        self.score = wrap16(self.score + self.ds)
        if self.shown:
            self.show_score()

    def show_score(self) -> None:
        saved = self.screen.attribute
        self.status_colour()
        self.string_space("score")
        self.screen.write(25, 18, f"SCORE:{self.score:6d}".encode())
        self.screen.attribute = saved

    def tick(self, wait: bool = True) -> None:
        """GOSUB 3230: the frame's pace and the countdown."""
        self.ticks.pace(wait)
        self.flag = False
        self.countdown -= 1
        self.status_colour(7 if self.countdown > 20 else 15)
        self.string_space("countdown")
        self.screen.write(25, 31, f"COUNTDOWN:{self.countdown:4d}".encode())
        self.screen.color(7, 0)
        if self.on_tick is not None:
            self.on_tick(self)
        if self.countdown > 0:
            if wait:                       # (a level screen's own pace goes on to its blocks)
                fixed = (timing.ABSORBED_PACE_TO_STEP + timing.ABSORBED_STRAIGHT * self.straight if self.absorbed
                         else timing.STRAIGHT_PACE_TO_STEP if self.straight else timing.PACE_TO_STEP)
                fixed += (timing.COUNTDOWN_COLOUR * self.colour
                          + timing.COUNTDOWN_DIGIT * (len(str(self.countdown)) - 2))
                self._work("pace_to_step", fixed, self.ticks.t0_paths)   # T0 = TIMER (line 3232)
            return
        lc = level_cost
        wraps = self.level == 1                  # line 3320: LEVEL = 9 after it
        if self.sound:                     # T0 = TIMER, the countdown's 0, to SOUND 50 (line 5280)
            self._work("level_sound", timing.LEVEL_SOUND + timing.COUNTDOWN_COLOUR * self.colour
                       - timing.SOUND_MASKED, self.ticks.t0_paths)
            fresh = not self.ticks.playing
            self.ticks.sound("level")
            self._work("level_end", lc.SOUND_TO_LEVEL + timing.FRESH_START * fresh
                       + lc.LEVEL_DOWN + lc.LEVEL_WRAP * wraps, {})
        else:
            self._work("level_end", lc.T0 + lc.COUNTDOWN_ZERO + lc.LEVEL_COLOUR * self.colour
                       + lc.LEVEL_DOWN + lc.LEVEL_WRAP * wraps, self.ticks.t0_paths)
        self.sound_effect("level")
        self.level -= 1
        if self.level < 1:
            self.level = 9
        with mbf.counting_paths() as paths:      # line 3330
            self.prob = mbf.mul(mbf.from_int(self.level), TENTH)
        self.events.append({"event": "level", "level": self.level, "score": self.score,
                            "tick": self.game_ticks()})
        self._work("level_start", lc.LEVEL_PROB, paths)
        self.level_screen("level_start")
        self._work("blocks_end", lc.LEVEL_RETURN, {})    # (lines 3340-3350, then the frame's way on)
        path = "straight" if self.straight else "curved"
        if self.flag:
            self._work("blocks_end", lc.CAUGHT + lc.NEW_HIGH * (self.high < self.score), {})
        else:
            self._work("blocks_end", (lc.ABSORBED_RETURN if self.absorbed else lc.RETURN_TO_STEP)[path], {})
