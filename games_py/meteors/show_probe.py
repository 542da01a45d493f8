"""Line 4410's first INT 3 (from power-on) and line 3560's place in its BIOS tick on the original,
against show_time's computation (docs/meteors-internals.md, section 6, "The first game").  The
original runs to its first frame under the tracer (a human player, sound on or off: with sound off
the tracer's F1s at line 4410).  Usage, from the repository (about 1 s a start time):

    python -m games_py.meteors.show_probe --count 24 --seed 99 [--sound off]
"""
from __future__ import annotations

import click

from games_py.meteors import original, show_time, startup_probe, trace
from games_py.meteors.game import Meteors
from games_py.trace_sweep import start_times


def measure(time, colour: bool, sound: bool, disk: str = "1612") -> tuple[int, float, float, float]:
    """(the original's line 4410 INT 3, the model's; the original's line 3560 place, the model's)."""
    settings = trace.Settings(time=time, colour_switch=colour, sound=sound, demo=False, human="random:1",
                              seconds=0.2, frames=1)
    tracer = original.MeteorsTracer(settings, disk)
    pause: list[int] = []
    tracer.process.at_line(original.LINE_SHOW_PAUSE,
                           lambda: pause or pause.append(tracer.machine._instr_now()))
    place = startup_probe.key_loop_place(tracer)
    tracer.run()
    game = Meteors(settings)
    game.random.randomize_timer(*time)
    shown: list[tuple] = []
    show_pause = show_time.show_pause

    def watched(*args):
        clock = show_pause(*args)
        shown.append(clock.t)
        return clock
    show_time.show_pause = watched
    try:
        game.start()
        game.play(lambda g: g.total_frames >= 1)
    finally:
        show_time.show_pause = show_pause
    return pause[0], shown[0], place[0], game.ticks.key_loop_place


@click.command()
@click.option("--count", type=click.IntRange(min=1), default=6, show_default=True)
@click.option("--seed", "seeds", type=int, multiple=True, default=(1612,), show_default=True)
@click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True)
@click.option("--disk", default="1612", show_default=True)
def main(count: int, seeds: tuple[int, ...], sound: str, disk: str) -> None:
    click.echo("seed time display: line 4410 original less model; line 3560's place original, model")
    for seed in seeds:
        for i, time in enumerate(start_times(count, seed)):
            colour = i % 2 == 0
            pause, model_pause, place, model_place = measure(time, colour, sound == "on", disk)
            click.echo(f"{seed} {trace.format_time(time)} {'/C' if colour else '/M'}: {pause - model_pause:+.0f}; "
                       f"{place:.1f} {model_place:.1f} ({place - model_place:+.1f})")


if __name__ == "__main__":
    main()
