"""Full-screen Tonk on a terminal (``python -m games_py.tonk play`` on a terminal).

The game is the line game's (``terminal.TerminalGame``: the same hands, prompts,
commands, bets and pot); only the input and output differ.  The table is drawn on an
80x25 screen (``table_screen``) through the shared terminal layer (``games_py.tui``),
keys arrive one at a time:

* the function keys act at once, at any prompt and while the computer plays ('THESE
  ARE HOT KEYS, MEANING THEY CAN BE HIT AT ANY TIME'); F5 shows the help page by page;
* a key that is a whole command where it is typed (T, P, D at your turn, R after a
  pluck, a card's number at the discard, T or Enter at the start of my turn, Y or N)
  acts at once; longer commands (``M 2 3``, ``H 4 1``, ``S 1 5``, a bet) are typed on
  the prompt line and ended with Enter; Backspace edits, Esc clears;
* a resize (SIGWINCH) or Ctrl-L draws the whole screen again; a terminal smaller than
  80x25 shows a plain notice instead until it grows back (F7 still quits).
"""
from __future__ import annotations

import time
from typing import Callable

from games_py.tonk.instructions import HELP
from games_py.tonk.options import Options
from games_py.tonk.players import Observation
from games_py.tonk.table_screen import TableView, draw
from games_py.tonk.terminal import FKEYS, ME, YOU, QuitGame, TerminalGame
from games_py.tui.keys import REPAINT_KEYS, key_repainting, wait_until_it_fits
from games_py.tui.screen import COLUMNS, ROWS, Screen

MESSAGES_KEPT = 50


class ScreenGame(TerminalGame):
    def __init__(self, keyboard, display, options: Options, seed: int, *,
                 clock: Callable[[], float] = time.monotonic, **kwargs):
        super().__init__(None, None, options, seed, sleep=self.pause, **kwargs)
        self.keyboard, self.display, self.clock = keyboard, display, clock
        self.view = TableView(seed=seed, colour=options.display != "mono")
        self.color = self.view.colour            # F10's border colours: not on a mono display
        self.screen = Screen()
        self._shown_of = None                    # the hand whose end shows my cards face up

    # ------------------------------------------------------------ output
    def rule_line(self) -> str:
        return ""                       # the table has its own frame

    def card_text(self, c) -> str:
        return str(c)                   # messages are plain text; the cards are drawn in colour

    def say(self, text: str = "") -> None:
        for line in text.split("\n"):
            if line.strip():
                self.view.messages.append(line)
        del self.view.messages[:-MESSAGES_KEPT]
        self.show()

    def beep(self) -> None:
        if self.sound:
            self.display.bell()

    def render(self, obs: Observation) -> None:
        self.view.obs = obs
        self.show()

    def show(self) -> None:
        v = self.view
        v.bet, v.stake, v.pot = self.bet, self.stake, self.pot.balance
        v.sound, v.demo, v.autosort, v.border = self.sound, self.demo, self.autosort, self.border
        v.hand_number = self.hands_played + (1 if self.state is not None and not self.state.over else 0)
        if self.state is not None:
            v.obs = Observation.of(self.state, YOU)
            shown = self.state is self._shown_of
            v.shown_hand = list(self.state.hands[ME]) if shown else None
        self.screen = draw(v)
        self.display.show(self.screen)
        self.wait_until_it_fits()

    # ------------------------------------------------------------ keys
    def key(self, timeout: float | None) -> str | None:
        """The next key (None: ``timeout`` passed); a resize or Ctrl-L repaints the whole
        screen first and comes back as its name, which no question takes."""
        return key_repainting(self.keyboard, self.display, self.screen, timeout, QuitGame, "F7")

    def wait_until_it_fits(self) -> None:
        """On a terminal smaller than 80x25 the display shows a notice instead of the table;
        the game waits for the terminal to grow (F7 still quits), then draws it all."""
        wait_until_it_fits(self.keyboard, self.display, self.screen, QuitGame, "F7")

    def ask(self, prompt: str, instant: str = "") -> str:
        v = self.view
        v.prompt, v.typed = prompt, ""
        while True:
            self.show()
            key = self.key(None)
            if key is None or key in REPAINT_KEYS:
                continue
            if key in FKEYS:
                return self._answer(key)
            if key == "ENTER":
                return self._answer(v.typed.strip())
            if key == "BACKSPACE":
                v.typed = v.typed[:-1]
            elif key == "ESC":
                v.typed = ""
            elif len(key) == 1:
                if not v.typed and key in instant.upper():
                    return self._answer(key)
                if len(v.typed) < COLUMNS - len(prompt.split("\n")[-1]) - 3:
                    v.typed += key

    def _answer(self, text: str) -> str:
        """The question is answered: it leaves the screen (the next one replaces it)."""
        self.view.prompt = self.view.typed = ""
        return text

    def pause(self, seconds: float) -> None:
        """The computer's pause between moves; function keys act during it."""
        self.show()
        end = self.clock() + seconds
        while (left := end - self.clock()) > 0:
            key = self.key(left)
            if key in FKEYS:
                self.hot_key(key)
                self.show()

    def hot_key(self, key: str) -> bool:
        if key.upper() == "F5":
            self.show_help()
            return True
        return super().hot_key(key)

    def show_help(self) -> None:
        """F5: the help text a screen at a time; any key turns the page, Esc goes back."""
        lines = HELP.rstrip("\n").split("\n")
        page_rows = ROWS - 2
        pages = [lines[i:i + page_rows] for i in range(0, len(lines), page_rows)]
        for number, page in enumerate(pages, 1):
            while True:
                help_screen = Screen()
                for row, text in enumerate(page):
                    help_screen.put(row, 0, text[:COLUMNS])
                more = "ANY KEY: NEXT PAGE, ESC: BACK" if number < len(pages) else "ANY KEY: BACK TO THE GAME"
                help_screen.put(ROWS - 1, 0, f" F5 HELP, PAGE {number} OF {len(pages)} -- {more} ", 0x70)
                self.screen = help_screen
                self.display.show(help_screen)
                key = self.key(None)
                if key is not None and key not in REPAINT_KEYS:
                    break
            if key == "ESC":
                break
        self.show()

    # ------------------------------------------------------------ hands
    def show_result(self) -> None:
        assert self.state is not None
        self._shown_of = self.state             # hands down: mine face up until the next deal
        super().show_result()

    def run(self) -> int:
        """The session; ``farewell`` is its last line (hands played, pot), to be printed
        once the terminal is back to lines."""
        try:
            code = super().run()
        except QuitGame:              # F7 while the closing line waited for a larger terminal
            code = 0
        self.farewell = self.view.messages[-1] if self.view.messages else ""
        return code
