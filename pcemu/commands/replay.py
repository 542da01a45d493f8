"""``pcemu replay run.session``: run a recorded session again and say whether it still matches.

The disks are found as when recorded (a catalogue name is looked up again; a
path is used as it was) or given with ``--disk B:PATH``; their hashes must
match.  Every input is sent at the instruction count it was recorded at, and
the screen is compared before each input and at the end.  The exit status is
0 when everything matched, 1 at the first divergence (which is described).

A host folder the session mounted is never taken from the session file: the
user names it with ``--host-dir X:FOLDER`` (see docs/security.md), and only the
files the recording listed are read to compare it.  The replayed program changes a
private copy of the folder unless ``--host-dir-writes`` is given.
"""
from __future__ import annotations

from pathlib import Path

import click

from pcemu.archive.cli_support import attach_trace, close_trace, trace_options
from pcemu.cli import _fail, _user_errors


@click.command()
@click.argument("session_file", metavar="SESSION", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--disk", "disks", multiple=True, metavar="X:PATH",
              help="Use this image for drive X: (repeatable).")
@click.option("--host-dir", "host_dirs", multiple=True, metavar="X:FOLDER",
              help="The host folder for drive X: if the session mounted one (repeatable).")
@click.option("--host-dir-writes", is_flag=True,
              help="Let the replayed program write the host folders themselves (by default it "
                   "changes a private copy).")
@click.option("--window", is_flag=True, help="Show the replay in a window, at the recorded pace.")
@click.option("--speed", type=float, default=1.0, help="With --window: times the recorded pace.")
@click.option("--keep-going", is_flag=True, help="Report every divergence, not only the first.")
@click.option("--force", is_flag=True, help="Replay even when a disk differs from the recorded one.")
@click.option("--print-screen", is_flag=True, help="Print the text screen at the end.")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save a PNG of the final screen.")
@trace_options
def replay(session_file: Path, disks: tuple[str, ...], host_dirs: tuple[str, ...],
           host_dir_writes: bool, window: bool,
           speed: float, keep_going: bool, force: bool, print_screen: bool, screenshot: Path | None, **opts) -> None:
    """Replay SESSION exactly; report the first divergence if a disk or the emulator changed."""
    from pcemu.archive.session import Replayer, SessionError
    from pcemu.archive.session_checks import SessionCheckError, prepare_replay
    overrides = {}
    for spec in disks:
        letter, sep, path = spec.partition(":")
        if not sep or len(letter) != 1 or not path:
            raise _fail(f"--disk wants X:PATH, not {spec!r}")
        overrides[letter.upper()] = path
    from pcemu.cli import check_output_path
    for path, what in ((screenshot, "--screenshot"), (opts.get("trace_out"), "--trace-out")):
        if path is not None:
            check_output_path(path, force=True, what=what)
    try:
        session, changed = prepare_replay(session_file, host_dirs, overrides,
                                          writes=host_dir_writes)
        if changed and not force:
            for divergence in changed if keep_going else changed[:1]:
                click.echo(f"divergence ({divergence.what}): {divergence.message}")
            raise click.exceptions.Exit(1)
        between = None
        if window:
            from pcemu.archive.viewer import ReplayViewer
            between = ReplayViewer(speed=speed, title=f"pcemu replay {session_file.name}").after_step
        replayer = Replayer(session, disks=overrides, keep_going=keep_going, force=force,
                            attach=lambda m: attach_trace(m, opts), between_steps=between)
        replayer.result.divergences[:0] = changed
        result = replayer.run()
        machine = result.machine
        if machine is not None:
            close_trace(machine)
            if print_screen:
                click.echo(machine.screen_text())
            if screenshot is not None:
                from pcemu.frontend.display import save_screenshot   # (pygame: when asked)
                save_screenshot(machine, Path(screenshot))
    except (SessionError, SessionCheckError) + _user_errors() as err:
        raise _fail(str(err))
    except OSError as err:
        raise _fail(f"{err.filename or 'replay'}: {err.strerror or err}")
    from pcemu.cli import overlay_notice
    notice = overlay_notice(result.machine)
    if notice:
        click.echo(f"pcemu: {notice}", err=True)
    ips = session.profile["ips"]
    for note in result.notes:
        click.echo(f"note ({note.what}): {note.describe(ips)}")
    if result.matches:
        click.echo(f"replayed {result.events_replayed} events, {result.inputs_checked} inputs checked, "
                   f"{session.end['t'] / ips:.1f} s of virtual time: every screen matches the recording")
        return
    for divergence in result.failures if keep_going else result.failures[:1]:
        click.echo(f"divergence ({divergence.what}): {divergence.describe(ips)}")
    raise click.exceptions.Exit(1)
