"""The sweep's sessions as the probes take them (`python -m games_py.meteors.level_probe`,
`heap_probe`, `end_probe`): the options that pick them and the chosen ones in order."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import click

from games_py.meteors import sweep


def session_options(*, seed: int, count: int, seconds: float) -> Callable:
    """--seed, --count and --seconds as `pcemu trace meteors-sweep` takes them, --case to pick
    some of the sessions (random:N's N), and --disk."""
    options = [
        click.option("--seed", type=int, default=seed, show_default=True),
        click.option("--count", type=click.IntRange(min=1), default=count, show_default=True),
        click.option("--seconds", type=float, default=seconds, show_default=True),
        click.option("--case", "indices", type=int, multiple=True,
                     help="case numbers (random:N); all when none"),
        click.option("--disk", default="1612", show_default=True),
    ]

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


def chosen(seed: int, count: int, seconds: float, indices: tuple[int, ...],
           demo: bool = False) -> Iterator[sweep.Case]:
    """The sessions asked for, each announced by its options as it comes."""
    cases = sweep.demo_cases(count, seed=seed, seconds=seconds)
    if not demo:
        cases = sweep.with_human(cases)
    for i in indices:
        if not 0 <= i < count:
            raise click.BadParameter(f"case {i} is not among the {count}", param_hint="--case")
    for i in indices or range(count):
        click.echo(sweep.options(cases[i]))
        yield cases[i]
