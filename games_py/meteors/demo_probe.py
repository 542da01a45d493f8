"""Measure the demo on the original against the Python game's model (docs/meteors-internals.md,
section 6): where its first T0 is, and what the demo player's step costs.

``start``: for each session, at the first level screen's T0 (line 3232's INT 3): the ticks since
line 225, the instructions since the last IRQ 0 on both sides, the music counter (DGROUP:0416,
mod 32) on both sides, where the pass of line 3560 that read the space was (since its last
IRQ 0; demo_start.key_read), and where line 3560's first pass was on both sides (show_time).

``chain``: the pieces of the demo's start (demo_start.key_read's marks) on both sides.

``steps``: the demo player's statements (demo.DemoPlayer's marks) timed at their INT 3s, each
segment with no interrupt inside less what the runtime spends on its values in the model, by
segment; one value each is what demo_cost.SEGMENTS holds (``--table`` prints them as a table).
Usage, from the repository (about 3 s a session):

    python -m games_py.meteors.demo_probe start --count 20 --seed 1612 --seconds 60
    python -m games_py.meteors.demo_probe chain --count 20 --seed 1612 --seconds 60
    python -m games_py.meteors.demo_probe steps --count 20 --seed 7 --seconds 60
"""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict

import click

from games_py.meteors import demo_cost, startup_probe, timing
from games_py.meteors.original import MeteorsTracer
from games_py.meteors.probe_cases import chosen, session_options
from games_py.qbasic import runtime_cost

COUNTER = 0x0416
KEY_LOOP, KEY_READ_END = 0x20DD, 0x20FE          # line 3560's first statement, line 3570
STEP = 0x0B02                                     # line 1110
BIOS_TIMER = 8


def original_start(settings, disk: str = "1612") -> dict:
    tracer = MeteorsTracer(settings, disk)
    process, machine = tracer.process, tracer.machine
    seen: dict = {}
    last = [0]
    machine.events.irq.connect(lambda vector, now: last.__setitem__(0, now) if vector == BIOS_TIMER else None)
    passes: list[int] = []

    def key_pass() -> None:
        passes.append(machine._instr_now() - last[0])

    def t0() -> None:
        if "t0" not in seen:
            seen.update(t0=tracer._bios_ticks() - seen["t225"], since=machine._instr_now() - last[0],
                        first=passes[0] if passes else None,
                        counter=process.word(COUNTER) & 31, read=passes[-1] if passes else None,
                        edge=startup_probe.tick_edge(machine), at=machine._instr_now())
            tracer._stop()
    process.at_line(225, lambda: seen.setdefault("t225", tracer._bios_ticks()))
    process.at_offset(KEY_LOOP, key_pass)
    process.at_line(3232, t0)
    tracer.run()
    return seen


def model_start(settings) -> dict:
    from games_py.meteors.game import Meteors
    game = Meteors(settings)
    seen: dict = {}
    clock = game.ticks
    pace = clock.pace

    def first_pace(wait: bool = True) -> None:
        if "since" not in seen:
            seen.update(since=clock.t - (clock.bios_due - timing.TICK), counter=clock.counter,
                        t0=clock.now - seen["t225"], first=clock.key_loop_place, edge=None, at=None)
            if clock.origin is not None:            # its tick's edge in PIT clocks, T0 from power-on
                seen.update(edge=round((clock.origin + clock.bios_due - timing.TICK) * timing.PIT_HZ / timing.IPS),
                            at=clock.origin + clock.t)
        pace(wait)
    clock.pace = first_pace
    calibrate = clock.calibrate

    def calibrated() -> bool:
        fast = calibrate()
        seen["t225"] = clock.now
        return fast
    clock.calibrate = calibrated
    _first_frame(game, settings)
    return seen


def _first_frame(game, settings) -> None:
    """Seed the game from the start time as the original's RANDOMIZE TIMER does and play it
    to its first frame."""
    game.random.randomize_timer(*settings.time)
    game.start()
    game.play(lambda g: g.total_frames > 0)


CHAIN_LINES = {"F1": 4600, "F2": 4640, "4740": 4740, "wait": 4750, "4790": 4790}   # demo_start's marks


def original_chain(settings, disk: str = "1612") -> dict:
    """The original's demo start in instructions from power-on: each handler line's first INT 3
    (demo_start.key_read's marks) and the pass of line 3560 that read the space."""
    tracer = MeteorsTracer(settings, disk)
    process, machine = tracer.process, tracer.machine
    seen: dict = {}
    passes: list[int] = []
    for mark, line in CHAIN_LINES.items():
        process.at_line(line, lambda mark=mark: seen.setdefault(mark, machine._instr_now()))
    process.at_offset(KEY_LOOP, lambda: passes.append(machine._instr_now()))

    def t0() -> None:
        seen["read"] = passes[-1]
        tracer._stop()
    process.at_line(3231, t0)
    tracer.run()
    return seen


def model_chain(settings) -> dict:
    """demo_start.key_read's marks for the session, with the show's values as the game draws them."""
    from games_py.meteors import demo_start
    from games_py.meteors.game import Meteors
    game = Meteors(settings)
    marks: dict = {}
    key_read = demo_start.key_read

    def read(*args):
        place, counter, clock = key_read(*args)
        marks.update(clock.marks)
        return place, counter, clock
    demo_start.key_read = read
    try:
        _first_frame(game, settings)
    finally:
        demo_start.key_read = key_read
    return marks


