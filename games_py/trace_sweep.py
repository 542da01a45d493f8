"""What the game sweeps (``ginrummy-sweep``, ``meteors-sweep``) share: start times
spread over the day, the runs through pcemu.sweep with a count of the results
done, and the command's progress line and result file."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Sequence

import click

DAY_HUNDREDTHS = 24 * 60 * 60 * 100


def time_of(hundredths: int) -> tuple[int, int, int, int]:
    seconds, hs = divmod(hundredths, 100)
    return seconds // 3600, seconds // 60 % 60, seconds % 60, hs


def start_times(count: int, seed: int) -> list[tuple[int, int, int, int]]:
    """``count`` times of day, one in each of ``count`` equal slots: the first exactly at
    midnight, the last at 23:59:59.99 (where TIMER's arithmetic is special), the others
    chosen inside their slots by a generator seeded with ``seed``."""
    if count < 1:
        raise ValueError("the sweep needs at least one start time")
    generator = random.Random(seed)
    times = []
    for i in range(count):
        low, high = i * DAY_HUNDREDTHS // count, (i + 1) * DAY_HUNDREDTHS // count
        if i == 0:
            at = 0
        elif i == count - 1:
            at = DAY_HUNDREDTHS - 1
        else:
            at = generator.randrange(low, high)
        times.append(time_of(at))
    return times


def run_counted(check: Callable[[Any], Any], work: Sequence[Any], *, jobs: int | None,
                backend: str, address: str | None,
                progress: Callable[[int, Any], None] | None) -> list[Any]:
    """``check`` over ``work`` through pcemu.sweep, results in order; ``progress`` hears of
    each result as it comes, with how many are done."""
    from pcemu.sweep import sweep
    done = 0

    def arrived(_index: int, result: Any) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, result)
    return sweep(check, work, backend=backend, workers=jobs, address=address, on_result=arrived)


def run_with_progress(run: Callable[[Callable[[int, Any], None]], list], total: int,
                      output: Path | None) -> list:
    """``run(progress)`` for a sweep command: ``done/total`` on standard error, and each
    result (its ``as_dict()``) written to ``output`` as one JSON line as it comes, so a
    sweep cut short keeps what it measured.  The sweep's and the machine's errors end the
    command with one line."""
    from games_py.tracing import user_errors
    from pcemu.sweep import SweepError
    try:
        handle = open(output, "w", encoding="utf-8") if output is not None else None
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None

    def keep(done: int, result) -> None:
        click.echo(f"\r{done}/{total}", nl=False, err=True)
        if handle is not None:
            handle.write(json.dumps(result.as_dict()) + "\n")
            handle.flush()
    try:
        results = run(keep)
    except SweepError as exc:
        raise click.ClickException(str(exc)) from None
    except user_errors() as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        if handle is not None:
            handle.close()
    click.echo("", err=True)
    return results
