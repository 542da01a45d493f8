"""Measure what GOSUB 3120 (the score) spends on its value, on METEORS.EXE's own code: what
runtime_cost's CINT paths and ``print_using_integer`` were read from.

The original runs (sound off) to the first INT 3 of line 3130; a copy of the machine's
memory and registers then runs lines 3130-3200 alone in a bare Unicorn for each value
(SCORE set to it, DS to 0), from that copy each time, its INT 3s going through the
program's own handler and the BIOS's services returning at once (a fixed number of them,
whatever the value).  For each value: the instructions of line 3150 (CINT) and of line
3200 (PRINT USING "SCORE:######"; SCORE) less what the model says; one number each over
all values means the model is exact.  ``--width`` rewrites the field ('#'s) to try other
widths (values that do not fit are left out).  Usage, from the repository (about 2 s of
CPU a thousand values):

    python -m games_py.meteors.score_probe --first -32768 --last 32767
"""
from __future__ import annotations

import sys
from collections import Counter

import click
from unicorn import UC_ARCH_X86, UC_HOOK_CODE, UC_HOOK_INTR, UC_MODE_16, UC_PROT_ALL, Uc
from unicorn import x86_const as X

from games_py.meteors import trace
from games_py.meteors.original import TraceFailure, snapshot_at
from games_py.qbasic import mbf, runtime_cost

START, CINT_AT, CINT_END, PRINT_AT, PRINT_END = 0x1C66, 0x1CB6, 0x1CC4, 0x1D1D, 0x1D34
SCORE, DS, FORMAT = 0x0FAE, 0x0FB0, 0x1284       # FORMAT: the descriptor of "SCORE:######"
REGISTERS = {"ax": X.UC_X86_REG_AX, "bx": X.UC_X86_REG_BX, "cx": X.UC_X86_REG_CX,
             "dx": X.UC_X86_REG_DX, "si": X.UC_X86_REG_SI, "di": X.UC_X86_REG_DI,
             "bp": X.UC_X86_REG_BP, "sp": X.UC_X86_REG_SP, "ds": X.UC_X86_REG_DS,
             "es": X.UC_X86_REG_ES, "ss": X.UC_X86_REG_SS, "flags": X.UC_X86_REG_FLAGS}


def snapshot(disk: str) -> tuple[bytes, dict[str, int], int, int]:
    """Memory, registers, load segment and DGROUP at line 3130's first INT 3."""
    settings = trace.Settings(time=(12, 0, 0, 0), colour_switch=False, sound=False, demo=False,
                              human="random:1", seconds=5)
    return snapshot_at(settings, START, "the original never reached line 3130", disk)


