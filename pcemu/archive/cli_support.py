"""What the archivists' commands share: tracing options, running a program to its end.

``attach_trace`` is called by ``pcemu boot``/``run`` (and ``replay``) for
``--trace``; the trace file is closed when the run finishes, and also if the
run stops with an error, so a trace always ends with its ``end`` record.
"""
from __future__ import annotations

import atexit
import sys
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pcemu.archive.tracer import Tracer, parse_categories

if TYPE_CHECKING:
    from pcemu.machine import Machine

DEFAULT_TRACE_FILE = "pcemu-trace.jsonl"
DEFAULT_TRACE_LIMIT_MB = 1024
RUN_LIMIT_TICKS = 18.2065 * 600           # a program that never ends is stopped after 10 minutes

_open_tracers: list[Tracer] = []
_machine_tracers: "weakref.WeakKeyDictionary[Machine, Tracer]" = weakref.WeakKeyDictionary()


def trace_options(function):
    """--trace CATEGORIES and --trace-out FILE (for boot, run and replay)."""
    function = click.option("--trace-limit", type=click.IntRange(min=1), default=DEFAULT_TRACE_LIMIT_MB,
                            show_default=True, metavar="MB",
                            help="The most --trace writes; the trace ends with a 'truncated' "
                                 "record there.")(function)
    function = click.option("--trace-out", type=click.Path(dir_okay=False, path_type=Path),
                            default=None, help=f"Where --trace writes (default {DEFAULT_TRACE_FILE}).")(function)
    function = click.option("--trace", "trace", default=None, metavar="CATEGORIES",
                            help="Write a JSON Lines trace: int,dos,bios,port,video,sound,keys,files "
                                 "or all.")(function)
    return function


def attach_trace(machine: "Machine", opts: dict) -> Tracer | None:
    """Start the trace ``opts`` ask for; None when they ask for none."""
    if not opts.get("trace"):
        return None
    categories = parse_categories(opts["trace"])
    path = Path(opts.get("trace_out") or DEFAULT_TRACE_FILE)
    try:
        out = open(path, "w", encoding="utf-8")
    except OSError as exc:
        from pcemu.archive.tracer import TraceError
        raise TraceError(f"cannot write the trace {path}: {exc.strerror or exc}") from None
    limit = opts.get("trace_limit") or DEFAULT_TRACE_LIMIT_MB
    tracer = Tracer(machine, categories, out=out, max_bytes=limit * 1024 * 1024)
    tracer.path = path
    _machine_tracers[machine] = tracer
    _open_tracers.append(tracer)
    return tracer


def close_trace(machine: "Machine") -> None:
    tracer = _machine_tracers.pop(machine, None)
    if tracer is not None:
        try:
            _close(tracer)
        except OSError as exc:
            tracer.problem = tracer.problem or f"cannot write the trace: {exc.strerror or exc}"
        if tracer.problem is None:
            click.echo(f"trace written to {tracer.path}", err=True)
        elif tracer.problem.startswith("the trace reached"):
            click.echo(f"pcemu: warning: {tracer.path}: {tracer.problem}", err=True)
        else:
            from pcemu.archive.tracer import TraceError
            raise TraceError(f"{tracer.path}: {tracer.problem}")


def _close(tracer: Tracer) -> None:
    if tracer in _open_tracers:
        _open_tracers.remove(tracer)
    tracer.close()
    if tracer.out is not None and tracer.out is not sys.stdout:
        tracer.out.close()


@atexit.register
def _close_all() -> None:
    for tracer in list(_open_tracers):
        try:
            _close(tracer)
        except Exception:            # the machine may be half-stopped: keep what was written
            pass


def start_program(machine: "Machine", program: str | None, args: tuple[str, ...] = ()) -> None:
    """Type the program's name at the DOS prompt, as ``pcemu run`` does."""
    if program:
        machine.type(" ".join((program,) + tuple(args)) + "{ENTER}")


def run_script(machine: "Machine", keys: str, ticks: float | None, program: str | None,
               until: str | None = None) -> None:
    """The keys, then ``ticks`` of time; with neither (and a program), until it ends;
    with ``until``, until that text is on screen."""
    shell = machine.dos.shell
    if keys:
        machine.type(keys)
    if until:
        machine.run_until(text=until, max_ticks=ticks if ticks is not None else RUN_LIMIT_TICKS)
        return
    if ticks:
        machine.run(ticks)
    elif program and not keys:
        # start_program typed the program as the first line after boot: done when the prompt
        # is back (a program, a batch file or a built-in alike)
        machine.run_until(condition=lambda m: shell.back_at_prompt(0),
                          max_ticks=RUN_LIMIT_TICKS, text=f"{program} to end")


def disk_argument(disk: str) -> str:
    """How the CLI names the disk for ``Machine`` (B: unless a letter is given)."""
    return disk if len(disk) > 2 and disk[1] == ":" else f"B:{disk}"


def session_to_replay(source: str, opts: dict):
    """A session file to replay: bounded, and its host folders only those named with --host-dir."""
    from pcemu.archive.session_checks import prepare_replay
    session, changed = prepare_replay(source, opts.get("host_dir", ()),
                                      writes=bool(opts.get("host_dir_writes")))
    for divergence in changed:
        click.echo(f"pcemu: warning: {divergence.message}", err=True)
    return session
