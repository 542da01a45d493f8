"""The machine knows no game: ``pcemu`` imports nothing from ``games_py``; ``pcemu trace``
finds the games' tracers through the ``pcemu.tracers`` entry points; ``pcemu diff``
compares any game's traces by the envelope of docs/trace-format.md.  About 3 s."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import click
from click.testing import CliRunner

from pcemu.commands.diff import diff as diff_command
from pcemu.commands.trace import trace as trace_group
from tests.tracer_helpers import GROUP, declared_tracers, use_declared_tracers

REPO = Path(__file__).resolve().parents[1]

IMPORT_EVERY_MODULE = """
import importlib, json, pkgutil, sys
import pcemu
failed = []
for info in pkgutil.walk_packages(pcemu.__path__, "pcemu."):
    if info.name.rsplit(".", 1)[-1] == "__main__":
        continue
    try:
        importlib.import_module(info.name)
    except ImportError as exc:
        failed.append(f"{info.name}: {exc}")
games = sorted(m for m in sys.modules if m == "games_py" or m.startswith("games_py."))
print(json.dumps({"file": pcemu.__file__, "failed": failed, "games": games,
                  "modules": len([m for m in sys.modules if m.startswith("pcemu.")])}))
"""


def test_importing_every_module_of_pcemu_imports_no_game():
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERY_MODULE], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(found["file"]).parent == REPO / "pcemu"      # this checkout's package
    assert found["modules"] > 50                             # the walk reached its modules
    assert found["failed"] == [] and found["games"] == []


def test_no_file_of_the_machine_names_the_games_package():
    naming = [str(p.relative_to(REPO)) for p in (REPO / "pcemu").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and b"games_py" in p.read_bytes()]
    assert naming == []


def test_the_declared_tracers_load_as_commands_named_as_their_entry_points():
    points = declared_tracers()
    assert {p.name for p in points} >= {"ginrummy", "ginrummy-sweep"}
    for point in points:
        command = point.load()
        assert isinstance(command, click.Command) and command.name == point.name


def test_trace_help_lists_the_tracers_and_a_broken_one_in_a_line(monkeypatch):
    use_declared_tracers(monkeypatch, [EntryPoint("broken", "no_such_module_here:command", GROUP)])
    result = CliRunner().invoke(trace_group, ["--help"])
    assert result.exit_code == 0, result.output
    tracers = result.output.split("Tracers:")[1]
    assert "ginrummy " in tracers and "ginrummy-sweep" in tracers and "GINRUMMY.EXE" in tracers
    assert "broken" in tracers and "no_such_module_here" in tracers


def test_a_tracer_that_cannot_be_loaded_is_one_line_and_status_1(monkeypatch):
    use_declared_tracers(monkeypatch, [EntryPoint("broken", "no_such_module_here:command", GROUP),
                                       EntryPoint("notacommand", "json:dumps", GROUP)])
    for name, why in (("broken", "ModuleNotFoundError"), ("notacommand", "is not a click command")):
        result = CliRunner().invoke(trace_group, [name, "--help"])
        assert result.exit_code == 1, result.output
        assert why in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_an_unknown_tracer_is_a_usage_error(monkeypatch):
    use_declared_tracers(monkeypatch)
    result = CliRunner().invoke(trace_group, ["tetris"])
    assert result.exit_code == 2 and "No such command 'tetris'" in result.output


def test_the_pcemu_command_reaches_the_tracers(monkeypatch):
    from pcemu.cli import main
    use_declared_tracers(monkeypatch)
    result = CliRunner().invoke(main, ["trace", "ginrummy", "--help"])
    assert result.exit_code == 0 and "--time HH:MM:SS.hh" in result.output


# -- pcemu diff on another game's trace ------------------------------------------------------
def _write(path: Path, events: list[dict]) -> str:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return str(path)


def _frames(seed: int) -> list[dict]:
    """A made-up game's trace: a first event declaring its metadata, then frames."""
    return [{"event": "start", "format": "x/1", "source": "a", "metadata_keys": ["host", "seed"],
             "host": "pc", "seed": seed},
            *({"event": "frame", "frame": n, "score": n * 10} for n in range(1, 6)),
            {"event": "ship_lost", "lives": 2}]


def test_diff_ignores_the_keys_a_trace_declares_as_metadata(tmp_path):
    other = _frames(2)
    other[0].update(source="b", host="mac", format="x/2")
    result = CliRunner().invoke(diff_command, [_write(tmp_path / "a", _frames(1)), _write(tmp_path / "b", other)])
    assert result.exit_code == 0 and "agree (7 events compared)" in result.output


def test_diff_names_the_first_differing_event_its_kind_frame_and_key(tmp_path):
    other = _frames(1)
    other[6]["lives"] = 1                          # after frame 5, an event without a frame number
    result = CliRunner().invoke(diff_command, [_write(tmp_path / "a", _frames(1)), _write(tmp_path / "b", other)])
    assert result.exit_code == 1
    assert "the traces differ at event 7 (ship_lost; frame 5)" in result.output
    assert "differing: lives" in result.output and "2  vs  1" in result.output
    other = _frames(1)
    other[3]["score"] = 0
    result = CliRunner().invoke(diff_command, [_write(tmp_path / "a", _frames(1)), _write(tmp_path / "c", other),
                                               "--only", "frame"])
    assert result.exit_code == 1 and "differ at event 3 (frame; frame 3)" in result.output


def test_diff_refuses_metadata_keys_that_are_not_names(tmp_path):
    bad = _frames(1)
    bad[0]["metadata_keys"] = "seed"
    result = CliRunner().invoke(diff_command, [_write(tmp_path / "a", _frames(1)), _write(tmp_path / "b", bad)])
    assert result.exit_code == 2 and "b:1: the first event's metadata_keys is not a list" in result.output
    assert "Traceback" not in result.output
