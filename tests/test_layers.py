"""The code's layers, checked on its import graph (grimp builds it from the source).

Layers call downward only (docs/architecture.md): CPU, memory and devices at the
bottom; the firmware (bios/, with the guest-call bridge and the C accelerations
that mirror BIOS services); the DOS kernel; the shell; the machine, which wires
them all; front ends; tools.  No module imports, at run time, a module that
imports it back, however long the way round: each package imports alone.
Imports only for type checking are not counted (they never run).
"""
from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from grimp import Layer

ROOT = Path(__file__).resolve().parent.parent
LOWEST = Layer("pcemu.cpu", "pcemu.devices", "pcemu.memory", "pcemu.bus", "pcemu.clock",
               "pcemu.events", "pcemu.keys", "pcemu.timeofday", "pcemu.storage", "pcemu.screen",
               "pcemu.fonts", "pcemu.cp437", "pcemu.errors", independent=False)
LAYERS = [
    Layer("pcemu.cli", "pcemu.__main__", "pcemu.commands", "pcemu.archive", "pcemu.survey",
          "pcemu.trace", "pcemu.tools", "pcemu.sweep", "pcemu.cputest", independent=False),
    Layer("pcemu.frontend", "pcemu.frontend_terminal", independent=False),
    "pcemu.machine",
    "pcemu.shell",
    "pcemu.dos",
    Layer("bios", "pcemu.guest", "pcemu.native", independent=False),
    LOWEST,
]
PACKAGES = ["bios", "pcemu.devices", "pcemu.storage", "pcemu.native", "pcemu.dos", "pcemu.shell",
            "pcemu.machine", "pcemu.frontend", "pcemu.archive", "pcemu.survey", "pcemu.trace",
            "pcemu.commands", "pcemu.cli"]


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("pcemu", "bios", exclude_type_checking_imports=True)


def _described(dependencies) -> str:
    lines = []
    for dep in sorted(dependencies, key=lambda d: (d.upstream, d.downstream)):
        lines.append(f"{dep.upstream} (lower) imports {dep.downstream} (higher):")
        for route in list(dep.routes)[:3]:
            lines.append(f"    {route.heads} ... {route.middle} ... {route.tails}")
    return "\n".join(lines)


def test_layers_call_downward_only(graph):
    illegal = graph.find_illegal_dependencies_for_layers(layers=LAYERS)
    assert not illegal, "\n" + _described(illegal)


def _cycles(graph) -> list[list[str]]:
    """Strongly connected groups of modules (a package and its own modules apart: a
    package's __init__ importing its modules is no cycle)."""
    edges = collections.defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if not (imported.startswith(module + ".") or module.startswith(imported + ".")):
                edges[module].add(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:          # Tarjan, iteratively (the graph is deep)
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return groups


def test_no_module_imports_itself_round_a_cycle(graph):
    assert _cycles(graph) == []


def test_the_checks_see_an_upward_import_and_a_cycle(tmp_path, monkeypatch):
    """The two checks above on a package made to break both rules."""
    package = tmp_path / "layered"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from layered import high\n")
    (package / "high.py").write_text("from layered import low\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    broken = grimp.build_graph("layered", exclude_type_checking_imports=True)
    assert broken.find_illegal_dependencies_for_layers(layers=["layered.high", "layered.low"])
    assert _cycles(broken) == [["layered.high", "layered.low"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_alone(package):
    done = subprocess.run([sys.executable, "-c", f"import {package}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_no_service_knows_the_machine():
    """BIOS and DOS services and the shell get a ServiceContext:
    none of them imports pcemu.machine, not even for type hints."""
    graph = grimp.build_graph("pcemu", "bios", exclude_type_checking_imports=False)
    services = [m for m in graph.modules
                if m == "bios" or m.startswith(("bios.", "pcemu.dos", "pcemu.shell"))]
    importers = graph.find_modules_that_directly_import("pcemu.machine")
    assert sorted(set(services) & importers) == []
