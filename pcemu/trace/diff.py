"""Comparing two traces: where they first part, with what led there.

Events are compared in order, key by key, except the keys that say where a
trace came from (``source``, ``format``: games_py.ginrummy.trace.METADATA_KEYS)
and any the caller names.  ``only`` restricts the comparison to some event
types (``deal`` compares the deals and nothing else); ``limit`` to the first N
events compared.  A trace that ends while the other goes on differs there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from games_py.ginrummy.trace import METADATA_KEYS


@dataclass
class Divergence:
    index: int                           # position among the events compared (0-based)
    left: dict | None                    # None: that trace had ended
    right: dict | None
    keys: list[str]                      # the keys whose values differ
    context: list[dict] = field(default_factory=list)     # the equal events just before


def comparable(event: dict, ignore: frozenset[str]) -> dict:
    return {k: v for k, v in event.items() if k not in ignore}


def select(events: Iterable[dict], only: Sequence[str] | None) -> list[dict]:
    return [e for e in events if not only or e.get("event") in only]


def first_divergence(left: Sequence[dict], right: Sequence[dict], *, ignore: Iterable[str] = (),
                     only: Sequence[str] | None = None, limit: int | None = None,
                     context: int = 3) -> Divergence | None:
    skip = frozenset(METADATA_KEYS) | frozenset(ignore)
    a, b = select(left, only), select(right, only)
    if limit is not None:
        a, b = a[:limit], b[:limit]
    for i in range(max(len(a), len(b))):
        x = comparable(a[i], skip) if i < len(a) else None
        y = comparable(b[i], skip) if i < len(b) else None
        if x != y:
            keys = [] if x is None or y is None else sorted(
                k for k in set(x) | set(y) if x.get(k, _MISSING) != y.get(k, _MISSING))
            return Divergence(i, a[i] if i < len(a) else None, b[i] if i < len(b) else None, keys,
                              [comparable(e, skip) for e in a[max(0, i - context):i]])
    return None


_MISSING = object()


def describe(d: Divergence, left_name: str, right_name: str) -> str:
    """The divergence as a person reads it: context, then both sides, the differing keys marked."""
    lines = [f"the traces differ at event {d.index + 1}"]
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
