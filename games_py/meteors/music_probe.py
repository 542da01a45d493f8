"""Time the original's music timer at its SOUND statements against the Python game's model
(timing.FrameClock.sound; docs/meteors-internals.md, section 6).

The original runs under the tracer with the machine's IRQ 0s (``irq`` events), its loads of
PIT channel 0 (a wrapper on this one machine's PIT: the program's OUTs to port 40h) and the
INT 3s of the step's SOUND statements (lines 5120, 5190, 5220, 5250, 5280).  For each SOUND:

* whether it started the music timer (the runtime's 062B:806A loads channel 0 with 0800h
  when the queue was idle), and then the first interrupt, counted from the statement's INT 3;
* the PIT's next edge after the INT 3, in whole instructions as the machine takes it (the
  first count at or after ``(floor(load x 1193182 / 1200000) + k x reload)`` PIT clocks),
  measured from where the SOUND masks IRQ 0 (``SOUND_QUEUED - SOUND_MASKED`` after the INT 3),
  and where the interrupt was taken: an edge due in the masked window is held to the unmask.

The Python game plays the same session with ``FrameClock.sound_log`` on; its SOUNDs are
paired with the original's in order (the hit's and the table's are not among them).  Usage,
from the repository (about 2 s a 30 s session):

    python -m games_py.meteors.music_probe --seed 500 --case 16
"""
from __future__ import annotations

import bisect
import math
from collections import Counter
from dataclasses import dataclass

import click

from games_py import tracing
from games_py.meteors import original, sweep, timing, trace

PIT_HZ, IPS = 1_193_182, timing.IPS
# the SOUND statements of a step and a level, and their INT 3 -> the note queued (the unmask)
QUEUED = {5120: timing.SOUND_QUEUED, 5190: timing.SOUND_QUEUED, 5280: timing.SOUND_QUEUED,
          5220: timing.BITE_QUEUED, 5250: timing.BITE_QUEUED}
NAMES = {5120: "fall", 5190: "absorbed", 5280: "level", 5220: "ate_block", 5250: "ate_meteor"}
MUSIC_RELOAD = 0x0800


@dataclass
class Sound:
    line: int
    int3: int                 # the statement's INT 3, in instructions since power-on
    fresh: bool               # it loaded channel 0 with 0800h
    loaded: int | None        # ... this long after the INT 3
    first: int | None         # a fresh start's first interrupt, from the INT 3
    edge: int | None          # the next edge after the INT 3, from the mask's start (whole instructions)
    taken: int | None         # ... where the machine took it, from the mask's start
    ticked: bool = False      # a BIOS tick came between the INT 3 and a fresh start's load
    rule: float | None = None  # a fresh start's first interrupt by timing.first_music_interrupt from
                               # the load and the BIOS's next edge on the machine, from the INT 3

    @property
    def masked_from(self) -> int:
        return QUEUED[self.line] - timing.SOUND_MASKED


