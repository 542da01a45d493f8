"""One program of a survey, run in this process: ``python -m pcemu.survey.child`` reads the
task and the settings as JSON on stdin and writes the record as JSON on stdout.

The program is started as DOSBox's autoexec starts it (``@ECHO OFF``, ``A:``, ``CLS``,
the program's name) with the disk in A:, and the screens are taken at the given
seconds of virtual time after that.  Runs in its own process so that a program
that takes the machine down, or too much memory, takes only this process.
"""
from __future__ import annotations

import json
import logging
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from pcemu.survey.outcome import end_state

POLL_WINDOW = 1.0            # seconds before the end in which a keyboard poll means "waits"
MAX_UNIMPLEMENTED = 20       # distinct services listed per program


def run_task(task: dict, settings: dict) -> dict:
    """Run ``task`` (a `Task` as a dict) and return its record (never raises for the program's
    sake: an error of the run is its outcome)."""
    started = time.perf_counter()
    record = {"disk": task["disk"], "image": task["image"], "program": task["program"]}
    if task.get("problem"):
        record.update(outcome="bad input", reason=task["problem"], screens=[])
        return record
    with tempfile.TemporaryDirectory(prefix="pcemu-survey-") as scratch:
        image = _raw_image(task["image"], Path(scratch))
        if isinstance(image, str):
            record.update(outcome="bad input", reason=image, screens=[])
        else:
            record.update(_run(str(image), task["program"], settings))
    record["wall_seconds"] = round(time.perf_counter() - started, 3)
    record["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return record


def _raw_image(path: str, scratch: Path) -> Path | str:
    """The image as a raw file (a PCjs JSON disk is converted into ``scratch``), or why not."""
    from pcemu.storage.errors import ImageError, MountError
    from pcemu.survey.programs import disk_bytes
    if not path.lower().endswith(".json"):
        return Path(path)
    try:
        data = disk_bytes(path)
    except (ImageError, MountError, ValueError) as err:
        return f"unusable disk: {err}"
    raw = scratch / "disk.img"
    raw.write_bytes(data)
    return raw


def _run(image: str, program: str, settings: dict) -> dict:
    from unicorn import UcError

    from pcemu.cli import _describe
    from pcemu.errors import PcemuError
    from pcemu.machine import Machine
    from disks.catalog import DiskError
    from pcemu.storage.errors import ImageError, MountError

    times = sorted(settings["times"])
    screens: list[dict] = []
    out: dict = {"screens": screens}
    machine = None
    try:
        machine = Machine(disks=[f"A:{image}"], date=settings.get("date"),
                          time=settings.get("time"), video=settings.get("video", "cga"))
    except (ImageError, MountError, DiskError) as err:
        return {"outcome": "bad input", "reason": f"unusable disk: {err}", "screens": []}
    except PcemuError as err:                    # a setting the machine refuses (date, card)
        return {"outcome": "machine error", "reason": str(err), "screens": []}
    from pcemu.survey.absent import watch_absent_drivers
    absent = watch_absent_drivers(machine)
    shell = machine.dos.shell
    codes_before = len(shell.exit_codes)
    shell.run_lines(["@ECHO OFF", "A:", "CLS", program])
    start = machine.clock.now
    polls_before_end = None
    error = None
    try:
        for moment in times:
            if moment == times[-1]:
                _run_to(machine, start, moment - POLL_WINDOW)
                polls_before_end = machine.keyboard_polls
            _run_to(machine, start, moment)
            screens.append(_screen(machine, moment))
    except (PcemuError, UcError) as err:
        error = _describe(err, machine)
        screens.append({**_screen(machine, round(_secs(start, machine), 3)), "at_error": True})
    except MemoryError:
        return {"outcome": "memory limit", "reason": "the run needed more memory than the limit",
                "screens": screens, **_services(machine)}
    except Exception as err:                     # a fault of pcemu's own: reported, not raised
        error = f"internal error: {type(err).__name__}: {err}"
    out.update(_services(machine, absent))
    out["seconds_run"] = round(_secs(start, machine), 3)
    exits = shell.exit_codes[codes_before:]
    ended = shell.at_prompt and shell.state.running is None and not shell.state.batch
    out["exit_code"] = exits[-1][1] if ended and exits else None
    if shell.load_error:
        out.update(outcome="cannot load", reason=_without(shell.load_error, "cannot load "))
    elif error is not None:
        out.update(outcome="machine error", reason=error)
    elif out["unimplemented"]:
        out.update(outcome="unimplemented service",
                   reason=_without(out["unimplemented"][0], "unimplemented: "))
    else:
        polled = polls_before_end is not None and machine.keyboard_polls > polls_before_end
        out["outcome"] = end_state(ended=ended, polled_at_end=polled)
    return out


def _without(text: str, prefix: str) -> str:
    return text[len(prefix):] if text.startswith(prefix) else text


def _secs(start: int, machine) -> float:
    return (machine.clock.now - start) / machine.clock.ips


def _run_to(machine, start: int, seconds: float) -> None:
    """Run until ``seconds`` of virtual time after ``start`` (no further if already past)."""
    from pcemu.clock import TICK_HZ
    ahead = seconds - _secs(start, machine)
    if ahead > 0:
        machine.run(ahead * TICK_HZ)


def _screen(machine, moment: float) -> dict:
    from pcemu import screen as screenlib
    from bios import bda
    _base, columns, graphics = screenlib.geometry(machine)
    drawn = screenlib.graphics_text(machine) if graphics else None
    if drawn is not None:                        # CGA graphics: the BIOS font's cells
        lines = drawn.split("\n")
        columns = len(lines[0])
    else:
        lines = machine.screen_text().split("\n")
    return {"t": moment, "mode": machine.memory[bda.BDA + bda.VIDEO_MODE],
            "kind": "graphics" if graphics else "text", "cols": columns, "lines": lines}


def _services(machine, absent: list[str] = ()) -> dict:
    """The services pcemu lacks that the program asked for, each once: those the BIOS and DOS
    tables reported in order of first use, then calls to drivers the machine lacks."""
    seen: list[str] = []
    if machine is not None:
        for entry in machine.unimplemented_log:
            what = entry["message"].split(" called from")[0]
            if what not in seen:
                seen.append(what)
            if len(seen) >= MAX_UNIMPLEMENTED:
                break
    return {"unimplemented": seen + list(absent)[:MAX_UNIMPLEMENTED]}


def main() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    request = json.load(sys.stdin)
    record = run_task(request["task"], request["settings"])
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()
    os._exit(0)                 # nothing left to tidy: skip Unicorn's teardown at exit


if __name__ == "__main__":
    main()
