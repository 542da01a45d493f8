"""Measure line 990's `D = SQR(DX^2 + DY^2)` statement (a straight meteor's) on the original's
own runtime code and write games_py/meteors/sqr_cost.py.

The runtime's `^` (062B:388A) and SQR (062B:39C6) are not transcribed; their instruction
counts depend on the operands.  DX = X2 - X1 and DY = Y2 - Y1 are whole numbers (-79 to 79
but 0, and 1 to 23), so the statement is run in a bare Unicorn, from a copy of the machine
taken at its INT 3, for every pair: the count from the statement's code to the next INT 3
(as a statement's length is counted between INT 3s, less the INT 3 itself) and D, checked
against the Python game's ``sqr``.  The count is the same for DX and -DX.  Usage, from the
repository (about 15 s):

    python -m games_py.meteors.sqr_probe -o games_py/meteors/sqr_cost.py
"""
from __future__ import annotations

import click

from games_py.meteors import trace
from games_py.meteors.original import TraceFailure, snapshot_at
from games_py.meteors.score_probe import REGISTERS, ScoreRoutine
from games_py.qbasic import mbf
from games_py.qbasic.mbf import MBF

STATEMENT, NEXT = 0x09C7, 0x09F6                 # line 990's SQR statement, the next INT 3
DX, DY, D = 0x0FD4, 0x0FD0, 0x0FE6               # DGROUP offsets of the singles
# a session whose first straight meteor comes early (seed 7's two-minute random:13, frame 61)
SESSION = trace.Settings(time=(13, 18, 45, 63), colour_switch=False, sound=True, demo=False,
                         human="random:13", seconds=120)


def snapshot(disk: str):
    return snapshot_at(SESSION, STATEMENT, "the session met no straight meteor", disk)


def measure(disk: str, pairs=None) -> dict[tuple[int, int], int]:
    """Instructions of the statement for each (|DX|, DY) (or each of ``pairs``, (DX, DY))."""
    from games_py.meteors.game import sqr
    memory, registers, load, dgroup = snapshot(disk)
    routine = ScoreRoutine(memory, registers, load, dgroup)
    uc = routine.uc
    counts: dict[tuple[int, int], int] = {}
    every = [(dx, dy) for dx in range(-79, 80) for dy in range(1, 24) if dx != 0]
    for dx, dy in pairs or every:
        uc.mem_write(0, memory)
        for name, register in REGISTERS.items():
            uc.reg_write(register, registers[name])
        uc.mem_write(dgroup * 16 + DX, mbf.from_int(dx).raw)
        uc.mem_write(dgroup * 16 + DY, mbf.from_int(dy).raw)
        routine.count, routine.marks = 0, {}
        uc.emu_start(load * 16 + STATEMENT, load * 16 + NEXT, count=200_000)
        d = MBF(bytes(uc.mem_read(dgroup * 16 + D, 4)))
        one, two = mbf.from_int(dx), mbf.from_int(dy)
        if d.raw != sqr(mbf.add(mbf.mul(one, one), mbf.mul(two, two))).raw:
            raise TraceFailure(f"SQR for DX={dx}, DY={dy}: the runtime's {d.to_float()} is not the model's")
        count = routine.count + 1              # and the statement's own INT 3
        if counts.setdefault((abs(dx), dy), count) != count:
            raise TraceFailure(f"DX={dx} and {-dx} (DY={dy}) cost differently")
    return counts


@click.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), required=True)
@click.option("--disk", default="1612", show_default=True)
def main(output: str, disk: str) -> None:
    counts = measure(disk)
    base = min(counts.values())
    text = ['"""Instructions of line 990\'s `D = SQR(DX^2 + DY^2)` statement (a straight meteor\'s), INT 3',
            "to INT 3, for each |DX| (1-79) and DY (1-23): measured on the original's runtime by",
            "games_py/meteors/sqr_probe.py, which wrote this file (docs/meteors-internals.md, section 6).",
            '"""', "", f"BASE = {base}", "# one row a |DX|, one number a DY (1-23): the count less BASE",
            "ROWS = ("]
    text += ["    (" + ", ".join(str(counts[dx, dy] - base) for dy in range(1, 24)) + "),"
             for dx in range(1, 80)]
    text += [")", "", "", "def sqr_line(dx: int, dy: int) -> int:",
             '    """The statement\'s instructions for whole DX (not 0) and DY (1 to 23)."""',
             "    return BASE + ROWS[abs(dx) - 1][dy - 1]", ""]
    with open(output, "w") as out:
        out.write("\n".join(text))
    click.echo(f"{len(counts)} pairs: {base} to {max(counts.values())} instructions")


if __name__ == "__main__":
    main()
