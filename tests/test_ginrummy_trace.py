"""Gin Rummy traces: the original's first deal against the Python game's, ``pcemu diff``,
and the trace commands' handling of bad input.

The differential tests run the unmodified GINRUMMY.EXE in the machine (about 2 s
each) for a sample of start times: the two times where TIMER's arithmetic is
special (00:00:00.00, whose MBF zero keeps stale bytes, and 23:59:59.99, the
last hundredth of the day) and a few others with zero fields, plus times drawn
from a seeded generator in each slot of the day, cycling through the three
variants and both sound settings, with some monochrome displays, open hands
and demo mode.  ``GINRUMMY_SAMPLE_SEED`` draws another sample; the full sweep
is ``pcemu trace ginrummy-sweep``.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from games_py.cards import card
from games_py.ginrummy import cli as python_cli
from games_py.ginrummy import game, rules
from games_py.ginrummy import trace as trace_format
from pcemu.commands.diff import diff as diff_command
from pcemu.commands.trace import trace as trace_group
from pcemu.trace.diff import describe, first_divergence
from games_py.ginrummy.original_sweep import DAY_HUNDREDTHS, time_of
from tests.machine_helpers import DISK1612, needs_originals
from tests.tracer_helpers import use_declared_tracers

SAMPLE_SEED = int(os.environ.get("GINRUMMY_SAMPLE_SEED", "4061"))
GENERAL_TIMES = 18

SPECIAL_TIMES = [
    (0, 0, 0, 0),           # TIMER is a zero whose bytes come from CSNG(100)
    (23, 59, 59, 99),       # the largest TIMER; the deal happens after midnight
    (0, 0, 0, 1),           # only the hundredths are not zero
    (0, 1, 0, 0),           # a zero product, then a whole minute
]


def _settings(index: int, time: tuple[int, int, int, int]) -> game.Settings:
    """Cycle the variants fastest, then the sound; every 4th display mono, some open
    hands, demo every other case."""
    return game.Settings(time=time, variant=rules.VARIANTS[index % 3], sound=(index // 3) % 2 == 0,
                         colour=index % 4 != 3, open_hands=index % 5 == 2, demo=index % 2 == 0)


def sample(seed: int = SAMPLE_SEED) -> list[game.Settings]:
    generator = random.Random(seed)
    times = list(SPECIAL_TIMES)
    for i in range(GENERAL_TIMES):
        low, high = i * DAY_HUNDREDTHS // GENERAL_TIMES, (i + 1) * DAY_HUNDREDTHS // GENERAL_TIMES
        times.append(time_of(generator.randrange(low, high)))
    return [_settings(i, t) for i, t in enumerate(times)]


SAMPLE = sample()


@pytest.fixture(autouse=True)
def _tracers(monkeypatch):
    """``pcemu trace`` finds the tracers pyproject.toml declares, installed or not yet."""
    use_declared_tracers(monkeypatch)


def _id(s: game.Settings) -> str:
    return (f"{game.format_time(s.time)}-{s.variant}-sound{'on' if s.sound else 'off'}"
            f"-{'colour' if s.colour else 'mono'}{'-open' if s.open_hands else ''}{'-demo' if s.demo else ''}")


def test_the_sample_covers_every_setting():
    assert len(SAMPLE) >= 20
    assert {(s.variant, s.sound) for s in SAMPLE} == {(v, x) for v in rules.VARIANTS for x in (True, False)}
    assert {s.colour for s in SAMPLE} == {True, False}
    assert {s.open_hands for s in SAMPLE} == {True, False}
    assert {s.demo for s in SAMPLE} == {True, False}
    assert len({s.time for s in SAMPLE}) == len(SAMPLE)
    assert {(0, 0, 0, 0), (23, 59, 59, 99)} <= {s.time for s in SAMPLE}
    deals = [game.python_trace(s, hands=0)[1] for s in SAMPLE]
    assert {d["dealer"] for d in deals} == {trace_format.YOU, trace_format.COMPUTER}


@pytest.mark.originals
@needs_originals
@pytest.mark.parametrize("settings", SAMPLE, ids=_id)
def test_first_deal_equals_the_originals(settings):
    from games_py.ginrummy.original import trace_original
    original = trace_original(settings, hands=0, disk=str(DISK1612))
    python = game.python_trace(settings, hands=0)
    assert [e["event"] for e in original] == ["start", "deal"]
    assert original[0]["time"] == game.format_time(settings.time)     # what the program read
    found = first_divergence(original, python)
    assert found is None, describe(found, "original", "python")


@pytest.mark.originals
@needs_originals
def test_a_setting_the_program_did_not_take_stops_the_trace():
    """F1 typed right after Enter comes before the program turns its ON KEY traps on: it is
    lost and the program keeps its sound on, so a trace claiming --sound off must fail."""
    from games_py.ginrummy.original import GinRummyTracer, TraceFailure
    tracer = GinRummyTracer(game.Settings(time=(11, 0, 0, 0), sound=False, demo=False), hands=0,
                            disk=str(DISK1612))
    typed = tracer.machine.type

    def f1_too_early(keys: str) -> None:
        typed(keys.replace("{F1}", "").replace("{ENTER}", "{ENTER}{F1}", 1))
    tracer.machine.type = f1_too_early
    with pytest.raises(TraceFailure, match="sound on, not off"):
        tracer.run()


# -- the Python side alone: the settings really change the deal ------------------------------
def _deal(**changes) -> dict:
    base = dict(time=(9, 30, 15, 42), variant=rules.STANDARD, sound=True, colour=True)
    base.update(changes)
    return game.python_trace(game.Settings(**base), hands=0)[1]


def test_sound_display_and_time_each_change_the_deal():
    plain = _deal()
    for changed in (_deal(sound=False), _deal(colour=False), _deal(time=(9, 30, 15, 43))):
        assert changed["hands"] != plain["hands"]


def test_every_deal_is_ten_ten_and_an_upcard_from_one_deck():
    generator = random.Random(7)
    for _ in range(200):
        settings = _settings(generator.randrange(60), time_of(generator.randrange(DAY_HUNDREDTHS)))
        deal = game.python_trace(settings, hands=0)[1]
        cards = deal["hands"]["you"] + deal["hands"]["computer"] + [deal["upcard"]]
        assert len(deal["hands"]["you"]) == len(deal["hands"]["computer"]) == 10
        assert len(set(cards)) == 21 and deal["stock"] == 31
        assert deal["dealer"] in (trace_format.YOU, trace_format.COMPUTER)


# -- pcemu diff ----------------------------------------------------------------------------
def _write(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(trace_format.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture
def traces(tmp_path):
    settings = game.Settings(time=(13, 45, 12, 34), variant=rules.OKLAHOMA, sound=False)
    events = game.python_trace(settings, hands=0)
    events += [trace_format.draw_event("computer", "deck", card("5H")),
               trace_format.discard_event("computer", card("KS"))]
    return tmp_path, events


def test_diff_of_equal_traces_exits_0(traces):
    tmp, events = traces
    other = [dict(e) for e in events]
    other[0]["source"] = "original"                       # where a trace came from is not compared
    result = CliRunner().invoke(diff_command, [str(_write(tmp / "a.jsonl", events)),
                                               str(_write(tmp / "b.jsonl", other))])
    assert result.exit_code == 0, result.output
    assert f"agree ({len(events)} events compared)" in result.output


def test_diff_prints_the_first_divergence_with_context(traces):
    tmp, events = traces
    other = json.loads(json.dumps(events))
    other[3]["card"] = "QS"                               # the discard
    other[2]["card"] = "6H"                               # the draw before it: the first difference
    result = CliRunner().invoke(diff_command, [str(_write(tmp / "a.jsonl", events)),
                                               str(_write(tmp / "b.jsonl", other)), "--context", "2"])
    assert result.exit_code == 1
    out = result.output
    assert "differ at event 3" in out
    assert "differing: card" in out and '"5H"  vs  "6H"' in out
    context = out.split("after these equal events:")[1].split(str(tmp / "a.jsonl"))[0]
    assert '"event": "start"' in context and '"event": "deal"' in context
    assert "QS" not in out                                # only the first divergence


def test_diff_of_a_trace_that_ends_early(traces):
    tmp, events = traces
    result = CliRunner().invoke(diff_command, [str(_write(tmp / "a.jsonl", events)),
                                               str(_write(tmp / "b.jsonl", events[:2]))])
    assert result.exit_code == 1
    assert "differ at event 3" in result.output and "(the trace has ended)" in result.output


def test_diff_only_ignore_and_limit(traces):
    tmp, events = traces
    other = json.loads(json.dumps(events))
    other[2]["card"] = "6H"
    a, b = str(_write(tmp / "a.jsonl", events)), str(_write(tmp / "b.jsonl", other))
    runner = CliRunner()
    assert runner.invoke(diff_command, [a, b, "--only", "deal"]).exit_code == 0
    assert runner.invoke(diff_command, [a, b, "--only", "draw"]).exit_code == 1
    assert runner.invoke(diff_command, [a, b, "--ignore", "card"]).exit_code == 0
    assert runner.invoke(diff_command, [a, b, "--limit", "2"]).exit_code == 0
    assert runner.invoke(diff_command, [a, b, "--limit", "3"]).exit_code == 1
    bad = runner.invoke(diff_command, [a, b, "--only", "shuffle"])
    assert bad.exit_code == 2 and "unknown event type shuffle" in bad.output


def test_diff_of_files_that_are_not_traces(tmp_path, traces):
    _tmp, events = traces
    good = str(_write(tmp_path / "good.jsonl", events))
    (tmp_path / "bad.jsonl").write_text('{"event": "start"}\nnot json\n', encoding="utf-8")
    (tmp_path / "list.jsonl").write_text("[1, 2]\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(diff_command, [good, str(tmp_path / "bad.jsonl")])
    assert result.exit_code == 2 and "bad.jsonl:2: not JSON" in result.output
    result = runner.invoke(diff_command, [good, str(tmp_path / "list.jsonl")])
    assert result.exit_code == 2 and "list.jsonl:1: not a trace event" in result.output
    result = runner.invoke(diff_command, [good, str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "cannot read" in result.output


# -- the trace commands' bad input -------------------------------------------------------------
TRACE_COMMANDS = [
    pytest.param((trace_group, ["ginrummy"]), id="pcemu-trace-ginrummy"),
    pytest.param((python_cli.main, ["trace"]), id="python-ginrummy-trace"),
]


@pytest.mark.parametrize("command", TRACE_COMMANDS)
@pytest.mark.parametrize("bad_time", ["24:00:00.00", "12:60:00", "12:00:60", "noon", "12:00:00.123", ""])
def test_a_bad_time_is_refused_with_a_message(command, bad_time):
    group, args = command
    result = CliRunner().invoke(group, [*args, "--time", bad_time])
    assert result.exit_code == 2
    assert "Invalid value for '--time'" in result.output and "bad time" in result.output


@pytest.mark.parametrize("command", TRACE_COMMANDS)
def test_an_unwritable_output_is_refused_before_the_run(command, tmp_path, monkeypatch):
    group, args = command
    # the run must not start: make both writers fail loudly if they are reached
    monkeypatch.setattr("games_py.ginrummy.original.trace_original", _never)
    monkeypatch.setattr(game, "python_trace", _never)
    target = tmp_path / "no such folder" / "o.jsonl"
    result = CliRunner().invoke(group, [*args, "--time", "12:00:00.00", "-o", str(target)])
    assert result.exit_code == 1, result.output
    assert f"cannot write {target}" in result.output
    assert not target.parent.exists()


def _never(*_args, **_kwargs):
    raise AssertionError("the trace ran although its output cannot be written")


def test_the_output_check_leaves_no_file_behind(tmp_path):
    target = tmp_path / "o.jsonl"
    python_cli.check_output(target)
    assert not target.exists()


def test_bad_variant_sound_display_and_disk(tmp_path):
    runner = CliRunner()
    for option, value in (("--variant", "gin"), ("--sound", "loud"), ("--display", "vga"), ("--hands", "-1")):
        result = runner.invoke(trace_group, ["ginrummy", "--time", "12:00", option, value])
        assert result.exit_code == 2 and f"'{option}'" in result.output
    result = runner.invoke(trace_group, ["ginrummy", "--time", "12:00", "--disk", str(tmp_path / "x.img")])
    assert result.exit_code == 1 and "does not exist" in result.output
    assert runner.invoke(trace_group, ["ginrummy-sweep", "--count", "0"]).exit_code == 2


def test_time_parsing():
    assert game.parse_time("13:45:12.34") == (13, 45, 12, 34)
    assert game.parse_time("13:45:12.3") == (13, 45, 12, 30)
    assert game.parse_time("7:05") == (7, 5, 0, 0)
    assert game.parse_time(" 23:59:59.99 ") == (23, 59, 59, 99)
    for text in ("24:00", "1:2:3", "12:00:00:00", "12.00"):
        with pytest.raises(ValueError, match="bad time"):
            game.parse_time(text)


# -- the commands end to end, one original run -----------------------------------------------
@pytest.mark.originals
@needs_originals
def test_trace_commands_write_traces_that_diff_equal(tmp_path):
    runner = CliRunner()
    options = ["--time", "18:07:33.58", "--variant", "cowboy", "--sound", "off", "--hands", "0"]
    orig, py = tmp_path / "orig.jsonl", tmp_path / "py.jsonl"
    result = runner.invoke(trace_group, ["ginrummy", *options, "--disk", str(DISK1612), "-o", str(orig)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(python_cli.main, ["trace", *options, "-o", str(py)])
    assert result.exit_code == 0, result.output
    assert trace_format.read(orig)[0]["source"] == "original"
    assert trace_format.read(py)[0]["source"] == "python"
    result = runner.invoke(diff_command, [str(orig), str(py)])
    assert result.exit_code == 0, result.output


# -- the sweep's start times ----------------------------------------------------------------------
def test_sweep_times_spread_over_the_day_and_cycle_the_settings():
    from games_py.ginrummy.original_sweep import sweep_times
    cases = sweep_times(500)
    assert len(cases) == 500 and len({c.time for c in cases}) == 500
    assert cases[0].time == (0, 0, 0, 0) and cases[-1].time == (23, 59, 59, 99)
    moments = [((h * 60 + m) * 60 + s) * 100 + hs for h, m, s, hs in (c.time for c in cases)]
    assert moments == sorted(moments)
    assert max(b - a for a, b in zip(moments, moments[1:])) < 2 * DAY_HUNDREDTHS // 500
    combos = {(c.variant, c.sound) for c in cases}
    assert len(combos) == 6 and all(c.colour for c in cases)
    both = sweep_times(24, displays=(True, False))
    assert len({(c.variant, c.sound, c.colour) for c in both}) == 12
    with pytest.raises(ValueError):
        sweep_times(0)
