"""``pcemu trace ginrummy-sweep --whole-games``: whole first demo games compared event for event."""
from __future__ import annotations

import pytest

from games_py.ginrummy import game
from games_py.ginrummy import original as tracer
from games_py.ginrummy import original_sweep as sweep
from tests.machine_helpers import DISK1612, needs_originals

CASE = sweep.Case((0, 0, 0, 0), "standard", True)


def test_a_trace_that_stops_is_reported_never_counted_equal(monkeypatch):
    def stops(*_args, **_kwargs):
        raise tracer.TraceFailure("4H was laid off, but on none of the knocker's melds")
    monkeypatch.setattr(tracer, "trace_original", stops)
    result = sweep.check_game(CASE)
    assert not result.equal
    assert "original: 4H was laid off" in result.detail and "python: no" in result.detail


def test_only_the_first_game_is_compared(monkeypatch):
    python = game.python_trace(CASE.settings(), sweep.MAX_HANDS_PER_GAME)
    first = sweep._first_game(python)
    assert first[-1]["event"] == "game_end"
    assert sum(e["event"] == "game_end" for e in first) == 1
    assert len(first) < len(python)                      # the Python trace went on into game 2
    monkeypatch.setattr(tracer, "trace_original", lambda *a, **k: [dict(e) for e in first])
    assert sweep.check_game(CASE).equal
    altered = [dict(e) for e in first]
    altered[-1]["winner"] = "you" if altered[-1]["winner"] == "computer" else "computer"
    monkeypatch.setattr(tracer, "trace_original", lambda *a, **k: altered)
    result = sweep.check_game(CASE)
    assert not result.equal and "winner" in result.detail


@needs_originals
@pytest.mark.slow
def test_a_whole_first_demo_game_matches_the_original():
    result = sweep.check_game(CASE, disk=str(DISK1612))
    assert result.equal, result.detail


def test_situations_count_the_corner_cases_a_game_went_through():
    events = [
        {"event": "draw", "player": "you", "from": "deck", "card": "5H"},
        {"event": "gin", "player": "you", "melds": [], "deadwood": [], "points": 0},   # no discard
        {"event": "hand_end", "result": "gin", "knocker": "you"},
        {"event": "draw", "player": "computer", "from": "upcard", "card": "2C"},
        {"event": "discard", "player": "computer", "card": "KS"},
        {"event": "knock", "player": "computer", "melds": [], "deadwood": ["AS"], "points": 1},
        {"event": "rearranged", "player": "computer", "melds": [], "deadwood": [], "points": 0,
         "left_out": ["AS"]},
        {"event": "layoff", "player": "you", "card": "3C", "meld": 0},
        {"event": "layoff", "player": "you", "card": "4D", "meld": None, "phantom_straight": 7},
        {"event": "hand_end", "result": "undercut", "knocker": "computer"},
        {"event": "knock_declined", "player": "you", "points": 4},
        {"event": "dead_hand", "next_dealer": "you"},
        {"event": "game_end", "shutout": True},
    ]
    assert sweep.situations(events) == {
        "gin by you": 1, "gin with eleven cards by you": 1, "hands": 2, "knock by computer": 1,
        "rearranged": 1, "card left out": 1, "layoff": 2, "lay-off on a phantom straight": 1,
        "undercut of a knock by computer": 1,
        "knock declined": 1, "dead hand": 1, "shutout": 1}


def test_a_sweep_line_per_result_and_what_the_equal_games_went_through(monkeypatch, tmp_path):
    from click.testing import CliRunner

    def fake_run_sweep(cases, *, progress, **_kwargs):
        results = [sweep.Result("00:00:00.00", "standard", "on", "colour", True, seen={"hands": 3}),
                   sweep.Result("12:00:00.00", "oklahoma", "on", "colour", False, "deal differs")]
        for i, r in enumerate(results, 1):
            progress(i, r)
        return results
    monkeypatch.setattr(sweep, "run_sweep", fake_run_sweep)
    out = tmp_path / "sweep.jsonl"
    result = CliRunner().invoke(sweep.sweep_command, ["--count", "2", "--whole-games", "-o", str(out)])
    assert result.exit_code == 1
    assert "1 of 2 whole first demo games equal" in result.output
    assert "the equal games went through: hands 3" in result.output
    assert "differs: --time 12:00:00.00 --variant oklahoma" in result.output
    assert len(out.read_text().splitlines()) == 2


def test_open_hands_reaches_every_case_and_the_rerun_options(monkeypatch):
    from click.testing import CliRunner
    seen_cases = []

    def fake_run_sweep(cases, *, progress, **_kwargs):
        seen_cases.extend(cases)
        results = [sweep._result(c, False, "differs") for c in cases]
        for i, r in enumerate(results, 1):
            progress(i, r)
        return results
    monkeypatch.setattr(sweep, "run_sweep", fake_run_sweep)
    result = CliRunner().invoke(sweep.sweep_command, ["--count", "2", "--whole-games", "--open-hands",
                                                         "--human", "random"])
    assert result.exit_code == 1
    assert all(c.open_hands and c.settings().open_hands for c in seen_cases)
    assert ("differs: --time 00:00:00.00 --variant standard --sound on --display colour --open-hands "
            "--human random:0: differs") in result.output


@needs_originals
@pytest.mark.originals
def test_a_lay_off_on_a_phantom_straight_matches_the_original():
    """23:59:59.99 Space Cowboy, sound off, mono, demo, hand 4: after 7H extends your
    AH-6H, line 6390 leaves NSL at 7, and the next scan finds 4D a place at the top of
    "straight 7", stale cells of row 2 of SL() (docs/ginrummy-internals.md, section 12);
    8H then goes on the real straight.  Both traces write the phantom lay-off (about 10 s)."""
    settings = game.Settings(time=(23, 59, 59, 99), variant="cowboy", sound=False, colour=False, demo=True)
    original = tracer.trace_original(settings, hands=4, disk=str(DISK1612))
    python = game.python_trace(settings, 4)
    strip = [{k: v for k, v in e.items() if k not in ("source",)} for e in original]
    assert strip == [{k: v for k, v in e.items() if k not in ("source",)} for e in python]
    laid = [(e["card"], e["meld"], e.get("phantom_straight")) for e in original if e["event"] == "layoff"]
    assert ("7H", 0, None) in laid and ("4D", None, 7) in laid and ("8H", 0, None) in laid
    assert laid.index(("4D", None, 7)) == laid.index(("7H", 0, None)) + 1
