"""Teach's GinRummy on the whole terminal (games_py/teach_gin/screen_console.py), the real
command in a pseudo-terminal: a hand played with one key per answer (no Enter), the whole
screen again after a resize and after Ctrl-L, the 80x25 notice on a 60x20 terminal until it
grows back, and the boss key (ESC) blanking the screen and any key bringing it back whole
(doc lines 97-99)."""
from __future__ import annotations

from games_py.tui.page import PROMPT_ROW, Page, cells
from tests.pty_helpers import PtyGame

ONE_HAND = "000"            # "000: exactly one hand" (doc line 127)
CLEAR = "\x1b[2J"          # a repaint clears the screen, then draws every row


def test_a_page_keeps_the_moves_made_since_the_last_answer_above_the_next_table():
    page = Page()
    page.add("old table")
    page.answered()
    page.add("Computer discards 7H.")
    page.clear()
    page.add("Hand 1 ...")
    assert [("".join(ch for ch, _ in line)) for line in page.lines] == ["Computer discards 7H.", "Hand 1 ..."]
    assert cells("\x1b[31mQH\x1b[0m x") == [("Q", 4), ("H", 4), (" ", 7), ("x", 7)]


def answer(prompt: str) -> str | None:
    if "D=deck" in prompt:
        return "d"
    if prompt.startswith("Discard:"):
        return "1"
    if "Knock?" in prompt:
        return "y"
    return None


def test_a_hand_with_one_key_answers_then_quit(tmp_path):
    with PtyGame(["-m", "games_py.teach_gin", "play", ONE_HAND, "NOBLANK", "--seed", "3"],
                 cwd=tmp_path) as game:
        game.until("B=begin")
        game.type("b")                                   # no Enter
        for _ in range(200):
            game.settle(0.15)
            prompt = game.screen()[PROMPT_ROW]
            if "P=play again" in prompt:
                break
            key = answer(prompt)
            if key:
                game.type(key)
        else:
            raise AssertionError("the hand did not end:\n" + game.shown())
        shown = game.shown()
        assert "scores" in shown or "draw" in shown
        game.type("q")
        game.until("B=begin")
        game.type("q")
        assert game.wait() == 0
    assert (tmp_path / "GINRUMMY.STA").exists()


def test_resize_ctrl_l_the_small_terminal_and_the_boss_key(tmp_path):
    with PtyGame(["-m", "games_py.teach_gin", "play", "GO", "--seed", "3"], cwd=tmp_path) as game:
        game.until("D=deck")
        game.settle()
        table = game.screen()
        assert [row[:80] for row in game.after_resize(30, 90, CLEAR)[:25]] == table
        assert [row[:80] for row in game.after_keys("\x0c", CLEAR)[:25]] == table   # Ctrl-L
        small = game.after_resize(20, 60, "needs a terminal of at least 80x25")
        assert "this one is 60x20" in " ".join(" ".join(small).split())
        game.type("d")                                    # not taken while the table is hidden
        assert game.after_resize(25, 80, CLEAR) == table
        game.type("\x1b")                                 # the boss key
        game.settle()
        assert game.shown().strip() == ""
        game.type(" ")                                    # any key: back, whole, nothing played
        game.settle()
        assert game.screen() == table
        game.type("q")
        game.until("Quit this game?")
        game.type("y")
        game.until("B=begin")
        game.type("q")
        assert game.wait() == 0
