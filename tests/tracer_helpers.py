"""The tracers pyproject.toml declares, as entry points, for tests that run where the
package was installed before they were declared (an older editable install knows
only the entry points it was installed with)."""
from __future__ import annotations

import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
GROUP = "pcemu.tracers"


def declared_tracers() -> list[EntryPoint]:
    table = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"][GROUP]
    return [EntryPoint(name, value, GROUP) for name, value in table.items()]


def use_declared_tracers(monkeypatch, extra: list[EntryPoint] = ()) -> None:
    """``pcemu trace`` sees exactly the declared tracers (and ``extra``)."""
    points = declared_tracers() + list(extra)
    monkeypatch.setattr("pcemu.commands.trace.entry_points",
                        lambda group: [p for p in points if p.group == group])
