"""The terminal game and `python -m games_py.rummi play|demo`."""
from __future__ import annotations

from collections import Counter
import io
import os
from pathlib import Path
import subprocess
import sys

from games_py.rummi.state import GameState
from games_py.rummi.terminal import TerminalGame
from games_py.rummi.tiles import Tile, parse_kind

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "games_py.rummi", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def make_state(tray0, tray1, table=(), pile="O1 O2 O3 O4 O5 O6 O7 O8",
               opened=(False, False), current=0):
    taken: Counter = Counter()

    def take(text):
        out = []
        for word in text.split():
            kind = parse_kind(word)
            out.append(Tile(*kind, taken[kind]))
            taken[kind] += 1
        return tuple(out)

    table_t = tuple(take(s) for s in table)
    return GameState(pile=take(pile), trays=(take(tray0), take(tray1)), table=table_t,
                     current=current, opened=opened, history=("first turn: player 0",))


def run_game(state: GameState | None, commands: list[str], **options) -> tuple[TerminalGame, str]:
    """Play ``commands`` in-process; running out of input quits the game."""
    lines = iter(commands)
    out = io.StringIO()

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(read, out, seed=options.pop("seed", 1), **options)
    if state is not None:
        game.state = state
    game.run()
    return game, out.getvalue()


# -- the command line ---------------------------------------------------------

def test_demo_runs_a_whole_game_and_is_reproducible():
    """Demo mode: computer against computer, fixed by --seed.
    [003_57b64a2ada5ce15a.txt lines 151, 163]"""
    first = run_cli("demo", "--seed", "5", "--quiet", "--no-colour")
    second = run_cli("demo", "--seed", "5", "--quiet", "--no-colour")
    assert first.returncode == 0, first.stderr
    assert "game over after" in first.stdout and "Winner:" in first.stdout
    assert first.stdout == second.stdout


def test_demo_prints_every_turn():
    """[003_57b64a2ada5ce15a.txt lines 139-151]"""
    result = run_cli("demo", "--seed", "2", "--levels", "beginner", "beginner", "--no-colour")
    assert result.returncode == 0, result.stderr
    turns = [line for line in result.stdout.splitlines() if line.startswith("turn ")]
    assert len(turns) > 10 and "table:" in result.stdout


def test_play_with_bad_input_gives_messages_not_tracebacks():
    script = "help\nfoo\nplay Z9\nplay R14\nmove x\nmove 9 R5\nswap R1\nlevel\nabout\nquit\n"
    result = run_cli("play", "--seed", "3", "--no-colour", stdin=script)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "unknown command 'foo'" in result.stdout
    assert "not a piece: 'Z9'" in result.stdout
    assert "numbers go from 1 to 13" in result.stdout
    assert "Bye." in result.stdout


def test_play_ends_cleanly_at_end_of_input():
    result = run_cli("play", "--seed", "3", "--no-colour", stdin="")
    assert result.returncode == 0 and "Bye." in result.stdout


def test_bad_arguments_are_reported_by_argparse():
    result = run_cli("play", "--level", "grandmaster")
    assert result.returncode == 2 and "invalid choice" in result.stderr
    assert "Traceback" not in result.stderr


# -- playing in the terminal ----------------------------------------------------

def test_opening_play_from_the_terminal():
    """Lay R10 R11 R12 (33 >= 30) and press OK.
    [003_57b64a2ada5ce15a.txt lines 148, 191-193]"""
    state = make_state("R10 R11 R12 K1", "B1 B2")
    game, out = run_game(state, ["play R10 R11 R12", "ok"])
    assert game.state.opened[0]
    assert [str(t) for t in game.state.table[0]] == ["R10", "R11", "R12"]
    assert "You: play R10 R11 R12" in out


def test_requester_then_penalty_from_the_terminal():
    """"you will see a requester" -- then OK again takes the penalty.
    [003_57b64a2ada5ce15a.txt line 193]"""
    state = make_state("R1 K1", "B1 B2")
    game, out = run_game(state, ["play R1", "ok", "ok"])
    assert "your first play must total at least 30" in out
    assert "Fix it, or say 'ok' again" in out
    assert game.state.table == () and len(game.state.trays[0]) == 2 + 5
    assert "penalty" in out


def test_back_up_from_the_terminal():
    """"Back up -- take back the last piece played.\"
    [003_57b64a2ada5ce15a.txt line 204]"""
    state = make_state("R10 R11 R12 K1", "B1 B2")
    game, out = run_game(state, ["play R10 R11 R12", "back", "ok"])
    # R12 came back: R10 R11 alone is incomplete, so OK shows the requester
    assert "invalid series: R10 R11" in out and not game.state.opened[0]


