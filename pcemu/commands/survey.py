"""``pcemu survey``: run every program of a set of disks headless and report what runs.

    pcemu survey IMAGES_OR_FOLDERS... -o survey.jsonl
    pcemu survey --corpus corpus.tsv --truth dosbox.jsonl -o survey.jsonl --date 2026-11-25

The logic is in ``pcemu.survey``; this module reads the command line, checks every
input and output before anything runs and prints the progress and the summary.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from pcemu.cli import _fail, check_output_path
from pcemu.sweep import BACKENDS

MAX_SECONDS = 3600.0


def _moments(text: str) -> tuple[float, ...]:
    try:
        values = tuple(sorted({float(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise _fail(f"--at wants seconds separated by commas, such as 10,20, not {text!r}")
    if not values or any(not 0 < v <= MAX_SECONDS for v in values):
        raise _fail(f"--at: each moment must be above 0 and at most {MAX_SECONDS:g} seconds")
    return values


@click.command("survey")
@click.argument("sources", nargs=-1)
@click.option("--corpus", type=click.Path(path_type=Path), default=None,
              help="A corpus file: DISKNNNN<TAB>PROGRAM lines, images in images/ beside it.")
@click.option("--program", default=None,
              help="Run only this program (NAME.EXT) of each image, not every .COM/.EXE/.BAT.")
@click.option("--truth", type=click.Path(path_type=Path), default=None,
              help="DOSBox's screens (the corpus's dosbox.jsonl format): score each program.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The JSON Lines report (one record per program).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML page (default: the output's name with .html).")
@click.option("--at", "at", default="10,20", show_default=True,
              help="Seconds of virtual time after the program starts at which screens are taken.")
@click.option("--date", default=None, help="Start date, YYYY-MM-DD (default 1988-01-01).")
@click.option("--time", "time_", default=None, help="Start time, HH:MM:SS.hh (default 12:00).")
@click.option("--video", type=click.Choice(["cga", "mda", "hercules"]), default="cga",
              show_default=True, help="Video card.")
@click.option("--memory-limit", type=click.IntRange(min=150, max=65536), default=300,
              show_default=True, help="MB of address space each program's process may use.")
@click.option("--time-limit", type=click.FloatRange(min=1, max=86400), default=1200,
              show_default=True, help="Host seconds one program may take before it is stopped.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes at once (default: every core).")
@click.option("--backend", type=click.Choice(BACKENDS), default="auto", show_default=True,
              help="Where the runs go: local cores, or a Ray or Dask cluster.")
@click.option("--address", default=None, help="The Ray or Dask scheduler's address.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("-q", "--quiet", is_flag=True, help="No line per program while the survey runs.")
def survey(sources, corpus, program, truth, output, html_path, at, date, time_, video,
           memory_limit, time_limit, workers, backend, address, force, quiet) -> None:
    """Run every program of SOURCES (disk images, PCjs .json files, folders of them) or of a
    corpus file headless, for a fixed span of virtual time, and report what became of each:
    exited (with its code), waits for input, timed out, machine error, unimplemented service,
    with its screens and, given --truth, how its words compare with DOSBox's.
    """
    from pcemu.errors import MachineError
    from pcemu.machine import _parse_datetime
    from pcemu.survey.programs import CorpusError, tasks_for_corpus, tasks_for_sources
    from pcemu.survey.runner import Settings
    from pcemu.survey.score import TruthError, load_truth
    from pcemu.survey.survey import run_survey, summary

    if not sources and corpus is None:
        raise _fail("survey: name disk images, PCjs .json files or folders, or give --corpus")
    moments = _moments(at)
    try:
        _parse_datetime(date, time_)
    except MachineError as err:
        raise _fail(str(err))
    html_path = html_path if html_path is not None else output.with_suffix(".html")
    if html_path.resolve() == output.resolve():
        raise _fail("--html and --output name the same file")
    check_output_path(output, force=force, what="--output")
    check_output_path(html_path, force=force, what="--html")
    try:
        truth_screens = load_truth(truth) if truth is not None else None
        tasks = tasks_for_corpus(corpus) if corpus is not None else []
    except (TruthError, CorpusError) as err:
        raise _fail(str(err))
    tasks += tasks_for_sources(list(sources), program) if sources else []
    settings = Settings(times=moments, date=date, time=time_, video=video,
                        memory_mb=memory_limit, wall_limit=time_limit)

    def progress(record: dict) -> None:
        if quiet:
            return
        from pcemu.survey.outcome import describe
        verdict = record.get("verdict")
        share = record.get("share")
        score = f"; {verdict}" + (f" ({share:.0%})" if share is not None else "") if verdict else ""
        wall = record.get("wall_seconds")
        click.echo(f"{record['disk']} {record.get('program') or '-'}: "
                   f"{describe(record['outcome'], record)}{score}"
                   + (f" [{wall:.1f} s]" if wall is not None else ""), err=True)

    # the command line as typed, for the page (not when called from Python, e.g. by tests)
    command = "pcemu survey" + ("".join(f" {shlex.quote(a)}" for a in sys.argv[2:])
                                if sys.argv[1:2] == ["survey"] else "")
    from concurrent.futures.process import BrokenProcessPool

    from pcemu.sweep import SweepError
    try:
        records = run_survey(tasks, settings, jsonl=output, html_path=html_path,
                             truth=truth_screens, backend=backend, workers=workers,
                             address=address, command=command, progress=progress)
    except SweepError as err:
        raise _fail(str(err))
    except BrokenProcessPool as err:
        raise _fail(f"the survey's worker processes failed ({err}); the records so far are in "
                    f"{output}")
    except OSError as err:
        raise _fail(f"cannot write {err.filename or 'the report'}: {err.strerror or err}")
    click.echo(summary(records))
    click.echo(f"wrote {output} and {html_path}")
