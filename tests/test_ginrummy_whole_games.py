"""The CI sample of whole first games: the original against the Python game, event for event.

Every test run compares ten whole first games in demo mode and ten with a scripted
human (five ``simple``, five ``random``), each from its deal to the game's end with
its bonuses, as ``pcemu trace ginrummy-sweep --whole-games`` does for large samples.
The start times are the sweep's own spread over the day (``sweep_times``) with a
seed of this sample, so they cycle through the three variants and both sound
settings and include midnight and 23:59:59.99.  A game costs several seconds of
emulation; pytest-xdist spreads them over the cores (pyproject's addopts).
"""
from __future__ import annotations

import pytest

from games_py.ginrummy import game
from games_py.ginrummy.original_sweep import check_game, sweep_times, with_human
from tests.machine_helpers import DISK1612, needs_originals

SAMPLE_SEED = 2026            # not a seed of the sweeps the README reports
DEMO_GAMES = sweep_times(10, seed=SAMPLE_SEED)
_HUMAN_TIMES = sweep_times(10, seed=SAMPLE_SEED + 1)
HUMAN_GAMES = with_human(_HUMAN_TIMES[:5], "simple") + with_human(_HUMAN_TIMES[5:], "random")


def _name(case) -> str:
    return "-".join([game.format_time(case.time), case.variant, "sound" if case.sound else "quiet",
                     case.human or "demo"])


def test_the_sample_covers_every_variant_and_sound_with_both_policies():
    for games in (DEMO_GAMES, HUMAN_GAMES):
        assert len(games) >= 10
        assert {(c.variant, c.sound) for c in games} == {(v, s) for v in ("standard", "oklahoma", "cowboy")
                                                         for s in (True, False)}
    policies = [c.human.split(":")[0] for c in HUMAN_GAMES]
    assert policies.count("simple") >= 5 and policies.count("random") >= 5
    assert len({c.human for c in HUMAN_GAMES if c.human != "simple"}) == 5   # five random seeds
    assert len({c.time for c in DEMO_GAMES + HUMAN_GAMES}) >= 18             # midnight, 23:59:59.99 shared


@needs_originals
@pytest.mark.parametrize("case", DEMO_GAMES + HUMAN_GAMES, ids=_name)
def test_whole_first_game_matches_the_original(case):
    result = check_game(case, disk=str(DISK1612))
    assert result.equal, result.detail
