"""Watch the original's string space (sound-on two-minute sessions): where its rover wraps
and where one statement merges thousands of freed blocks, which moved the ticks of the
two-minute sweep's misses until the Python game followed the string space (strings.py;
docs/meteors-internals.md, section 6, "The string space").

The runtime's string space lies between DGROUP:0428 and DGROUP:042C; DGROUP:042A is its
rover.  Each string the program makes (a temporary such as CHR$(27) at line 1110 or the
countdown's text at line 3270, an assignment such as D$ = "UP") takes the next block at
the rover; freed blocks behind it are not merged until an allocation finds the block at
the rover too small (062B:82D5).  Then 062B:830A walks from the rover to the end and
from the start, merging each run of free blocks (062B:833E, 8 instructions a block) until
one is big enough.  After the rover has wrapped (about 57,000 bytes, 20 to 56 a frame),
the first allocation past a string that lived since the start merges the whole run of
garbage up to the next live string: thousands of blocks, about 31,500 instructions in one
statement, which can move a later SOUND across a music interrupt.

For each case, at line 1110 (a frame's first statement): the rover; where it wraps; and
where the free block at the rover grows past ``--big`` bytes (a merge), with how many blocks
the heap held between the rover and the next live string just before.  Usage, from the
repository (a two-minute session takes about 10 s):

    python -m games_py.meteors.heap_probe --seed 1612 --case 9 --case 21
"""
from __future__ import annotations

import click

from games_py import tracing
from games_py.meteors import original, sweep
from games_py.meteors.probe_cases import chosen, session_options

START, ROVER, END = 0x0428, 0x042A, 0x042C


def free_blocks(process, start: int, end: int) -> list[int]:
    """The addresses of the free blocks from ``start`` to the end of the string space: a free
    block's header is odd (its size less 1), a live one's is its descriptor's address (the
    string's length is at it), as the runtime's walk (062B:8330) reads them."""
    found = []
    at = start
    while at < end:
        header = process.word(at)
        if header == 0xFFFF:
            break
        if header & 1:
            found.append(at)
            at += header + 1
        else:
            at += (process.word(header) + 3) & ~1
    return found


def measure(case: sweep.Case, big: int, disk: str = "1612") -> list[str]:
    tracer = original.MeteorsTracer(case.settings(), disk)
    p = tracer.process
    found: list[str] = []
    state: dict = {"rover": None, "free": None, "wrapped": False}

    def frame() -> None:
        rover, end = p.word(ROVER), p.word(END)
        where = f"game {p.integer(original.GAME)} frame {tracer.frames}"
        if state["rover"] is None:
            found.append(f"{where}: string space {p.word(START)}..{end}, rover {rover}")
        elif rover < state["rover"]:
            state["wrapped"] = True
            found.append(f"{where}: the rover wrapped ({state['rover']} -> {rover})")
        header = p.word(rover)
        size = header + 1 if header & 1 and header != 0xFFFF else 0
        if state["wrapped"] and size > big:
            if state["free"] is None:
                how = "merged by the wrap's walk from the start"
            else:
                merged = sum(1 for at in state["free"] if rover <= at < rover + size)
                how = f"merged from {merged} free blocks since the last frame (062B:833E: {8 * merged} instructions)"
            found.append(f"{where}: a free run of {size} bytes at the rover {rover}, {how}")
            state["wrapped"] = False
        state["rover"] = rover
        state["free"] = free_blocks(p, rover, end) if state["wrapped"] else None

    p.at_line(original.LINE_STEP, frame)
    tracer.run()
    return found


@click.command()
@session_options(seed=1612, count=24, seconds=120.0)
@click.option("--big", type=int, default=1000, show_default=True, help="a merged run this large is reported")
def main(seed: int, count: int, seconds: float, indices: tuple[int, ...], big: int, disk: str) -> None:
    for case in chosen(seed, count, seconds, indices):
        try:
            lines = measure(case, big, disk)
        except (tracing.TraceFailure, *tracing.user_errors()) as exc:
            raise click.ClickException(str(exc).splitlines()[0]) from None
        for line in lines:
            click.echo("  " + line)


if __name__ == "__main__":
    main()
