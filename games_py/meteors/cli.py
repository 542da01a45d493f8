"""Command lines: ``pcemu trace meteors`` / ``meteors-sweep`` (entry points in the
group ``pcemu.tracers``) and ``python -m games_py.meteors trace|play``.  Both
trace commands take the same options and write the same JSON Lines format
(docs/trace-format.md)."""
from __future__ import annotations

import json
import sys
import time as _time
from pathlib import Path

import click

from games_py.meteors import trace
from games_py.tracing import user_errors


def trace_options(function):
    options = [
        click.option("--time", "time_", default="12:00:00.00", show_default=True,
                     help="What the program reads at RANDOMIZE TIMER (HH:MM:SS.hh)."),
        click.option("--mono/--colour", "mono", default=None,
                     help="Run METEORS /M or /C (default: neither; the CGA card means colour)."),
        click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True,
                     help="off: F1 at PRESS ANY KEY TO START."),
        click.option("--demo", is_flag=True, help="F2 at PRESS ANY KEY TO START: the computer plays."),
        click.option("--human", default=None, metavar="POLICY",
                     help="A scripted player: simple, or random:SEED."),
        click.option("--keys", default=None, metavar="SCRIPT",
                     help="pcemu trace meteors only: a key script (pcemu.keys: text, {KP4}, {TICKS:n}...) "
                          "typed once the first game runs."),
        click.option("--seconds", type=click.FloatRange(min=0.1), default=120.0, show_default=True,
                     help="Virtual time to trace after the first game starts (the original only)."),
        click.option("--frames", type=click.IntRange(min=1), default=None,
                     help="Or stop after this many frames (both sides; the Python game needs it)."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
                     help="Where the JSON Lines go ('-' for standard output)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def settings_from(opts: dict) -> trace.Settings:
    try:
        time = trace.parse_time(opts["time_"])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--time") from None
    human = opts["human"]
    if human is not None:
        from games_py.meteors.human import policy_from
        try:
            policy_from(human)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--human") from None
        if opts["demo"]:
            raise click.UsageError("--demo and --human are two ways of playing: choose one")
    colour = None if opts["mono"] is None else not opts["mono"]
    keys = opts["keys"]
    if keys is not None:
        from pcemu.keys import parse_script
        try:
            parse_script(keys)
        except Exception as exc:           # noqa: BLE001 - the parser's complaint, in one line
            raise click.BadParameter(str(exc), param_hint="--keys") from None
    return trace.Settings(time=time, colour_switch=colour, sound=opts["sound"] == "on",
                          demo=opts["demo"], human=human, seconds=opts["seconds"], frames=opts["frames"],
                          keys=keys)


def write_events(events: list[dict], output: Path) -> None:
    text = "".join(json.dumps(e) + "\n" for e in events)
    if str(output) == "-":
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror}") from None


@click.command("meteors")
@trace_options
@click.option("--disk", default="1612", show_default=True,
              help="The disk with METEORS.EXE: a catalogue name or an image file.")
def trace_command(disk: str, **opts) -> None:
    """Run the unmodified METEORS.EXE in the exact machine and write its events."""
    from games_py.meteors.original import trace_original
    settings = settings_from(opts)
    try:
        events = trace_original(settings, disk)
    except user_errors() as exc:
        raise click.ClickException(str(exc)) from None
    write_events(events, opts["output"])


@click.command("meteors-sweep")
@click.option("--count", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many start times, spread over the day.")
@click.option("--seconds", type=click.FloatRange(min=1), default=120.0, show_default=True,
              help="Virtual time each session is traced after its first game starts.")
@click.option("--seed", type=int, default=1612, show_default=True)
@click.option("--human", type=click.Choice(["simple", "random"]), default=None,
              help="Scripted players instead of demo mode (random: case i gets random:i).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Parallel processes.")
@click.option("--disk", default="1612", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write one JSON line per session here, as each result comes.")
@click.option("--backend", type=click.Choice(["local", "dask", "ray", "auto"]), default="local",
              show_default=True)
@click.option("--address", default=None, help="The Ray or Dask scheduler.")
def sweep_command(count: int, seconds: float, seed: int, human: str | None, jobs: int | None,
                  disk: str, output: Path | None, backend: str, address: str | None) -> None:
    """Compare the original with the Python game, frame for frame, over COUNT sessions
    (start times spread over the day; /C and /M, sound on and off alternate).
    Exit status 1 if any differs; each mismatch is printed with its first divergence."""
    from games_py.meteors.sweep import demo_cases, run_sweep, with_human
    from games_py.trace_sweep import run_with_progress
    started = _time.monotonic()
    cases = demo_cases(count, seed, seconds)
    if human is not None:
        cases = with_human(cases, human)
    results = run_with_progress(
        lambda keep: run_sweep(cases, jobs=jobs, disk=disk, progress=keep, backend=backend, address=address),
        len(cases), output)
    equal = sum(r.equal for r in results)
    click.echo(f"{equal} of {len(results)} sessions equal frame for frame "
               f"({sum(r.frames for r in results)} frames, {sum(r.levels for r in results)} level changes, "
               f"{sum(r.games_over for r in results)} games over, {sum(r.hits for r in results)} hits; "
               f"{_time.monotonic() - started:.0f} s)")
    reseeds = [r for r in results if r.at_reseed]
    if reseeds:
        click.echo(f"{len(reseeds)} more equal up to something the Python game does not follow "
                   f"(its trace's unmodelled event); frames equal in all: {sum(r.frames_equal for r in results)} of "
                   f"{sum(r.frames for r in results)}, over {sum(r.games for r in results)} games")
    for r in results:
        if not r.equal:
            click.echo(f"  differs: {r.options}: {r.detail} (after {r.frames_equal} equal frames)")
    if equal != len(results):
        sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Tommy's Meteors in Python."""


@main.command("trace")
@trace_options
def python_trace_command(**opts) -> None:
    """Play a session in Python and write its events (the format of ``pcemu trace meteors``).
    It stops after --frames frames (default: 2400, about two minutes of the original)."""
    from games_py.meteors.compare import python_trace
    settings = settings_from(opts)
    if settings.keys is not None:
        raise click.UsageError("--keys is for the original: when typed keys act depends on time, "
                               "which the Python game does not model; use --human POLICY")
    write_events(python_trace(settings, settings.frames or 2400), opts["output"])


@main.command("play")
@click.argument("switches", nargs=-1)
@click.option("--disk", default="1612", show_default=True,
              help="Where F5 finds METEORS.DOC (a catalogue name or an image); the game itself needs no disk.")
def play_command(switches: tuple[str, ...], disk: str) -> None:
    """Play Tommy's Meteors in this terminal.  SWITCHES: /M (monochrome) or /C (colour),
    as on the original's command line."""
    from games_py.meteors.terminal import play
    upper = [s.upper() for s in switches]
    unknown = [s for s in upper if s not in ("/M", "/C")]
    if unknown:
        raise click.UsageError(f"the switches are /M and /C, not {' '.join(unknown)}")
    colour = False if "/M" in upper else True
    play(trace.Settings(colour_switch=colour, demo=False), disk)


if __name__ == "__main__":
    main()
