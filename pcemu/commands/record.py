"""``pcemu record DISK [PROGRAM [ARGS]] -o run.session``: a run anyone can replay exactly.

Takes the options of ``pcemu run``.  With ``--headless`` the keys and ticks
are recorded (and, with neither, the program runs to its end); otherwise the
window (or the terminal) opens after them and everything typed there is
recorded until it is closed.  The session is saved even when the run stops
with an error, up to that point.
"""
from __future__ import annotations

from pathlib import Path

import click

from pcemu.cli import (
    _build_machine, _check_outputs, _fail, _finish, _interactive, _user_errors, machine_options,
)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("disk")
@click.argument("program", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The session file to write (e.g. run.session).")
@machine_options
def record(disk: str, program: str | None, args: tuple[str, ...], output: Path, **opts) -> None:
    """Record a session: boot with DISK, run PROGRAM, save every input with its virtual time."""
    from pcemu.archive.cli_support import run_script, start_program
    from pcemu.archive.session import Recorder, SessionError
    _check_outputs(opts)
    try:
        machine = _build_machine(disk, opts)
        recorder = Recorder(machine)
        problem = None
        try:
            start_program(machine, program, args)
            if opts["headless"]:
                run_script(machine, opts["keys"], opts["ticks"], program)
            else:
                run_script(machine, opts["keys"], opts["ticks"], None)
                _interactive(machine, opts)
        except _user_errors() as err:
            problem = err
        session = recorder.finish()
        session.save(output)
        seconds = session.end["t"] / session.profile["ips"]
        click.echo(f"recorded {len(session.key_events)} key inputs over {seconds:.1f} s of virtual "
                   f"time to {output}", err=True)
        if problem is not None:
            from pcemu.cli import _after_failure, _describe
            from pcemu.errors import PcemuError
            raise _after_failure(machine, opts, PcemuError(
                f"{_describe(problem, machine)} (the session was saved up to this point)"))
        _finish(machine, opts)
    except (SessionError,) + _user_errors() as err:
        raise _fail(str(err))
