"""The Meteors trace format (docs/trace-format.md): settings and the events both
sides write."""
from __future__ import annotations

from dataclasses import dataclass

GAME = "meteors"
# what may differ between two runs of the same session: who wrote the trace, how long
# it was asked to run (seconds on the machine, frames in Python), the BIOS tick count
# at a game's start (absolute; the frames' ticks count from it), and where they are
# not modelled well enough, the frames' ticks (metadata_keys; docs/meteors-internals.md,
# section 6)
METADATA_KEYS = ["source", "seconds", "frames", "fast", "bios_tick"]
TICKS = ["tick"]


@dataclass(frozen=True)
class Settings:
    time: tuple[int, int, int, int] = (12, 0, 0, 0)
    colour_switch: bool | None = None      # True: /C, False: /M, None: neither (the card decides)
    sound: bool = True
    demo: bool = True
    human: str | None = None
    seconds: float = 120.0                 # virtual time after the first game starts
    frames: int | None = None              # or: this many frames (the Python game needs it)
    keys: str | None = None                # a key script typed once the first game runs (original only)

    @property
    def colour(self) -> bool:
        return self.colour_switch is not False


def format_time(t: tuple[int, int, int, int]) -> str:
    return f"{t[0]:02d}:{t[1]:02d}:{t[2]:02d}.{t[3]:02d}"


def start_event(s: Settings, rnd_seed: int, source: str, **more) -> dict:
    return {"seconds": s.seconds, "frames": s.frames, "event": "start", "game": GAME, "time": format_time(s.time),
            "display": {None: "card", True: "colour", False: "mono"}[s.colour_switch],
            "sound": s.sound, "demo": s.demo, "human": s.human, "keys": s.keys,
            "rnd_seed": rnd_seed, "source": source, "metadata_keys": metadata_keys(s), **more}


def metadata_keys(s: Settings, fast: bool = True) -> list[str]:
    """The frames' ticks are compared in every session whose frames are paced: by line 3231's
    wait, or with sound on by the PLAY(0) waits on each step's notes, which pace the frames
    even when FAST is false (line 225: a start in the day's last tick); in demo sessions too
    (the demo player's steps, its start and its tables are costed statement by statement:
    since 27 Nov the demo sweep with ticks is equal, docs/meteors-internals.md section 8).
    Not with sound off and FAST false: each frame's ticks then come from the cost of every
    statement since the first T0 and nothing paces the frames; a key's reseed is compared."""
    compared = fast or s.sound
    return METADATA_KEYS + ([] if compared else TICKS)


def parse_time(text: str) -> tuple[int, int, int, int]:
    """HH:MM:SS.hh (or HH:MM:SS) as the four numbers DOS returns."""
    try:
        clock, _, hundredths = text.partition(".")
        h, m, s = (int(p) for p in clock.split(":"))
        hs = int((hundredths + "0")[:2]) if hundredths else 0
    except ValueError:
        raise ValueError(f"the time must look like HH:MM:SS.hh, not {text!r}") from None
    if not (0 <= h <= 23 and 0 <= m <= 59 and 0 <= s <= 59):
        raise ValueError(f"{text!r} is not a time of day")
    return h, m, s, hs

# fields never compared (the start line's metadata keys add the frames' ticks where not modelled)
UNMODELLED = ("fast", "seconds", "frames", "bios_tick")
