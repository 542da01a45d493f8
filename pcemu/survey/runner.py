"""Each program in its own process, spread with ``pcemu.sweep``.

``survey_one`` is what the sweep's workers run: it starts ``python -m
pcemu.survey.child`` for one task with an address-space limit (RLIMIT_AS, so a
run that grows past it gets a MemoryError or dies, and only its own process
goes) and a host time limit, and turns whatever that process left into a record.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pcemu

DEFAULT_TIMES = (10.0, 20.0)         # seconds of virtual time, as the corpus's DOSBox screens
DEFAULT_MEMORY_MB = 300
DEFAULT_WALL_LIMIT = 1200.0          # host seconds for one program: a guard against a hang, far above
                                     # the slowest corpus program on a loaded machine (227 s)


@dataclass(frozen=True)
class Settings:
    times: tuple[float, ...] = DEFAULT_TIMES
    date: str | None = None
    time: str | None = None
    video: str = "cga"
    memory_mb: int = DEFAULT_MEMORY_MB
    wall_limit: float = DEFAULT_WALL_LIMIT

    def for_child(self) -> dict:
        return {"times": list(self.times), "date": self.date, "time": self.time,
                "video": self.video}


@dataclass(frozen=True)
class Request:
    task: dict
    settings: Settings


def survey_one(request: Request) -> dict:
    """Run one task in a child process and return its record (never raises)."""
    task, settings = request.task, request.settings
    base = {"disk": task["disk"], "image": task["image"], "program": task["program"]}
    if task.get("problem"):
        return {**base, "outcome": "bad input", "reason": task["problem"], "screens": []}
    limit = settings.memory_mb * 2**20

    def limit_memory() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    payload = json.dumps({"task": task, "settings": settings.for_child()})
    env = dict(os.environ)
    package_root = str(Path(pcemu.__file__).resolve().parent.parent)   # this pcemu, not another
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    try:
        child = subprocess.run([sys.executable, "-m", "pcemu.survey.child"], input=payload,
                               capture_output=True, text=True, timeout=settings.wall_limit,
                               preexec_fn=limit_memory, env=env)
    except subprocess.TimeoutExpired:
        return {**base, "outcome": "timed out", "screens": [],
                "reason": f"the host time limit of {settings.wall_limit:g} s for one program ran "
                          "out (the process was stopped)", "wall_seconds": settings.wall_limit}
    except OSError as err:
        return {**base, "outcome": "machine error", "screens": [],
                "reason": f"the survey could not start a process: {err}"}
    if child.returncode == 0:
        try:
            return json.loads(child.stdout.splitlines()[-1])
        except (json.JSONDecodeError, IndexError):
            pass
    return {**base, "screens": [], **_died(child, settings)}


def _died(child: subprocess.CompletedProcess, settings: Settings) -> dict:
    """The record of a child that ended without a record: over the memory limit, or killed."""
    tail = child.stderr.strip().splitlines()[-1:] if child.stderr else []
    if "MemoryError" in child.stderr or "std::bad_alloc" in child.stderr \
            or "Cannot allocate memory" in child.stderr:
        return {"outcome": "memory limit",
                "reason": f"the run went over the memory limit of {settings.memory_mb} MB"}
    if child.returncode < 0:
        name = signal.Signals(-child.returncode).name if -child.returncode in \
            signal.valid_signals() else str(-child.returncode)
        return {"outcome": "machine error",
                "reason": f"the run's process died of {name}" +
                          (f" (near the memory limit of {settings.memory_mb} MB?)"
                           if name in ("SIGSEGV", "SIGABRT", "SIGKILL") else "")}
    return {"outcome": "machine error",
            "reason": f"the run's process failed (status {child.returncode}, under the memory "
                      f"limit of {settings.memory_mb} MB)" + (f": {tail[0][:200]}" if tail else "")}
