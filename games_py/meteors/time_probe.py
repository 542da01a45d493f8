"""Measure line 5730 (``PRINT "  TIME:" + STR$(TIME) + " SEC": IF TIME <> 1 THEN PRINT "S"``)
on METEORS.EXE's own code against table_cost.seconds_string, for every TIME in a range.

score_probe's method: the original runs (a demo session, sound off) to line 5730's first INT 3;
a copy of the machine then runs the line alone in a bare Unicorn for each TIME (the single at
DGROUP:10D0), its INT 3s through the program's own handler, the BIOS's services returning at
once: 4 instructions fewer a character printed than on the machine (INT FEh and IRET, twice),
which the probe adds back.  For each TIME: the instructions less the law, grouped; one group
means the law is exact over the range (TIME 1 prints no "S": 4 more here, as the law has it).
Usage, from the repository (about 1 s a hundred values):

    python -m games_py.meteors.time_probe --last 255
"""
from __future__ import annotations

import sys
from collections import defaultdict

import click
from games_py.meteors import table_cost, trace
from games_py.meteors.original import TraceFailure, snapshot_at
from games_py.meteors.score_probe import ScoreRoutine
from games_py.qbasic import mbf

START, END, TIME = 0x337C, 0x33CA, 0x10D0   # line 5730's first statement (after its INT 3), line 5740's
                                            # (after its INT 3); TIME's single
SETTINGS = trace.Settings(time=(10, 55, 20, 83), colour_switch=False, sound=False, demo=True, seconds=60)


class TimeLine(ScoreRoutine):
    """Line 5730 of the copy, run for one TIME at a time."""

    def __init__(self, disk: str) -> None:
        super().__init__(*snapshot_at(SETTINGS, START, "the original never reached line 5730", disk))

    def instructions(self, seconds: int) -> int:
        self.restart(START)
        self.uc.mem_write(self.dgroup * 16 + TIME, mbf.from_int(seconds).raw)
        self.uc.emu_start(self.load * 16 + START, self.load * 16 + END, count=200_000)
        return self.count + 4 * len(str(seconds))      # the BIOS's services, as on the machine


@click.command()
@click.option("--first", type=click.IntRange(0, 32767), default=0, show_default=True)
@click.option("--last", type=click.IntRange(0, 32767), default=255, show_default=True)
@click.option("--disk", default="1612", show_default=True)
def main(first: int, last: int, disk: str) -> None:
    if last < first:
        raise click.BadParameter("--last is below --first")
    try:
        line = TimeLine(disk)
    except TraceFailure as exc:
        raise click.ClickException(str(exc)) from None
    groups: dict[int, list[int]] = defaultdict(list)
    for seconds in range(first, last + 1):
        groups[line.instructions(seconds) - table_cost.seconds_string(seconds) - 4 * (seconds == 1)].append(seconds)
    for residual, values in sorted(groups.items()):
        click.echo(f"{residual:+d}: {len(values)} values, from {values[0]}: {values[:12]}")
    sys.exit(0 if len(groups) == 1 else 1)


if __name__ == "__main__":
    main()
