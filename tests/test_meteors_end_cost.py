"""A game's two-second pauses on METEORS.EXE, pass by pass, against end_cost.py.

Line 1710's ``T = TIMER: WHILE ABS(TIMER - T) < 2: A$ = INKEY$: WEND`` polls about 2,000
times; where its last pass ends inside its tick depends on where it began and on what each
pass spends on its time of day and T, and the next game's frames keep that phase.  The
original runs a colour human session (sound off) to its first game's end; every pass of
both pauses (the WEND's INT 3 to the next, BIOS ticks' handlers taken off) and each pause's
entry (T = TIMER's arithmetic) must take what the model says.  Until this was modelled the
pause's end was one number after its tick, up to a pass (about 1,200 instructions) off.
"""
from __future__ import annotations

import bisect
from collections import Counter

from games_py.meteors import end_cost, original, sweep, timing
from games_py.qbasic import mbf, rng, runtime_cost
from tests.machine_helpers import DISK1612, needs_originals

PAUSE_START, LOOP_START, WEND, PAUSE_END = 0x1125, 0x1150, 0x1193, 0x1196
HANDLER = timing.BIOS_HANDLER + timing.TICK_HOOK    # an arrow key hooked INT 1Ch before the end


def _run_to_first_game_end() -> tuple[list[tuple[int, int, int]], list[int], timing.DosTime]:
    case = sweep.Case((1, 3, 3, 28), colour=True, sound=False, seconds=9, human="random:2")
    settings = case.settings()
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    machine, process = tracer.machine, tracer.process
    marks: list[tuple[int, int, int]] = []
    ticks: list[int] = []

    def bios_ticks() -> int:
        return machine.memory.rw(0, original.BIOS_TICKS) | machine.memory.rw(0, original.BIOS_TICKS + 2) << 16

    for offset in (PAUSE_START, LOOP_START, WEND, PAUSE_END):
        process.at_offset(offset, lambda offset=offset: marks.append((machine._instr_now(), offset, bios_ticks())))
    machine.events.irq.connect(lambda vector, now: ticks.append(now) if vector == 8 else None)
    tracer.run()
    return marks, ticks, timing.DosTime(settings.time)


@needs_originals
def test_the_pauses_passes_cost_what_the_original_spends_on_their_times() -> None:
    marks, ticks, clock = _run_to_first_game_end()
    assert sum(offset == PAUSE_END for _, offset, _ in marks) >= 2       # both pauses of a game's end
    tally: Counter = Counter()
    costs = set()
    start = None
    for (at, offset, count), (until, next_offset, _) in zip(marks, marks[1:]):
        if offset == PAUSE_START:
            with mbf.counting_paths() as paths:
                start = rng.timer(*clock.at(count))
            assert next_offset == LOOP_START
            tally[until - at - end_cost.ENTRY - runtime_cost.instructions(paths)] += 1
        elif offset in (LOOP_START, WEND) and next_offset in (WEND, PAUSE_END):
            read = at + 21                           # polling.TIME_READ: the pass's time read
            seen = count + bisect.bisect(ticks, read) - bisect.bisect(ticks, at)
            cost, done = end_cost.pause_pass(clock.at(seen), start)
            assert done == (next_offset == PAUSE_END)
            handlers = bisect.bisect(ticks, until) - bisect.bisect(ticks, at)
            tally[until - at - HANDLER * handlers - cost] += 1
            costs.add(cost)
    assert sum(tally.values()) > 3_000 and len(costs) >= 10   # passes of many costs, all exact
    assert tally == Counter({0: sum(tally.values())})
