"""``python -m games_py.meteors play``: the game in a text terminal, drawn as the
original draws its 80x25 screen (characters, colours), paced as the original
paces itself (one frame a BIOS tick, 18.2 a second), with its keys:
the arrows (the keypad's, or the cursor keys), F1 sound on/off (shown, the
terminal plays none), F2 demo on/off (and the score to 0), F5 instructions
(METEORS.DOC, read from the disk image if there is one), F7 or Esc to quit,
F9/F10 the pitch.  ``/M`` and ``/C`` as on the original's command line.
The game is ``game.Meteors``; this module only shows it and collects keys.
"""
from __future__ import annotations

import sys
import time

from games_py.ginrummy.screen import Screen as AnsiScreen
from games_py.ginrummy.tty_io import AnsiDisplay, TerminalKeyboard
from games_py.meteors import trace
from games_py.meteors.game import Meteors
from games_py.meteors.screen import COLUMNS, ROWS
from pcemu.cp437 import CP437

FRAME_SECONDS = 65536 / 1_193_182          # one BIOS tick
ARROWS = {"\x1b[A": "UP", "\x1bOA": "UP", "\x1b[B": "DOWN", "\x1bOB": "DOWN",
          "\x1b[C": "RIGHT", "\x1bOC": "RIGHT", "\x1b[D": "LEFT", "\x1bOD": "LEFT",
          "8": "UP", "2": "DOWN", "4": "LEFT", "6": "RIGHT"}
FUNCTION_KEYS = {"\x1bOP": "F1", "\x1b[11~": "F1", "\x1bOQ": "F2", "\x1b[12~": "F2",
                 "\x1b[15~": "F5", "\x1b[18~": "F7", "\x1b[20~": "F9", "\x1b[21~": "F10",
                 "\x1b": "ESC"}
TITLE = ("MM      MM  EEEEEEE  TTTTTTTTTT  EEEEEEE  OOOOOOO  RRRRRRR  SSSSSSS",
         "MMM    MMM  EE       TT  TT  TT  EE       OO   OO  RR   RR  SS",
         "MM M  M MM  EE           TT      EE       OO   OO  RR   RR  SS",
         "MM  MM  MM  EEEEEEE      TT      EEEEEEE  OO   OO  RRRRRRR  SSSSSSS",
         "MM      MM  EE           TT      EE       OO   OO  RRRR          SS",
         "MM      MM  EE           TT      EE       OO   OO  RR  RR        SS",
         "MM      MM  EE           TT      EE       OO   OO  RR   RR       SS",
         "MM      MM  EEEEEEE      TT      EEEEEEE  OOOOOOO  RR    RR  SSSSSS")
# the name prompt of the high-score table: keys for the original's line editor (scores.py)
NAME_KEYS = {"\r": "ENTER", "\n": "ENTER", "\x7f": "BKSP", "\x08": "BKSP", "\t": "TAB", "\x1b": "ESC",
             "\x1b[D": "LEFT", "\x1bOD": "LEFT", "\x1b[C": "RIGHT", "\x1bOC": "RIGHT",
             "\x1b[H": "HOME", "\x1bOH": "HOME", "\x1b[1~": "HOME", "\x1b[F": "END", "\x1bOF": "END",
             "\x1b[4~": "END", "\x1b[2~": "INS", "\x1b[3~": "DEL"}
