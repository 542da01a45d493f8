"""GINRUMMY.CFG / .STA / .SCR, as the document describes them (seed 001 line numbers)."""
from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import random
from pathlib import Path

import pytest

from games_py.teach_gin import files
from games_py.teach_gin.commandline import resolve_path
from games_py.teach_gin.console import Console
from games_py.teach_gin.files import CFG_FILE, SCR_FILE, STA_FILE, DataStore
from games_py.teach_gin.options import Options
from games_py.teach_gin.records import PlayerStats, ScoreEntry, ScoreTable, StatsBook
from games_py.teach_gin.render import Style
from games_py.teach_gin.screens import App
from games_py.teach_gin.state import GameState
from games_py.teach_gin import rules


def store(tmp_path: Path, disk: bool = True) -> DataStore:
    return DataStore(tmp_path, disk=disk)


# ---- GINRUMMY.CFG -------------------------------------------------------------------

def test_missing_config_is_created_with_defaults(tmp_path):
    """Line 63: "If this file is not present ... it will be created with the default options"."""
    s = store(tmp_path)
    assert s.load_config() == Options()
    assert files.parse_config((tmp_path / CFG_FILE).read_text()) == Options()


def test_corrupt_config_is_recreated_and_the_old_bytes_kept(tmp_path):
    """Line 63: "or is corrupted, it will be created with the default options"."""
    (tmp_path / CFG_FILE).write_bytes(b"\xff\xfe garbage")
    s = store(tmp_path)
    assert s.load_config() == Options()
    assert files.parse_config((tmp_path / CFG_FILE).read_text()) == Options()
    assert (tmp_path / files.BAD_CFG_COPY).read_bytes() == b"\xff\xfe garbage"
    assert any("corrupted" in m for m in s.messages)


@pytest.mark.parametrize("text", [
    "", "GINRUMMY.CFG 1\n", "GINRUMMY.CFG 2\nname=X\n",
    files.format_config(Options()).replace("gin_bonus=25", "gin_bonus=30"),
    files.format_config(Options()).replace("sort=RANK", "sort=COLOR"),
    files.format_config(Options()).replace("pointer=1", "pointer=8"),
    files.format_config(Options()).replace("easy=NO", "easy=MAYBE"),
    files.format_config(Options()).replace("name=PLAYER", "name=TOOLONGNAME"),
    files.format_config(Options()) + "name=AGAIN\n",
])
def test_every_kind_of_bad_config_counts_as_corrupt(tmp_path, text):
    """[001_669d1958badefd0b.txt line 63]"""
    with pytest.raises(files.CorruptFile):
        files.parse_config(text)
    (tmp_path / CFG_FILE).write_text(text)
    assert store(tmp_path).load_config() == Options()


def test_saved_options_load_back(tmp_path):
    """Line 63: "Selecting SAVE will save all options to the GINRUMMY.CFG file. This file is
    loaded when the program is run"."""
    o = Options(name='Al "X"', gin_bonus=10, undercut_bonus=15, score_limit=350, oklahoma=True,
                big_pips=True, easy=True, knocking=False, pointer=7, sort="SUIT")
    assert store(tmp_path).save_config(o)
    assert store(tmp_path).load_config() == o


def test_noblank_is_not_saved_in_the_config():
    """Line 63: "At present, the NOBLANK option is not saved in this configuration file"."""
    assert "blank" not in files.format_config(Options()).lower()


# ---- GINRUMMY.STA -------------------------------------------------------------------

def test_new_name_goes_on_top_and_the_oldest_is_dropped_past_twenty():
    """Line 69: "up to 20 different names"; a new name "is added to the top of the file with
    zero totals"; past 20 "the name on the bottom of the list (the oldest) is truncated"."""
    book = StatsBook()
    for i in range(20):
        book.record(f"P{i}", 5, 1, "won")
    assert book.names()[0] == "P19" and book.names()[-1] == "P0" and len(book.names()) == 20
    book.record("P5", 3, 2, "lost")                 # an old name keeps its place
    assert book.names()[0] == "P19" and len(book.names()) == 20
    book.record("NEW", 0, 1, "drawn")
    assert book.names()[0] == "NEW" and "P0" not in book.names() and len(book.names()) == 20
    assert book.get("P5") == PlayerStats("P5", points=8, hands=3, won=1, lost=1)


