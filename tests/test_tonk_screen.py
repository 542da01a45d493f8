"""Full-screen Tonk (games_py/tonk/screen_game.py, table_screen.py): the table drawn on an
80x25 screen, and the real command in a pseudo-terminal: a hand played with one-key
commands, function keys acting without Enter ('THESE ARE HOT KEYS, MEANING THEY CAN BE HIT
AT ANY TIME'), the whole screen again after a resize and after Ctrl-L, and the 80x25
notice on a smaller terminal until it grows back."""
from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Iterator

from games_py.tonk.match import Session
from games_py.tonk.players import Observation
from games_py.tonk.table_screen import PROMPT_ROWS, TableView, draw
from tests.pty_helpers import PtyGame

PROMPT = PROMPT_ROWS[-1]
F1, F3, F7 = "\x1bOP", "\x1bOR", "\x1b[18~"        # as xterm sends them
CLEAR = "\x1b[2J"                                    # a repaint clears, then draws every row


def test_the_table_shows_your_cards_and_never_mine_before_the_showdown():
    state = Session(random.Random(4)).new_hand()
    view = TableView(obs=Observation.of(state, 0), seed=4)
    text = draw(view).text()
    for c in state.hands[0]:
        assert c.pretty()[-1] in text
    mine = {f"{c.pretty()[-1]}{c.rank_name:>2}" for c in state.hands[1]} - \
        {f"{c.pretty()[-1]}{c.rank_name:>2}" for c in state.hands[0] + state.pile}
    assert mine and not any(face in text for face in mine)       # face down: backs only
    view.shown_hand = list(state.hands[1])
    shown = draw(view).text()
    assert all(face in shown for face in mine)                     # hands down at the end
    assert "ME: 7 CARDS" in text and "F7=QUIT" in text.splitlines()[23]


@contextmanager
def at_my_turn(tmp_path) -> Iterator[PtyGame]:
    """The real command on a pty, seed 5, a bet of 10 made: the table at my first turn."""
    with PtyGame(["-m", "games_py.tonk", "play", "--seed", "5"], cwd=tmp_path) as game:
        game.until("YOUR BET")
        game.type("10\r")
        game.until("MY TURN")
        yield game


def play(game: PtyGame, answers, until: str, limit: int = 400) -> None:
    """Answer each prompt (the prompt line's text) with ``answers(prompt)`` until the
    screen shows ``until``."""
    for _ in range(limit):
        game.settle(0.15)
        if until in game.shown():
            return
        prompt = game.screen()[PROMPT]
        key = answers(prompt)
        if key is not None:
            game.type(key)
    raise AssertionError(f"{until!r} never came:\n{game.shown()}")


def simple(prompt: str) -> str | None:
    if "MY TURN" in prompt:
        return "\r"
    if "YOU'RE UP" in prompt or "EXHAUSTED" in prompt:
        return "d" if "EXHAUSTED" not in prompt else "\r"
    if "DISCARD WHICH" in prompt:
        return "1"
    if "MELD" in prompt:
        return "r"
    return None


def test_a_hand_with_one_key_commands_and_hot_keys_without_enter(tmp_path):
    with at_my_turn(tmp_path) as game:               # seed 5: I lead, you are asked first
        game.type(F3)                             # no Enter: autosort at once
        game.until("F3=AUTOSORT OFF")
        game.type(F1)
        game.until("F1=SOUND ON")
        game.type("\x1b[21~")                     # F10: the border's next colour
        game.until("BORDER: GREEN.")
        play(game, simple, "YOUR POT: $")         # the hand's end and the next bet
        shown = game.shown()
        assert "YOU WIN $" in shown or "YOU LOSE $" in shown or "CARRIED OVER" in shown
        assert "\u2592T\u2592" not in "\n".join(game.screen()[:4])      # my hand face up now
        game.type(F7)
        assert game.wait() == 0
    assert (tmp_path / "TONK.SCR").read_text().startswith("TONK.SCR 1\npot ")
    assert "HANDS PLAYED: 1" in game.text()


def test_resize_and_ctrl_l_repaint_and_a_small_terminal_gets_the_notice(tmp_path):
    with at_my_turn(tmp_path) as game:
        table = game.screen()
        assert game.after_resize(25, 100, CLEAR)[:25] == [row + " " * 20 for row in table[:24]] + \
            [table[24] + " " * 20]
        assert game.after_keys("\x0c", CLEAR)[23].startswith("F1=SOUND OFF")    # Ctrl-L
        small = game.after_resize(20, 60, "needs a terminal of at least 80x25")
        assert "this one is 60x20" in " ".join(" ".join(small).split())
        game.type("t")                              # not taken while the table is hidden
        assert game.after_resize(25, 80, CLEAR) == table    # back, and nothing was played
        game.type("\r")                             # let me play on
        game.until("YOU'RE UP:")
        game.type(F7)
        assert game.wait() == 0


def test_f5_shows_the_help_page_by_page_and_the_game_comes_back(tmp_path):
    with at_my_turn(tmp_path) as game:
        table = game.screen()
        game.type("\x1b[15~")                       # F5, no Enter
        game.until("F5 HELP, PAGE 1 OF 2")
        assert "Two players, 7 cards each" in game.shown()
        game.type(" ")
        game.until("F5 HELP, PAGE 2 OF 2")
        game.type(" ")
        game.until("MY TURN")
        game.settle()
        assert game.screen() == table
        game.type(F7)
        assert game.wait() == 0
