"""The full-screen Rummi: the line game's rules, players and commands
(``terminal.TerminalGame``) on a table drawn with ``table_screen``.

Keys: function keys act at once -- F1 help, F2 hint, F3 back up, F4 OK (end the turn),
F5 take a piece, F6 save, F7 quit -- and so do H (hint), D (take a piece) and Q (quit) typed on an
empty command line; anything else is typed on the command line (``R5 R6 R7``, ``R8 to 2``,
``move 2 R5 to 4``, ``swap R5``...) and done with Enter.  Ctrl-L and a change of the
terminal's size redraw the whole screen; a terminal smaller than 80x25 gets a plain notice
until it grows back.  More log than fits waits for a key (``-- more --``).
"""
from __future__ import annotations

import textwrap

from games_py.rummi import rules
from games_py.rummi.state import duplicates
from games_py.rummi.table_screen import LOG_ROWS, RummiTable, draw_rummi
from games_py.rummi.terminal import COMPUTER, HUMAN, TerminalGame
from games_py.rummi.tiles import sort_tray
from games_py.rummi.turn import TurnBuilder
from games_py.tui.screen import COLUMNS, Screen
from games_py.tui.keys import key_after_repaints
from games_py.tui.terminal import AnsiDisplay, TerminalKeyboard

FUNCTION_KEYS = {"F1": "help", "F2": "hint", "F3": "back", "F4": "ok", "F5": "draw",
                 "F6": "save", "F7": "quit"}
EMPTY_LINE_KEYS = {"H": "hint", "D": "draw", "Q": "quit", "?": "help"}
LOG_KEPT = 500


class ScreenRummiGame(TerminalGame):
    def __init__(self, keyboard, display, seed: int = 0, level: str = "beginner",
                 single: bool = False, **options) -> None:
        self.keyboard, self.display = keyboard, display
        self.screen = Screen()
        self.log: list[str] = []
        self.unseen = 0                  # log lines added since the player last pressed a key
        self.entry = ""
        self.shown: TurnBuilder | None = None
        self.pending: str | None = None      # a function key pressed at a "more"
        super().__init__(self.read_line, None, seed=seed, level=level, single=single,
                         **options)

    # -- drawing -------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        for line in text.split("\n"):
            for part in textwrap.wrap(line, COLUMNS, subsequent_indent="  ") or [""]:
                if self.unseen >= LOG_ROWS:
                    self.entry = "-- more: any key --"
                    self.draw()
                    key = self.wait_key()
                    if key in FUNCTION_KEYS:       # a hot key is not lost on a "more"
                        self.pending = key
                    self.unseen = 0
                self.log.append(part)
                self.unseen += 1
        del self.log[:-LOG_KEPT]

    def render(self, builder: TurnBuilder | None) -> None:
        self.shown = builder
        self.draw()

    def describe(self) -> RummiTable:
        s, b = self.state, self.shown
        if b is not None and b.state.turn != s.turn:
            b = None
        table = b.table if b else s.table
        tray = sort_tray(b.tray if b else s.trays[HUMAN])
        other = s.trays[COMPUTER]
        mode = "single play" if self.single else self.computer.name
        dup = ", has duplicates" if duplicates(other) else ""
        title = (f"TURN {s.turn}   PILE {len(s.pile)}   COMPUTER ({mode}): "
                 f"{len(other)} PIECES{dup}")
        label = f"YOUR TRAY ({len(tray)})"
        if b and not s.opened[HUMAN] and b.played():
            label += f"  PLAYED {b.played_value()} OF {rules.OPENING_MINIMUM} TO OPEN"
        return RummiTable(table, tray, title, label, self.log, self.entry)

    def draw(self, repaint: bool = False) -> None:
        draw_rummi(self.screen, self.describe())
        if repaint:
            self.display.repaint(self.screen)
        else:
            self.display.show(self.screen)

    # -- keys ----------------------------------------------------------------------
    def wait_key(self) -> str:
        """The next key; a resize or Ctrl-L repaints and is not returned."""
        # EOFError ends the game (_ask)
        return key_after_repaints(self.keyboard, lambda: self.draw(repaint=True))

    def read_line(self, prompt: str) -> str:
        """A command: a hot key's at once, or a line typed and ended with Enter."""
        typed = ""
        while True:
            self.entry = f"{prompt}{typed}_"
            self.draw()
            name, self.pending = self.pending or self.wait_key(), None
            self.unseen = 0
            if name in FUNCTION_KEYS:
                return FUNCTION_KEYS[name]
            if not typed and name in EMPTY_LINE_KEYS:
                return EMPTY_LINE_KEYS[name]
            if not typed and name == "N" and "new game" in prompt:
                return "new"
            if name == "ENTER":
                if typed.strip():
                    self.entry = ""
                    return typed
            elif name == "BACKSPACE":
                typed = typed[:-1]
            elif name == "ESC":
                typed = ""
            elif len(name) == 1:
                typed += name


def run_fullscreen(seed: int, level: str, single: bool, resume=None, **options) -> int:
    with TerminalKeyboard() as keyboard, AnsiDisplay(
            title="Rummi", quit_hint="(F7 quits.)") as display:
        game = ScreenRummiGame(keyboard, display, seed, level, single, **options)
        if resume is not None:
            game.resume(*resume)
        try:
            game.run()
        except KeyboardInterrupt:
            return 130
    return 0
