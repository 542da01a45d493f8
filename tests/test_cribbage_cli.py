"""The command line and the terminal game, driven through stdin.

Keys are CRIBBAGE.DOC's keyboard commands: title B/O/S/Q (ENTER = BEGIN
GAME), options M N + - K B P S, statistics M.
"""
import io
import subprocess
import sys
from pathlib import Path

import pytest

from games_py.cribbage import config as cfg
from games_py.cribbage import stats
from games_py.cribbage.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
# Answers that get any prompt of a hand through, whatever the cards: a
# discard takes "1 2", a play the first of "1".."4" that is legal; "Press
# ENTER" takes any line, and afterwards the title screen ignores them all.
ANY_HAND = ("1 2\n1\n2\n3\n4\n") * 300


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    return code, capsys.readouterr().out


# --- demo ----------------------------------------------------------------------

def test_demo_is_reproducible_from_its_seed(monkeypatch, capsys):
    """``demo`` lets the computer play both sides; ``--seed`` replays a game."""
    code, first = run(monkeypatch, capsys, ["demo", "--seed", "5", "--limit", "61"])
    _, again = run(monkeypatch, capsys, ["demo", "--seed", "5", "--limit", "61"])
    _, other = run(monkeypatch, capsys, ["demo", "--seed", "6", "--limit", "61"])
    assert code == 0 and first == again and first != other
    assert "wins the game, " in first and first.rstrip().splitlines()[-1].startswith("Wins:")
    assert "Seed 5" in first.splitlines()[0]


def test_demo_several_games_adds_up_the_wins(monkeypatch, capsys):
    code, out = run(monkeypatch, capsys,
                    ["demo", "--seed", "2", "--games", "3", "--limit", "61", "--skunking"])
    assert code == 0 and "Game 3 of 3" in out
    assert out.count("wins the game") == 3
    last = out.rstrip().splitlines()[-1]                  # "Wins: EAST a, WEST b."
    numbers = [int(w.strip(",.")) for w in last.split() if w.strip(",.").isdigit()]
    skunks = out.count("is skunked")
    assert sum(numbers) == 3 + skunks                     # a skunk counts 2


# --- playing a whole game ---------------------------------------------------------

def test_a_scripted_game_is_played_to_the_end_and_recorded(monkeypatch, capsys, tmp_path):
    code, out = run(monkeypatch, capsys,
                    ["play", "--seed", "9", "--dir", str(tmp_path), "--limit", "61"],
                    "b\n" + ANY_HAND)
    assert code == 0
    assert "CRIBBAGE.CFG not found: created it" in out
    assert "wins the game" in out and "Traceback" not in out
    assert "End of input: goodbye." in out
    # the computer's discards stay hidden from the player
    assert "COMPUTER lays away two cards" in out
    table, _ = stats.load_stats(tmp_path / stats.STATS_FILE)
    assert table["PLAYER"].games == 1
    won = "*** PLAYER wins" in out
    assert table["PLAYER"].won == int(won)


def test_bad_answers_get_a_message_and_the_question_again(monkeypatch, capsys, tmp_path):
    code, out = run(monkeypatch, capsys, ["play", "--seed", "3", "--dir", str(tmp_path)],
                    "x\nb\n7 8\nZZ\n1\n1 1\n1 2\n9\nq\ny\nq\n")
    assert "Unknown choice 'X'" in out
    assert "there is no card 7: choose 1 to 6." in out
    assert "'ZZ' is neither a card number nor a card" in out
    assert "choose exactly two different cards." in out
    assert "there is no card 9: choose 1 to 4." in out
    assert "Game abandoned" in out and "Goodbye." in out
    assert not (tmp_path / stats.STATS_FILE).exists()      # quit games don't count


def test_hint_suggests_the_computers_choice(monkeypatch, capsys, tmp_path):
    """The document's "hint feature": H shows what the computer would do.
    [004_fa271ff1c123496e.txt line 32]"""
    code, out = run(monkeypatch, capsys, ["play", "--seed", "3", "--dir", str(tmp_path)],
                    "b\nh\nq\ny\nq\n")
    hint = next(line for line in out.splitlines() if "Hint: lay away" in line)
    named = hint.split("Hint: lay away ")[1].rstrip(".").split()
    assert len(named) == 2
    hand_line = next(line for line in out.splitlines() if line.startswith("1) "))
    assert all(c in hand_line.split() for c in named)


