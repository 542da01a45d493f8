"""The full-screen Cribbage: the same game as the line version (``terminal.CribbageApp``:
title, options, statistics, a game), drawn as a table with the pegging board and played
with hot keys -- a key acts at once, no Enter.

* 1-6 choose a card (two for the crib: the first is marked until the second), H a hint,
  Q quits the game (after Y), Y/N answer a question (nothing else does);
* Ctrl-L and a change of the terminal's size (SIGWINCH) draw the whole screen again; a
  terminal smaller than 80x25 shows a plain notice until it grows back
  (``tui.terminal.AnsiDisplay``).

The console below stands in for the line console: ``say`` adds to the log on the table,
``ask`` waits for one key.  The game itself is ``CribbageApp``'s, so both front ends play
the same rules with the same players.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from games_py.cards import Card
from games_py.cribbage import config as cfg, render
from games_py.cribbage.players import suggest
from games_py.cribbage.state import Action, Discard, Phase, Play, PlayerView
from games_py.cribbage.table_screen import Table, draw_table
from games_py.cribbage.terminal import (
    COMPUTER, COMPUTER_NAME, HUMAN, CribbageApp, EndOfInput, QuitGame)
from games_py.tui.screen import Screen
from games_py.tui.keys import key_after_repaints
from games_py.tui.terminal import AnsiDisplay, TerminalKeyboard

LOG_KEPT = 200
NAME_KEYS = cfg.NAME_MAX


class ScreenConsole:
    """``terminal.Console``'s four calls on the full-screen table."""

    def __init__(self, keyboard: TerminalKeyboard, display: AnsiDisplay) -> None:
        self.keyboard, self.display = keyboard, display
        self.screen = Screen()
        self.log: list[str] = []
        self.prompt = ("", "")
        self.table_of = None        # the app's function that describes the table

    # -- drawing -----------------------------------------------------------------
    def draw(self, repaint: bool = False) -> None:
        table = self.table_of() if self.table_of else Table(("", ""), 121)
        table.log, table.prompt = self.log, self.prompt
        draw_table(self.screen, table)
        if repaint:
            self.display.repaint(self.screen)
        else:
            self.display.show(self.screen)

    def key(self) -> str:
        """The next key; a resize or Ctrl-L repaints and is not returned."""
        try:
            return key_after_repaints(self.keyboard, lambda: self.draw(repaint=True))
        except EOFError:
            raise EndOfInput from None

    # -- the Console calls ----------------------------------------------------
    def say(self, text: str = "") -> None:
        self.log += text.split("\n")
        del self.log[:-LOG_KEPT]
        self.draw()

    def ask(self, prompt: str) -> str:
        """One key: its character, "" for Enter and Esc (the menus' default), or the name
        of another key ("F1"), which no menu takes."""
        self.prompt = (prompt.strip().rstrip(">").strip(), "")
        self.draw()
        name = self.key()
        self.prompt = ("", "")
        return "" if name in ("ENTER", "ESC") else name

    def ask_line(self, prompt: str) -> str:
        """A line typed on the prompt row (Enter ends it, Backspace rubs out)."""
        typed = ""
        while True:
            self.prompt = (prompt, typed + "_")
            self.draw()
            name = self.key()
            if name == "ENTER":
                self.prompt = ("", "")
                return typed
            if name == "BACKSPACE":
                typed = typed[:-1]
            elif len(name) == 1 and len(typed) < NAME_KEYS * 2:
                typed += name

    def yes_no(self, prompt: str) -> bool:
        """Y or N, at once; any other key is asked again (a slip decides nothing)."""
        while True:
            answer = self.ask(prompt)
            if answer == "Y":
                return True
            if answer == "N":
                return False
            self.say("Please answer Y (yes) or N (no).")

    def can_show(self, text: str) -> bool:
        return True


