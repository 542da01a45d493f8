"""``pcemu filmstrip SOURCE -o DIR``: what a program showed, as pictures anyone can look at.

SOURCE is a recorded session (replayed and filmed) or a disk with the program
to run and its keys, as for ``pcemu run``.  DIR gets one PNG per settled
screen, ``film.gif`` and ``index.html`` (all frames with their virtual times).
"""
from __future__ import annotations

from pathlib import Path

import click

from pcemu.archive.cli_support import session_to_replay
from pcemu.cli import (
    _build_machine, _check_outputs, _fail, _finish, _overlay_notice, _user_errors, machine_options,
)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("source")
@click.argument("program", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the frames, film.gif and index.html.")
@click.option("--until", default=None, help="Stop when this text is on screen (disk sources).")
@click.option("--settle", type=float, default=0.3, show_default=True,
              help="Seconds (virtual) a changed screen must stay the same to become a frame.")
@click.option("--max-wait", type=float, default=3.0, show_default=True,
              help="Take a frame anyway after the screen has kept changing this long.")
@click.option("--ignore", "ignore", multiple=True, metavar="ROWS,COLUMNS",
              help="Leave this part of a text screen out of the comparison, e.g. 0-2,69-79 "
                   "for a clock (repeatable).")
@click.option("--max-frames", type=int, default=1000, show_default=True)
@machine_options
def filmstrip(source: str, program: str | None, args: tuple[str, ...], output: Path,
              until: str | None, settle: float, max_wait: float, ignore: tuple[str, ...],
              max_frames: int, **opts) -> None:
    """Film a run: the screen each time it settles, as PNG frames, an animated GIF and one HTML page."""
    from pcemu.archive.filmstrip import FilmError, FilmStrip, Region
    from pcemu.archive.session import Replayer, SessionError
    from pcemu.archive.session_checks import SessionCheckError
    from pcemu.commands.report import source_kind
    regions = [Region.parse(text) for text in ignore] if ignore else []
    _check_outputs(opts)                    # --save-disk, --screenshot ... before the run
    films: list[FilmStrip] = []

    def attach(machine) -> None:
        films.append(FilmStrip(machine, output, settle=settle, max_wait=max_wait, ignore=regions,
                               max_frames=max_frames, title=f"pcemu film strip: {title}"))

    try:
        if source_kind(source) == "session":
            title = Path(source).name
            result = Replayer(session_to_replay(source, opts), attach=attach).run()
            if result.machine is None:
                raise _fail(f"the session can't be replayed: {result.first.message}")
            if not result.matches:
                click.echo(f"pcemu: warning: the replay diverged ({result.first.message})", err=True)
            _overlay_notice(result.machine, opts)
        else:
            from pcemu.archive.cli_support import run_script, start_program
            title = " ".join(x for x in (source, program) + args if x)
            machine = _build_machine(source, opts)
            attach(machine)
            start_program(machine, program, args)
            run_script(machine, opts["keys"], opts["ticks"], program, until)
            _finish(machine, opts)
        frames = films[0].finish()
    except (FilmError, SessionError, SessionCheckError) + _user_errors() as err:
        raise _fail(str(err))
    note = "" if films[0].pictures.uses_renderer else " (plain text-cell renderings: " \
        + films[0].pictures.fallback_reason + ")"
    click.echo(f"{len(frames)} frames{note} in {output}: frame_*.png, film.gif, index.html")
