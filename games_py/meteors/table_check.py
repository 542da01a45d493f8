"""The high-score table's screens, the original's against the Python game's, cell for
cell (characters and attributes) at the points of the table's code the tracer can stop
at: line 1640 (the explosion, before the pause), 5910 (the table and CONGRATULATIONS), 5920 (the name prompt), 5950 (the name
typed) and 1670 (the table after the name, or after a score without one).  What
docs/meteors-internals.md, section 8, reports was measured with it, from the repository:

    python -m games_py.meteors.table_check --count 50 --seed 7 --seconds 30
    python -m games_py.meteors.table_check --count 100 --seconds 120 --demo

(scripted players ``random:i`` as the sweep's, or the computer with --demo; the first
took 88 s, the second 10.5 min, on two shared cores).  It also times each game's end, as
end_probe.py does: lines 1420, 1620 and 1710 from the hit step's 1110, and the table (5370 to the
second pause's first INT 3), the original's instructions against the model's.
"""
from __future__ import annotations

from dataclasses import dataclass

import click

from games_py.meteors import end_probe, original, sweep, trace
from games_py.meteors.game import Meteors
from games_py.tracing import TraceFailure, user_errors

POINTS = (1640, 5910, 5920, 5950, 1670)    # 1640: the explosion, at the pause before the table
Cells = tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True)
class Shot:
    game: int
    line: int
    cells: Cells


class NamingTracer(original.MeteorsTracer):
    """The tracer, typing key scripts of its own at the name prompts (line 5910), then
    PLAYER as the tracer does."""

    def __init__(self, settings: trace.Settings, names: list[str], disk: str) -> None:
        self.names = list(names)
        super().__init__(settings, disk)

    def _type_name(self) -> None:
        self._keys_now(self.names.pop(0) if self.names else original.NAME + "{ENTER}")


def original_screens(settings: trace.Settings, games: int | None = None, names: list[str] | None = None,
                     disk: str = "1612", places: list | None = None) -> tuple[list[dict], list[Shot]]:
    """The original's events and its screens at POINTS (up to the end of game ``games``'s
    table, if given); ``places`` gets (line, instructions) at end_probe.POINTS."""
    tracer = NamingTracer(settings, names or [], disk)
    machine, process = tracer.machine, tracer.process
    shots: list[Shot] = []
    if places is not None:
        for offset, line in end_probe.POINTS.items():
            process.at_offset(offset, lambda line=line: places.append((line, machine._instr_now())))

    def at(line: int):
        def seen() -> None:
            game = process.integer(original.GAME)
            if (games is None or game <= games) and not tracer.done:
                shots.append(Shot(game, line, tuple(tuple(row) for row in machine.screen_cells())))
                if line == 1670 and game == games:
                    tracer._stop()
        return seen
    for line in POINTS:
        process.at_line(line, at(line))
    return tracer.run(), shots


def python_screens(settings: trace.Settings, frames: int,
                   names: list[list[str]] | None = None) -> tuple[Meteors, list[Shot]]:
    """The Python game for ``frames`` frames and its screens at the same points; ``names``:
    the keys typed at each prompt (default: PLAYER)."""
    game = Meteors(settings)
    game.place_log = []
    game.random.randomize_timer(*settings.time)
    shots: list[Shot] = []
    game.scores.seen = lambda line, screen: shots.append(Shot(game.games, line, tuple(
        tuple(zip(screen.cells[r], screen.attrs[r])) for r in range(len(screen.cells)))))
    if names is not None:
        keys = iter([key for name in names for key in name])
        game.name_key = lambda g: next(keys)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return game, shots


def frames(events: list[dict]) -> int:
    return sum(1 for e in events if e["event"] == "frame")


def differences(a: Shot, b: Shot) -> list[str]:
    return [f"row {r + 1} column {c + 1}: original {a.cells[r][c]}, python {b.cells[r][c]}"
            for r in range(len(a.cells)) for c in range(len(a.cells[r])) if a.cells[r][c] != b.cells[r][c]]


def end_errors(places: list, model: list) -> list[int]:
    """Per game over, the largest distance (instructions) between the original's and the model's
    lines 1420, 1620, 1710 (from the hit step's 1110) and between their tables (5370 to the next
    1710); None where the sides' places do not pair."""
    worst = []
    for ours, theirs in zip(end_probe.game_ends(places), end_probe.game_ends(model)):
        if [line for line, _ in ours] != [line for line, _ in theirs[:len(ours)]]:
            continue
        off = [round(a - ours[0][1] - (b - theirs[0][1])) for (_, a), (_, b) in zip(ours, theirs)]
        lines = [line for line, _ in ours]
        near = [abs(o) for line, o in zip(lines[:4], off[:4]) if line in (1420, 1620, 1710)]
        if 5370 in lines and 1710 in lines[lines.index(5370):]:
            i = lines.index(5370)
            near.append(abs(off[lines.index(1710, i)] - off[i]))
        worst.append(max(near, default=0))
    return worst


def first_difference(originals: list[Shot], pythons: list[Shot]) -> str | None:
    """None when the Python game showed the same screens at the same points."""
    points = [(s.game, s.line) for s in originals]
    if [(s.game, s.line) for s in pythons[:len(originals)]] != points:
        return f"points: original {points}, python {[(s.game, s.line) for s in pythons]}"
    for a, b in zip(originals, pythons):
        found = differences(a, b)
        if found:
            return f"game {a.game}, line {a.line}: {len(found)} cells, {found[0]}"
    return None


@click.command()
@click.option("--count", type=click.IntRange(min=1), default=24, show_default=True)
@click.option("--seed", type=int, default=1612, show_default=True)
@click.option("--seconds", type=click.FloatRange(min=1), default=30.0, show_default=True)
@click.option("--demo", is_flag=True, help="The computer plays (else scripted players random:i).")
@click.option("--disk", default="1612", show_default=True)
def main(count: int, seed: int, seconds: float, demo: bool, disk: str) -> None:
    cases = sweep.demo_cases(count, seed=seed, seconds=seconds)
    if not demo:
        cases = sweep.with_human(cases)
    equal = tables = 0
    worst: list[int] = []
    for case in cases:
        settings = case.settings()
        places: list = []
        try:
            events, originals = original_screens(settings, disk=disk, places=places)
        except (TraceFailure, *user_errors()) as exc:
            raise click.ClickException(str(exc)) from None
        game, pythons = python_screens(settings, frames(events))
        found = first_difference(originals, pythons)
        equal += found is None
        tables += sum(1 for s in originals if s.line == 1670)
        ends = end_errors(places, [(line, t) for line, t, _, _ in game.place_log])
        worst += ends
        click.echo(f"{sweep.options(case)}: {found or 'equal'} ({len(originals)} screens; "
                   f"game ends within {max(ends, default=0)} instructions)")
    click.echo(f"{equal} of {count} sessions equal at every point; {tables} tables; "
               f"{sum(w <= 100 for w in worst)} of {len(worst)} game ends within 100 instructions "
               f"of the original's (the largest {max(worst, default=0)})")


if __name__ == "__main__":
    main()
