"""Comparing two traces of any game: where they first part, with what led there.

Events are compared in order, key by key, except the metadata keys (the
envelope's ``source`` and ``format``, and those either trace's first event
lists in ``metadata_keys``: pcemu.trace.events) and any the caller names.
``only`` restricts the comparison to some event kinds (``deal`` compares the
deals and nothing else); ``limit`` to the first N events compared.  A trace
that ends while the other goes on differs there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from pcemu.trace.events import metadata_keys, position


@dataclass
class Divergence:
    index: int                           # position among the events compared (0-based)
    left: dict | None                    # None: that trace had ended
    right: dict | None
    keys: list[str]                      # the keys whose values differ
    context: list[dict] = field(default_factory=list)     # the equal events just before
    where: dict[str, object] = field(default_factory=dict)  # game/hand/frame of the event


def comparable(event: dict, ignore: frozenset[str]) -> dict:
    return {k: v for k, v in event.items() if k not in ignore}


def select(events: Iterable[dict], only: Sequence[str] | None) -> list[tuple[int, dict]]:
    """The events compared, each with its index in the whole trace."""
    return [(i, e) for i, e in enumerate(events) if not only or e.get("event") in only]


def first_divergence(left: Sequence[dict], right: Sequence[dict], *, ignore: Iterable[str] = (),
                     only: Sequence[str] | None = None, limit: int | None = None,
                     context: int = 3) -> Divergence | None:
    skip = metadata_keys(left) | metadata_keys(right) | frozenset(ignore)
    a, b = select(left, only), select(right, only)
    if limit is not None:
        a, b = a[:limit], b[:limit]
    for i in range(max(len(a), len(b))):
        x = comparable(a[i][1], skip) if i < len(a) else None
        y = comparable(b[i][1], skip) if i < len(b) else None
        if x != y:
            keys = [] if x is None or y is None else sorted(
                k for k in set(x) | set(y) if x.get(k, _MISSING) != y.get(k, _MISSING))
            where = position(left, a[i][0]) if i < len(a) else position(right, b[i][0])
            return Divergence(i, a[i][1] if i < len(a) else None, b[i][1] if i < len(b) else None,
                              keys, [comparable(e, skip) for _, e in a[max(0, i - context):i]], where)
    return None


_MISSING = object()


def heading(d: Divergence) -> str:
    """"the traces differ at event 3 (draw; game 1, hand 2)": which event, of what kind, where."""
    event = d.left if d.left is not None else d.right
    about = [str(event.get("event"))] if event is not None else []
    if d.where:
        about.append(", ".join(f"{key} {value}" for key, value in d.where.items()))
    return f"the traces differ at event {d.index + 1}" + (f" ({'; '.join(about)})" if about else "")


def describe(d: Divergence, left_name: str, right_name: str) -> str:
    """The divergence as a person reads it: context, then both sides, the differing keys marked."""
    lines = [heading(d)]
    if d.context:
        lines.append("after these equal events:")
        lines += [f"    {json.dumps(e)}" for e in d.context]
    for name, event in ((left_name, d.left), (right_name, d.right)):
        if event is None:
            lines.append(f"{name}: (the trace has ended)")
        else:
            lines.append(f"{name}: {json.dumps(event)}")
    if d.keys:
        lines.append("differing: " + ", ".join(d.keys))
        for key in d.keys:
            left = d.left.get(key, "(missing)") if d.left else None
            right = d.right.get(key, "(missing)") if d.right else None
            lines.append(f"  {key}: {json.dumps(left)}  vs  {json.dumps(right)}")
    return "\n".join(lines)