def test_stats_hold_average_per_hand_games_won_lost_and_hands():
    """Line 69: "average score per hand against the computer, the total number of games won
    and lost, the total number of hands played and the player's name"; draws are counted."""
    book = StatsBook()
    book.record("Dave", 60, 4, "won")
    book.record("Dave", 0, 1, "drawn")
    e = book.get("Dave")
    assert (e.won, e.lost, e.drawn, e.hands, e.games) == (1, 0, 1, 5, 2)
    assert e.average == 12.0
    with pytest.raises(ValueError):
        book.record("Dave", 1, 1, "tied")


def test_stats_file_round_trip_and_is_created_if_missing(tmp_path):
    """Line 69: "If it is not there, it is created"."""
    s = store(tmp_path)
    book = s.load_stats()
    assert book.entries == [] and not (tmp_path / STA_FILE).exists()
    book.record("Ann", 30, 3, "won")
    assert s.save_stats(book)
    assert store(tmp_path).load_stats().entries == book.entries


@pytest.mark.parametrize("text", [
    "junk\n", "GINRUMMY.STA 1\nAnn\t1\t2\n", "GINRUMMY.STA 1\nAnn\tx\t1\t0\t0\t0\n",
    "GINRUMMY.STA 1\nAnn\t1\t1\t0\t0\t0\nAnn\t1\t1\t0\t0\t0\n",
    "GINRUMMY.STA 1\n" + "".join(f"P{i}\t0\t0\t0\t0\t0\n" for i in range(21)),
])
def test_corrupt_stats_file_is_reported_and_left_untouched(tmp_path, text):
    """Line 69: "If your stats file is corrupted ... erase (or rename) the GINRUMMY.STA file":
    the program says so and never writes over it (nothing is lost)."""
    (tmp_path / STA_FILE).write_text(text)
    s = store(tmp_path)
    book = s.load_stats()
    assert book.entries == [] and any("Erase or rename" in m for m in s.messages)
    book.record("Ann", 10, 1, "won")
    assert not s.save_stats(book)
    assert (tmp_path / STA_FILE).read_text() == text


