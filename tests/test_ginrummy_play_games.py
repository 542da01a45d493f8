"""Whole first games in demo mode: the original (pcemu trace) against the Python game.

Slow (a hand takes the emulator about half a minute): run with
``pytest -m slow tests/test_ginrummy_play_games.py``.  The start times are those of
``pcemu trace ginrummy-sweep`` (``sweep_times(200, seed=5)``), so the three
variants and both sound settings come round in turn.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from games_py.ginrummy import computer, game, trace
from games_py.qbasic import rng
from games_py.ginrummy.deal import OriginalRandom

SHARED = Path(os.environ.get("PCEMU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DISK = SHARED / "disks" / "DISK1612.img"
MOST_HANDS = 40


def _strip(events):
    return [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in events]


def test_tunes_differ_from_the_last_one_and_spend_rnd_per_try():
    tunes = computer.Tunes()
    random = OriginalRandom(rng.QuickBasicRandom(0x123456))
    picked = []
    for winner in (1, 1, 2, 2, 1):
        before = random.generator.calls
        tunes.play(random, winner)
        spent = random.generator.calls - before
        # player 1 winning with an odd month: one RND per try; player 2: two
        assert spent >= 1 and spent % (1 if winner == 1 else 2) == 0
        picked.append(tunes.last_single if winner == 1 else tunes.last_double)
    assert all(1 <= t <= 7 for t in picked)
    assert picked[0] != picked[1] and picked[2] != picked[3] and picked[1] != picked[4]


def test_a_python_game_ends_with_its_score_and_the_next_begins():
    events = game.python_trace(game.Settings(time=(12, 0, 0, 0), demo=True), MOST_HANDS)
    end = next(i for i, e in enumerate(events) if e["event"] == "game_end")
    ends = [e for e in events[:end] if e["event"] == "hand_end"]
    assert max(ends[-1]["scores"].values()) >= 100 > max(ends[-2]["scores"].values())
    assert events[end + 1]["event"] == "deal" and (events[end + 1]["game"], events[end + 1]["hand"]) == (2, 1)
    assert sum(1 for e in events if e["event"] in ("hand_end", "dead_hand")) == MOST_HANDS


def _first_game(settings: game.Settings) -> list[dict]:
    """The Python trace up to the first game's end (hand by hand, so that a later game
    cannot stop it), or up to the ``fault`` where the original overflows CONF."""
    for hands in range(1, MOST_HANDS + 1):
        events = game.python_trace(settings, hands)
        if events[-1]["event"] in ("game_end", "fault"):
            return events
    raise AssertionError(f"no game end within {MOST_HANDS} hands")


def _cases():
    from pcemu.trace.sweep import sweep_times
    cases = sweep_times(200, seed=5)
    return [cases[i] for i in (0, 1, 2, 3, 4, 5, 100, 101, 102)]


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{game.format_time(c.time)}-{c.variant}-"
                         f"{'sound' if c.sound else 'quiet'}")
def test_whole_first_game_matches_the_original(case):
    if not DISK.exists():
        pytest.skip(f"original disk image not found at {DISK}")
    from pcemu.trace.ginrummy import trace_original
    settings = case.settings()
    mine = _first_game(settings)
    # (a fault ends the trace inside a hand, which counts too)
    hands = sum(1 for e in mine if e["event"] in ("hand_end", "dead_hand", "fault"))
    assert _strip(trace_original(settings, hands=hands)) == _strip(mine)