TABLE_SECONDS = 2.0                        # line 1670: GOSUB 1700, the table stays two seconds
LEGEND = "F1=SOUND F2=DEMO F5=INSTRS F7=QUIT F9=PITCH\x19 F10=PITCH\x18"
COPYRIGHT = "TOMMY'S METEORS (C) COPYRIGHT 1986 BY TOMMY'S TOYS, BOX 11261, DENVER, CO 80211 "


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
        """``clock`` gives the time of day TIMER reads (default: the real one)."""
        self.game = Meteors(settings)
        clock = clock or now
        self.game.random.randomize_timer(*clock())
        self.keyboard, self.display, self.disk = keyboard, display, disk
        self.game.on_tick = self.tick
        self.game.name_key = self.name_key
        self.typed_ahead: list[str] = []
        self.game.scores.seen = self.table_seen
        self.game.time_of_day = clock
        self.next_frame = time.monotonic()

    def read_key(self, timeout: float) -> str | None:
        first = self.keyboard._read(timeout, wake=False)
        if first is None:
            return None
        text = first
        if first == "\x1b":
            while True:
                more = self.keyboard._read(0.02, wake=False)
                if more is None:
                    break
                text += more
                if text in ARROWS or text in FUNCTION_KEYS or more.isalpha() or more == "~":
                    break
        return ARROWS.get(text) or FUNCTION_KEYS.get(text) or text.upper()

    def tick(self, game: Meteors) -> None:
        """Each frame's wait at line 3231: show the screen, take the keys, keep the pace."""
        self.display.show(picture(game))
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
        self.display.show(picture(game))
        while True:
            text = self.typed_ahead.pop(0) if self.typed_ahead else self.keyboard._read(None, wake=False)
            if text is None:                   # the input has ended
                raise Quit
            if text == "\x1b":
                while (more := self.keyboard._read(0.02, wake=False)) is not None:
                    if len(text) == 1 and more not in "[O":
                        self.typed_ahead.append(more)      # Esc alone, then another key
                        break
                    text += more
                    if text in NAME_KEYS or more.isalpha() or more == "~":
                        break
            key = NAME_KEYS.get(text, text)
            if key in NAME_KEYS.values() or (len(key) == 1 and key.isprintable() and ord(key) < 256):
                return key

    def table_seen(self, line: int, screen) -> None:
        """The table's finished screen (line 1670) stays for its two-second pause."""
        if line == 1670:
            self.display.show(picture(self.game))
            time.sleep(TABLE_SECONDS)
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
            g.show_score()
            g.direction = ""
        elif key in ("F7", "ESC"):
            raise Quit
        elif key == "F9":
            g.pitch_down()
        elif key == "F10":
            g.pitch_up()
        elif key == "F5":
            self.instructions()

    def instructions(self) -> None:
        lines = read_doc(self.disk)
        shown = AnsiScreen()
        shown.put(0, 0, "INSTRUCTIONS", 0x0C)
        for i, line in enumerate(lines[:22]):
            shown.put(i + 1, 0, line[:COLUMNS])
        shown.put(24, 0, "HIT SPACE BAR TO SCROLL, ESC TO EXIT", 0x70)
        self.display.show(shown)
        while self.read_key(None) not in (" ", "ESC", "F5"):
            pass
        self.next_frame = time.monotonic()

    def show(self) -> None:
        """The startup show (game 1): the title, the keys, PRESS ANY KEY TO START."""
        s = AnsiScreen()
        colours = [2, 3, 4, 5, 6] if self.game.colour else [7]
        for i, row in enumerate(TITLE):
            s.put(4 + i, 4, row.replace("M", "\x19").replace("E", "\x19").replace("T", "\x19")
                  .replace("O", "\x19").replace("R", "\x19").replace("S", "\x19").replace("\x19", CP437[0x19]),
                  colours[i % len(colours)])
        s.put(14, 28, "PRESS ANY KEY TO START", 0x0F)
        s.put(20, 12, LEGEND.replace("\x19", CP437[0x19]).replace("\x18", CP437[0x18]),
              0x47 if self.game.colour else 0x70)
        s.put(24, 0, COPYRIGHT[:79], 0x13 if self.game.colour else 0x70)
        self.display.show(s)
        key = self.read_key(None)
        while key in ("F1", "F2", "F9", "F10"):
            self.key(key)
            key = self.read_key(None)
        if key in ("F7", "ESC"):
            raise Quit

    def run(self) -> None:
        try:
            self.show()
            self.game.start()
            self.game.play(lambda g: False)
        except Quit:
            pass


def read_doc(disk: str | None) -> list[str]:
    """METEORS.DOC from the disk image, as the original's F5 reads it; the text is
    Tommy's Toys' and never copied into this project."""
    if disk is None:
        return ["CAN'T FIND INSTR. FILE METEORS.DOC. FILE NAME"]
    try:
        from disks.catalog import find_disk
        from pcemu.storage.image import FloppyImage
        volume = FloppyImage.open(find_disk(disk), read_only=True).filesystem
        return volume.read_file(["METEORS.DOC"]).decode("cp437").splitlines()
    except Exception:                    # noqa: BLE001 - any failure: the original's own message
        return ["CAN'T FIND INSTR. FILE METEORS.DOC. FILE NAME"]


def play(settings: trace.Settings, disk: str | None) -> None:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise SystemExit("play needs a terminal (80x25 or larger)")
    with TerminalKeyboard() as keyboard, AnsiDisplay(mono=not settings.colour) as display:
        Session(settings, keyboard, display, disk).run()