def _without_write_rights(action):
    """Run ``action`` where the directory rules apply: in this process for an ordinary user,
    in a forked child that has become user 'nobody' when the tests run as root (as in CI),
    since root may write to a read-only directory.  Returns what ``action`` returned."""
    if os.geteuid() != 0:
        return action()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: drop root, run, report
        status = 1
        try:
            os.close(read)
            os.setgid(65534)
            os.setuid(65534)
            os.write(write, json.dumps(action()).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    assert status == 0, "the unprivileged child failed"
    return json.loads(data)


def test_read_only_directory_starts_stats_from_zero_and_saves_nothing():
    """Line 73: on a read-only drive "the stats will start from zero ... but cannot be saved"."""
    folder = Path(tempfile.mkdtemp(prefix="pcemu-ro-"))   # under /tmp, so 'nobody' can reach it
    try:
        book = StatsBook()
        book.record("Ann", 10, 1, "won")
        store(folder).save_stats(book)
        (folder / STA_FILE).chmod(0o644)
        before = (folder / STA_FILE).read_text()
        os.chmod(folder, 0o555)

        def load_and_save():
            s = store(folder)
            return {"writable": os.access(folder, os.W_OK), "entries": len(s.load_stats().entries),
                    "saved": bool(s.save_stats(book)), "messages": list(s.messages)}

        seen = _without_write_rights(load_and_save)
        assert not seen["writable"]
        assert seen["entries"] == 0
        assert not seen["saved"]
        assert any("read-only" in m for m in seen["messages"])
        assert (folder / STA_FILE).read_text() == before
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def test_read_only_check_uses_the_store_flag(tmp_path):
    """Line 73 again, independent of the user's rights: a store marked read-only neither
    loads nor writes statistics."""
    book = StatsBook()
    book.record("Ann", 10, 1, "won")
    store(tmp_path).save_stats(book)
    s = store(tmp_path)
    s.writable = False
    assert s.load_stats().entries == []
    assert not s.save_stats(StatsBook())
    assert store(tmp_path).load_stats().entries == book.entries


# ---- GINRUMMY.SCR -------------------------------------------------------------------

def entry(name="Ann", score=100, hands=5, limit=100, okla=False, day="2024-01-02"):
    return ScoreEntry(name, score, limit, hands, okla, day)


def test_score_table_keeps_the_twenty_best_averages():
    """Line 103: "This file saves your 20 best average scores (the final score divided by the
    number of hands played)"."""
    t = ScoreTable()
    for i in range(1, 26):
        t.add(entry(name=f"P{i}", score=i * 10, hands=i % 7 + 1))
    assert len(t.entries) == 20
    avgs = [e.average for e in t.entries]
    assert avgs == sorted(avgs, reverse=True)
    every = sorted(((i * 10) / (i % 7 + 1) for i in range(1, 26)), reverse=True)
    assert avgs == every[:20]
    assert t.add(entry(score=1, hands=50)) is None         # too low to enter


def test_zero_average_is_not_saved():
    """Line 103: "Zero average scores (lose or draw) are not saved"."""
    t = ScoreTable()
    assert t.add(entry(score=0)) is None and t.entries == []


def test_score_file_fields_round_trip(tmp_path):
    """Line 103: name, final score, score limit, hands, Oklahoma Y or N and the date."""
    t = ScoreTable()
    t.add(entry(name="Bob-1", score=120, hands=6, limit=100, okla=True, day="2023-12-31"))
    t.add(entry(name="Cy", score=55, hands=1, limit=50, okla=False, day="2024-02-29"))
    assert store(tmp_path).save_scores(t)
    text = (tmp_path / SCR_FILE).read_text()
    assert "Bob-1\t120\t100\t6\tY\t2023-12-31" in text
    assert store(tmp_path).load_scores().entries == t.entries


@pytest.mark.parametrize("text", [
    "nope\n", "GINRUMMY.SCR 1\nAnn\t10\t100\t1\tX\t2024-01-01\n",
    "GINRUMMY.SCR 1\nAnn\t10\t100\t1\tY\t2024-13-01\n",
    "GINRUMMY.SCR 1\nAnn\t0\t100\t1\tY\t2024-01-01\n",
])
def test_corrupt_score_file_is_reported_and_left_untouched(tmp_path, text):
    """Line 103: "If your score file is corrupted ... erase (or rename) the GINRUMMY.SCR file"."""
    (tmp_path / SCR_FILE).write_text(text)
    s = store(tmp_path)
    t = s.load_scores()
    assert t.entries == []
    t.add(entry())
    assert not s.save_scores(t)
    assert (tmp_path / SCR_FILE).read_text() == text


def test_a_corrupt_file_never_costs_the_other_files(tmp_path):
    """[001_669d1958badefd0b.txt lines 63, 69, 103]"""
    book = StatsBook()
    book.record("Ann", 10, 1, "won")
    store(tmp_path).save_stats(book)
    (tmp_path / SCR_FILE).write_text("broken")
    (tmp_path / CFG_FILE).write_text("broken")
    s = store(tmp_path)
    s.load_config()
    s.load_scores()
    assert s.load_stats().entries == book.entries
    assert s.save_stats(book)
    assert (tmp_path / SCR_FILE).read_text() == "broken"


# ---- NODISK and the path -------------------------------------------------------------

def test_nodisk_reads_and_writes_nothing(tmp_path):
    """Line 135: "This option will disable all disk access ... both loading and saving"."""
    (tmp_path / CFG_FILE).write_text(files.format_config(Options(name="Saved")))
    s = store(tmp_path, disk=False)
    assert s.load_config() == Options()
    assert s.load_stats().entries == [] and s.load_scores().entries == []
    book = StatsBook()
    book.record("Ann", 1, 1, "won")
    assert not s.save_stats(book) and not s.save_config(Options())
    assert sorted(p.name for p in tmp_path.iterdir()) == [CFG_FILE]


def test_path_must_exist_or_the_current_directory_is_used(tmp_path):
    """Line 150: "if it is invalid for any reason, the current directory will be made the
    default path"."""
    sub = tmp_path / "games"
    sub.mkdir()
    assert resolve_path(str(sub), tmp_path) == (sub, None)
    assert resolve_path(None, tmp_path) == (tmp_path, None)
    where, msg = resolve_path(str(tmp_path / "missing"), tmp_path)
    assert where == tmp_path and "invalid" in msg
    where, msg = resolve_path("..", sub)
    assert where == tmp_path and msg is None


# ---- when the program updates the files ----------------------------------------------------

def make_app(tmp_path: Path, name: str = "Ann") -> tuple[App, io.StringIO]:
    out = io.StringIO()
    con = Console(io.StringIO(""), out, Style(False), None)
    app = App(con, store(tmp_path), Options(name=name), random.Random(1), "2024-05-06")
    return app, out


def finished_game(scores, hands, winner, limit=100) -> GameState:
    g = rules.new_game(Options(score_limit=limit), random.Random(0))
    g.scores, g.hands_played, g.over, g.winner = list(scores), hands, True, winner
    return g


def test_game_end_updates_stats_and_scores(tmp_path):
    """Lines 69 and 103: at the end of each game the program updates both files."""
    app, _ = make_app(tmp_path)
    app.record(finished_game((104, 40), 4, 0), finished=True)
    assert store(tmp_path).load_stats().get("Ann") == PlayerStats("Ann", 104, 4, won=1)
    scores = store(tmp_path).load_scores().entries
    assert scores == [ScoreEntry("Ann", 104, 100, 4, False, "2024-05-06")]


def test_quitting_after_a_finished_hand_updates_stats(tmp_path):
    """Line 71: "If you quit a hand before the END of the game, the stats file WILL be updated
    if there was at least one hand played to a finish"."""
    app, _ = make_app(tmp_path)
    app.record(finished_game((0, 0), 0, None), finished=False)
    assert not (tmp_path / STA_FILE).exists()
    app.record(finished_game((0, 30), 2, None), finished=False)
    assert store(tmp_path).load_stats().get("Ann") == PlayerStats("Ann", 0, 2, lost=1)


def test_quitting_saves_a_score_only_when_the_player_scored(tmp_path):
    """Line 105: the score file is updated on quitting "only if the score of the human
    player is greater than zero"."""
    app, _ = make_app(tmp_path)
    app.record(finished_game((0, 30), 2, None), finished=False)
    assert not (tmp_path / SCR_FILE).exists()
    app.record(finished_game((18, 30), 3, None), finished=False)
    assert [e.score for e in store(tmp_path).load_scores().entries] == [18]


def test_a_drawn_game_counts_in_the_stats(tmp_path):
    """Line 69: "Games played to a draw ... are also counted"."""
    app, _ = make_app(tmp_path)
    app.record(finished_game((0, 0), 1, None, limit=0), finished=True)
    assert store(tmp_path).load_stats().get("Ann").drawn == 1
    assert not (tmp_path / SCR_FILE).exists()


def test_computer_scores_are_never_saved(tmp_path):
    """Line 103: "Scores are not saved for the Computer player"."""
    app, _ = make_app(tmp_path)
    app.record(finished_game((20, 110), 5, 1), finished=True)
    assert [e.score for e in store(tmp_path).load_scores().entries] == [20]
