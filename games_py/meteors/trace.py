"""The Meteors trace format (docs/trace-format.md): settings and the events both
sides write."""
from __future__ import annotations

from dataclasses import dataclass

GAME = "meteors"
METADATA_KEYS = ["source"]


@dataclass(frozen=True)
class Settings:
    time: tuple[int, int, int, int] = (12, 0, 0, 0)
    colour_switch: bool | None = None      # True: /C, False: /M, None: neither (the card decides)
    sound: bool = True
    demo: bool = True
    human: str | None = None
    seconds: float = 120.0

    @property
    def colour(self) -> bool:
        return self.colour_switch is not False


def format_time(t: tuple[int, int, int, int]) -> str:
    return f"{t[0]:02d}:{t[1]:02d}:{t[2]:02d}.{t[3]:02d}"


def start_event(s: Settings, rnd_seed: int, source: str, **more) -> dict:
    return {"event": "start", "game": GAME, "time": format_time(s.time),
            "display": {None: "card", True: "colour", False: "mono"}[s.colour_switch],
            "sound": s.sound, "demo": s.demo, "human": s.human, "seconds": s.seconds,
            "rnd_seed": rnd_seed, "source": source, "metadata_keys": METADATA_KEYS, **more}


def human_policy(spec: str):
    raise NotImplementedError

# fields the Python game does not model yet: when a frame starts, in BIOS ticks
UNMODELLED = ("tick", "fast")
