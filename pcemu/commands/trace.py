"""``pcemu trace``: run an original program in the machine and write what it does.

``pcemu trace ginrummy`` takes the options of ``python -m games_py.ginrummy
trace`` (one definition, games_py.ginrummy.cli.trace_options) and writes the
same format, so the two traces can be compared with ``pcemu diff``.
``pcemu trace ginrummy-sweep`` compares the first deals of both over many
start times.
"""
from __future__ import annotations

import sys
import time as _time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import click

from games_py.ginrummy.cli import check_output, settings_from, trace_options, write_events


def _user_errors() -> tuple[type[BaseException], ...]:
    from disks.catalog import DiskError
    from pcemu.errors import PcemuError
    from pcemu.storage.errors import MountError
    return (PcemuError, DiskError, MountError)


@click.group("trace", context_settings={"help_option_names": ["-h", "--help"]})
def trace() -> None:
    """Trace an original program running in the machine."""


@trace.command("ginrummy")
@trace_options
@click.option("--disk", default="1612", show_default=True,
              help="The disk with GINRUMMY.EXE: a catalogue name or an image file.")
def ginrummy(disk: str, **opts) -> None:
    """Run the unmodified GINRUMMY.EXE and write its events (JSON Lines).

    --time is what the program reads when it seeds RND (RANDOMIZE TIMER): the
    machine's clock is set to it just before that read.  With --human POLICY the
    policy's answers to your prompts are typed as keys; without --demo or --human
    nobody plays your hand, so the trace ends after the first deal."""
    from pcemu.trace.ginrummy import trace_original
    settings = settings_from(opts)
    check_output(opts["output"])
    try:
        events = trace_original(settings, hands=opts["hands"], disk=disk)
    except _user_errors() as exc:
        raise click.ClickException(str(exc)) from None
    write_events(events, opts["output"])


@trace.command("ginrummy-sweep")
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
def ginrummy_sweep(count: int, seed: int, jobs: int | None, display: str, whole_games: bool,
                   human: str | None, open_hands: bool, disk: str, output: Path | None, backend: str,
                   address: str | None) -> None:
    """Compare the original's first deal (or, with --whole-games, its whole first
    demo game) with the Python game's over COUNT start times.

    The times are spread evenly over the day, cycling through the three
    variants and both sound settings (and the displays asked for); exit status
    1 if any differs.  Each mismatch is printed with its first divergence."""
    from pcemu.sweep import SweepError
    from pcemu.trace.sweep import run_sweep, sweep_times, with_human
    started = _time.monotonic()
    displays = {"colour": (True,), "mono": (False,), "both": (True, False)}[display]
    cases = sweep_times(count, seed, displays)
    if human is not None:
        if not whole_games:
            raise click.UsageError("--human needs --whole-games (the first deal does not depend on it)")
        cases = with_human(cases, human)
    if open_hands:
        cases = [replace(c, open_hands=True) for c in cases]
    import json
    # Each result line is written as it comes, so a sweep cut short keeps what it measured.
    handle = open(output, "w", encoding="utf-8") if output is not None else None

    def keep(done: int, result) -> None:
        click.echo(f"\r{done}/{len(cases)}", nl=False, err=True)
        if handle is not None:
            handle.write(json.dumps(result.as_dict()) + "\n")
            handle.flush()
    try:
        results = run_sweep(cases, jobs=jobs, disk=disk, whole_games=whole_games, progress=keep,
                            backend=backend, address=address)
    except SweepError as exc:
        raise click.ClickException(str(exc)) from None
    except _user_errors() as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        if handle is not None:
            handle.close()
    click.echo("", err=True)
    equal = sum(r.equal for r in results)
    combos = sorted({(r.variant, r.sound, r.display) for r in results})
    what = (f"whole first games (--human {human})" if human else "whole first demo games") \
        if whole_games else "first deals"
    faults = sum(r.faults for r in results)
    click.echo(f"{equal} of {len(results)} {what} equal"
               + (f", {faults} of them up to where the original faults" if faults else "")
               + f" ({len(combos)} variant/sound/display combinations, {_time.monotonic() - started:.0f} s)")
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
