"""``python -m games_py.meteors play``: the game in a text terminal, drawn as the
original draws its 80x25 screen (characters, colours), paced as the original
paces itself (one frame a BIOS tick, 18.2 a second), with its keys:
the arrows (the keypad's, or the cursor keys), F1 sound on/off (shown, the
terminal plays none), F2 demo on/off (and the score to 0), F5 instructions
(METEORS.DOC, read from the disk image if there is one), F7 or Esc: QUIT? (Y, Q or
Esc quits, with the original's farewell), F9/F10 the pitch.  ``/M`` and ``/C`` as on the original's command line.
The game is ``game.Meteors``; this module only shows it and collects keys.
"""
from __future__ import annotations

import dataclasses
import datetime
import sys
import time

from games_py.meteors import trace
from games_py.meteors.game import Meteors
from games_py.meteors.screen import COLUMNS, ROWS
from games_py.tui import instructions
from games_py.tui.screen import Screen as AnsiScreen
from games_py.tui.terminal import AnsiDisplay, TerminalKeyboard
from pcemu.cp437 import CP437

FRAME_SECONDS = 65536 / 1_193_182          # one BIOS tick
ARROWS = {"\x1b[A": "UP", "\x1bOA": "UP", "\x1b[B": "DOWN", "\x1bOB": "DOWN",
          "\x1b[C": "RIGHT", "\x1bOC": "RIGHT", "\x1b[D": "LEFT", "\x1bOD": "LEFT",
          "8": "UP", "2": "DOWN", "4": "LEFT", "6": "RIGHT"}
FUNCTION_KEYS = {"\x1bOP": "F1", "\x1b[11~": "F1", "\x1bOQ": "F2", "\x1b[12~": "F2",
                 "\x1b[15~": "F5", "\x1b[18~": "F7", "\x1b[20~": "F9", "\x1b[21~": "F10",
                 "\x1b": "ESC"}
# the name prompt of the high-score table: keys for the original's line editor (scores.py)
NAME_KEYS = {"\r": "ENTER", "\n": "ENTER", "\x7f": "BKSP", "\x08": "BKSP", "\t": "TAB", "\x1b": "ESC",
             "\x1b[D": "LEFT", "\x1bOD": "LEFT", "\x1b[C": "RIGHT", "\x1bOC": "RIGHT",
             "\x1b[H": "HOME", "\x1bOH": "HOME", "\x1b[1~": "HOME", "\x1b[F": "END", "\x1bOF": "END",
             "\x1b[4~": "END", "\x1b[2~": "INS", "\x1b[3~": "DEL"}
TABLE_SECONDS = 2.0                        # line 1670: GOSUB 1700, the table stays two seconds
# what the original shows when F7 or Esc is answered Y (or Q, or Esc), then DOS's prompt
FAREWELL = {7: "DID YOU LIKE THIS TOY?  THIS IS JUST A SAMPLE OF OUR AWESOME ASTOUNDING LINE",
            8: "OF LOW-PRICED TOYS AND GAMES FOR IBM PCS AND COMPATIBLES, DESIGNED BY ALIENS",
            9: "FROM OUTER SPACE FOR EARTH KIDS OF ALL AGES.",
            11: "OUR NIFTY DEMO DISK, JAM-PACKED WITH AN ELECTRONIC CATALOG PLUS OTHER GOODIES",
            12: "IS ONLY $2 ($3 OUTSIDE U.S.) TO THE FIRST ZILLION WHO RESPOND.",
            13: "(PLEASE SPECIFY 5.25 INCH OR 3.5 INCH DISKETTE.)",
            15: "IF YOUR PC BORES YOU WRITE US NOW.",
            17: "TOMMY'S TOYS, BOX 11261, DENVER, CO 80211 USA"}
DOC = "METEORS.DOC"
# the original's attributes (measured in pcemu, tests/test_meteors_screens.py), colour / mono
QUIT_PROMPT = 0x0F                               # "QUIT?" over row 1, the row put back after
FAREWELL_COLOUR = {True: 0x1E, False: 0x0F}      # the whole screen
INSTRUCTIONS_COLOURS = {True: (0x5F, 0x0C, 0xDF), False: (0x0F, 0x70, 0x8F)}
QUIT_KEYS = ("Y", "Q", "ESC")


def now() -> tuple[int, int, int, int]:
    """The time of day as DOS gives it to TIMER (here, at play, the real one)."""
    t = time.time()
    local = time.localtime(t)
    return local.tm_hour, local.tm_min, local.tm_sec, int(t * 100) % 100


class Quit(Exception):
    pass


def picture(game: Meteors) -> AnsiScreen:
    shown = AnsiScreen()
    for r in range(ROWS):
        shown.cells[r] = [(CP437[game.screen.cells[r][c]], game.screen.attrs[r][c]) for c in range(COLUMNS)]
    return shown


