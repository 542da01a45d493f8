"""Time the original's game ends against the Python game's model (hit_cost.py, table_cost.py,
end_cost.py; docs/meteors-internals.md, section 6).

The original runs under the tracer with breakpoints at line 1110 (each step), 1420 (a hit),
1620 (the game over), 1710 (each two-second pause's first INT 3), 1730's RETURN (each pause's end), 5370 (the
high-score table) and 1680 (the next game).  The Python game plays the same session and logs its
clock at the same statements (``Meteors.place_log``).  For each game over the places are given
relative to the hit step's line 1110 (original less model): the hit (1420 and 1620; a player caught
by new blocks has no 1420), the game over (1710),
the first pause (1196), the table (the second 1710) and the second pause.  A pause's end also
keeps where its tick falls against its pass lattice, which the frames before set (up to a pass,
about 1,200 instructions, where the first game's start is not exact).  Usage, from the repository
(a 30 s session takes about 3 s):

    python -m games_py.meteors.end_probe --seed 1612 --count 50 --seconds 30 --case 2 --case 3
"""
from __future__ import annotations

import click

from games_py import tracing
from games_py.meteors import original
from games_py.meteors.probe_cases import chosen, session_options

POINTS = {0x0B02: 1110, 0x0DAD: 1420, 0x1074: 1620, 0x1125: 1710, 0x1196: 1196, 0x303E: 5370, 0x3569: 5910, 0x35DF: 5940,
          0x111F: 1680}   # 5940: LINE INPUT's end (its second statement)


def original_places(settings, disk: str = "1612") -> tuple[list[dict], list[tuple[int, int]], float | None]:
    """The original's events, (line, instruction count) at each of POINTS' statements, and
    line 3560's first INT 3's place in its tick (startup_probe.key_loop_place)."""
    from games_py.meteors import startup_probe
    tracer = original.MeteorsTracer(settings, disk)
    machine, process = tracer.machine, tracer.process
    place = startup_probe.key_loop_place(tracer)
    places: list[tuple[int, int]] = []
    for offset, line in POINTS.items():
        process.at_offset(offset, lambda line=line: places.append((line, machine._instr_now())))
    return tracer.run(), places, place[0] if place else None


def model_places(settings, frames: int, place: float | None = None):
    """The Python game's events for ``frames`` frames and its (line, instructions) places,
    from line 3560's ``place`` in its tick (the model's own when None)."""
    from games_py.meteors.game import Meteors
    game = Meteors(settings)
    if place is not None:
        game.ticks.key_loop_place = place
    game.place_log = []
    game.random.randomize_timer(*settings.time)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return game.events, [(line, t) for line, t, _, _ in game.place_log]


def game_ends(places: list[tuple[int, float]]) -> list[list[tuple[int, float]]]:
    """For each game over: its hit step's 1110 (or the last frame's), then the places up to the
    next frame."""
    ends, last, i = [], None, 0
    while i < len(places):
        line, at = places[i]
        if line == 1110:
            last = at
        elif line in (1420, 1620) and last is not None:
            end = [(1110, last), (line, at)]
            i += 1
            while i < len(places) and places[i][0] != 1110:
                end.append(places[i])
                i += 1
            ends.append(end)
            continue
        i += 1
    return ends


def before_frame(places: list[tuple[int, float]], frames: int) -> list[tuple[int, float]]:
    """The places before the ``frames``-th line 1110."""
    seen = 0
    for i, (line, _) in enumerate(places):
        seen += line == 1110
        if seen > frames:
            return places[:i]
    return places


def compare(settings, disk: str = "1612", given_place: bool = False) -> list[list[tuple[int, int]]]:
    """Per game over: (line, the original's place less the model's) from the hit step's 1110,
    up to the frame before the two traces first differ.  ``given_place``: the model starts from
    the original's line-3560 place."""
    from games_py.meteors.compare import describe, first_divergence
    events, places, place = original_places(settings, disk)
    python, model = model_places(settings, sum(1 for e in events if e["event"] == "frame"),
                                 place if given_place else None)
    found = first_divergence(events, python)
    if found is not None:
        frames = sum(1 for e in events[:found[0]] if e["event"] == "frame") - 1
        click.echo(f"  {describe(found)}: game ends before frame {frames} only")
        places, model = before_frame(places, frames), before_frame(model, frames)
    rows = []
    for ours, theirs in zip(game_ends(places), game_ends(model)):
        base = ours[0][1] - theirs[0][1]
        rows.append([(line, round(at - base - model_at))
                     for (line, at), (_, model_at) in zip(ours, theirs)])
    return rows


@click.command()
@session_options(seed=1612, count=50, seconds=30.0)
@click.option("--given-place", is_flag=True, help="the model starts from the original's line-3560 place")
def main(seed: int, count: int, seconds: float, indices: tuple[int, ...], disk: str, given_place: bool) -> None:
    for case in chosen(seed, count, seconds, indices):
        try:
            rows = compare(case.settings(), disk, given_place)
        except (tracing.TraceFailure, *tracing.user_errors()) as exc:
            click.echo("  " + str(exc).splitlines()[0])
            continue
        for row in rows:
            click.echo("  " + ", ".join(f"{line}: {off:+d}" for line, off in row))


if __name__ == "__main__":
    main()
