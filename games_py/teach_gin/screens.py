"""The program around the game: title screen, options, high scores, statistics,
and a game from deal to the stats and score files (doc lines 24-80, 65-73, 102-105)."""
from __future__ import annotations

import random

from games_py.teach_gin import options as opt
from games_py.teach_gin import rules
from games_py.teach_gin.console import Console, EndOfInput
from games_py.teach_gin.files import CFG_FILE, DataStore
from games_py.teach_gin.human import (
    COMPUTER_NAME, GameRef, QuitGame, TerminalPlayer, describe_move, result_lines)
from games_py.teach_gin.match import play_hand
from games_py.teach_gin.options import Options
from games_py.teach_gin.players import ComputerPlayer
from games_py.teach_gin.records import ScoreEntry
from games_py.teach_gin.state import GameState


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"


class App:
    def __init__(self, console: Console, store: DataStore, options: Options,
                 rng: random.Random, today: str, go: bool = False) -> None:
        self.con, self.store, self.options = console, store, options
        self.rng, self.today, self.go = rng, today, go
        self.stats = store.load_stats()
        self.scores = store.load_scores()

    def flush_messages(self) -> None:
        for m in self.store.messages:
            self.con.say(m)
        self.store.messages.clear()

    # -- title screen ------------------------------------------------------------
    def run(self) -> int:
        try:
            self.flush_messages()
            if self.go:         # "go directly into the game, bypassing the intro screen"
                self.play_games()
            while self.title():
                pass
        except EndOfInput:
            self.con.say()
        return 0

    def title(self) -> bool:
        o = self.options
        self.con.new_page()
        self.con.say(f"G I N R U M M Y          player: {o.name}")
        self.con.say(f"Score limit {o.score_limit}   Gin {o.gin_bonus}   Undercut {o.undercut_bonus}"
                     f"   Oklahoma {yes_no(o.oklahoma)}   Easy {yes_no(o.easy)}"
                     f"   Knocking {yes_no(o.knocking)}")
        key = self.con.ask("B=begin game (Enter)  O=options  H=high scores  S=statistics  Q=quit > ").upper()
        if key in ("B", ""):
            self.play_games()
        elif key == "O":
            self.options_menu()
        elif key == "H":
            self.high_scores()
        elif key == "S":
            self.statistics()
        elif key == "Q":
            return False
        else:
            self.con.say(f"{key!r} is not a choice here.")
        return True

    # -- options -------------------------------------------------------------------
    def options_menu(self) -> None:
        while True:
            o = self.options
            c = self.con
            c.new_page()
            c.say("OPTIONS")
            c.say(f"  M  main menu (Enter)")
            c.say(f"  N  name: {o.name}        ?  players in the statistics file")
            c.say(f"  G  gin bonus: {o.gin_bonus}")
            c.say(f"  U  undercut bonus: {o.undercut_bonus}")
            c.say(f" +/- score limit: {o.score_limit}")
            c.say(f"  O  Oklahoma: {yes_no(o.oklahoma)}")
            c.say(f"  B  big pips: {yes_no(o.big_pips)}")
            c.say(f"  E  easy: {yes_no(o.easy)}")
            c.say(f"  K  knocking: {yes_no(o.knocking)}")
            c.say(f"  P  pointer shape: {o.pointer} of {opt.POINTER_SHAPES} (no mouse here)")
            c.say(f"  R  sort: {o.sort}")
            c.say(f"  S  save the options to {CFG_FILE}")
            key = c.ask("> ").upper()
            if key in ("M", ""):
                return
            if key == "N":
                typed = self.con.ask("New name (up to 8: letters, 1-9, ! \" - : / ? space) > ")
                name = opt.edit_name(typed)
                if name.strip():
                    self.options = o.with_(name=name)
                else:
                    c.say("No usable characters: the name is unchanged.")
            elif key == "?":
                names = self.stats.names()
                c.say("Players: " + (", ".join(names) if names else "(none yet)"))
            elif key == "G":
                self.options = o.with_(gin_bonus=opt.next_bonus(o.gin_bonus))
            elif key == "U":
                self.options = o.with_(undercut_bonus=opt.next_bonus(o.undercut_bonus))
            elif key == "+":
                self.options = o.with_(score_limit=opt.raise_limit(o.score_limit))
            elif key == "-":
                self.options = o.with_(score_limit=opt.lower_limit(o.score_limit))
            elif key == "O":
                self.options = o.with_(oklahoma=not o.oklahoma)
            elif key == "B":
                self.options = o.with_(big_pips=not o.big_pips)
                self.con.style.big_pips = self.options.big_pips
            elif key == "E":
                self.options = o.with_(easy=not o.easy)
            elif key == "K":
                self.options = o.with_(knocking=not o.knocking)
            elif key == "P":
                self.options = o.with_(pointer=opt.next_pointer(o.pointer))
            elif key == "R":
                self.options = o.with_(sort=opt.other_sort(o.sort))
            elif key == "S":
                if not self.store.disk:
                    c.say("NODISK: nothing is saved.")
                elif self.store.save_config(self.options):
                    c.say(f"Options saved to {CFG_FILE}.")
                self.flush_messages()
            else:
                c.say(f"{key!r} is not a choice here.")

    # -- lists --------------------------------------------------------------------
    def high_scores(self) -> None:
        if not self.store.disk:     # "The high scores box will do nothing" (line 135)
            self.con.say("(NODISK: no high scores)")
            return
        self.con.new_page()
        self.con.say("HIGH SCORES    name      average  score  limit  hands  Oklahoma  date")
        for i, e in enumerate(self.scores.entries, start=1):
            self.con.say(f"  {i:2}.          {e.name:8}  {e.average:7.2f}  {e.score:5}  {e.limit:5}"
                         f"  {e.hands:5}  {'Y' if e.oklahoma else 'N':8}  {e.date}")
        if not self.scores.entries:
            self.con.say("  (none yet)")
        self._back()

    def statistics(self) -> None:
        s = self.stats.get(self.options.name)
        self.con.new_page()
        self.con.say(f"STATISTICS for {s.name}")
        self.con.say(f"  average score per hand: {s.average:.2f}")
        self.con.say(f"  games won {s.won}, lost {s.lost}, drawn {s.drawn}")
        self.con.say(f"  hands played: {s.hands}")
        self._back()

    def _back(self) -> None:
        while self.con.ask("M=main menu (Enter) > ").upper() not in ("M", ""):
            pass

    # -- playing -----------------------------------------------------------------
    def play_games(self) -> None:
        while self.play_one_game():
            key = ""
            while True:
                key = self.con.ask("P=play again from zero  Q=quit to the title screen > ").upper()
                if key in ("P", "Q"):
                    break
                self.con.say(f"{key!r} is not a choice here.")
            if key == "Q":
                return

    def play_one_game(self) -> bool:
        """One game; False if the player quit it."""
        o = self.options
        game = rules.new_game(o, self.rng)
        ref = GameRef(game)
        human = TerminalPlayer(self.con, ref, o.name, o.sort)
        players = [human, ComputerPlayer(easy=o.easy)]
        names = (o.name, COMPUTER_NAME)

        def on_move(g: GameState, player: int, move) -> None:
            text = describe_move(g, player, move, o.name, self.con.style)
            if text:
                self.con.say(text)
        try:
            while not game.over:
                result = play_hand(game, players, on_move)
                self.con.say()
                for line in result_lines(result, names, self.con.style, o.sort):
                    self.con.say(line)
                self.con.say(f"Score: {o.name} {game.scores[0]}   {COMPUTER_NAME} {game.scores[1]}")
                if not game.over:
                    self.con.ask("Press Enter for the next hand > ")
        except QuitGame:
            self.record(game, finished=False)
            return False
        except EndOfInput:
            self.record(game, finished=False)
            raise
        a, b = game.scores
        if game.winner is None:
            self.con.say(f"The game is a draw, {a} to {b}.")
        else:
            self.con.say(f"{names[game.winner]} wins the game, {max(a, b)} to {min(a, b)}, "
                         f"after {game.hands_played} hand{'s' if game.hands_played != 1 else ''}.")
        self.record(game, finished=True)
        return True

    def record(self, game: GameState, finished: bool) -> None:
        """Update GINRUMMY.STA and .SCR at the end of a game, or when it is quit
        after at least one finished hand (lines 71, 105)."""
        if game.hands_played == 0:
            return
        a, b = game.scores
        if finished:
            outcome = {0: "won", 1: "lost", None: "drawn"}[game.winner]
        else:
            outcome = "won" if a > b else "lost" if b > a else "drawn"
        name = self.options.name
        self.stats.record(name, a, game.hands_played, outcome)
        self.store.save_stats(self.stats)
        if a > 0:
            place = self.scores.add(ScoreEntry(name, a, game.options.score_limit,
                                               game.hands_played, game.options.oklahoma, self.today))
            if place is not None:
                self.con.say(f"Average {a / game.hands_played:.2f} per hand: number {place} "
                             f"in the high scores.")
                self.store.save_scores(self.scores)
        self.flush_messages()
