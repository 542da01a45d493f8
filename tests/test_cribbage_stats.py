"""The statistics file (CRIBBAGE.STA): cumulative results per player name."""
from games_py.cribbage import stats
from games_py.cribbage.stats import Record


def test_a_skunk_counts_as_two_wins():
    """Doc: "If a player fails to reach the skunk point ... this counts a 2
    wins".
    [004_fa271ff1c123496e.txt lines 105, 107]"""
    table = stats.record_game({}, "DAVE", won=True, skunk=True)
    table = stats.record_game(table, "DAVE", won=True, skunk=False)
    table = stats.record_game(table, "DAVE", won=False, skunk=True)
    r = table["DAVE"]
    assert (r.games, r.won, r.lost, r.wins, r.losses) == (3, 2, 1, 3, 2)


def test_statistics_are_kept_per_player_name(tmp_path):
    """Doc: "This displays the current player's cumulative game statistics".
    [004_fa271ff1c123496e.txt line 78]"""
    path = tmp_path / stats.STATS_FILE
    table = stats.record_game({}, "DAVE", True, False)
    table = stats.record_game(table, 'J. Doe?', False, False)
    assert stats.save_stats(path, table) is None
    loaded, messages = stats.load_stats(path)
    assert loaded == table and messages == []
    assert loaded["DAVE"] == Record(1, 1, 0, 0, 0)


def test_missing_stats_file_is_an_empty_table(tmp_path):
    """[004_fa271ff1c123496e.txt lines 77-79, 133-136]"""
    assert stats.load_stats(tmp_path / stats.STATS_FILE) == ({}, [])


def test_corrupt_stats_file_is_kept_aside(tmp_path):
    """[004_fa271ff1c123496e.txt lines 77-79, 133-136]"""
    path = tmp_path / stats.STATS_FILE
    for content in (b"DAVE|3|1|1|0|0\n", b"DAVE|x|1|0|0|0\n", b"\xff\xfe", b"DAVE|1|1\n"):
        path.write_bytes(content)
        table, messages = stats.load_stats(path)
        assert table == {} and "corrupt" in messages[0]
        assert (tmp_path / "CRIBBAGE.STA.BAD").read_bytes() == content
