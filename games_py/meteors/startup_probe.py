"""Measure the first game's start on the original (a human player, sound on or off): what
the 34 ticks of timing.show_ends (SHOW_TO_PAUSE, the two TIMER waits, STARTUP[0]'s none) and
the first T0's place after line 3560's first pass (level_cost.KEY_LOOP_EXIT, timing.MUTED,
the music there: timing.KEY_LOOP_*) were read from.

For each start time, at line 3232's INT 3 of the first level screen (its T0): the BIOS
ticks since line 225 (the end of line 222's wait), the instructions since the last
IRQ 0, the note's interrupts left (DGROUP:0342), the music handler's counter
(DGROUP:0416) mod 32, the instructions since line 3560's first INT 3 (where the
tracer types the space), and how far into its BIOS tick that INT 3 came
(show_time.key_loop_place computes it).  Usage, from the repository (about 2 s a start time):

    python -m games_py.meteors.startup_probe --count 6 --seed 1612 --seed 99 [--sound off]
"""
from __future__ import annotations

import click

from games_py.meteors import original, timing, trace
from games_py.meteors.original import MeteorsTracer
from games_py.trace_sweep import start_times

NOTE_LEFT, COUNTER = 0x0342, 0x0416


def place_in_tick(machine) -> float:
    """Where the machine is inside the BIOS tick under way, in instructions from its edge
    (channel 0 counting 65536 on the lattice the 8254 keeps: show_time.key_loop_place)."""
    channel, now = machine.pit.channels[0], machine._pit_now()
    channel.settle(now)
    return (now - channel.start) % channel.reload * timing.IPS / timing.PIT_HZ


def key_loop_place(tracer) -> list[float]:
    """Watch line 3560's first INT 3 (where the tracer types a human player's space): its place
    in its tick goes into the returned list, for ``FrameClock.key_loop_place``."""
    seen: list[float] = []
    tracer.process.at_line(original.LINE_ANY_KEY,
                           lambda: seen or seen.append(place_in_tick(tracer.machine)))
    return seen


def tick_edge(machine) -> int:
    """The PIT clock (from power-on) of the edge that began the BIOS tick under way."""
    channel, now = machine.pit.channels[0], machine._pit_now()
    channel.settle(now)
    return now - (now - channel.start) % channel.reload


def key_loop_at(tracer) -> list[tuple[int, int]]:
    """Watch line 3560's first INT 3: its instruction count and its tick's edge in PIT clocks go
    into the returned list, for ``FrameClock.key_loop_at``."""
    seen: list[tuple[int, int]] = []
    machine = tracer.machine
    tracer.process.at_line(original.LINE_ANY_KEY,
                           lambda: seen or seen.append((machine._instr_now(), tick_edge(machine))))
    return seen


def measure(time: tuple[int, int, int, int], colour: bool, disk: str = "1612",
            sound: bool = True) -> tuple[int, int, int, int, int, int]:
    settings = trace.Settings(time=time, colour_switch=colour, sound=sound, demo=False, human="random:1",
                              seconds=0.2, frames=1)
    tracer = MeteorsTracer(settings, disk)
    process, machine = tracer.process, tracer.machine
    seen: dict[str, int] = {}
    last_interrupt = [0]
    machine.events.irq.connect(lambda vector, now: last_interrupt.__setitem__(0, now) if vector == 8 else None)

    def calibrated() -> None:
        seen.setdefault("t225", tracer._bios_ticks())

    def key_loop() -> None:
        if "key_loop" not in seen:
            seen.update(key_loop=machine._instr_now(), place=place_in_tick(machine))

    def level_t0() -> None:
        if "t0" not in seen:
            seen.update(t0=tracer._bios_ticks(), since=machine._instr_now() - last_interrupt[0],
                        note=process.word(NOTE_LEFT), counter=process.word(COUNTER) & 31,
                        from_key_loop=machine._instr_now() - seen["key_loop"])

    process.at_line(225, calibrated)
    process.at_line(original.LINE_ANY_KEY, key_loop)
    process.at_line(3232, level_t0)
    tracer.run()
    return (seen["t0"] - seen["t225"], seen["since"], seen["note"], seen["counter"], seen["from_key_loop"],
            round(seen["place"]))


@click.command()
@click.option("--count", type=click.IntRange(min=1), default=6, show_default=True)
@click.option("--seed", "seeds", type=int, multiple=True, default=(1612,), show_default=True)
@click.option("--disk", default="1612", show_default=True)
@click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="off: F1 typed behind the space at line 3560 (original.py)")
def main(count: int, seeds: tuple[int, ...], disk: str, sound: str) -> None:
    click.echo("seed time colour: ticks, since IRQ 0, note left, counter, from line 3560's first INT 3, "
               "line 3560's first INT 3 into its tick")
    for seed in seeds:
        for i, time in enumerate(start_times(count, seed)):
            colour = i % 2 == 0
            click.echo(f"{seed} {trace.format_time(time)} {'colour' if colour else 'mono'}: "
                       f"{measure(time, colour, disk, sound == 'on')}")


if __name__ == "__main__":
    main()