def edge_after(start: int, reload: int, at: int) -> int:
    """The first instruction count at or after ``at`` at which channel 0, counting ``reload``
    from PIT clock ``start`` (where the 8254 took the count: a count written with no control
    word waits for the end of the half-cycle, pcemu.devices.pit), has an edge."""
    k = max((at * PIT_HZ // IPS - start) // reload, 1)
    while (due := -(-(start + reload * k) * IPS // PIT_HZ)) < at:
        k += 1
    return due


def original_sounds(settings: trace.Settings, disk: str = "1612") -> tuple[list[dict], list[Sound], tuple | None]:
    """The original's events, its step's SOUND statements from the first frame on, and where
    line 3560's first INT 3 came inside its BIOS tick and from power-on (None in demo mode)."""
    from games_py.meteors import startup_probe
    tracer = original.MeteorsTracer(settings, disk)
    machine, process = tracer.machine, tracer.process
    place, key_at = startup_probe.key_loop_place(tracer), startup_probe.key_loop_at(tracer)
    irqs: list[int] = []
    loads: list[tuple[int, int, int, float]] = []     # (instruction count, reload, its start's PIT
                                                      # clock, the next edge before it, in instructions)
    statements: list[tuple[int, int]] = []            # (instruction count, line)
    machine.events.irq.connect(lambda vector, now: irqs.append(now) if vector == 8 else None)
    pit, write = machine.pit, machine.pit.write
    low: list[int] = []

    def pit_write(port: int, value: int) -> None:     # only watches: the write goes on unchanged
        if port == 0x40:
            low.append(value)
            if len(low) == 2:
                reload = (low[0] | low[1] << 8) or 0x10000
                low.clear()
                channel, now = pit.channels[0], machine._instr_now()
                before = pit.next_irq0_after(machine._pit_now()) * IPS / PIT_HZ
                write(port, value)
                start = channel.pending.start if channel.pending is not None else channel.start
                loads.append((now, reload, start, before))
                return
        write(port, value)

    pit.write = pit_write
    first_frame: list[int] = []
    process.at_line(original.LINE_STEP, lambda: first_frame or first_frame.append(machine._instr_now()))
    for line in QUEUED:
        process.at_line(line, lambda line=line: statements.append((machine._instr_now(), line)))
    events = tracer.run()
    starts = [at for at, _, _, _ in loads]
    sounds = []
    for at, line in statements:
        if not first_frame or at < first_frame[0]:
            continue                                   # the start-up show's
        # the SOUND's own load, if any (a few hundred more: handlers of interrupts taken in it)
        until = at + QUEUED[line] + timing.TIMER_STARTED + 400
        mine = [(t, r, due) for t, r, _, due in loads[bisect.bisect(starts, at):bisect.bisect(starts, until)]
                if r == MUSIC_RELOAD]
        after = bisect.bisect(irqs, mine[0][0]) if mine else len(irqs)
        first = irqs[after] - at if after < len(irqs) else None
        edge = taken = None
        i = bisect.bisect(starts, at) - 1
        if i >= 0 and not mine:
            _, reload, start, _ = loads[i]
            due = edge_after(start, reload, at)
            masked_from = at + QUEUED[line] - timing.SOUND_MASKED
            edge = due - masked_from
            later = bisect.bisect_left(irqs, due)
            taken = irqs[later] - masked_from if later < len(irqs) else None
        ticked = bool(mine) and bisect.bisect(irqs, mine[0][0]) > bisect.bisect(irqs, at)
        rule = None
        if mine:                                       # the 8254's rule, from the machine's own lattice
            rule = timing.first_music_interrupt(mine[0][0], mine[0][2]) - at
        sounds.append(Sound(line, at, bool(mine), mine[0][0] - at if mine else None, first, edge, taken,
                            ticked, rule))
    return events, sounds, (place[0], key_at[0]) if place else None


def model_sounds(settings: trace.Settings, frames: int, place: tuple | None = None) -> tuple[list[dict], list[tuple]]:
    """The Python game's events and its ``FrameClock.sound_log`` (the step's and level's SOUNDs),
    with line 3560's first INT 3 ``place`` into its tick (the model's own, show_time's, when None)."""
    game = _model_game(settings, place)
    game.ticks.sound_log = []
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return game.events, [s for s in game.ticks.sound_log if s[0] in NAMES.values()]


def _model_game(settings: trace.Settings, place: tuple | None):
    """The Python game seeded as the original, before its start: from line 3560's ``place``
    (in its tick, and from power-on: startup_probe's) (the model's own, show_time's, when None)."""
    from games_py.meteors.game import Meteors
    game = Meteors(settings)
    if place is not None:
        game.ticks.key_loop_place, game.ticks.key_loop_at = place
    game.random.randomize_timer(*settings.time)
    return game


@dataclass
class Pair:
    sound: Sound
    model_fresh: bool
    model_first: float | None       # a fresh start's first interrupt from the model's INT 3
    model_edge: float | None        # the model's next edge from the mask's start


def pairs(settings: trace.Settings, disk: str = "1612", given_place: bool = False) -> tuple[list[Pair], str]:
    """The original's SOUNDs paired with the model's in order, up to the first of another kind,
    and where the two traces first differ (compare.describe).  ``given_place``: the model starts
    from the original's place of line 3560 in its tick (startup_probe.key_loop_place), not its own
    (show_time.key_loop_place)."""
    from games_py.meteors import compare
    events, sounds, place = original_sounds(settings, disk)
    frames = sum(1 for e in events if e["event"] == "frame")
    python, log = model_sounds(settings, frames, place if given_place else None)
    found = compare.describe(compare.first_divergence(events, python))
    paired = []
    for sound, (note, fresh, masked, edge, first) in zip(sounds, log):
        if NAMES[sound.line] != note:
            break
        int3 = masked - sound.masked_from
        paired.append(Pair(sound, fresh, first - int3 if fresh else None,
                           None if fresh or edge is None else edge - masked))
    return paired, found


def place_drift(settings: trace.Settings, disk: str = "1612") -> list[tuple[int, float, float]]:
    """Given the original's place of line 3560, where the model's place at each frame's line 1110
    (its INT 3, counted from the first frame's) moves against the original's: (frame, the drift
    after, its change), the drift the original's count less the model's.  A change of a pass of
    ``WHILE PLAY(0)`` (45) or of line 3231's (831 to 1,067) is the two waits ending on different
    passes of their lattices; any other is a piece of work, or an interrupt's handler, the model
    costs otherwise than the original spends it."""
    from games_py.meteors import startup_probe
    tracer = original.MeteorsTracer(settings, disk)
    machine = tracer.machine
    place, at = startup_probe.key_loop_place(tracer), startup_probe.key_loop_at(tracer)
    ours: list[int] = []
    tracer.process.at_offset(0x0B02, lambda: ours.append(machine._instr_now()))   # line 1110
    events = tracer.run()
    game = _model_game(settings, (place[0], at[0]) if place else None)
    game.place_log = []
    game.start()
    game.play(lambda g: g.total_frames > sum(1 for e in events if e["event"] == "frame"))
    model = [t for line, t, _, _ in game.place_log if line == 1110]
    moves, before = [], 0.0
    for frame, (a, b) in enumerate(zip(ours, model)):
        drift = (a - ours[0]) - (b - model[0])
        if abs(drift - before) > 0.5:
            moves.append((frame, drift, drift - before))
        before = drift
    return moves


def near_the_mask(pair: Pair, within: float = 1.0) -> bool:
    """The model's edge within ``within`` instructions of where the SOUND masks IRQ 0."""
    return pair.model_edge is not None and abs(pair.model_edge) < within


@click.command()
@click.option("--seed", type=int, default=500, show_default=True)
@click.option("--count", type=click.IntRange(min=1), default=50, show_default=True)
@click.option("--seconds", type=float, default=30.0, show_default=True)
@click.option("--case", "indices", type=int, multiple=True, help="case numbers; all when none")
@click.option("--disk", default="1612", show_default=True)
@click.option("--given-place", is_flag=True, help="the model starts from the original's line-3560 place")
@click.option("--demo", is_flag=True, help="the demo's sessions, not the human player's")
@click.option("--drift", is_flag=True, help="where the model's place at line 1110 moves against the "
              "original's (given its line-3560 place), not the SOUNDs")
def main(seed: int, count: int, seconds: float, indices: tuple[int, ...], disk: str, given_place: bool,
         demo: bool, drift: bool) -> None:
    cases = sweep.demo_cases(count, seed=seed, seconds=seconds)
    if not demo:
        cases = sweep.with_human(cases)
    firsts: Counter = Counter()
    loads: Counter = Counter()
    rules: Counter = Counter()
    for i in indices or range(count):
        if not 0 <= i < count:
            raise click.BadParameter(f"case {i} is not among the {count}", param_hint="--case")
        if not cases[i].sound:
            continue
        click.echo(sweep.options(cases[i]))
        if drift:
            moves = place_drift(cases[i].settings(), disk)
            click.echo("  " + ", ".join(f"frame {f}: {d:+.0f} ({c:+.0f})" for f, d, c in moves))
            continue
        try:
            paired, found = pairs(cases[i].settings(), disk, given_place)
        except (tracing.TraceFailure, *tracing.user_errors()) as exc:
            click.echo("  " + str(exc).splitlines()[0])
            continue
        fresh = [p for p in paired if p.sound.fresh]
        agree = sum(p.sound.fresh == p.model_fresh for p in paired)
        click.echo(f"  {len(paired)} SOUNDs paired ({found}): started the timer {len(fresh)}, "
                   f"the model agreeing at {agree}")
        for p in fresh:
            loads[(p.sound.line, p.sound.loaded, p.sound.first)] += 1
            if p.model_first is not None and p.sound.first is not None:
                firsts[p.sound.first - round(p.model_first, 1)] += 1
            if p.sound.rule is not None and p.sound.first is not None:
                rules[math.floor((p.sound.rule - p.sound.first) * 10) / 10] += 1
        for p in paired:
            if near_the_mask(p):
                held = p.sound.taken != p.sound.edge
                click.echo(f"  line {p.sound.line} at {p.sound.int3}: the model's edge {p.model_edge:+.2f} "
                           f"from the mask, the machine's {p.sound.edge:+d}, "
                           f"{'held to the unmask' if held else 'taken before it'}")
    if drift:
        return
    click.echo("fresh starts (line, channel 0 loaded, the first interrupt, from the INT 3): "
               + ", ".join(f"{k}: {n}" for k, n in sorted(loads.items())))
    click.echo("a fresh start's first interrupt, the original less the model: "
               + ", ".join(f"{k:+.1f}: {n}" for k, n in sorted(firsts.items())))
    click.echo("first_music_interrupt from the machine's own load and BIOS edge less the machine's first "
               "interrupt (tenths, floored): " + ", ".join(f"{k:+.1f}: {n}" for k, n in sorted(rules.items())))


if __name__ == "__main__":
    main()
