"""Rummi's account of a turn, its hint, and the full-screen game in a pseudo-terminal:
hot keys without Enter, a typed move, Back up, the computer's account, repaint after a
resize (SIGWINCH) and Ctrl-L, the 80x25 notice at 60x20 and the table back at 80x25."""
from __future__ import annotations

import io

from games_py.rummi.account import account, name
from games_py.rummi.state import GameState
from games_py.rummi.terminal import TerminalGame
from games_py.rummi.tiles import tiles
from tests.pty_helpers import PtyGame, assert_repaints_whole


def test_the_account_names_a_split_and_what_was_added():
    r5, r6, r7, r8, r9 = tiles("R5 R6 R7 R8 R9")
    k7, b7, o7 = tiles("K7 B7 O7")
    before = [(r5, r6, r7, r8), (k7, b7, o7)]
    after = [(r5, r6, r7), (k7, b7, o7), (r8, r9)]
    assert account(before, after) == ["split 5-6-7-8 red into 5-6-7 red and 8 red",
                                      "added R9 to 8 red, making 8-9 red"]


def test_the_account_of_laying_joining_and_nothing():
    k7, b7, o7, r7 = tiles("K7 B7 O7 R7")
    r5, r6, r8 = tiles("R5 R6 R8")
    assert account([], [(k7, b7, o7)]) == ["laid 7 black, blue and orange from its tray"]
    assert account([(r5, r6, r7)], [(r7, r6, r5)]) == []        # only the order differs
    # two series made one: a piece of a group and a run, with a tray piece
    joined = account([(k7, b7, o7, r7), (r5, r6, tiles("R4")[0])],
                     [(k7, b7, o7), (tiles("R4")[0], r5, r6, r7, r8)])
    assert joined == ["split 7 black, blue, orange and red into 7 black, blue and orange; "
                      "and 7 red",
                      "made 4-5-6-7-8 red from 4-5-6 red, 7 red and R8 from its tray"]
    assert name((k7, r7, b7)) == "7 black, blue and red"


def run_lines(state: GameState, commands: list[str]) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    answers = iter(commands)

    def read(prompt: str) -> str:
        out.write(prompt)
        return next(answers)          # StopIteration -> EOFError below

    def reader(prompt: str) -> str:
        try:
            return read(prompt)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(reader, out, seed=1, level="expert")
    game.state = state
    game.run()
    return game, out.getvalue()


def test_hint_shows_the_experts_play_and_moves_nothing():
    r10, r11, r12, k1 = tiles("R10 R11 R12 K1")
    state = GameState(pile=tuple(tiles("B1 B2")), trays=((r10, r11, r12, k1), tuple(tiles("O1 O2"))),
                      table=(), current=0, history=("first turn: player 0",))
    game, out = run_lines(state, ["hint", "quit"])
    assert "Hint: play R10 R11 R12: laid 10-11-12 red from your tray." in out
    assert game.state.table == () and len(game.state.trays[0]) == 4


def test_the_computer_says_what_it_did_on_the_table():
    """Line mode: after its turn the Expert's rearrangement is put in words."""
    table = (tuple(tiles("R4 R5 R6 R7 R8 R9")),)
    computer = (tiles("R6 R6")[1], tiles("K1")[0])
    state = GameState(pile=tuple(tiles("B1 B2 B3")), trays=(tuple(tiles("O1 O2")), computer),
                      table=table, current=1, opened=(True, True),
                      history=("first turn: player 1",))
    _, out = run_lines(state, ["quit"])
    assert "The computer split 4-5-6-7-8-9 red into " in out
    assert "The computer added R6 to " in out
    assert "   1: R4 R5 R6\n   2: R6 R7 R8 R9\n" in out or \
        "   1: R6 R7 R8 R9\n   2: R4 R5 R6\n" in out


def test_rummi_in_a_terminal():
    with PtyGame(["-m", "games_py.rummi", "play", "--seed", "3", "--level", "expert"]) as game:
        game.until("[take a piece]")
        game.type("h")                                  # a hot key: no Enter
        game.until("Hint: nothing from your tray fits")
        game.type("r8\r")                               # a typed move: R8 alone
        game.until(" 1! R8")
        game.until("[ok]")                              # the gadget's state on the prompt
        game.type("\x1bOR")                             # F3: back up
        game.until("the table is empty")
        game.type("d")                                  # take a piece
        game.until("The computer laid 8 blue, orange and red from its tray.")
        assert " 1: B8  O8  R8" in game.shown()
        game.settle(0.3)
        before = game.screen()

        assert_repaints_whole(game, before, "YOUR TRAY", "Rummi")

        game.type("\x1b[18~")                           # F7: quit
        assert game.wait() == 0
        assert "Traceback" not in game.text() and "(seed 3)" in game.text()
