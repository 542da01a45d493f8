"""The original's CONF overflow (docs/ginrummy-internals.md, section 12): an arrangement
with more than 5 cards shared by a straight and a flat makes line 8310 write past CONF,
and GINRUMMY.EXE later crashes.  Both traces end there with the same ``fault`` event."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from games_py.ginrummy import computer, game, rules, trace
from games_py.qbasic import rng
from games_py.ginrummy.deal import OriginalRandom
from pcemu.trace import sweep
from tests.ginrummy_helpers import empty_table, with_hand
from tests.machine_helpers import DISK1612, needs_originals

# hand 1 of 15:52:59.45 Oklahoma with sound: 4S 3S 2S AS, 4H 3H 2H, 5C 4C 3C and the flats
# of fours and threes share 4S 4H 4C 3S 3H 3C
SIX_SHARED = ["4S", "3S", "2S", "AS", "4H", "3H", "2H", "5C", "4C", "3C"]
# 4S 3S 2S, 4H 3H 2H, 6C 5C 4C and the fours and threes (3D in no straight): 5 shared
FIVE_SHARED = ["4S", "3S", "2S", "4H", "3H", "2H", "4C", "5C", "6C", "3D"]
FAULT_CASE = sweep.Case((15, 52, 59, 45), rules.OKLAHOMA, True)


def _table(p: int, cards: list[str]) -> computer.Table:
    return with_hand(empty_table(), p, cards)


def _random() -> OriginalRandom:
    return OriginalRandom(rng.QuickBasicRandom(0x123456))


def test_six_shared_cards_overflow_conf():
    t = _table(1, SIX_SHARED)
    with pytest.raises(computer.SharedCardsOverflow) as raised:
        computer.arrange(t, 1, 10, _random(), final=True)
    assert raised.value.player == 1 and raised.value.shared == 6
    event = raised.value.event()
    assert event["event"] == "fault" and event["player"] == trace.YOU
    assert event["line"] == computer.SHARED_LINE == 8310 and event["shared"] == 6


def test_five_shared_cards_fit_and_are_settled():
    t = _table(2, FIVE_SHARED)
    computer.arrange(t, 2, 10, _random(), final=True)
    matched = sorted(str(c) for m in t.melds[2] for c in m)
    assert len(matched) == len(set(matched)) >= 9          # every card in one meld at most
    assert t.unmatched[2] == 10 - len(matched)


def test_the_python_trace_ends_with_the_fault():
    events = game.python_trace(FAULT_CASE.settings(), 3)
    assert [e["event"] for e in events].count("fault") == 1
    assert events[-1] == computer.shared_cards_fault(trace.YOU)
    assert not any(e["event"] == "hand_end" for e in events)   # it comes in hand 1


def test_the_sweep_counts_a_shared_fault_as_equal_and_says_so(monkeypatch):
    from pcemu.trace import ginrummy as tracer
    python = game.python_trace(FAULT_CASE.settings(), sweep.MAX_HANDS_PER_GAME)
    monkeypatch.setattr(tracer, "trace_original", lambda *a, **k: [dict(e) for e in python])
    result = sweep.check_game(FAULT_CASE)
    assert result.equal and result.faults and "original faults" in result.detail
    before = [dict(e) for e in python[:-1]]                      # the original went on instead
    monkeypatch.setattr(tracer, "trace_original", lambda *a, **k: before)
    result = sweep.check_game(FAULT_CASE)
    assert not result.equal and not result.faults


@needs_originals
@pytest.mark.originals
def test_the_original_faults_where_python_does(tmp_path):
    """15:52:59.45 Oklahoma with sound, hand 1: after drawing 4H your hand has 6 shared
    cards; the original stores the 6th past CONF (about 10 s)."""
    from pcemu.cli import main
    from pcemu.trace.ginrummy import trace_original
    settings = FAULT_CASE.settings()
    original = trace_original(settings, hands=3, disk=str(DISK1612))
    python = game.python_trace(settings, 3)
    assert original[-1]["event"] == "fault" and original[-1] == python[-1]
    paths = []
    for name, events in (("original", original), ("python", python)):
        paths.append(tmp_path / f"{name}.jsonl")
        with open(paths[-1], "w", encoding="utf-8") as out:
            trace.write(events, out)
    result = CliRunner().invoke(main, ["diff", *map(str, paths)])
    assert result.exit_code == 0 and f"the traces agree ({len(original)} events" in result.output
