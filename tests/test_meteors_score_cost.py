"""What a bite's score costs on METEORS.EXE, for values across the whole integer range.

After a bite (lines 3010-3070) GOSUB 3120 adds DS to SCORE, converts it (CSNG), compares
it with the clamps, rounds it back (CINT) and prints it with PRINT USING "SCORE:######";
how many instructions that takes depends on the value (its digits, its sign, zero, the
runtime's DIVs at 10000 and 100: games_py.qbasic.runtime_cost).  The original is traced
with sound off (no music interrupts in the window), and at each bite's score routine
(line 3130's INT 3) SCORE is set so that the new score is the next value of a list, then
put back to what the game computed when the routine returns (line 3210), so the session
itself goes on as it would.  From the bite's wait's end to line 1180, each window with no
interrupt in it must take what the Python game's model says for that value.
"""
from __future__ import annotations

import bisect
import random

from click.testing import CliRunner

from games_py.meteors import game, score_probe, trace
from tests.machine_helpers import DISK1612, needs_originals

WAIT_ENDS = {0x1BC2: False, 0x1C26: True}   # after a block's bite (line 3020), a crater's (3070)
SCORE_ROUTINE, SCORE_RETURN, LINE_1180 = 0x1C65, 0x1D44, 0x0B66
SCORE, DS = 0xFAE, 0xFB0
# every way of PRINT USING's integer field and of CINT: zero, one to five digits, the
# signs, a field filled by a sign, the top bound, a ten-thousands value with no hundreds
VALUES = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10099, 10100, 32767, -1, -9, -10,
          -99, -100, -9999, -10000, -10050, -32767, -32768]


@needs_originals
def test_a_bites_score_costs_what_the_runtime_spends_on_the_value() -> None:
    from games_py.meteors import original
    settings = trace.Settings(time=(14, 20, 40, 29), colour_switch=True, sound=False, demo=False,
                              human="random:29", frames=160)
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    m, p = tracer.machine, tracer.process
    values = VALUES + random.Random(1612).sample(range(-32768, 32768), 40)
    interrupts: list[int] = []
    m.events.irq.connect(lambda vector, now: interrupts.append(now))
    bite: dict = {}
    windows: list[tuple[int, bool, int]] = []          # (value, crater, instructions)

    def wait_ended(crater: bool) -> None:
        bite.update(start=m._instr_now(), crater=crater, value=None)

    def score_routine() -> None:
        if "start" in bite and len(windows) < len(values):
            ds = p.integer(DS)
            bite["value"] = values[len(windows)]
            bite["real"] = game.wrap16(p.integer(SCORE) + ds)
            p.memory.ww(p.dgroup, SCORE, (bite["value"] - ds) & 0xFFFF)

    def score_returns() -> None:
        if bite.get("value") is not None:
            p.memory.ww(p.dgroup, SCORE, bite["real"] & 0xFFFF)

    def line_1180() -> None:
        if bite.get("value") is not None:
            start, now = bite["start"], m._instr_now()
            if bisect.bisect(interrupts, start) == bisect.bisect(interrupts, now):
                windows.append((bite["value"], bite["crater"], now - start))
        bite.clear()

    for offset, crater in WAIT_ENDS.items():
        p.at_offset(offset, lambda crater=crater: wait_ended(crater))
    p.at_offset(SCORE_ROUTINE, score_routine)
    p.at_offset(SCORE_RETURN, score_returns)
    p.at_offset(LINE_1180, line_1180)
    tracer.run()

    model = game.Meteors(settings)
    compared = [(value, cost, model.bite_score_work(value, crater)) for value, crater, cost in windows]
    assert len(compared) >= 40 and {v for v, _, _ in compared} >= set(VALUES[:12])
    assert len({cost for _, cost, _ in compared}) >= 12
    assert [(v, cost) for v, cost, _ in compared] == [(v, model_cost) for v, _, model_cost in compared]


@needs_originals
def test_the_score_probe_finds_the_models_print_and_cint_exact_in_another_field() -> None:
    """The probe (lines 3130-3200 alone in a bare Unicorn from a copy of the machine) over
    values of 1 to 3 digits, both signs and zero, in a field of 5: one number each."""
    result = CliRunner().invoke(score_probe.main, ["--first", "-150", "--last", "150", "--width", "5",
                                                   "--disk", str(DISK1612)])
    assert result.exit_code == 0, result.output
    assert "301 values, field of 5" in result.output


def test_the_score_probe_refuses_a_bad_range_in_one_line() -> None:
    result = CliRunner().invoke(score_probe.main, ["--first", "3", "--last", "1"])
    assert result.exit_code == 2 and result.output.strip().splitlines()[-1] == "Error: Invalid value: --last is below --first"
