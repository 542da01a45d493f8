"""The original against the Python game over many sessions (``meteors-sweep``).

``demo_cases`` spreads start times over the day (the first at midnight, the
last at 23:59:59.99, where TIMER's arithmetic is special), cycling through the
display switch (/C, /M) and the sound (on, off).  ``check`` traces the original
for the case's virtual time, then the Python game for as many frames, and finds
the first event that differs.  Runs go through pcemu.sweep (local cores, Ray or Dask).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Callable, Sequence

from games_py.meteors import compare, trace
from games_py.trace_sweep import run_counted, start_times


@dataclass(frozen=True)
class Case:
    time: tuple[int, int, int, int]
    colour: bool
    sound: bool
    seconds: float = 120.0
    human: str | None = None

    def settings(self) -> trace.Settings:
        return trace.Settings(time=self.time, colour_switch=self.colour, sound=self.sound,
                              demo=self.human is None, human=self.human, seconds=self.seconds)


@dataclass
class Result:
    options: str
    equal: bool
    detail: str
    frames: int = 0
    games_over: int = 0
    levels: int = 0
    hits: int = 0
    frames_equal: int = 0          # frames before the first difference (all of them if equal)
    at_reseed: bool = False        # differs only where a key's handler reseeds from the time of day
    games: int = 0                 # games started

    def as_dict(self) -> dict:
        return asdict(self)


def demo_cases(count: int, seed: int = 1612, seconds: float = 120.0) -> list[Case]:
    return [Case(time, colour=i % 2 == 0, sound=(i // 2) % 2 == 0, seconds=seconds)
            for i, time in enumerate(start_times(count, seed))]


def with_human(cases: Sequence[Case], policy: str = "random") -> list[Case]:
    """Case i played by ``random:i`` (or every case by ``simple``)."""
    return [replace(c, human="simple" if policy == "simple" else f"random:{i}") for i, c in enumerate(cases)]


def options(case: Case) -> str:
    return (f"--time {trace.format_time(case.time)} {'--colour' if case.colour else '--mono'} "
            f"--sound {'on' if case.sound else 'off'} --seconds {case.seconds:g}"
            + (f" --human {case.human}" if case.human else " --demo"))


def check(case: Case, disk: str = "1612") -> Result:
    from games_py.meteors.original import TraceFailure, trace_original
    settings = case.settings()
    try:
        original = trace_original(settings, disk)
    except TraceFailure as exc:
        return Result(options(case), False, f"the original's trace stopped: {exc}")
    frames = sum(1 for e in original if e["event"] == "frame")
    python = compare.python_trace(settings, frames)
    found = compare.first_divergence(original, python)
    kinds = [e["event"] for e in original]
    upto = original if found is None else original[:found[0]]
    at_reseed = bool(found and (found[1] or {}).get("reseed") and python[-1]["event"] == "unmodelled")
    return Result(options(case), found is None, compare.describe(found), frames,
                  kinds.count("game_over"), kinds.count("level"), kinds.count("hit"),
                  sum(1 for e in upto if e["event"] == "frame"), at_reseed, kinds.count("game_start"))


def _check(args: tuple[Case, str]) -> Result:
    return check(*args)


def run_sweep(cases: Sequence[Case], *, jobs: int | None = None, disk: str = "1612",
              progress: Callable[[int, Result], None] | None = None, backend: str = "local",
              address: str | None = None) -> list[Result]:
    return run_counted(_check, [(c, disk) for c in cases], jobs=jobs, backend=backend, address=address,
                       progress=progress)
