"""Rummi's save file: a saved game comes back the same, and a damaged or hostile file is
refused with one line (SaveError) -- never a traceback, never a write anywhere."""
from __future__ import annotations

import json
import random
import subprocess
import sys

from hypothesis import given, settings, strategies as st

from games_py.rummi import savefile
from games_py.rummi.game import play_turn
from games_py.rummi.players import BeginnerPlayer
from games_py.rummi.state import new_game
from tests.pty_helpers import REPO


def a_game_in_progress(seed: int = 7, turns: int = 9):
    state = new_game(random.Random(seed))
    players = [BeginnerPlayer(), BeginnerPlayer()]
    for _ in range(turns):
        state, _ = play_turn(state, players)
    return state


def test_a_saved_game_comes_back_the_same(tmp_path):
    state = a_game_in_progress()
    seeds = random.Random(5)
    seeds.random()
    path = tmp_path / "game.sav"
    assert savefile.save(path, state, "expert", True, seeds) is None
    loaded, level, single, again = savefile.load(path)
    assert loaded == state and loaded.history == state.history
    assert (level, single) == ("expert", True)
    assert again.random() == seeds.random()            # new games go on as they would have
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sav"]


def test_refusals_say_why(tmp_path):
    good = json.loads(savefile.to_json(a_game_in_progress(), "beginner", False, random.Random(1)))
    cases = {
        "version": (lambda d: d.update(version=2), "version 2"),
        "format": (lambda d: d.update(format="x"), "not a Rummi save file"),
        "lost piece": (lambda d: d["state"]["pile"].pop(), "104 pieces"),
        "twice": (lambda d: d["state"]["pile"].__setitem__(0, d["state"]["pile"][1]), "104 pieces"),
        "turn": (lambda d: d["state"].update(current=2), "0 or 1"),
        "copy": (lambda d: d["state"]["pile"].__setitem__(0, "R5.7"), "copy"),
        "series": (lambda d: d["state"]["table"].append([d["state"]["pile"].pop()]),
                   "invalid series"),
    }
    for name, (damage, says) in cases.items():
        data = json.loads(json.dumps(good))
        damage(data)
        path = tmp_path / f"{name}.sav"
        path.write_text(json.dumps(data))
        try:
            savefile.load(path)
        except savefile.SaveError as error:
            assert says in str(error), (name, str(error))
        else:
            raise AssertionError(f"{name}: loaded")


GOOD = savefile.to_json(a_game_in_progress(3, 5), "beginner", False, random.Random(2))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, len(GOOD) - 1), st.integers(0, len(GOOD)), st.text(max_size=8))
def test_any_damaged_file_is_a_save_error_or_a_game(start, length, inserted):
    text = GOOD[:start] + inserted + GOOD[start + length:]
    try:
        state, *_ = savefile.from_json(text)
    except savefile.SaveError:
        return
    assert len(state.all_tiles()) == 104


def test_the_command_refuses_a_bad_file_in_one_line(tmp_path):
    bad = tmp_path / "bad.sav"
    bad.write_bytes(b"\x00\xff" * 50)
    result = subprocess.run([sys.executable, "-m", "games_py.rummi", "play", "--plain",
                             "--resume", str(bad)], cwd=REPO, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"rummi: {bad}: {bad} is not a text file"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sav"]
