"""``pcemu diff A.jsonl B.jsonl``: the first place two traces part.

Exit status 0 when the traces agree, 1 when they differ (the divergence is
printed with the events before it), 2 for a file that cannot be read.
"""
from __future__ import annotations

from pathlib import Path

import click

from games_py.ginrummy.trace import EVENTS, TraceError, read
from pcemu.trace.diff import describe, first_divergence

EXIT_DIFFERENT = 1
EXIT_BAD_INPUT = 2


@click.command("diff")
@click.argument("left", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("right", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--only", "only", multiple=True, metavar="EVENT",
              help=f"Compare only events of this type (repeatable): {', '.join(EVENTS)}.")
@click.option("--ignore", multiple=True, metavar="KEY",
              help="Leave this key out of the comparison (repeatable); source and format always are.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Compare only the first N events (after --only).")
@click.option("--context", type=click.IntRange(min=0), default=3, show_default=True,
              help="Equal events to show before the divergence.")
def diff(left: Path, right: Path, only: tuple[str, ...], ignore: tuple[str, ...],
         limit: int | None, context: int) -> None:
    """Compare two traces event by event and print the first divergence."""
    try:
        a, b = read(left), read(right)
    except TraceError as exc:
        click.echo(f"pcemu diff: {exc}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    unknown = [e for e in only if e not in EVENTS]
    if unknown:
        click.echo(f"pcemu diff: unknown event type {', '.join(unknown)}; "
                   f"the types are {', '.join(EVENTS)}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    found = first_divergence(a, b, ignore=ignore, only=only or None, limit=limit, context=context)
    if found is None:
        compared = len([e for e in a if not only or e["event"] in only])
        if limit is not None:
            compared = min(compared, limit)
        click.echo(f"the traces agree ({compared} events compared)")
        return
    click.echo(describe(found, str(left), str(right)))
    raise click.exceptions.Exit(EXIT_DIFFERENT)


if __name__ == "__main__":
    diff()