def test_drop_splits_a_run_from_the_terminal():
    """"drop a 5 on top of a series 3-4-5-6-7 ... split into 3-4-5 and 5-6-7\"
    [003_57b64a2ada5ce15a.txt line 173]"""
    state = make_state("R5 K1", "B1 B2", table=["R3 R4 R5 R6 R7"], opened=(True, True))
    game, out = run_game(state, ["play R5 to 1", "ok"])
    numbers = sorted([t.number for t in s] for s in game.state.table)
    assert numbers == [[3, 4, 5], [5, 6, 7]]


def test_move_a_table_piece_from_the_terminal():
    """[003_57b64a2ada5ce15a.txt lines 140, 167-173]"""
    state = make_state("B7 K7 K1", "B1 B2", table=["R4 R5 R6 R7"], opened=(True, True))
    game, out = run_game(state, ["move 1 R7", "play B7 K7 to 2", "ok"])
    assert sorted(len(s) for s in game.state.table) == [3, 3]
    assert [str(t) for t in game.state.trays[0]] == ["K1"]


def test_single_play_the_program_does_not_play():
    """"Single play -- the program doesn't play.\"
    [003_57b64a2ada5ce15a.txt lines 207-208]"""
    state = make_state("R1 K1", "B11 B12 B13", opened=(True, True))
    game, out = run_game(state, ["single", "ok", "ok"])
    assert "Single play on" in out
    assert len(game.state.trays[1]) == 3           # the computer never moved
    assert len(game.state.trays[0]) == 4           # we took two pieces


def test_level_menu_switches_the_computer():
    """[003_57b64a2ada5ce15a.txt lines 214-219]"""
    game, out = run_game(None, ["level expert", "level grandmaster", "quit"])
    assert game.computer.name == "Expert" and "Level: Expert." in out
    assert "choose beginner or expert" in out


def test_new_game_deals_again():
    """[003_57b64a2ada5ce15a.txt lines 205-206]"""
    game, out = run_game(None, ["new", "quit"], seed=9)
    first_deal = TerminalGame(lambda p: "", io.StringIO(), seed=9).state
    assert game.state != first_deal and "New game" in out


def test_human_swaps_a_duplicate():
    """"Pick up the duplicate piece, and click on the program's tray. The
    piece will be swapped.\"
    [003_57b64a2ada5ce15a.txt line 185]"""
    state = make_state("R5 R5 K1", "B9 B9 O4", opened=(True, True))
    game, out = run_game(state, ["swap R5", "quit"])
    assert "Swapped your R5 for the computer's B9" in out
    kinds = Counter(str(t) for t in game.state.trays[0])
    assert kinds == Counter(["R5", "B9", "K1"])


def test_computer_swap_asks_which_duplicate_to_give():
    """The computer may swap too; the human chooses which duplicate goes.
    [003_57b64a2ada5ce15a.txt lines 147, 181-187]"""
    state = make_state("K2 K2 K3 K3 B1", "R5 R5 O13", opened=(True, True), current=1)
    game, out = run_game(state, ["X9", "B1", "K3", "quit"], level="expert")
    assert "choose one of your duplicates to give: K2 K3" in out
    assert "not a piece: 'X9'" in out and "B1 is not a duplicate" in out
    assert Counter(str(t) for t in game.state.trays[0]) == Counter(["K2", "K2", "K3", "R5", "B1"])


def test_colour_output_marks_pieces():
    state = make_state("R10 K1", "B1 B2")
    _, plain = run_game(state, ["quit"])
    _, coloured = run_game(state, ["quit"], colour=True)
    assert "\033[" not in plain and "\033[1;31mR10\033[0m" in coloured


def test_game_over_when_the_tray_is_empty():
    """"The player who is the first to lose all his pieces, wins the game.\"
    [003_57b64a2ada5ce15a.txt line 151]"""
    state = make_state("R10 R11 R12", "B1 B2", opened=(True, True))
    game, out = run_game(state, ["play R10 R11 R12", "ok", "quit"])
    assert game.state.over and "You win!" in out


def test_draw_only_before_moving():
    """The gadget shows "take a piece" until you move, then "OK".
    [003_57b64a2ada5ce15a.txt line 150]"""
    state = make_state("R10 R11 R12 K1", "B1 B2")
    game, out = run_game(state, ["play R10", "draw", "back", "draw"])
    assert "you have moved pieces" in out
    assert len(game.state.trays[0]) == 5 and game.state.table == ()