class ScoreRoutine:
    """Lines 3130-3200 of the copy, run for one value at a time."""

    def __init__(self, memory: bytes, registers: dict[str, int], load: int, dgroup: int) -> None:
        self.memory, self.registers, self.load, self.dgroup = memory, registers, load, dgroup
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.uc.mem_map(0, 0x110000, UC_PROT_ALL)
        self.count = 0
        self.marks: dict[int, int] = {}
        self.uc.hook_add(UC_HOOK_CODE, self._counted)
        self.uc.hook_add(UC_HOOK_INTR, self._interrupt)
        self.field: bytes | None = None

    def _counted(self, uc, address, size, data) -> None:
        self.count += 1
        self.marks.setdefault(address - self.load * 16, self.count)

    def _interrupt(self, uc, number, data) -> None:
        vector = int.from_bytes(uc.mem_read(number * 4, 4), "little")
        if vector >> 16 >= 0xF000 or number == 0x21:
            return                          # a BIOS or DOS service: as if it returned at once
        sp, ss = uc.reg_read(X.UC_X86_REG_SP), uc.reg_read(X.UC_X86_REG_SS)
        flags = uc.reg_read(X.UC_X86_REG_FLAGS)
        for word in (flags, uc.reg_read(X.UC_X86_REG_CS), uc.reg_read(X.UC_X86_REG_IP)):
            sp = (sp - 2) & 0xFFFF
            uc.mem_write(ss * 16 + sp, word.to_bytes(2, "little"))
        uc.reg_write(X.UC_X86_REG_SP, sp)
        uc.reg_write(X.UC_X86_REG_FLAGS, flags & ~0x300)
        uc.reg_write(X.UC_X86_REG_CS, vector >> 16)
        uc.reg_write(X.UC_X86_REG_IP, vector & 0xFFFF)

    def restart(self, start: int) -> None:
        """The copy's memory and registers again, at the load segment's ``start``; nothing counted."""
        self.uc.mem_write(0, self.memory)
        for name, register in REGISTERS.items():
            self.uc.reg_write(register, self.registers[name])
        self.uc.reg_write(X.UC_X86_REG_CS, self.load)
        self.uc.reg_write(X.UC_X86_REG_IP, start)
        self.count, self.marks = 0, {}

    def _word(self, offset: int, value: int) -> None:
        self.uc.mem_write(self.dgroup * 16 + offset, (value & 0xFFFF).to_bytes(2, "little"))

    def set_width(self, width: int) -> None:
        """The field of '#'s (the format keeps its 12 characters)."""
        text = (b"SCORE:" + b" " * (6 - width) if width <= 6 else b"SCORE:"[:12 - width]) + b"#" * width
        self.field = text

    def run(self, value: int) -> tuple[int, int, int]:
        """(CINT's instructions, PRINT's, the score the routine stored)."""
        uc = self.uc
        self.restart(START)
        if self.field is not None:
            pointer = int.from_bytes(self.memory[self.dgroup * 16 + FORMAT + 2:][:2], "little")
            uc.mem_write(self.dgroup * 16 + pointer, self.field)
        self._word(SCORE, value)
        self._word(DS, 0)
        uc.emu_start(self.load * 16 + START, self.load * 16 + PRINT_END, count=100_000)
        stored = int.from_bytes(uc.mem_read(self.dgroup * 16 + SCORE, 2), "little", signed=True)
        m = self.marks
        return m[CINT_END] - m[CINT_AT], self.count + 1 - m[PRINT_AT], stored


def cint_paths(value: int) -> int:
    with mbf.counting_paths() as paths:
        mbf.cint(mbf.from_int(value))
    return runtime_cost.instructions({k: n for k, n in paths.items() if k.startswith("cint:")})


@click.command()
@click.option("--first", type=click.IntRange(-32768, 32767), default=-200, show_default=True)
@click.option("--last", type=click.IntRange(-32768, 32767), default=200, show_default=True)
@click.option("--width", type=click.IntRange(4, 7), default=6, show_default=True,
              help="The field's '#'s (the program's own is 6).")
@click.option("--disk", default="1612", show_default=True)
def main(first: int, last: int, width: int, disk: str) -> None:
    if last < first:
        raise click.BadParameter("--last is below --first")
    try:
        routine = ScoreRoutine(*snapshot(disk))
    except TraceFailure as exc:
        raise click.ClickException(str(exc)) from None
    if width != 6:
        routine.set_width(width)
    cint, printed = Counter(), Counter()
    values = [v for v in range(first, last + 1) if len(str(abs(v))) + (v < 0) <= width]
    for value in values:
        cint_cost, print_cost, stored = routine.run(value)
        if stored != value:
            raise click.ClickException(f"the routine stored {stored} for {value}")
        cint[cint_cost - cint_paths(value)] += 1
        printed[print_cost - runtime_cost.print_using_integer(value, width)] += 1
    click.echo(f"{len(values)} values, field of {width}")
    click.echo(f"CINT (line 3150) less runtime_cost's paths: {dict(cint)}")
    click.echo(f"PRINT USING (line 3200) less print_using_integer: {dict(printed)}")
    sys.exit(0 if len(cint) == len(printed) == 1 else 1)


if __name__ == "__main__":
    main()