class ScreenCribbageApp(CribbageApp):
    """``CribbageApp`` with its table drawn full screen and its moves taken by hot keys."""

    def __init__(self, console: ScreenConsole, directory: Path, rng: random.Random,
                 name: str | None = None, limit: int | None = None) -> None:
        super().__init__(console, directory, rng, name, limit)  # type: ignore[arg-type]
        self.selected: set[Card] = set()
        console.table_of = self.describe_table

    def describe_table(self) -> Table:
        o = self.options
        names = (o.name, COMPUTER_NAME)
        if self.spiel is None:
            return Table(names, o.score_limit)
        g = self.spiel.game
        view = g.view(HUMAN)
        shown = g.phase in (Phase.DEAL, Phase.GAME_OVER) and bool(g.kept[HUMAN]) \
            and g.starter is not None      # the show: every hand and the crib face up
        series = not shown and (g.phase is Phase.PLAY or (g.phase is not Phase.DISCARD
                                                          and bool(g.pile)))
        hand = g.kept[HUMAN] if shown else view.hand
        return Table(
            names, g.limit, tuple(g.scores), (self.spiel.pegs(0), self.spiel.pegs(1)),
            g.dealer, tuple(render.sort_for_display(hand)), frozenset(self.selected),
            len(g.hands[COMPUTER]), 0 if shown else len(g.crib), g.starter,
            () if shown else tuple(g.pile),
            g.count if series else None,
            opponent_shown=tuple(render.sort_for_display(g.kept[COMPUTER])) if shown else (),
            crib_shown=tuple(render.sort_for_display(g.crib)) if shown else ())

    def change_name(self) -> None:
        typed = self.console.ask_line(f"New name (up to {cfg.NAME_MAX}):")  # type: ignore[attr-defined]
        name = cfg.clean_name(typed)
        if not cfg.valid_name(name):
            self.console.say(f"No usable name typed; keeping {self.options.name}.")
            return
        self.options = replace(self.options, name=name)

    def show_event(self, event, state) -> None:
        """Log the event; after the crib is counted the table shows the hands and the crib
        face up until a key deals the next hand."""
        self.console.say(render.describe(event, state, self.names, viewer=HUMAN))
        if event.kind == "show" and event.label == "crib" and not state.is_over:
            self.console.ask("Any key: next hand")

    def ask_move(self, view: PlayerView, legal: list[Action]) -> Action:
        hand = render.sort_for_display(view.hand)
        discarding = view.phase is Phase.DISCARD
        self.selected = set()
        whose = "your" if view.my_crib else f"{COMPUTER_NAME}'s"
        prompt = f"Two cards for {whose} crib" if discarding else "Play a card"
        console = self.console
        try:
            while True:
                key = console.ask(prompt)
                if key == "H":
                    hint = suggest(view)
                    console.say("Hint: " + self.describe_action(hint) + ".")
                    continue
                if key == "Q":
                    if console.yes_no("Quit this game? (Y/N)"):
                        raise QuitGame
                    continue
                if not key.isdigit() or not 1 <= int(key) <= len(hand):
                    console.say(f"Press 1 to {len(hand)} for a card, H for a hint, "
                                f"Q to quit.")
                    continue
                card = hand[int(key) - 1]
                if discarding:
                    if card in self.selected:
                        self.selected.discard(card)
                        continue
                    self.selected.add(card)
                    if len(self.selected) == 2:
                        pair = tuple(c for c in hand if c in self.selected)
                        return Discard((pair[0], pair[1]))
                    continue
                if view.count + min(card.rank, 10) > 31:
                    console.say(f"{card} would take the count past 31 "
                                f"(count is {view.count}).")
                    continue
                return Play(card)
        finally:
            self.selected = set()


def run_fullscreen(directory: Path, rng: random.Random, name: str | None,
                   limit: int | None) -> int:
    with TerminalKeyboard() as keyboard, AnsiDisplay(
            title="Cribbage", quit_hint="(Q quits.)") as display:
        console = ScreenConsole(keyboard, display)
        app = ScreenCribbageApp(console, directory, rng, name, limit)
        try:
            return app.run()
        except KeyboardInterrupt:
            return 130
