"""``pcemu report SOURCE``: what a program used, how often and where first; the files it touched.

SOURCE is a trace written with ``--trace`` (summarised as it is), a recorded
session (replayed with a full trace), or a disk, with the program to run and
its keys as for ``pcemu run``.  ``--only`` picks sections.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from pcemu.archive.cli_support import session_to_replay
from pcemu.cli import (
    _build_machine, _check_outputs, _fail, _finish, _overlay_notice, _user_errors, machine_options,
)


def source_kind(source: str) -> str:
    """'session', 'trace' or 'disk' (a catalogue name, an image or a folder)."""
    path = Path(source)
    if not path.is_file():
        return "disk"
    with open(path, "rb") as f:
        head = f.read(512)
    if head[:2] == b"\x1f\x8b" or head.lstrip().startswith(b'{"format":"pcemu-session"'):
        return "session"
    first = head.split(b"\n", 1)[0]
    try:
        record = json.loads(first)
    except ValueError:
        return "disk"
    return "trace" if isinstance(record, dict) and "cat" in record else "disk"


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("source")
@click.argument("program", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("--only", default=None, metavar="SECTIONS",
              help="Comma-separated: programs,services,interrupts,ports,video,sound,keys,files,"
                   "changes,unimplemented.")
@click.option("--until", default=None, help="Run until this text is on screen (disk sources).")
@click.option("--categories", default="all",
              help="What to trace for a live run or a session (default all).")
@machine_options
def report(source: str, program: str | None, args: tuple[str, ...], only: str | None,
           until: str | None, categories: str, **opts) -> None:
    """Summarise a trace, a session or a run of PROGRAM on a disk: services with counts and
    first use, interrupts, ports, video, sound, keys, files touched, disk changes, gaps."""
    from pcemu.archive.report import SECTIONS, ReportError, Summary, summarise_file
    from pcemu.archive.session import Replayer, SessionError
    from pcemu.archive.session_checks import SessionCheckError
    from pcemu.archive.tracer import Tracer, TraceError
    sections = SECTIONS
    if only:
        sections = tuple(s.strip().lower() for s in only.split(",") if s.strip())
        unknown = [s for s in sections if s not in SECTIONS]
        if unknown:
            raise _fail(f"unknown section {', '.join(unknown)}: choose from {', '.join(SECTIONS)}")
    kind = source_kind(source)
    _check_outputs(opts)                    # --save-disk, --screenshot ... before the run
    try:
        if kind == "trace":
            summary = summarise_file(source)
        else:
            summary = Summary()
            tracers: list[Tracer] = []

            def attach(machine) -> None:
                tracers.append(Tracer(machine, categories, sinks=[summary.add]))

            if kind == "session":
                result = Replayer(session_to_replay(source, opts), attach=attach).run()
                if result.machine is None:
                    raise _fail(f"the session can't be replayed: {result.first.message}")
                if not result.matches:
                    click.echo(f"pcemu: warning: the replay diverged ({result.first.message}); "
                               "the report is of the replay", err=True)
                _overlay_notice(result.machine, opts)
            else:
                from pcemu.archive.cli_support import run_script, start_program
                machine = _build_machine(source, opts)
                attach(machine)
                start_program(machine, program, args)
                run_script(machine, opts["keys"], opts["ticks"], program, until)
                _finish(machine, opts)              # --print-screen, --screenshot, --save-disk
            tracers[0].close()
    except (ReportError, SessionError, TraceError, SessionCheckError) + _user_errors() as err:
        raise _fail(str(err))
    click.echo(summary.text(sections))
