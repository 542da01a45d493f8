"""Teach's GinRummy on the whole terminal (``play`` on a terminal; ``--plain`` for lines).

The program's screens are the line program's (screens.py, human.py), written on an
80x25 page (games_py.tui.page) instead of scrolling away: each table starts a new page,
the question sits on the bottom row.  Keys come one at a time: where a single key is a
whole answer (the document's keys: D, P, 1-9, 0, U, Y, N, H, Q...) it acts at once; a
name or a longer answer is typed and ended with Enter.  A resize (SIGWINCH) or Ctrl-L
draws the whole screen again; a terminal smaller than 80x25 shows a plain notice until
it grows back.  ESC is the boss key and the idle timer blanks the screen (doc lines
95-99); any key brings the same screen back, whole.
"""
from __future__ import annotations

from typing import Callable

from games_py.teach_gin.console import Console, EndOfInput
from games_py.teach_gin.render import Style
from games_py.tui.keys import REPAINT_KEYS, key_repainting, next_key, wait_until_it_fits
from games_py.tui.page import Page
from games_py.tui.screen import Screen

# answers that are one key: the document's keys at the table and in the menus
ONE_KEY = set("DPUYNHQMBOS+-?GEKR1234567890")


class ScreenConsole(Console):
    def __init__(self, keyboard, display, style: Style, blank_after: Callable[[], int] | None) -> None:
        super().__init__(None, None, style, blank_after)
        self.keyboard, self.display = keyboard, display
        self.page = Page()
        self.shown: Screen = self.page.screen()

    def say(self, text: str = "") -> None:
        self.page.add(text)
        self.show()

    def new_page(self) -> None:
        self.page.clear()

    def show(self) -> None:
        self.shown = self.page.screen()
        self.display.show(self.shown)
        self.wait_until_it_fits()

    # -- keys ----------------------------------------------------------------------------
    def key(self, timeout: float | None) -> str | None:
        """The next key, None after ``timeout`` seconds; a resize or Ctrl-L repaints the
        screen first and comes back as its name, which no question takes."""
        return key_repainting(self.keyboard, self.display, self.shown, timeout, EndOfInput)

    def wait_until_it_fits(self) -> None:
        wait_until_it_fits(self.keyboard, self.display, self.shown, EndOfInput)

    def ask(self, prompt: str, redraw: Callable[[], object] | None = None) -> str:
        """An answer: one key where one key is a whole answer here, else a line ended by
        Enter.  ESC (the boss key) and the idle time blank the screen; the next key
        brings it back whole, so ``redraw`` is not needed."""
        page = self.page
        page.prompt, page.typed = prompt, ""
        while True:
            self.show()
            timeout = self.blank_after() if self.blank_after is not None else None
            key = self.key(timeout)
            if key is None:                     # the blank time passed without a key
                self.blank()
                continue
            if key in REPAINT_KEYS:
                continue
            if key == "ESC":
                if self.blank_after is None:    # NOBLANK: "also disable the manual screen blanking"
                    return self._answer("ESC")
                self.blank()
                continue
            if key == "ENTER":
                return self._answer(page.typed.strip())
            if key == "BACKSPACE":
                page.typed = page.typed[:-1]
            elif len(key) == 1:
                if not page.typed and key in ONE_KEY and self._one_key(prompt):
                    return self._answer(key)
                page.typed += key

    def _answer(self, text: str) -> str:
        self.page.typed = ""
        self.page.answered()
        return text

    @staticmethod
    def _one_key(prompt: str) -> bool:
        """Questions answered by one key (not the name editor, not a file path)."""
        return not prompt.startswith("New name")

    def blank(self) -> None:
        """The screen goes dark until a key; the key only wakes it (doc line 99)."""
        self.blanked += 1
        dark = Screen()
        self.display.repaint(dark)
        while True:
            key = next_key(self.keyboard, None, EndOfInput)
            if key in REPAINT_KEYS:
                self.display.repaint(dark)
            elif key is not None:
                break
        self.display.repaint(self.shown)
        self.wait_until_it_fits()
