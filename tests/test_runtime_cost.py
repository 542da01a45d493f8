"""What METEORS.EXE's own MBF routines take, in instructions, against games_py.qbasic.runtime_cost.

Each routine is far-called alone in a bare Unicorn (pcemu.tools.runtime_probe) with a code hook
counting its instructions; less what ``runtime_cost.instructions`` says for the paths
``mbf.counting_paths`` counted on the same operands, one number must remain per routine (its
fixed part).  The operands are drawn near the ways that were wrong (branch h-demo): a rounding
whose carry runs out of the mantissa into the exponent (062B:3753, ``round.exponent``: 2
instructions, INC AH and JE; X1 - SLOPE + SLOPE back at a power of two, line 900), and an
alignment by 22 to 24 bits, a word's shift then a byte's, with the byte shifted out not zero
(``byte_from_word`` with ``byte_sticky``: the sticky bit's OR DH, 1 is one instruction, where the
old table charged 8).
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games_py.qbasic import mbf, runtime_cost
from games_py.qbasic.mbf import MBF
from tests.machine_helpers import DISK1612, needs_originals

FAC, OPERAND = 0x810, 0x1000
ROUTINES = {"FADD fac+[di]": mbf.add, "FSUB fac-[di]": mbf.sub, "FMUL fac*[di]": mbf.mul,
            "FDIV fac/[di]": mbf.div}


@pytest.fixture(scope="module")
def counted():
    from unicorn import UC_HOOK_CODE

    from games_py.meteors import original
    from pcemu.tools.runtime_probe import RuntimeProbe
    probe = RuntimeProbe(original.read_program(str(DISK1612)))
    count = [0]
    probe.uc.hook_add(UC_HOOK_CODE, lambda uc, address, size, data: count.__setitem__(0, count[0] + 1))

    def run(routine: str, a: MBF, b: MBF) -> tuple[int, Counter] | None:
        with mbf.counting_paths() as paths:
            try:
                ROUTINES[routine](a, b)
            except (mbf.MBFOverflow, mbf.MBFDivisionByZero):
                return None
        probe.write(FAC, a.raw)
        probe.write(OPERAND, b.raw)
        count[0] = 0
        if probe.call(routine, di=OPERAND) is not None:
            return None
        return count[0], paths
    return run


def _operand(rng: random.Random, exponent: int) -> MBF:
    """Mantissas of all ones, one bit, an empty low byte or word, or anything."""
    mantissa = rng.choice([0x7FFFFF, 0x7FFFFE, 0, 1, 0x7FFF80, 0x400000, rng.randrange(1 << 23),
                           rng.randrange(1 << 23) & 0x7FFF00, rng.randrange(1 << 23) & 0x7F0000])
    sign = rng.choice([0, 0x80])
    return MBF(bytes([mantissa & 0xFF, mantissa >> 8 & 0xFF, mantissa >> 16 | sign, exponent]))


@needs_originals
def test_the_mbf_routines_cost_their_fixed_part_and_their_paths(counted) -> None:
    rng = random.Random(1612)
    fixed: dict[str, Counter] = {routine: Counter() for routine in ROUTINES}
    seen: Counter = Counter()
    for _ in range(12000):
        routine = rng.choice(list(ROUTINES))
        exponent = rng.randrange(0x70, 0x90)
        a, b = _operand(rng, exponent), _operand(rng, exponent - rng.randrange(0, 27))
        if rng.random() < 0.5:
            a, b = b, a
        result = counted(routine, a, b)
        if result is None:
            continue
        instructions, paths = result
        fixed[routine][instructions - runtime_cost.instructions(paths)] += 1
        seen.update(name for name in paths if name.endswith(("round.exponent", "byte_from_word")))
        seen.update("byte_from_word+sticky" for name in paths
                    if name == "add:byte_from_word" and paths["add:byte_sticky"])
    # the ways in question were met, many times each
    assert seen["add:round.exponent"] > 20 and seen["mul:round.exponent"] > 20
    assert seen["add:byte_from_word"] > 100 and seen["byte_from_word+sticky"] > 50
    assert {routine: list(counts) for routine, counts in fixed.items()} == {
        "FADD fac+[di]": [70], "FSUB fac-[di]": [72], "FMUL fac*[di]": [86], "FDIV fac/[di]": [30]}


@needs_originals
def test_a_meteors_way_back_to_a_power_of_two_carries_into_the_exponent(counted) -> None:
    """Line 900's first XF = XF + SLOPE after line 870's XF = X1 - SLOPE, X1 = 16, X2 = 30,
    Y2 = 23, N = 1 (seed 1612's 15:48:23.38 /M demo, frame 18): the sum rounds up to 16 and
    takes 2 instructions more than one that does not."""
    slope = mbf.mul(mbf.div(MBF.from_float(14.0), MBF.from_float(22.0)), MBF.from_float(1.0))
    xf = mbf.sub(MBF.from_float(16.0), slope)
    instructions, paths = counted("FADD fac+[di]", xf, slope)
    assert paths["add:round.exponent"] == 1
    assert instructions - runtime_cost.instructions(paths) == 70
