"""Time the original's level screens and new games' starts against the Python game's model
(games_py/meteors/level_cost.py; docs/meteors-internals.md, section 6).

The original runs under the tracer with breakpoints at the statements that bound the pieces
the model costs: line 3232 (T0 = TIMER), 3330 (the level's end), 1680 (a new game after the
pause), 4000 (the blocks drawn), and the next frame's 1110, a new game's 630 or the game
over's 1620.  The Python game plays the same session and logs its pieces (``cost_log``).
The segments are paired in order:

* ``level_end``: 3232 -> 3330 (the countdown's last T0, its PRINT, the level's SOUND);
* ``level_start``: 3330 -> the new screen's T0 (PROB, the status line, the score);
* ``game_start``: 1680 -> T0 (GAME, LEVEL, the meteor, the background, CLS, the status line);
* ``blocks``: T0 -> 4000 (the countdown, HIGH SCORE, LEVEL, GAME, the block, the rows);
* ``blocks_end``: 4000 -> 1110, 630 or 1620 (the gap check, the way back, the player's place).

A segment is compared where no interrupt came inside it, or (sound off) only BIOS ticks,
whose handler takes ``timing.BIOS_HANDLER`` and ``TICK_HOOK`` (F1 hooked INT 1Ch).  Usage, from the repository (a two-minute
session takes about 10 s):

    python -m games_py.meteors.level_probe --seed 1612 --case 2 --case 3
"""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict

import click

from games_py import tracing
from games_py.meteors import original, timing
from games_py.meteors.probe_cases import chosen, session_options

KINDS = ("level_end", "level_start", "game_start", "blocks", "blocks_end")
ANCHORS = {0x1D8A: 3232, 0x1EAB: 3330, 0x111F: 1680, 0x256D: 4000, 0x0B02: 1110, 0x0540: 630}
BIOS_TIMER = 8          # the vector of IRQ 0
MUSIC = -8              # ... taken by the runtime's music handler (062B:7F70)


def _kind(start: int, end: int) -> str | None:
    return {(3232, 3330): "level_end", (3330, 3232): "level_start", (1680, 3232): "game_start",
            (3232, 4000): "blocks"}.get((start, end), "blocks_end" if start == 4000 else None)


def original_segments(settings, disk: str = "1612") -> tuple[list[dict], list[tuple[str, int, list[int]]]]:
    """The original's events, and its segments: (kind, instructions, the vectors of the
    interrupts inside, MUSIC for IRQ 0 taken by the runtime's music handler)."""
    tracer = original.MeteorsTracer(settings, disk)
    machine, process = tracer.machine, tracer.process
    anchors = dict(ANCHORS)
    anchors[process.image.first_offset(original.LINE_GAME_OVER)] = original.LINE_GAME_OVER
    marks: list[tuple[int, int]] = []
    for offset, line in anchors.items():
        process.at_offset(offset, lambda line=line: marks.append((line, machine._instr_now())))
    interrupts: list[tuple[int, int]] = []
    bios_timer = machine.get_vector(BIOS_TIMER)

    def interrupted(vector: int, now: int) -> None:
        # IRQ 0 while the runtime's music handler has INT 8 (the show's last notes still play
        # in a human session's first level screen): told apart from a BIOS tick
        music = vector == BIOS_TIMER and machine.get_vector(BIOS_TIMER) != bios_timer
        interrupts.append((now, MUSIC if music else vector))
    machine.events.irq.connect(interrupted)
    events = tracer.run()
    segments = []
    for (start, at), (end, until) in zip(marks, marks[1:]):
        kind = _kind(start, end)
        if kind is not None:
            inside = interrupts[bisect.bisect(interrupts, (at,)):bisect.bisect(interrupts, (until,))]
            segments.append((kind, until - at, [vector for _, vector in inside]))
    return events, segments


def model_segments(settings, frames: int) -> tuple[list[dict], list[tuple[str, int]]]:
    """The Python game's events for ``frames`` frames, and its pieces summed as the original's
    segments are cut: a level's SOUND (``level_sound``, with its masked window) belongs to
    ``level_end``, the path's NEXT after a level change to ``blocks_end``."""
    from games_py.meteors.game import Meteors
    game = Meteors(settings)
    game.cost_log = []
    game.random.randomize_timer(*settings.time)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    segments: list[tuple[str, int]] = []
    last = None
    for piece, cost, _ in game.cost_log:
        if piece == "level_sound":
            piece, cost = "level_end", cost + timing.SOUND_MASKED
        elif piece == "next" and last == "blocks_end":
            piece = "blocks_end"
        if piece in KINDS and piece == last:
            segments[-1] = (piece, segments[-1][1] + cost)
        elif piece in KINDS:
            segments.append((piece, cost))
        last = piece
    return game.events, segments


def compare(settings, disk: str = "1612") -> list[tuple[str, int, int]]:
    """(kind, the original's instructions, the model's) for every segment the original ran
    with no interrupt inside, or only BIOS ticks (their handlers taken off)."""
    from games_py.meteors.compare import first_divergence
    events, segments = original_segments(settings, disk)
    frames = sum(1 for e in events if e["event"] == "frame")
    python, model = model_segments(settings, frames)
    if first_divergence(events, python) is not None:
        raise tracing.TraceFailure("the Python game's trace differs from the original's: "
                                   "its segments cannot be paired")
    rows = []
    for (kind, cost, vectors), (model_kind, model_cost) in zip(segments, model):
        if kind != model_kind:
            raise tracing.TraceFailure(f"the original ran {kind} where the Python game ran {model_kind}")
        if vectors and (settings.sound or set(vectors) != {BIOS_TIMER}):
            continue                 # the music's handlers: what they take is FrameClock's
        rows.append((kind, cost - (timing.BIOS_HANDLER + timing.TICK_HOOK) * len(vectors), model_cost))
    return rows


@click.command()
@session_options(seed=1612, count=24, seconds=120.0)
@click.option("--demo", is_flag=True, help="demo sessions (default: random:N players)")
def main(seed: int, count: int, seconds: float, indices: tuple[int, ...], demo: bool, disk: str) -> None:
    tally: dict[str, Counter] = defaultdict(Counter)
    for case in chosen(seed, count, seconds, indices, demo):
        try:
            rows = compare(case.settings(), disk)
        except (tracing.TraceFailure, *tracing.user_errors()) as exc:
            click.echo("  " + str(exc).splitlines()[0])
            continue
        for kind, cost, model in rows:
            tally[kind][cost - model] += 1
    for kind in KINDS:
        click.echo(f"{kind}: the original less the model {dict(tally[kind])}")


if __name__ == "__main__":
    main()