def original_steps(settings, disk: str = "1612") -> tuple[list[dict], list[tuple[list, int]]]:
    """The original's events and, for each frame, the INT 3s (offset, instruction count) of
    lines 1160-1230 and 1830-2810 and the interrupts taken from its line 1160 to its line 1230."""
    tracer = MeteorsTracer(settings, disk)
    machine, process = tracer.machine, tracer.process
    offsets = [o for o in process.image.line_offsets if 0x0B32 <= o <= 0x0BE3 or 0x1221 <= o < 0x1A3E]
    steps: list[list] = []
    interrupts: list[int] = []
    machine.events.irq.connect(lambda vector, now: interrupts.append(now))

    def at(offset: int) -> None:
        if steps:
            steps[-1].append((offset, machine._instr_now()))
    for offset in offsets:
        process.at_offset(offset, lambda offset=offset: at(offset))
    process.at_offset(STEP, lambda: steps.append([]))
    events = tracer.run()
    out = []
    for statements in steps:
        if not statements:
            out.append((statements, 0))
            continue
        first, last = statements[0][1], statements[-1][1]
        out.append((statements, bisect.bisect(interrupts, last) - bisect.bisect(interrupts, first)))
    return events, out


def segments(settings, disk: str = "1612") -> tuple[dict, int]:
    """(from, to, D$) -> Counter of the original's instructions less the model's paths, and the
    frames whose marks the original did not pass in the model's order."""
    from games_py.meteors.game import Meteors
    events, steps = original_steps(settings, disk)
    frames = sum(1 for e in events if e["event"] == "frame")
    game = Meteors(settings)
    game.player.log = []
    game.random.randomize_timer(*settings.time)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    table: dict = defaultdict(Counter)
    differing = 0
    for (statements, inside), (marks, snapshots) in zip(steps, game.player.log):
        wanted = {offset for offset, _ in marks}
        passed = [(o, at) for o, at in statements if o in wanted]
        order = [o for o, _ in passed]
        if demo_cost.START not in order or demo_cost.END not in order:
            differing += 1
            continue
        passed = passed[order.index(demo_cost.START):order.index(demo_cost.END) + 1]
        if [o for o, _ in passed] != [o for o, _ in marks]:
            differing += 1
            continue
        if inside:
            continue
        for j in range(len(marks) - 1):
            (a, d), (b, _) = marks[j], marks[j + 1]
            paths = snapshots[j + 1] - snapshots[j]
            table[a, b, d][passed[j + 1][1] - passed[j][1] - runtime_cost.instructions(paths)] += 1
    return table, differing


@click.group()
def main() -> None:
    pass


@main.command()
@session_options(seed=1612, count=20, seconds=60.0)
def start(seed: int, count: int, seconds: float, indices: tuple[int, ...], disk: str) -> None:
    for case in chosen(seed, count, seconds, indices, demo=True):
        settings = case.settings()
        o, m = original_start(settings, disk), model_start(settings)
        click.echo(f"  ticks {o['t0']} / {m['t0']}, since IRQ 0 {o['since']} / {m['since']:.0f}"
                   f" (original less the model {o['since'] - m['since']:+.0f}), counter {o['counter']} /"
                   f" {m['counter']}, the space read by the pass at {o['read']}; line 3560's first pass at"
                   f" {o['first']} / {m['first']:.1f} (show_time); T0's tick's edge (PIT clocks from power-on)"
                   f" {o['edge']} / {m['edge']}, T0 from power-on {o['at']} / {m['at']}")


@main.command()
@session_options(seed=1612, count=20, seconds=60.0)
def chain(seed: int, count: int, seconds: float, indices: tuple[int, ...], disk: str) -> None:
    """The demo's start piece by piece: the original's handler lines and read pass less the model's
    (demo_start; the read pass 113 later where the space's IRQ 1 came in the pass before)."""
    for case in chosen(seed, count, seconds, indices, demo=True):
        o, m = original_chain(case.settings(), disk), model_chain(case.settings())
        click.echo("  " + ", ".join(f"{mark} {o[mark] - m[mark]:+.0f}" for mark in m if mark in o))


@main.command()
@session_options(seed=7, count=20, seconds=60.0)
@click.option("--table", is_flag=True, help="print the segments as demo_cost.SEGMENTS")
def steps(seed: int, count: int, seconds: float, indices: tuple[int, ...], disk: str, table: bool) -> None:
    merged: dict = defaultdict(Counter)
    for case in chosen(seed, count, seconds, indices, demo=True):
        found, differing = segments(case.settings(), disk)
        for key, counts in found.items():
            merged[key].update(counts)
        if differing:
            click.echo(f"  {differing} frames took another way than the model's marks")
    for (a, b, d), counts in sorted(merged.items()):
        if table and len(counts) == 1:
            click.echo(f"    ({a:#06x}, {b:#06x}, {d!r}): {next(iter(counts))},")
        else:
            click.echo(f"  ({a:#06x}, {b:#06x}, {d!r}): {dict(counts)}")


if __name__ == "__main__":
    main()
