"""The full-screen Cribbage (games_py/cribbage/fullscreen.py): the table and its pegging
board, hot keys without Enter, Y/N questions that take only Y or N, repaint after a
resize (SIGWINCH) and after Ctrl-L, the 80x25 notice at 60x20 and the table back when the
terminal grows -- the real command in a pseudo-terminal, and the table drawn directly."""
from __future__ import annotations

import random

from games_py.cards import Card
from games_py.cribbage import fullscreen, rules
from games_py.cribbage.spiel import CribbageState
from games_py.cribbage.table_screen import (BACK, FRONT, LANES, Table, draw_table,
                                            hole_place)
from games_py.tui.screen import Screen
from tests.pty_helpers import PtyGame, assert_repaints_whole


def test_the_board_has_120_holes_a_player_and_pegs_where_the_scores_are():
    screen = Screen()
    draw_table(screen, Table(("ANN", "COMPUTER"), 121, (45, 118), ((45, 39), (118, 110))))
    text = screen.text()
    for player in (0, 1):
        holes = {hole_place(player, h, 121) for h in range(1, 121)}
        assert len(holes) == 120                       # every hole its own cell
        out, back = LANES[player]
        assert {r for r, _ in holes} == {out, back}
    assert screen.cells[2][hole_place(0, 45, 121)[1]][0] == FRONT
    assert screen.cells[2][hole_place(0, 39, 121)[1]][0] == BACK
    row, column = hole_place(1, 118, 121)
    assert screen.cells[row][column][0] == FRONT and row == LANES[1][1]
    assert "ANN:  45" in text and "(+6)" in text and "COMPUTER: 118" in text
    assert text.count(FRONT) >= 2 and "\u2554" in text and "\u255d" in text


def test_pegs_follow_the_points_of_a_whole_game():
    """The front peg is in the hole of the score, the back peg in the hole the front one
    left when it last moved (both start in the start holes)."""
    state = CribbageState(seed=3)
    rng = random.Random(3)
    model = {0: (0, 0), 1: (0, 0)}          # (front, back) moved by the events' scores
    while not state.is_terminal():
        for event in state.apply_action(rng.choice(state.legal_actions())):
            if event.points:
                model[event.player] = (event.score, model[event.player][0])
        assert [state.pegs(p) for p in (0, 1)] == [model[0], model[1]]
        assert [state.pegs(p)[0] for p in (0, 1)] == state.game.scores
    assert max(state.game.scores) == 121


class Keys:
    """A keyboard that types a script and then ends the input."""

    def __init__(self, *keys: str) -> None:
        self.keys = list(keys)

    def key(self, timeout):
        if not self.keys:
            raise EOFError
        return self.keys.pop(0)


class Shown:
    def __init__(self) -> None:
        self.frames: list[str] = []

    def show(self, screen) -> None:
        self.frames.append(screen.text())

    repaint = show


def test_play_another_game_takes_only_y_or_n_at_once(tmp_path, monkeypatch):
    """'Play another game? (Y/N)': X asks again, N goes back to the title, Q leaves; a
    function key at the title is no choice (Enter would begin a game)."""
    console = fullscreen.ScreenConsole(Keys("F1", "B", "X", "N", "Q"), Shown())
    app = fullscreen.ScreenCribbageApp(console, tmp_path, random.Random(1))
    monkeypatch.setattr(app, "play_one", lambda: rules.Result(0, (121, 80), False, 1))
    assert app.run() == 0
    log = "\n".join(console.log)
    assert "Unknown choice 'F1'" in log
    assert log.count("Please answer Y (yes) or N (no).") == 1
    assert "Goodbye." in log
    assert (tmp_path / "CRIBBAGE.STA").exists()      # the won game was counted


def test_two_keys_lay_away_two_cards_and_one_key_plays_a_card(tmp_path):
    console = fullscreen.ScreenConsole(Keys(), Shown())
    app = fullscreen.ScreenCribbageApp(console, tmp_path, random.Random(1))
    app.spiel = CribbageState(seed=9)
    app.names = ("PLAYER", "COMPUTER")
    view = app.spiel.observation(app.spiel.current_player())
    hand = sorted(view.hand, key=lambda c: (c.rank, c.suit))
    console.keyboard = Keys("9", "3", "3", "1", "5")      # 3 twice: chosen, then not
    action = app.ask_move(view, app.spiel.legal_actions())
    assert set(action.cards) == {hand[0], hand[4]}
    assert "Press 1 to 6" in console.log[-1]


def _play_until(game: PtyGame, wanted: str, limit: int = 40) -> list[str]:
    """Answer every prompt (a card for the crib or the play, any key for the next hand)
    until the screen shows ``wanted``."""
    for _ in range(limit):
        game.settle(0.3)
        screen = game.screen()
        if wanted in "\n".join(screen):
            return screen
        prompt = screen[22]
        if "Two cards" in prompt:
            game.type("12")
        elif "Play a card" in prompt:
            for key in "1234":          # the first card the count allows
                game.type(key)
                game.settle(0.3)
                if "past 31" not in "\n".join(game.screen()[18:22]):
                    break
        else:
            game.type(" ")
    raise AssertionError(f"{wanted!r} never shown:\n" + game.shown())


def test_cribbage_in_a_terminal(tmp_path):
    with PtyGame(["-m", "games_py.cribbage", "play", "--seed", "5", "--dir", str(tmp_path)]) \
            as game:
        game.until("B) Begin game")
        game.type("b")                                  # a hot key: no Enter
        game.until("Two cards for")
        screen = game.screen()
        assert "\u2554" in screen[1] and FRONT in screen[2]
        assert screen[19].startswith("  1     2     3     4     5     6")
        game.type("h")
        game.until("Hint: lay away")
        game.type("12")
        game.until("Play a card")
        screen = _play_until(game, "Any key: next hand")
        assert "THE CRIB" in screen[14]                # the show: hands and crib face up
        assert "\u2592" not in "\n".join(screen[10:14])  # the computer's hand is shown

        before = game.screen()
        assert_repaints_whole(game, before, "GAME TO 121 HOLES", "Cribbage")

        game.type(" ")                                  # deal the next hand
        game.until("Two cards for")
        game.type("q")
        game.until("Quit this game? (Y/N)")
        game.type("x")
        game.until("Please answer Y (yes)")
        game.type("y")
        game.until("Game abandoned")
        game.type("q")
        assert game.wait() == 0
        assert "Traceback" not in game.text()
        assert "Seed 5 (replay with --seed 5)." in game.text()


def test_the_line_game_names_the_pegs(monkeypatch, capsys, tmp_path):
    """--plain (and any game off a terminal): the pegging board in words."""
    import io
    import sys

    from games_py.cribbage.__main__ import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("b\n1 2\nq\ny\nq\n"))
    assert main(["play", "--plain", "--seed", "5", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Pegs: PLAYER front 0, back 0; COMPUTER front 0, back 0" in out
    assert "Game abandoned" in out