def test_options_menu_changes_and_saves_the_config(monkeypatch, capsys, tmp_path):
    """Options: N name, + limit, K skunking, B big cards, P pointer, S save.
    [004_fa271ff1c123496e.txt lines 85-130]"""
    script = "o\nn\nDave_Teach\n+\nk\nb\np\np\ns\nm\nq\n"
    code, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path)], script)
    assert code == 0 and "Options saved to CRIBBAGE.CFG." in out
    assert "the name is 'DaveTeac'" in out
    saved, _ = cfg.load_config(tmp_path / cfg.CONFIG_FILE)
    assert saved == cfg.Options("DaveTeac", 61, True, True, 3)
    # loaded when the program is run again
    _, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path)], "q\n")
    assert "Player: DaveTeac   score limit: 61   skunking: YES" in out


def test_big_cards_draws_boxes(monkeypatch, capsys, tmp_path):
    """[004_fa271ff1c123496e.txt lines 113-118]"""
    cfg.save_config(tmp_path / cfg.CONFIG_FILE, cfg.Options(big_cards=True))
    _, out = run(monkeypatch, capsys, ["play", "--seed", "1", "--dir", str(tmp_path)],
                 "b\nq\ny\nq\n")
    assert "+-----+ +-----+ +-----+ +-----+ +-----+ +-----+" in out


def test_corrupt_config_is_reported_and_replaced(monkeypatch, capsys, tmp_path):
    """[004_fa271ff1c123496e.txt lines 125-130]"""
    (tmp_path / cfg.CONFIG_FILE).write_bytes(b"\x00\x01 not options")
    code, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path)], "q\n")
    assert code == 0 and "CRIBBAGE.CFG is corrupt" in out and "Traceback" not in out
    assert (tmp_path / "CRIBBAGE.CFG.BAD").exists()
    assert cfg.load_config(tmp_path / cfg.CONFIG_FILE) == (cfg.Options(), [])


def test_statistics_screen_shows_the_current_player(monkeypatch, capsys, tmp_path):
    """[004_fa271ff1c123496e.txt lines 77-79, 133-136]"""
    table = stats.record_game({}, "PLAYER", True, True)
    stats.save_stats(tmp_path / stats.STATS_FILE, table)
    _, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path)], "s\nm\nq\n")
    assert "Statistics for PLAYER" in out
    assert "wins:   2 (1 games, 1 by skunk)" in out


def test_name_option_on_the_command_line_is_not_saved(monkeypatch, capsys, tmp_path):
    _, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path), "--name", "Dave"], "q\n")
    assert "Player: Dave" in out
    assert cfg.load_config(tmp_path / cfg.CONFIG_FILE)[0].name == "PLAYER"


def test_end_of_input_at_the_title_leaves_quietly(monkeypatch, capsys, tmp_path):
    code, out = run(monkeypatch, capsys, ["play", "--dir", str(tmp_path)], "")
    assert code == 0 and out.rstrip().endswith("End of input: goodbye.")


# --- the real command ---------------------------------------------------------------

def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "games_py.cribbage", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_python_dash_m_demo_runs():
    done = cli("demo", "--seed", "1", "--limit", "61")
    assert done.returncode == 0 and "wins the game" in done.stdout and not done.stderr


@pytest.mark.parametrize("args, message", [
    (("play", "--limit", "100"), "121 or 61"),
    (("play", "--name", "Far_too_long"), "a name is 1-8"),
    (("demo", "--seed", "x"), "invalid int value"),
    ((), "required"),
])
def test_bad_command_lines_get_a_usage_message(args, message):
    done = cli(*args)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_folder_is_reported(tmp_path):
    done = cli("play", "--dir", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "is not a folder" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


# --- yes/no questions (issue 22) --------------------------------------------------

def test_play_another_game_takes_only_yes_or_no(monkeypatch, tmp_path):
    """"Play another game? (Y/N)": x (or anything but Y, YES, N, NO) asks again; N goes
    back to the title screen, Y plays another game."""
    import random

    from games_py.cribbage import rules
    from games_py.cribbage.terminal import Console, CribbageApp
    out = io.StringIO()
    console = Console(io.StringIO("x\n\nmaybe\nyes\nX\nn\n"), out)
    app = CribbageApp(console, tmp_path, random.Random(1))
    games = []

    def play_one():
        games.append(1)
        return rules.Result(winner=0, scores=(121, 90), skunk=False, wins=1)
    monkeypatch.setattr(app, "play_one", play_one)
    app.play_games()
    text = out.getvalue()
    assert len(games) == 2                                  # "yes" played a second game
    assert text.count("Play another game? (Y/N) ") == 6     # x, "", maybe, yes | X, n
    assert text.count("Please answer Y (yes) or N (no).") == 4


def test_quit_this_game_takes_only_yes_or_no(monkeypatch, capsys, tmp_path):
    code, out = run(monkeypatch, capsys, ["play", "--seed", "3", "--dir", str(tmp_path)],
                    "b\nq\nx\nn\nq\ny\nq\n")
    assert out.count("Quit this game? (Y/N) ") == 3
    assert "Please answer Y (yes) or N (no)." in out and "Game abandoned" in out
