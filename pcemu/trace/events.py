"""The envelope every game's trace follows (docs/trace-format.md, "The envelope").

A trace is JSON Lines: one JSON object per line, each with an ``"event"`` name.
The keys that say where a trace came from rather than what happened are never
compared: ``source`` and ``format`` always, and any others the trace's first
event lists under ``"metadata_keys"``.  Events may say where in the game they
are with ``game``, ``hand`` or ``frame``; a later event without them is still
where the last one said.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, Sequence

# metadata in every trace, whether or not it lists them (Gin Rummy's traces predate the list)
ENVELOPE_METADATA = frozenset({"source", "format", "metadata_keys"})
# the keys that place an event in the game, in the order they are reported
POSITION_KEYS = ("game", "hand", "frame")


class TraceError(ValueError):
    """A trace file that cannot be read (not JSON Lines, or not events)."""


def read(path: str | Path) -> list[dict]:
    """Every event of a trace file, with clear errors for what is not one."""
    return list(iter_events(path))


def iter_events(path: str | Path) -> Iterator[dict]:
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        try:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise TraceError(f"{path}:{number}: not JSON ({exc.msg})") from None
                if not isinstance(event, dict) or not isinstance(event.get("event"), str):
                    raise TraceError(f"{path}:{number}: not a trace event (an object with an \"event\" name)")
                yield event
        except UnicodeDecodeError:
            raise TraceError(f"{path}: not UTF-8 text") from None


def metadata_keys(events: Sequence[dict]) -> frozenset[str]:
    """The keys a trace says are metadata: the envelope's, and its first event's
    ``metadata_keys`` list (anything else there is refused)."""
    if not events or "metadata_keys" not in events[0]:
        return ENVELOPE_METADATA
    declared = events[0]["metadata_keys"]
    if not isinstance(declared, list) or not all(isinstance(k, str) for k in declared):
        raise TraceError("the first event's metadata_keys is not a list of key names")
    return ENVELOPE_METADATA | frozenset(declared)


def position(events: Sequence[dict], index: int) -> dict[str, object]:
    """Where event ``index`` is in the game: the last ``game``, ``hand``, ``frame`` seen
    up to it (numbers only; a key holding something else does not place an event)."""
    where: dict[str, object] = {}
    for event in events[:index + 1]:
        for key in POSITION_KEYS:
            value = event.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                where[key] = value
    return {key: where[key] for key in POSITION_KEYS if key in where}
