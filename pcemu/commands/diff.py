"""``pcemu diff A.jsonl B.jsonl``: the first place two traces of any game part.

The traces follow the envelope of docs/trace-format.md (JSON Lines of objects
with an ``"event"`` name; metadata keys are not compared).  Exit status 0 when
the traces agree, 1 when they differ (the divergence is printed with the events
before it), 2 for a file that cannot be read or an event kind neither has.
"""
from __future__ import annotations

from pathlib import Path

import click

from pcemu.trace.diff import describe, first_divergence, select
from pcemu.trace.events import TraceError, metadata_keys, read

EXIT_DIFFERENT = 1
EXIT_BAD_INPUT = 2


def _bad_input(message: str) -> click.exceptions.Exit:
    click.echo(f"pcemu diff: {message}", err=True)
    return click.exceptions.Exit(EXIT_BAD_INPUT)


@click.command("diff")
@click.argument("left", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("right", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--only", "only", multiple=True, metavar="EVENT",
              help="Compare only events of this kind (repeatable), e.g. deal.")
@click.option("--ignore", multiple=True, metavar="KEY",
              help="Leave this key out of the comparison (repeatable); the metadata keys "
                   "(source, format and the trace's metadata_keys) always are.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Compare only the first N events (after --only).")
@click.option("--context", type=click.IntRange(min=0), default=3, show_default=True,
              help="Equal events to show before the divergence.")
def diff(left: Path, right: Path, only: tuple[str, ...], ignore: tuple[str, ...],
         limit: int | None, context: int) -> None:
    """Compare two traces event by event and print the first divergence: its
    number, kind and place in the game (game, hand, frame), and the keys that
    differ."""
    try:
        a, b = read(left), read(right)
        for path, events in ((left, a), (right, b)):
            try:
                metadata_keys(events)
            except TraceError as exc:
                raise TraceError(f"{path}:1: {exc}") from None
        kinds = sorted({e["event"] for e in a} | {e["event"] for e in b})
        unknown = [e for e in only if e not in kinds]
        if unknown:
            raise _bad_input(f"unknown event type {', '.join(unknown)}; "
                             f"the types in these traces are {', '.join(kinds)}")
        found = first_divergence(a, b, ignore=ignore, only=only or None, limit=limit, context=context)
    except TraceError as exc:
        raise _bad_input(str(exc)) from None
    if found is None:
        compared = len(select(a, only or None))
        if limit is not None:
            compared = min(compared, limit)
        click.echo(f"the traces agree ({compared} events compared)")
        return
    click.echo(describe(found, str(left), str(right)))
    raise click.exceptions.Exit(EXIT_DIFFERENT)


if __name__ == "__main__":
    diff()