class Session:
    def __init__(self, settings: trace.Settings, keyboard, display, disk: str | None = None,
                 clock=None) -> None:
        """``clock`` gives the time of day TIMER reads (default: the real one, and then the
        high-score table's DATE$ is today's)."""
        real = clock is None
        clock = clock or now
        start = clock()
        self.game = Meteors(dataclasses.replace(settings, time=start))   # the game's clock starts there
        if real:
            self.game.scores.date = datetime.date.today()
        self.game.random.randomize_timer(*start)
        self.keyboard, self.display, self.disk = keyboard, display, disk
        self.game.on_tick = self.tick
        self.game.name_key = self.name_key
        self.game.scores.seen = self.table_seen
        self.game.on_show = self.at_title
        self.game.time_of_day = clock
        self.next_frame = time.monotonic()

    def read_key(self, timeout: float) -> str | None:
        text = self.keyboard.sequence(timeout, wake=False)
        if text is None:
            return None
        return ARROWS.get(text) or FUNCTION_KEYS.get(text) or text.upper()

    def show(self, screen: AnsiScreen | None = None) -> None:
        self.display.show(screen or picture(self.game))

    def tick(self, game: Meteors) -> None:
        """Each frame's wait at line 3231: show the screen, take the keys, keep the pace."""
        self.show()
        self.next_frame += FRAME_SECONDS
        while True:
            left = self.next_frame - time.monotonic()
            key = self.read_key(max(left, 0))
            if key is None:
                break
            self.key(key)
        if self.next_frame < time.monotonic() - 1:
            self.next_frame = time.monotonic()

    def name_key(self, game: Meteors) -> str:
        """The high-score table's name prompt: the screen as drawn so far, then the next
        key for the original's line editor (typed text as it is, not upper-cased)."""
        self.show()
        while True:
            text = self.keyboard.sequence(None, wake=False)
            if text is None:                   # the input has ended
                raise Quit
            key = NAME_KEYS.get(text, text)
            if key in NAME_KEYS.values() or (len(key) == 1 and key.isprintable() and ord(key) < 256):
                return key

    def table_seen(self, line: int, screen) -> None:
        """The explosion (line 1640) and the table's finished screen (line 1670) stay for
        their two-second pauses."""
        if line in (1640, 1670):
            self.show()
            time.sleep(TABLE_SECONDS)
            self.next_frame = time.monotonic()

    def at_title(self, game: Meteors) -> None:
        """PRESS ANY KEY TO START (game 1): the function keys act, any other key starts."""
        self.show()
        while True:
            key = self.read_key(None)
            if key not in ("F1", "F2", "F5", "F7", "F9", "F10"):
                break
            self.key(key)
        self.next_frame = time.monotonic()

    def key(self, key: str) -> None:
        g = self.game
        if key in ("UP", "DOWN", "LEFT", "RIGHT") and not g.demo_on:
            g.pending.append(key)
        elif key == "F1":
            g.sound = not g.sound
        elif key == "F2":
            g.demo_on = not g.demo_on
            g.score = 0                       # line 4770
            if g.shown:
                g.show_score()
            g.direction = ""
        elif key in ("F7", "ESC"):
            self.ask_quit()
        elif key == "F9":
            g.pitch_down()
        elif key == "F10":
            g.pitch_up()
        elif key == "F5":
            self.instructions()

    def ask_quit(self) -> None:
        """QUIT? on the top row: Y, Q or Esc quits, any other key puts the row back."""
        shown = picture(self.game)
        shown.put(0, 0, "QUIT?".ljust(COLUMNS), QUIT_PROMPT)
        self.show(shown)
        if self.read_key(None) in QUIT_KEYS:
            raise Quit
        self.show()
        self.next_frame = time.monotonic()

    def instructions(self) -> None:
        """F5: METEORS.DOC over the top 22 rows, a page per SPACE, Esc back to the game."""
        pages = instructions.pages_from_disk(self.disk, DOC)
        page = 0
        while True:
            shown = picture(self.game)
            instructions.draw_page(shown, pages[page], *INSTRUCTIONS_COLOURS[self.game.colour])
            self.show(shown)
            key = self.read_key(None)
            while key not in (" ", "ESC"):
                key = self.read_key(None)
            if key == "ESC":
                break
            page = (page + 1) % len(pages)
        self.show()
        self.next_frame = time.monotonic()

    def farewell(self) -> None:
        """What the original prints as it ends, on a screen of its colour."""
        attribute = FAREWELL_COLOUR[self.game.colour]
        shown = AnsiScreen()
        for row in range(ROWS):
            shown.put(row, 0, " " * COLUMNS, attribute)
        for row, line in FAREWELL.items():
            shown.put(row, 0, line, attribute)
        self.show(shown)

    def run(self) -> None:
        try:
            self.game.start()
            self.game.play(lambda g: False)
        except Quit:
            self.farewell()


def play(settings: trace.Settings, disk: str | None) -> None:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise SystemExit("play needs a terminal (80x25 or larger)")
    with TerminalKeyboard() as keyboard, AnsiDisplay(mono=not settings.colour, title="Tommy's Meteors",
                                                     quit_hint="(F7 then Y quits.)") as display:
        Session(settings, keyboard, display, disk).run()
