"""A step's move (GOSUB 2830, lines 2880-2960) against METEORS.EXE, frame by frame from power-on."""
from __future__ import annotations

from games_py.meteors import original, sweep
from games_py.meteors.game import Meteors
from tests.machine_helpers import DISK1612, needs_originals


def frame_starts(case: sweep.Case, frames: int) -> tuple[list[int], list[float], list[dict]]:
    """Line 1110's INT 3 from power-on at each of the first ``frames`` frames: the original's,
    the model's (its clock's origin + t), and the original's frame events."""
    settings = case.settings()
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    machine = tracer.machine
    theirs: list[int] = []
    tracer.process.at_offset(0x0B02, lambda: theirs.append(machine._instr_now()))
    events = tracer.run()
    game = Meteors(settings)
    game.random.randomize_timer(*settings.time)
    ours: list[float] = []

    class Log(list):
        def append(self, item) -> None:
            if item[0] == 1110:
                ours.append(game.ticks.t + game.ticks.origin)
    game.place_log = Log()
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return theirs[:frames], ours[:frames], [e for e in events if e["event"] == "frame"][:frames]


@needs_originals
def test_down_off_the_top_row_costs_one_less() -> None:
    """Line 2930's IF D$ = "UP" AND Y > 4 compares Y whatever D$ is, and skips an instruction
    where Y is 4 (timing.MOVE_ROW's ("DOWN", "from 4")): seed 7's two-minute random:9 presses
    DOWN on row 4 at frames 52 and 68, where the model's frames began one instruction late
    until 27 Nov.  Every one of its first 75 frames starts at the original's instruction."""
    case = sweep.with_human(sweep.demo_cases(24, seed=7, seconds=120))[9]
    theirs, ours, frames = frame_starts(case, 75)
    downs_from_top = [f for f in range(1, 75) if frames[f].get("key") == "DOWN" and frames[f - 1]["player"][1] == 4]
    assert len(downs_from_top) >= 2
    assert [round(a - b) for a, b in zip(theirs, ours)] == [0] * 75
