"""The first deal of the original against the Python game's, over many start times.

``sweep_times`` spreads N start times over the day (slot i of N gets a time
chosen inside it with a seeded generator; the first slot starts exactly at
midnight and the last ends at 23:59:59.99, the two times where TIMER's
arithmetic is special) and cycles through the three variants and both sound
settings (and, if asked, colour and mono displays).  ``run_sweep`` runs the original to its first deal for each, in
parallel processes, and compares the start and deal events with the Python
game's.  ``sweep_command`` is ``pcemu trace ginrummy-sweep`` (a ``pcemu.tracers``
entry point); the differential tests call the functions.
"""
from __future__ import annotations

import sys
from time import monotonic
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

import click

from games_py.ginrummy import game, rules
from games_py.trace_sweep import DAY_HUNDREDTHS, time_of  # noqa: F401 - the day, as tests read it here
from games_py.trace_sweep import run_counted, run_with_progress, start_times

SOUNDS = (True, False)


@dataclass(frozen=True)
class Case:
    time: tuple[int, int, int, int]
    variant: str
    sound: bool
    colour: bool = True
    human: str | None = None        # a scripted player for your hand; None: demo mode
    open_hands: bool = False

    def settings(self) -> game.Settings:
        return game.Settings(time=self.time, variant=self.variant, sound=self.sound,
                             demo=self.human is None, colour=self.colour, human=self.human,
                             open_hands=self.open_hands)


@dataclass
class Result:
    time: str
    variant: str
    sound: str
    display: str
    equal: bool
    detail: str = ""
    human: str = ""
    faults: bool = False            # equal, and both traces end where the original faults
    seen: dict[str, int] = field(default_factory=dict)   # situations(...) of an equal game
    open_hands: bool = False

    def options(self) -> str:
        """The trace commands' options that re-run this start time."""
        return (f"--time {self.time} --variant {self.variant} --sound {self.sound} "
                f"--display {self.display}" + (" --open-hands" if self.open_hands else "")
                + (f" --human {self.human}" if self.human else ""))

    def as_dict(self) -> dict:
        return asdict(self)


def with_human(cases: Sequence[Case], policy: str) -> list[Case]:
    """The cases played by a scripted human: ``simple``, or ``random`` (case i gets
    ``random:i``, so each game is seeded differently and any can be re-run alone)."""
    if policy not in ("simple", "random"):
        raise ValueError(f"the sweep's human policies are simple and random, not {policy!r}")
    return [replace(c, human="simple" if policy == "simple" else f"random:{i}")
            for i, c in enumerate(cases)]


