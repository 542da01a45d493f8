"""The original's trace against the Python game's: the first event that differs."""
from __future__ import annotations

from typing import Sequence

from games_py.meteors import trace
from games_py.meteors.game import Meteors


def python_trace(settings: trace.Settings, frames: int, start_state: int | None = None) -> list[dict]:
    """The Python game's events for ``frames`` frames (the original's count)."""
    game = Meteors(settings)
    if start_state is None:
        game.random.randomize_timer(*settings.time)
    else:
        game.random.state = start_state
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return game.events


def comparable(event: dict, ignore: Sequence[str]) -> dict:
    return {k: v for k, v in event.items() if k not in ignore}


def first_divergence(original: list[dict], python: list[dict]) -> tuple[int, dict | None, dict | None] | None:
    """(index, original event, python event) of the first difference, ignoring the
    start line's metadata keys and the fields listed in trace.UNMODELLED."""
    ignore = set(trace.UNMODELLED) | set(original[0].get("metadata_keys", [])) if original else set()
    for i in range(max(len(original), len(python))):
        a = original[i] if i < len(original) else None
        b = python[i] if i < len(python) else None
        if a is None or b is None:
            return i, a, b
        if comparable(a, ignore) != comparable(b, ignore):
            return i, a, b
    return None


def describe(found) -> str:
    if found is None:
        return "equal"
    i, a, b = found
    if a is None or b is None:
        return f"event {i}: the {'original' if a is None else 'python'} trace ends first"
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return f"event {i} ({a.get('event')}): " + ", ".join(f"{k}: original {a.get(k)!r}, python {b.get(k)!r}"
                                                        for k in keys[:4])
