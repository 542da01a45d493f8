"""Where the Python game's clock stands against the original's, statement by statement, in a
session with sound off (FAST false: a start from 23:59:59.80 on, where nothing paces the
frames; docs/meteors-internals.md, sections 6 and 8).

The original runs under the tracer with breakpoints at line 3560's first pass (where the
tracer types the space: both clocks start there), every frame's line 1110 and line 3232
(T0 = TIMER: a frame's pace, a level screen's, the first game's); the Python game plays the
same session and notes ``FrameClock.t`` at the same points (its step and its pace).  Each
piece between two such points is printed where the original less the model is not 0, with
the interrupts that came inside it on the original (8: IRQ 0, 9: the keyboard), and at the
end the offset of each game's first T0 (a game's end, whose pieces are still one number
each, is what moves it).  Usage, from the repository (about 5 s a two-minute session):

    python -m games_py.meteors.unpaced_probe --time 23:59:59.99 --mono --human random:23
"""
from __future__ import annotations

import bisect

import click

from games_py import tracing
from games_py.meteors import original, trace
from games_py.meteors.game import Meteors

T0_STATEMENT = 0x1D8A          # line 3232's INT 3


def original_marks(settings: trace.Settings, disk: str) -> tuple[list[dict], list[tuple[int, int]], list]:
    """The original's events, its marks (line, instructions from line 3560's first pass) and
    its interrupts (instructions, vector)."""
    tracer = original.MeteorsTracer(settings, disk)
    machine, process = tracer.machine, tracer.process
    marks: list[tuple[int, int]] = []
    interrupts: list[tuple[int, int]] = []
    first: list[int] = []
    machine.events.irq.connect(lambda vector, now: interrupts.append((now, vector)))
    process.at_line(original.LINE_ANY_KEY, lambda: first or first.append(machine._instr_now()))
    process.at_offset(T0_STATEMENT, lambda: first and marks.append((3232, machine._instr_now())))
    process.at_line(original.LINE_STEP, lambda: marks.append((1110, machine._instr_now())))
    events = tracer.run()
    if not first:
        raise tracing.TraceFailure("the tracer typed no space at line 3560 (demo mode, or a show "
                                   "midnight cut short): nothing to start the clocks from")
    start = first[0]
    return events, [(line, at - start) for line, at in marks], [(at - start, v) for at, v in interrupts]


def model_marks(settings: trace.Settings, frames: int) -> tuple[list[dict], list[tuple[int, float]]]:
    """The Python game's events and its marks, ``FrameClock.t`` at the same points."""
    game = Meteors(settings)
    game.random.randomize_timer(*settings.time)
    game.start()
    marks: list[tuple[int, float]] = []
    clock, pace, one_step = game.ticks, game.ticks.pace, game.one_step

    def paced(wait: bool = True) -> None:
        pace(wait)
        marks.append((3232, clock.t))

    def stepped() -> None:
        marks.append((1110, clock.t))
        one_step()
    clock.pace, game.one_step = paced, stepped
    game.play(lambda g: g.total_frames > frames)
    return game.events, marks


@click.command()
@click.option("--time", "start", default="23:59:59.99", show_default=True, help="HH:MM:SS.hh")
@click.option("--mono/--colour", default=True, show_default=True)
@click.option("--human", default="random:23", show_default=True, help="simple or random:SEED")
@click.option("--seconds", type=click.FloatRange(min=1.0, max=600.0), default=120.0, show_default=True)
@click.option("--disk", default="1612", show_default=True)
def main(start: str, mono: bool, human: str, seconds: float, disk: str) -> None:
    try:
        settings = trace.Settings(time=trace.parse_time(start), colour_switch=not mono, sound=False,
                                  demo=False, human=human, seconds=seconds)
        from games_py.meteors.human import policy_from
        policy_from(human)
        events, marks, interrupts = original_marks(settings, disk)
    except (ValueError, tracing.TraceFailure, *tracing.user_errors()) as exc:
        raise click.ClickException(str(exc).splitlines()[0]) from None
    frames = sum(1 for e in events if e["event"] == "frame")
    python, model = model_marks(settings, frames)
    from games_py.meteors import compare
    found = compare.first_divergence(events, python)
    click.echo(f"fast: {events[0]['fast']}; the traces: {compare.describe(found)}")
    same = sum(1 for e in (events if found is None else events[:found[0]]) if e["event"] == "frame")
    games: list[tuple[int, int]] = []
    steps = 0
    for i, ((line, at), (kind, t)) in enumerate(zip(marks, model)):
        steps += line == 1110
        if steps > same:                                # the sessions part: the pairs mean nothing
            break
        if line != kind:
            click.echo(f"mark {i}: the original at line {line}, the Python game at {kind}: stopped")
            break
        offset = round(at - t)
        if i == 0 or (marks[i - 1][0] == 1110 and line == 3232 and at - marks[i - 1][1] > 200_000):
            games.append((i, offset))                   # a game's first T0 (the first, or after its end)
        if i == 0:
            continue
        before = marks[i - 1][1]
        piece = offset - round(before - model[i - 1][1])
        if piece:
            inside = [v for _, v in interrupts[bisect.bisect(interrupts, (before,)):bisect.bisect(interrupts, (at,))]]
            click.echo(f"mark {i}: {marks[i - 1][0]} -> {line}, {at - before} instructions, the original "
                       f"less the model {piece:+d}, offset {offset:+d}; interrupts {sorted(set(inside))}")
    click.echo("each game's first T0, the original less the model: " + ", ".join(f"{o:+d}" for _, o in games))


if __name__ == "__main__":
    main()