def sweep_times(count: int, seed: int = 1612, displays: Sequence[bool] = (True,)) -> list[Case]:
    """``count`` cases; ``displays`` lists the colour settings to cycle through (True:
    colour), after the variants and the sounds."""
    return [Case(time, rules.VARIANTS[i % 3], SOUNDS[(i // 3) % 2], displays[(i // 6) % len(displays)])
            for i, time in enumerate(start_times(count, seed))]


def check_case(case: Case, disk: str = "1612") -> Result:
    """Run the original to its first deal and compare with the Python game's."""
    from pcemu.trace.diff import describe, first_divergence
    from games_py.ginrummy.original import trace_original
    settings = case.settings()
    original = trace_original(settings, hands=0, disk=disk)
    python = game.python_trace(settings, hands=0)
    found = first_divergence(original, python, only=("start", "deal"))
    return _result(case, found is None, "" if found is None else describe(found, "original", "python"))


# a game to 100 points takes a handful of hands; this only bounds a runaway trace
MAX_HANDS_PER_GAME = 60


def situations(events: Sequence[dict]) -> Counter:
    """The rules' corner cases a trace went through, counted, so a sweep can say what its
    equal games covered (docs/trace-format.md names the events)."""
    seen: Counter = Counter()
    last: dict[str, str] = {}                 # each player's last draw/discard event
    for e in events:
        kind, player = e["event"], e.get("player")
        if kind in ("knock", "gin"):
            seen[f"{kind} by {player}"] += 1
            if last.get(player) == "draw":    # all eleven cards matched: no discard asked
                seen[f"{kind} with eleven cards by {player}"] += 1
        elif kind == "hand_end":
            seen["hands"] += 1
            if e["result"] == "undercut":
                seen[f"undercut of a knock by {e['knocker']}"] += 1
        elif kind in ("knock_declined", "layoff", "dead_hand", "fault"):
            seen[kind.replace("_", " ")] += 1
            if e.get("phantom_straight"):
                seen["lay-off on a phantom straight"] += 1
        elif kind == "rearranged":
            seen["rearranged"] += 1
            if e.get("left_out"):
                seen["card left out"] += 1
        elif kind == "game_end" and e["shutout"]:
            seen["shutout"] += 1
        if kind in ("draw", "discard"):
            last[player] = kind
    return seen


def _first_game(events: list[dict]) -> list[dict]:
    ends = [i for i, e in enumerate(events) if e["event"] == "game_end"]
    return events[:ends[0] + 1] if ends else events


def _trace_or_failure(make_trace: Callable[[], list[dict]]) -> tuple[list[dict], str]:
    """The events, or the events so far (none) and why the trace stopped."""
    from games_py.ginrummy.computer import UnmodelledMemory, UnshownMeld
    from games_py.ginrummy.original import TraceFailure
    try:
        return make_trace(), ""
    except (TraceFailure, UnshownMeld, UnmodelledMemory) as exc:
        return [], str(exc)


def check_game(case: Case, disk: str = "1612") -> Result:
    """Trace the whole first game in demo mode (or with the case's scripted human) on
    both sides and compare every event.
    A trace that cannot go on (the same known limit on both sides, say) is reported,
    never counted as equal; two traces that end with the same ``fault`` (the original
    goes wrong there, docs/trace-format.md) are equal, and marked ``faults``."""
    from pcemu.trace.diff import describe, first_divergence
    from games_py.ginrummy.original import trace_original
    settings = case.settings()
    original, stopped = _trace_or_failure(
        lambda: trace_original(settings, hands=MAX_HANDS_PER_GAME, disk=disk, first_game=True))
    python, python_stopped = _trace_or_failure(
        lambda: _first_game(game.python_trace(settings, MAX_HANDS_PER_GAME)))
    def result(equal: bool, detail: str, **more) -> Result:
        return _result(case, equal, detail, **more)
    if stopped or python_stopped:
        return result(False, f"trace stopped: original: {stopped or 'no'}; "
                             f"python: {python_stopped or 'no'}")
    found = first_divergence(original, python)
    seen = dict(situations(original)) if found is None else {}
    if found is None and original[-1]["event"] == "fault":
        return result(True, f"equal, original faults: {original[-1]['reason']}", faults=True, seen=seen)
    if found is None and original[-1]["event"] != "game_end":
        return result(False, f"the first game did not end within {MAX_HANDS_PER_GAME} hands")
    return result(found is None, "" if found is None else describe(found, "original", "python"), seen=seen)


def _result(case: Case, equal: bool, detail: str, **more) -> Result:
    return Result(game.format_time(case.time), case.variant, "on" if case.sound else "off",
                  "colour" if case.colour else "mono", equal, detail, case.human or "",
                  open_hands=case.open_hands, **more)


def _check(args: tuple[Case, str, bool]) -> Result:
    case, disk, whole_game = args
    return check_game(case, disk) if whole_game else check_case(case, disk)


def run_sweep(cases: Sequence[Case], *, jobs: int | None = None, disk: str = "1612",
              progress: Callable[[int, Result], None] | None = None,
              whole_games: bool = False, backend: str = "local",
              address: str | None = None) -> list[Result]:
    """Check every case (the first deal, or with ``whole_games`` the whole first demo game),
    ``jobs`` processes at a time on this machine, or on a Ray or Dask cluster
    (``backend``, ``address``: pcemu.sweep); results in the order of ``cases``.
    ``progress`` hears of each result as it comes (with how many are done), so a caller
    can keep it at once."""
    work = [(case, disk, whole_games) for case in cases]
    return run_counted(_check, work, jobs=jobs, backend=backend, address=address, progress=progress)


@click.command("ginrummy-sweep")
@click.option("--count", type=click.IntRange(min=1), default=500, show_default=True,
              help="How many start times, spread over the day.")
@click.option("--seed", type=int, default=1612, show_default=True,
              help="Seed of the hundredths and offsets chosen inside each slot of the day.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Parallel processes (default: one per CPU).")
@click.option("--display", "display", type=click.Choice(["colour", "mono", "both"]), default="colour",
              show_default=True, help="The display adapter; both: alternate colour and mono.")
@click.option("--whole-games", is_flag=True,
              help="Compare every event of the whole first demo game, not only the first deal "
                   "(a few minutes of wall time per start time).")
@click.option("--human", type=click.Choice(["simple", "random"]), default=None,
              help="With --whole-games: a scripted player plays your hand instead of demo mode "
                   "(random: start time i of the sweep gets --human random:i).")
@click.option("--open-hands", is_flag=True, help="Answer Y to OPEN HANDS? in every game.")
@click.option("--disk", default="1612", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write one JSON line per start time here, as each result comes.")
@click.option("--backend", type=click.Choice(["local", "dask", "ray", "auto"]), default="local",
              show_default=True,
              help="Where the runs go: this machine's cores, a Dask or Ray cluster (pcemu[dask], "
                   "pcemu[ray]), or auto (a cluster this process is connected to, else local).")
@click.option("--address", default=None,
              help="The cluster's scheduler, e.g. tcp://host:8786 (Dask) or host:6379 (Ray).")
def sweep_command(count: int, seed: int, jobs: int | None, display: str, whole_games: bool,
                  human: str | None, open_hands: bool, disk: str, output: Path | None, backend: str,
                  address: str | None) -> None:
    """Compare the original's first deal (or, with --whole-games, its whole first
    demo game) with the Python game's over COUNT start times.

    The times are spread evenly over the day, cycling through the three
    variants and both sound settings (and the displays asked for); exit status
    1 if any differs.  Each mismatch is printed with its first divergence."""
    started = monotonic()
    displays = {"colour": (True,), "mono": (False,), "both": (True, False)}[display]
    cases = sweep_times(count, seed, displays)
    if human is not None:
        if not whole_games:
            raise click.UsageError("--human needs --whole-games (the first deal does not depend on it)")
        cases = with_human(cases, human)
    if open_hands:
        cases = [replace(c, open_hands=True) for c in cases]
    results = run_with_progress(
        lambda keep: run_sweep(cases, jobs=jobs, disk=disk, whole_games=whole_games, progress=keep,
                               backend=backend, address=address), len(cases), output)
    equal = sum(r.equal for r in results)
    combos = sorted({(r.variant, r.sound, r.display) for r in results})
    what = (f"whole first games (--human {human})" if human else "whole first demo games") \
        if whole_games else "first deals"
    faults = sum(r.faults for r in results)
    click.echo(f"{equal} of {len(results)} {what} equal"
               + (f", {faults} of them up to where the original faults" if faults else "")
               + f" ({len(combos)} variant/sound/display combinations, {monotonic() - started:.0f} s)")
    seen = sum((Counter(r.seen) for r in results), Counter())
    if seen:
        click.echo("the equal games went through: "
                   + ", ".join(f"{what} {count}" for what, count in sorted(seen.items())))
    for r in results:
        if r.faults:
            click.echo(f"  equal, original faults: {r.options()}")
        if not r.equal:
            click.echo(f"  differs: {r.options()}: {r.detail}")
    if equal != len(results):
        sys.exit(1)


if __name__ == "__main__":           # python -m games_py.ginrummy.original_sweep [OPTIONS]
    sweep_command()
