"""The text-mode game: you against the computer, and the computer-only demo.

The screen is redrawn as text after every change; moves are typed commands
standing in for the Amiga's clicks.  The menus of the guide are commands
too: back (Back up), new (New game), single (Single play), level
beginner|expert, about, quit.  Input and output are passed in so tests can
drive a whole game.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Callable, TextIO

from games_py.rummi import rules, savefile
from games_py.rummi.account import account
from games_py.rummi.players import ComputerPlayer, ExpertPlayer, from_legal, make_player
from games_py.rummi.rules import IllegalAction, Offer, Return
from games_py.rummi.spiel import RummiState
from games_py.rummi.state import GameState, duplicates, new_game
from games_py.rummi.solver import best_play
from games_py.rummi.tiles import COLOURS, Tile, format_tiles, parse_kind, sort_tray
from games_py.rummi.turn import MoveError, Requester, TurnBuilder

HUMAN, COMPUTER = 0, 1
DEFAULT_SAVE = Path("rummi.sav")
ANSI = {"K": "\033[1;37;40m", "B": "\033[1;34m", "O": "\033[1;33m", "R": "\033[1;31m"}
RESET = "\033[0m"

HELP = """\
Pieces are written colour letter + number: K=black B=blue O=orange R=red, e.g. R5.
  play R5 R6 R7       lay tray pieces as a new series (one after the other)
  play R8 to 2        drop a tray piece on series 2 (added at the proper end,
                      or the run is split: a 5 on 3-4-5-6-7 gives 3-4-5 and 5-6-7)
  move 2 R5 [to 4]    move a piece of series 2 onto series 4 (or a new series)
  ok                  end the turn (take a piece if you have not moved)
  draw                take a piece (only before moving anything)
  back                Back up: take back the last piece moved
  hint                a play the Expert's search finds for your tray (nothing is moved)
  save [FILE]         save the game as it was at the start of this turn (default rummi.sav);
                      resume it with: python -m games_py.rummi play --resume FILE
  swap R5             swap your duplicate R5 for one of the computer's duplicates
  new                 New game          single    Single play on/off
  level beginner|expert                 about     quit      help"""

ABOUT = ("Rummi: Rummikub for two, after Rummi v1.3 by Yvon Rozijn (Amiga, 1995). "
         "This version is a Python reimplementation from the game's guide.")


class Quit(Exception):
    pass


class NewGame(Exception):
    """You asked for a new game in the middle of one."""


class TerminalGame:
    def __init__(self, read: Callable[[str], str], out: TextIO, seed: int = 0,
                 level: str = "beginner", single: bool = False, colour: bool = False,
                 save_path: Path = DEFAULT_SAVE):
        self.read = read
        self.save_path = save_path
        self.out = out
        self.seeds = random.Random(seed)    # one seed per new game
        self.computer: ComputerPlayer = make_player(level)
        self.single = single
        self.colour = colour
        self.spiel = RummiState(game=self._deal())
        self.builder: TurnBuilder | None = None     # your turn so far
        self.pending_give: Tile | None = None       # the duplicate you offered
        self.swap_answer = _HumanSwapAnswer(self)

    # -- output ----------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def fmt(self, items) -> str:
        if not self.colour:
            return " ".join(str(t) for t in items)
        return " ".join(f"{ANSI[t.letter]}{t}{RESET}" for t in items)

    def render(self, builder: TurnBuilder | None) -> None:
        s = self.state
        table = builder.table if builder else s.table
        tray = builder.tray if builder else s.trays[HUMAN]
        other = s.trays[COMPUTER]
        dup = " (has duplicates)" if duplicates(other) else ""
        mode = "single play" if self.single else self.computer.name
        self.say("")
        self.say(f"--- turn {s.turn} | pile {len(s.pile)} | computer ({mode}): "
                 f"{len(other)} pieces{dup} ---")
        if not table:
            self.say("Table: empty")
        else:
            self.say("Table:")
            for i, series in enumerate(table, 1):
                mark = "" if rules.is_valid_series(series) else "   <- incomplete"
                self.say(f"  {i:2}: {self.fmt(series)}{mark}")
        self.say(f"Your tray ({len(tray)}): {self.fmt(sort_tray(tray))}")
        if builder and not s.opened[HUMAN] and builder.played():
            self.say(f"Played from tray this turn: {builder.played_value()} "
                     f"(at least {rules.OPENING_MINIMUM} needed to open)")

    # -- the game loop -----------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.spiel.game

    @state.setter
    def state(self, state: GameState) -> None:
        self.spiel = RummiState(game=state)
        self.builder = None

    def run(self) -> None:
        """Ask the seat to move -- you (``choose`` below) or the computer -- and apply it,
        until you quit.  Single play skips the computer's turns (the guide's option)."""
        self.say("Rummi -- type 'help' for commands.")
        self.say("Resumed a saved game." if getattr(self, "resumed", False)
                 else _humanise(self.state.history[0]))
        seats = {HUMAN: self, COMPUTER: None}
        try:
            while True:
                if self.state.over:
                    self._game_over()
                    continue
                seat = self.spiel.current_player()
                if seat == COMPUTER and self.single and self.spiel.offer is None:
                    self.state = rules.skip_turn(self.state)
                    continue
                player = seats[seat] or self.computer
                legal = self.spiel.legal_actions()
                try:
                    action = player.choose(self.spiel.observation(seat), legal)
                except NewGame:
                    self._new_game()
                    continue
                if action not in legal:
                    raise IllegalAction(f"{action!r} is not a legal move")
                self._apply(seat, action)
        except Quit:
            self.say("Bye.")

    def _apply(self, seat: int, action) -> None:
        """Apply ``action`` and say what happened."""
        before, offered = self.state, self.spiel.offer
        self.spiel.apply_action(action)
        if isinstance(action, Offer):
            if seat == COMPUTER:
                self.say(f"The computer offers its duplicate {action.give} for a swap.")
            return
        if isinstance(action, Return):
            self._report(before)
            if seat == COMPUTER:
                self.say(f"Swapped your {offered} for the computer's {action.tile}.")
            return
        self.builder = None
        self._report(before)
        if seat == COMPUTER:
            for line in account(before.table, self.state.table):
                self.say(f"The computer {line}.")
        else:
            gained = Counter(self.state.trays[HUMAN]) - Counter(before.trays[HUMAN])
            if gained:
                self.say(f"You took {self.fmt(sorted(gained.elements()))}.")

    def resume(self, state: GameState, level: str, single: bool,
               seeds: random.Random) -> None:
        """Go on with a saved game (``savefile.load``'s answer)."""
        self.state, self.single, self.seeds = state, single, seeds
        self.computer = make_player(level)
        self.resumed = True

    def _deal(self) -> GameState:
        return new_game(random.Random(self.seeds.randrange(2 ** 32)))

    def _new_game(self) -> None:
        self.state = self._deal()
        self.say("New game; " + _humanise(self.state.history[0]))

    def _game_over(self) -> None:
        s = self.state
        self.render(None)
        who = {HUMAN: "You win!", COMPUTER: "The computer wins.", None: "A draw."}[s.winner]
        self.say(f"Game over: {_humanise(s.end_reason)}. {who}")
        while True:
            answer = self._ask("new game or quit? ").lower()
            if answer in ("n", "new", "new game", "y", "yes"):
                self._new_game()
                return
            if answer in ("q", "quit", "no"):
                raise Quit
            self.say("Type 'new' or 'quit'.")

    # -- you, a player like the computer: choose(view, legal) --------------------
    def choose(self, view, legal):
        """Your move, collected from the keyboard: a whole turn built piece by piece
        (``TurnBuilder``) ends as EndTurn; 'swap' offers a duplicate; an offer of the
        computer's is answered with one of your duplicates."""
        if view.offered is not None:
            return self.swap_answer.choose(view, legal)
        b = self.builder
        if b is None or b.state.turn != self.state.turn:
            b = self.builder = TurnBuilder(self.state)
            if duplicates(self.state.trays[COMPUTER]) and duplicates(self.state.trays[HUMAN]):
                self.say("The computer has duplicate pieces: you may swap one of yours.")
        elif self.pending_give is not None:          # the swap we offered was answered
            came = set(self.state.trays[HUMAN]) - set(b.state.trays[HUMAN])
            receive = came.pop()
            b.swapped(self.state, self.pending_give, receive)
            self.say(f"Swapped your {self.pending_give} for the computer's {receive}.")
            self.pending_give = None
        self.render(b)
        while True:
            line = self._ask("ok" if b.moved else "take a piece")
            try:
                action = self._command(b, line)
            except (MoveError, ValueError) as error:
                self.say(f"! {error}")
                continue
            if action is not None:
                return action

    def _command(self, builder: TurnBuilder, line: str):
        """Carry out one command; the action that ends the turn (or offers a swap), or None."""
        words = line.replace(",", " ").split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        if verb in ("help", "?"):
            self.say(HELP)
        elif verb in ("quit", "q", "exit"):
            raise Quit
        elif verb == "about":
            self.say(ABOUT)
        elif verb in ("show", "s"):
            self.render(builder)
        elif verb in ("play", "p"):
            self._play(builder, args)
        elif verb in ("move", "m"):
            self._move(builder, args)
        elif verb == "save":
            if len(args) > 1:
                raise MoveError("say 'save' or 'save FILE'")
            self._save(builder, Path(args[0]) if args else self.save_path)
        elif verb in ("hint", "h"):
            self.say(self.hint(builder))
        elif verb in ("back", "b", "undo"):
            builder.back_up()
            self.render(builder)
        elif verb == "swap":
            return self._swap(builder, args)
        elif verb in ("ok", "end"):
            return self._finish(builder)
        elif verb in ("draw", "d", "take"):
            if builder.moved:
                raise MoveError("you have moved pieces: say 'ok' to end the turn, "
                                "or 'back' to take them back first")
            return self._finish(builder)
        elif verb == "new":
            raise NewGame
        elif verb == "single":
            self.single = not self.single
            self.say("Single play " + ("on: the computer does not play."
                                       if self.single else "off."))
        elif verb == "level":
            if len(args) != 1:
                raise MoveError("say 'level beginner' or 'level expert'")
            self.computer = make_player(args[0])
            self.say(f"Level: {self.computer.name}.")
        elif _looks_like_piece(verb):
            self._play(builder, words)
        else:
            raise MoveError(f"unknown command {words[0]!r}; type 'help'")
        return None

    def _save(self, builder: TurnBuilder, path: Path) -> None:
        level = "expert" if isinstance(self.computer, ExpertPlayer) else "beginner"
        error = savefile.save(path, self.state, level, self.single, self.seeds)
        if error:
            self.say(f"! {error}")
            return
        moved = " (as at the start of this turn)" if builder.moved else ""
        self.say(f"Saved to {path}{moved}; resume with: "
                 f"python -m games_py.rummi play --resume {path}")

    def hint(self, builder: TurnBuilder) -> str:
        """The Expert's play for the tray at the start of this turn, in words."""
        s = self.state
        plan = best_play(s.table, s.trays[HUMAN], 0 if s.opened[HUMAN] else rules.OPENING_MINIMUM)
        since = " (from the start of your turn: back up to follow it)" if builder.moved else ""
        if not plan.played:
            return f"Hint: nothing from your tray fits; take a piece{since}."
        moves = "; ".join(account(s.table, plan.table, "your"))
        return f"Hint: play {format_tiles(sort_tray(plan.played))}{since}: {moves}."

    def _play(self, builder: TurnBuilder, args: list[str]) -> None:
        pieces, target = _split_target(args)
        if not pieces:
            raise MoveError("which piece? e.g. 'play R5 R6 R7' or 'play R8 to 2'")
        wanted = Counter(parse_kind(p) for p in pieces)
        missing = wanted - Counter(t.kind for t in builder.tray)
        if missing:
            raise MoveError("not on your tray: " + " ".join(
                f"{COLOURS[c]}{n}" for c, n in sorted(missing.elements())))
        if target is None:          # a new series: lay it low to high
            pieces.sort(key=lambda p: parse_kind(p)[::-1])
        done = 0
        try:
            for i, text in enumerate(pieces):
                piece = builder.find_on_tray(text)
                if target is None and i > 0:
                    builder.play(piece, len(builder.table))   # onto the series just begun
                else:
                    builder.play(piece, target)
                done += 1
        except MoveError:
            for _ in range(done):                  # all or nothing
                builder.back_up()
            raise
        self.render(builder)

    def _move(self, builder: TurnBuilder, args: list[str]) -> None:
        rest, target = _split_target(args)
        if len(rest) != 2 or not rest[0].isdigit():
            raise MoveError("say 'move SERIES PIECE [to SERIES]', e.g. 'move 2 R5 to 4'")
        source = int(rest[0])
        piece = builder.find_on_table(source, rest[1])
        builder.move(source, piece, target)
        self.render(builder)

    def _swap(self, builder: TurnBuilder, args: list[str]) -> Offer:
        if len(args) != 1:
            raise MoveError("say 'swap R5' with a piece you hold twice")
        give = builder.find_on_tray(args[0])
        if not duplicates(self.state.trays[COMPUTER]):
            raise MoveError("the computer has no duplicate pieces")
        if sum(1 for t in builder.tray if t.kind == give.kind) < 2:
            raise MoveError(f"{give} is not a duplicate on your tray")
        self.pending_give = give
        return Offer(give)

    def _finish(self, builder: TurnBuilder):
        result = builder.finish()
        if isinstance(result, Requester):
            for problem in result.problems:
                self.say(f"! {problem}")
            self.say("Fix it, or say 'ok' again to put the invalid series on your "
                     "tray and take 5 pieces as a penalty.")
            return None
        return result

    def _report(self, before: GameState) -> None:
        """Print what happened since ``before`` (from the game's log)."""
        for line in self.state.history[len(before.history):]:
            self.say(_humanise(line))

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(f"[{prompt}] > ").strip()
        except EOFError:
            raise Quit from None


class _HumanSwapAnswer:
    """Stands in for the human when the computer offers a swap: asks which
    duplicate to give back."""

    name = "you"

    def __init__(self, game: TerminalGame):
        self.game = game

    def choose(self, view, legal):
        if view.offered is None:             # never asked: it is not our turn
            raise IllegalAction("not the human's turn")
        return from_legal(Return(self.swap_return(view, view.offered)), legal)

    def swap_return(self, view, offered: Tile) -> Tile:
        mine = [k for k in duplicates(view.tray)]
        names = " ".join(f"{COLOURS[c]}{n}" for c, n in mine)
        game = self.game
        game.say(f"The computer swaps its duplicate {offered}; "
                 f"choose one of your duplicates to give: {names}")
        while True:
            try:
                answer = game.read(f"[give one of {names}] > ").strip()
            except EOFError:
                answer = names.split()[0]
            try:
                kind = parse_kind(answer)
            except ValueError as error:
                game.say(f"! {error}")
                continue
            if kind in mine:
                return next(t for t in view.tray if t.kind == kind)
            game.say(f"! {answer.upper()} is not a duplicate on your tray")


def _humanise(line: str) -> str:
    """The log speaks of player 0 and 1; here they are you and the computer."""
    line = line.replace("player 0:", "You:").replace("player 1:", "Computer:")
    return line.replace("player 0", "you").replace("player 1", "the computer")


def _split_target(args: list[str]) -> tuple[list[str], int | None]:
    """'R5 R6 to 3' -> (['R5', 'R6'], 3); a trailing number is a target too."""
    args = list(args)
    target = None
    if len(args) >= 2 and args[-2].lower() in ("to", "on", ">"):
        if not args[-1].isdigit():
            raise MoveError(f"'{args[-1]}' is not a series number")
        target = int(args[-1])
        del args[-2:]
    elif args and args[-1].isdigit() and len(args) >= 2 and not args[-2].isdigit():
        target = int(args[-1])
        args.pop()
    return args, target


def _looks_like_piece(word: str) -> bool:
    try:
        parse_kind(word)
        return True
    except ValueError:
        return False


def run_demo(out: TextIO, seed: int, levels: tuple[str, str], colour: bool = False,
             quiet: bool = False) -> GameState:
    """Computer against computer, every turn printed."""
    from games_py.rummi.game import play_game

    players = [make_player(levels[0]), make_player(levels[1])]
    names = [f"{p.name} ({i})" for i, p in enumerate(players)]
    fmt = (lambda items: " ".join(f"{ANSI[t.letter]}{t}{RESET}" for t in items)) if colour \
        else (lambda items: " ".join(str(t) for t in items))

    def show(record) -> None:
        if quiet:
            return
        s = record.after
        for line in s.history[len(record.before.history):]:
            for i in (0, 1):
                line = line.replace(f"player {i}", names[i])
            out.write(f"turn {record.before.turn:3}: {line}\n")
        out.write(f"          table: {' | '.join(fmt(x) for x in s.table) or 'empty'}\n")

    state, records = play_game(players, seed, show)
    winner = "draw" if state.winner is None else names[state.winner]
    reason = state.end_reason.replace("player 0", names[0]).replace("player 1", names[1])
    out.write(f"{state.history[0].replace('player 0', names[0]).replace('player 1', names[1])}; "
              f"game over after {len(records)} turns: {reason}. Winner: {winner}\n")
    out.write(f"trays left: {names[0]} {fmt(state.trays[0]) or '-'}; "
              f"{names[1]} {fmt(state.trays[1]) or '-'}\n")
    return state
