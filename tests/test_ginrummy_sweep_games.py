"""``pcemu trace ginrummy-sweep --whole-games``: whole first demo games compared event for event."""
from __future__ import annotations

import pytest

from games_py.ginrummy import game
from pcemu.trace import ginrummy as tracer
from pcemu.trace import sweep
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
