"""Which files a program touched, and what a run changed on its disks.

``FileActivity`` collects the ``files`` records of a trace per file: how it
was opened, the byte ranges read and written (merged), whether it was created,
renamed or deleted.  ``disk_changes`` compares each disk's overlay with its
source image after a run: new, changed and deleted files, with a unified diff
for text files.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from pcemu.machine import Machine

MAX_DIFF_LINES = 400
OPEN_MODES = {0: "read", 1: "write", 2: "read/write"}


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Half-open byte ranges merged where they touch or overlap, in order."""
    merged: list[list[int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def format_ranges(ranges: list[tuple[int, int]]) -> str:
    total = sum(b - a for a, b in ranges)
    shown = ", ".join(f"{a}-{b - 1}" for a, b in ranges[:6]) + (" ..." if len(ranges) > 6 else "")
    return f"{total} bytes ({shown})"


@dataclass
class FileActivity:
    path: str
    opens: dict[str, int] = field(default_factory=dict)     # mode -> count
    reads: list[tuple[int, int]] = field(default_factory=list)
    writes: list[tuple[int, int]] = field(default_factory=list)
    read_calls: int = 0
    write_calls: int = 0
    created: int = 0
    executed: int = 0
    deleted: int = 0
    closed: int = 0
    renamed_to: list[str] = field(default_factory=list)
    first_t: int | None = None

    def add(self, record: dict) -> None:
        op = record["op"]
        if self.first_t is None:
            self.first_t = record["t"]
        if op == "open":
            mode = OPEN_MODES.get(record.get("mode", 0) & 0x07, "FCB") if not record.get("fcb") else "FCB"
            self.opens[mode] = self.opens.get(mode, 0) + 1
        elif op in ("read", "write"):
            span = (record["start"], record["start"] + record["count"])
            if op == "read":
                self.reads.append(span)
                self.read_calls += 1
            else:
                self.writes.append(span)
                self.write_calls += 1
        elif op == "exec":
            self.executed += 1
        elif op == "create":
            self.created += 1
        elif op == "delete":
            self.deleted += 1
        elif op == "close":
            self.closed += 1
        elif op == "rename":
            self.renamed_to.append(record.get("new_path", "?"))

    def lines(self) -> list[str]:
        out = [self.path]
        if self.executed:
            out.append(f"  loaded and run (EXEC) {self.executed}x")
        if self.created:
            out.append(f"  created {self.created}x")
        if self.opens:
            out.append("  opened " + ", ".join(f"{mode} {n}x" for mode, n in self.opens.items()))
        if self.reads:
            out.append(f"  read {format_ranges(merge_ranges(self.reads))} in {self.read_calls} calls")
        if self.writes:
            out.append(f"  wrote {format_ranges(merge_ranges(self.writes))} in {self.write_calls} calls")
        if self.closed:
            out.append(f"  closed {self.closed}x")
        for new in self.renamed_to:
            out.append(f"  renamed to {new}")
        if self.deleted:
            out.append(f"  deleted {self.deleted}x")
        return out


def file_activity(records: Iterable[dict]) -> dict[str, FileActivity]:
    files: dict[str, FileActivity] = {}
    for record in records:
        if record.get("cat") == "files":
            path = record["path"].upper()
            files.setdefault(path, FileActivity(path)).add(record)
    return files


# ---------------------------------------------------------------------------- disk changes
def looks_like_text(data: bytes) -> bool:
    if b"\0" in data:
        return False
    controls = sum(1 for b in data if b < 0x20 and b not in (0x09, 0x0A, 0x0D, 0x1A, 0x0C))
    return controls <= len(data) // 100


def text_diff(old: bytes, new: bytes, name: str) -> str | None:
    """A unified diff of two versions of a text file (CP437, CR LF), or None for binary data."""
    if not (looks_like_text(old) and looks_like_text(new)):
        return None
    a = old.rstrip(b"\x1a").decode("cp437").splitlines()
    b = new.rstrip(b"\x1a").decode("cp437").splitlines()
    lines = list(difflib.unified_diff(a, b, f"{name} (before)", f"{name} (after)", lineterm=""))
    if len(lines) > MAX_DIFF_LINES:
        lines = lines[:MAX_DIFF_LINES] + [f"... {len(lines) - MAX_DIFF_LINES} more lines"]
    return "\n".join(lines)


def disk_changes(m: "Machine") -> list[dict]:
    """Every disk image's changes against its source, as plain dicts (for traces and reports)."""
    from pcemu.storage.fat import FatVolume
    out = []
    for number, image in sorted(m.dos.floppies.items()):
        letter = chr(ord("A") + number)
        if not image.modified:
            continue
        before = FatVolume(bytearray(image.source_data()), image.layout, read_only=True)
        after = FatVolume(bytearray(image.data()), image.layout, read_only=True)
        for change in image.changes():
            parts = [p for p in change.path.split("\\") if p]
            record = {"drive": letter, "path": f"{letter}:{change.path}", "status": change.status,
                      "old_size": change.old_size, "new_size": change.new_size}
            if change.detail:
                record["detail"] = change.detail
            is_file = (change.new_size if change.status != "deleted" else change.old_size) is not None
            if is_file and change.status in ("new", "changed"):
                old = before.read_file(parts) if change.status == "changed" else b""
                diff = text_diff(old, after.read_file(parts), f"{letter}:{change.path}")
                if diff:
                    record["diff"] = diff
            out.append(record)
    return out


def describe_changes(changes: list[dict], diffs: bool = True) -> str:
    if not changes:
        return "  nothing: no file on the run's disk images changed"
    out = []
    for c in changes:
        size = {"new": f"{c['new_size']} bytes", "deleted": f"was {c['old_size']} bytes",
                "changed": f"{c['old_size']} -> {c['new_size']} bytes"}[c["status"]]
        if c["new_size"] is None and c["old_size"] is None:
            size = "directory"
        detail = f" ({c['detail']})" if c.get("detail") else ""
        out.append(f"  {c['status']:<8} {c['path']}  {size}{detail}")
        if diffs and c.get("diff"):
            out += ["    " + line for line in c["diff"].splitlines()]
    return "\n".join(out)
