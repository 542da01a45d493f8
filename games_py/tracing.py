"""What the tracers of the original QuickBASIC games (Gin Rummy, Meteors) share:
reading the unmodified program from its disk, its QuickBASIC image, the clock set
for RANDOMIZE TIMER, and the errors that are the user's to fix.  The game's
knowledge (lines, DGROUP offsets, events) stays in each game's ``original``."""
from __future__ import annotations

import datetime as _dt
import functools
import hashlib
from typing import Callable

from pcemu.errors import PcemuError
from pcemu.trace.qbasic import QuickBasicImage, QuickBasicProcess


class TraceFailure(PcemuError):
    """The original did something the tracer cannot account for."""


@functools.lru_cache(maxsize=4)
def program_image(data: bytes) -> QuickBasicImage:
    """The program's statement table and segments, read once per program."""
    return QuickBasicImage.from_exe(data)


def read_program(disk: str, name: str, md5: str, title: str) -> bytes:
    """``name`` from the disk image (a catalogue name such as 1612, or a path), which
    must be ``title`` as on the disk (its MD5 is ``md5``)."""
    from disks.catalog import find_disk
    from pcemu.storage.image import FloppyImage
    try:
        volume = FloppyImage.open(find_disk(disk), read_only=True).filesystem
        data = volume.read_file([name])
    except Exception as exc:                      # noqa: BLE001 - any failure means "not there"
        raise TraceFailure(f"{name} cannot be read from disk {disk}: {exc}") from None
    if hashlib.md5(data).hexdigest() != md5:
        raise TraceFailure(f"{name} on disk {disk} is not {title} "
                           f"(MD5 {hashlib.md5(data).hexdigest()})")
    return data


def statement_after(image: QuickBasicImage, offset: int | None) -> int:
    """The first statement after RANDOMIZE TIMER returns: where the seed is in place."""
    if offset is None:
        raise TraceFailure("the program has no RANDOMIZE TIMER")
    return min(o for o in image.line_offsets if o > offset)


def watch_seed(process: QuickBasicProcess, time: tuple[int, int, int, int],
               record: Callable[[tuple[int, int, int, int]], None], seeded: Callable[[], None]) -> None:
    """Just before the program's RANDOMIZE TIMER reads the clock, set it to ``time`` and
    hand ``record`` what the read returned (to the hundredth), once; call ``seeded`` at
    the first statement after, when the RND state is in place.  Setting the clock then
    is the same as having started the PC at the right moment."""
    machine = process.machine

    def set_clock() -> None:
        machine.set_time_of_day(*time)
        reads = machine.events.time_read

        def heard(now: _dt.datetime) -> None:
            record((now.hour, now.minute, now.second, now.microsecond // 10_000))
            reads.disconnect(heard)
        reads.connect(heard)
    process.before_randomize_timer(set_clock)
    process.at_offset(statement_after(process.image, process.image.randomize_timer_return), seeded)


def user_errors() -> tuple[type[BaseException], ...]:
    """The machine's errors that are the user's to fix (a missing disk, a bad image):
    one clear line, never a traceback."""
    from disks.catalog import DiskError
    from pcemu.storage.errors import MountError
    return (PcemuError, DiskError, MountError)
