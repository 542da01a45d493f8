"""The line-based terminal game: title screen, options, statistics, play.

Keys follow CRIBBAGE.DOC's keyboard mode: title B/O/S/Q (ENTER begins),
options M N + - K B P S (ENTER back), statistics M (or ENTER).  Each answer
is one line, so a game can be scripted on stdin.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Sequence, TextIO

from games_py.cards import Card, SUIT_SYMBOLS
from games_py.cribbage import config as cfg
from games_py.cribbage import match, render, rules, stats
from games_py.cribbage.players import ComputerPlayer, HumanPlayer, suggest
from games_py.cribbage.spiel import CribbageState
from games_py.cribbage.state import (
    Action, Discard, Event, GameState, Phase, Play, PlayerView)

COMPUTER_NAME = "COMPUTER"
HUMAN, COMPUTER = 0, 1


class EndOfInput(Exception):
    """stdin ran out: leave quietly."""


class QuitGame(Exception):
    """The player quit the game in progress."""


class Console:
    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise EndOfInput
        return line.rstrip("\r\n")

    def yes_no(self, prompt: str) -> bool:
        """A Y/N question: Y or YES is yes, N or NO is no (any case); anything else is
        asked again, so a slip of the finger decides nothing."""
        while True:
            answer = self.ask(prompt).strip().upper()
            if answer in ("Y", "YES"):
                return True
            if answer in ("N", "NO"):
                return False
            self.say("Please answer Y (yes) or N (no).")

    def can_show(self, text: str) -> bool:
        try:
            text.encode(self.out.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            return False
        return True


def parse_cards_answer(answer: str, hand: Sequence[Card]) -> list[Card]:
    """Cards named by position ("1 4") or by name ("5H 10S") in ``hand``
    (positions as displayed: sorted).  Raises ValueError with a message."""
    shown = render.sort_for_display(hand)
    chosen = []
    for token in answer.replace(",", " ").split():
        if token.isdigit():
            n = int(token)
            if not 1 <= n <= len(shown):
                raise ValueError(f"there is no card {n}: choose 1 to {len(shown)}")
            chosen.append(shown[n - 1])
        else:
            try:
                c = Card.parse(token)
            except ValueError:
                raise ValueError(f"{token!r} is neither a card number nor a card "
                                 f"such as 5H or 10S") from None
            if c not in hand:
                raise ValueError(f"{c} is not in your hand")
            chosen.append(c)
    return chosen


class CribbageApp:
    def __init__(self, console: Console, directory: Path, rng: random.Random,
                 name: str | None = None, limit: int | None = None) -> None:
        self.console = console
        self.directory = directory
        self.rng = rng
        self.override_name, self.override_limit = name, limit
        self.options = cfg.Options()
        self.table: dict[str, stats.Record] = {}
        self.spiel: CribbageState | None = None     # the game in progress

    @property
    def config_path(self) -> Path:
        return self.directory / cfg.CONFIG_FILE

    @property
    def stats_path(self) -> Path:
        return self.directory / stats.STATS_FILE

    # --- screens -------------------------------------------------------------

    def run(self) -> int:
        """Load the files and show the title screen until Q (or end of input)."""
        self.options, messages = cfg.load_config(self.config_path)
        # Command-line choices apply to this session only (not saved).
        if self.override_name is not None:
            self.options = replace(self.options, name=self.override_name)
        if self.override_limit is not None:
            self.options = replace(self.options, score_limit=self.override_limit)
        self.table, more = stats.load_stats(self.stats_path)
        for m in messages + more:
            self.console.say(m)
        try:
            self.title_screen()
        except EndOfInput:
            self.console.say("End of input: goodbye.")
        return 0

    def title_screen(self) -> None:
        while True:
            o = self.options
            self.console.say("")
            self.console.say("=" * 19 + "\n     Cribbage\n" + "=" * 19)
            self.console.say(f"Player: {o.name}   score limit: {o.score_limit}   "
                             f"skunking: {'YES' if o.skunking else 'NO'}")
            self.console.say("B) Begin game   O) Options   S) Statistics   Q) Quit")
            key = self.console.ask("> ").strip().upper()
            if key in ("", "B"):
                self.play_games()
            elif key == "O":
                self.options_menu()
            elif key == "S":
                self.statistics_screen()
            elif key == "Q":
                self.console.say("Goodbye.")
                return
            else:
                self.console.say(f"Unknown choice {key!r}: type B, O, S or Q.")

    def options_menu(self) -> None:
        while True:
            o = self.options
            yn = {True: "YES", False: "NO"}
            self.console.say("")
            self.console.say("Options")
            self.console.say(f"  M) Main menu\n  N) Name: {o.name}\n"
                             f"  +/-) Score limit: {o.score_limit}\n"
                             f"  K) Skunking: {yn[o.skunking]}\n"
                             f"  B) Big cards: {yn[o.big_cards]}\n"
                             f"  P) Pointer: shape {o.pointer} of {cfg.POINTER_SHAPES}"
                             f" (mouse only)\n  S) Save options to {cfg.CONFIG_FILE}")
            key = self.console.ask("> ").strip().upper()
            if key in ("", "M"):
                return
            if key == "N":
                self.change_name()
            elif key in ("+", "-"):
                self.options = cfg.cycle_limit(o)
            elif key == "K":
                self.options = cfg.toggle_skunking(o)
            elif key == "B":
                self.options = cfg.toggle_big_cards(o)
            elif key == "P":
                self.options = cfg.next_pointer(o)
            elif key == "S":
                error = cfg.save_config(self.config_path, self.options)
                self.console.say(error or f"Options saved to {cfg.CONFIG_FILE}.")
            else:
                self.console.say(f"Unknown choice {key!r}: type M, N, +, -, K, B, P or S.")

    def change_name(self) -> None:
        typed = self.console.ask(f"New name (up to {cfg.NAME_MAX} characters): ")
        name = cfg.clean_name(typed)
        if not cfg.valid_name(name):
            self.console.say(f"No usable name typed; keeping {self.options.name}.")
            return
        if name != typed:
            self.console.say(f"Only letters, digits, spaces and !.,\"-:/? are allowed, "
                             f"{cfg.NAME_MAX} at most: the name is {name!r}.")
        self.options = replace(self.options, name=name)

    def statistics_screen(self) -> None:
        r = self.table.get(self.options.name, stats.Record())
        self.console.say("")
        self.console.say(f"Statistics for {self.options.name}")
        self.console.say(f"  games played: {r.games}\n"
                         f"  wins:   {r.wins} ({r.won} games, {r.skunks_won} by skunk)\n"
                         f"  losses: {r.losses} ({r.lost} games, {r.skunks_lost} by skunk)")
        self.console.say("  (a skunk counts as 2 wins)")
        while self.console.ask("M) Main menu > ").strip().upper() not in ("", "M"):
            self.console.say("Type M or press ENTER for the main menu.")

    # --- a game --------------------------------------------------------------

    def play_games(self) -> None:
        while True:
            try:
                result = self.play_one()
            except QuitGame:
                self.console.say("Game abandoned (not counted in the statistics).")
                return
            self.record(result)
            if not self.console.yes_no("Play another game? (Y/N) "):
                return

    def play_one(self) -> rules.Result:
        o = self.options
        self.names = (o.name, COMPUTER_NAME)
        self.symbols = self.console.can_show("".join(SUIT_SYMBOLS.values()))
        self.spiel = CribbageState(game=rules.new_game(o.score_limit, o.skunking), rng=self.rng)
        players = [HumanPlayer(self.ask_move, o.name), ComputerPlayer(COMPUTER_NAME)]
        result = match.play_state(self.spiel, players, self.show_event)
        if result.skunk:
            self.console.say(f"{self.names[1 - result.winner]} is skunked: "
                             f"the game counts as 2 wins.")
        return result

    def record(self, result: rules.Result) -> None:
        self.table = stats.record_game(self.table, self.options.name,
                                       result.winner == HUMAN, result.skunk)
        error = stats.save_stats(self.stats_path, self.table)
        if error:
            self.console.say(error + " The statistics are kept for this session only.")

    def show_event(self, event: Event, state: GameState) -> None:
        if event.kind == "deal" and state.hand_number > 1:
            self.console.ask("Press ENTER to deal the next hand. ")
        self.console.say(render.describe(event, state, self.names, viewer=HUMAN))

    def ask_move(self, view: PlayerView, legal: list[Action]) -> Action:
        pegs = [self.spiel.pegs(p) for p in (0, 1)] if self.spiel else None
        self.console.say(render.table(view, self.names, self.options.big_cards,
                                      self.symbols, pegs))
        discarding = view.phase is Phase.DISCARD
        whose = "your" if view.my_crib else f"{COMPUTER_NAME}'s"
        prompt = (f"Lay away two cards to {whose} crib (e.g. 1 4)" if discarding
                  else "Play a card (number or name)") + ", H hint, Q quit: "
        while True:
            answer = self.console.ask(prompt).strip()
            key = answer.upper()
            if key == "H":
                self.console.say(f"Hint: {self.describe_action(suggest(view))}.")
                continue
            if key == "Q":
                if self.console.yes_no("Quit this game? (Y/N) "):
                    raise QuitGame
                continue
            try:
                chosen = parse_cards_answer(answer, view.hand)
                action = self.to_action(chosen, discarding, view)
            except ValueError as exc:
                self.console.say(f"{exc}.")
                continue
            return action

    @staticmethod
    def to_action(chosen: list[Card], discarding: bool, view: PlayerView) -> Action:
        if discarding:
            if len(chosen) != 2 or chosen[0] == chosen[1]:
                raise ValueError("choose exactly two different cards")
            return Discard((chosen[0], chosen[1]))
        if len(chosen) != 1:
            raise ValueError("choose one card")
        if view.count + min(chosen[0].rank, 10) > 31:
            raise ValueError(f"{chosen[0]} would take the count past 31 "
                             f"(count is {view.count})")
        return Play(chosen[0])

    @staticmethod
    def describe_action(action: Action) -> str:
        if isinstance(action, Discard):
            return f"lay away {render.small_cards(action.cards)}"
        return f"play {action.card}"


# --- demo: the computer plays both sides ------------------------------------

def run_demo(console: Console, rng: random.Random, games: int, limit: int,
             skunking: bool) -> int:
    names = ("EAST", "WEST")
    wins = [0, 0]

    def show(event: Event, state: GameState) -> None:
        console.say(render.describe(event, state, names, viewer=None))
        if event.kind == "deal":
            for p in (0, 1):
                console.say(f"  {names[p]} holds "
                            f"{render.small_cards(render.sort_for_display(state.hands[p]))}")

    for n in range(1, games + 1):
        if games > 1:
            console.say(f"##### Game {n} of {games} #####")
        state = rules.new_game(limit, skunking)
        result = match.play_game(state, [ComputerPlayer(names[0]), ComputerPlayer(names[1])],
                                 rng, show)
        wins[result.winner] += result.wins
        if result.skunk:
            console.say(f"{names[1 - result.winner]} is skunked: the game counts as 2 wins.")
    console.say(f"Wins: {names[0]} {wins[0]}, {names[1]} {wins[1]}.")
    return 0
