"""The readable summary of a trace: what a program used, how often, and where first.

``Summary`` takes trace records one at a time (from a JSON Lines file or live
from a ``Tracer``) and keeps counts; ``Summary.text()`` is what ``pcemu
report`` prints: programs run, services with their counts and first use
(virtual time and CS:IP), interrupts, ports, video, sound, keys, files touched,
disk changes, and every service pcemu does not implement.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from pcemu.archive.files_report import FileActivity, describe_changes
from pcemu.errors import PcemuError

SECTIONS = ("programs", "services", "interrupts", "ports", "video", "sound", "keys", "files",
            "changes", "unimplemented")


class ReportError(PcemuError):
    pass


@dataclass
class Use:
    count: int = 0
    first_t: int = 0
    first_at: str = ""

    def add(self, t: int, at: str, count: int = 1) -> None:
        if self.count == 0:
            self.first_t, self.first_at = t, at
        self.count += count


@dataclass
class Summary:
    ips: int = 1_200_000
    programs: list[dict] = field(default_factory=list)
    services: dict[str, dict[str, Use]] = field(default_factory=lambda: {"dos": {}, "bios": {}})
    interrupts: dict[int, Use] = field(default_factory=dict)
    ports: dict[tuple[str, int], Use] = field(default_factory=dict)
    video: list[dict] = field(default_factory=list)
    palette_calls: int = 0
    notes: int = 0
    note_seconds: float = 0.0
    frequencies: set[float] = field(default_factory=set)
    beeps: int = 0
    keys_sent: list[str] = field(default_factory=list)
    files: dict[str, FileActivity] = field(default_factory=dict)
    changes: list[dict] = field(default_factory=list)
    unimplemented: dict[str, Use] = field(default_factory=dict)
    categories: list[str] = field(default_factory=list)
    end_seconds: float | None = None
    records: int = 0

    def add(self, r: dict) -> None:
        self.records += 1
        cat = r.get("cat")
        t, at = r.get("t", 0), r.get("at", "")
        if cat in ("dos", "bios"):
            self.services[cat].setdefault(r["service"], Use()).add(t, at)
        elif cat == "int":
            self.interrupts.setdefault(r["int"], Use()).add(t, at)
        elif cat == "port":
            self.ports.setdefault((r["dir"], r["port"]), Use()).add(t, at, r.get("repeat", 1))
        elif cat == "video":
            if r.get("what") == "palette":
                self.palette_calls += 1
            else:
                self.video.append(r)
        elif cat == "sound":
            if r.get("what") == "note":
                self.notes += 1
                self.note_seconds += r["duration"]
                self.frequencies.add(r["frequency"])
            else:
                self.beeps += 1
        elif cat == "keys" and r.get("what") == "sent":
            self.keys_sent.append(r["keys"])
        elif cat == "files":
            path = r["path"].upper()
            self.files.setdefault(path, FileActivity(path)).add(r)
        elif cat == "change":
            self.changes.append(r)
        elif cat == "process":
            self.programs.append(r)
        elif cat == "unimplemented":
            self.unimplemented.setdefault(r["message"].split(" called from")[0], Use()).add(t, at)
        elif cat == "start":
            self.ips = r.get("ips", self.ips)
            self.categories = r.get("categories", self.categories)
        elif cat == "end":
            self.end_seconds = r.get("seconds")
            self.categories = r.get("categories", [])

    def add_all(self, records: Iterable[dict]) -> "Summary":
        for record in records:
            self.add(record)
        return self

    # ------------------------------------------------------------------ text
    def _when(self, use: Use) -> str:
        text = f"first at {use.first_t / self.ips:9.3f} s"
        if use.first_at:
            text += f" from {use.first_at}" + self._module_address(use.first_at)
        return text

    def _module_address(self, at: str) -> str:
        """' (NAME 0C88:512E)': CS:IP as an address of the program's load module, as
        ``pcemu disasm`` and ``pcemu exe-info`` show them, when it lies in a program."""
        try:
            seg, off = (int(x, 16) for x in at.split(":"))
        except ValueError:
            return ""
        for p in reversed(self.programs):
            load, end = p.get("load_segment"), p.get("end_segment")
            if p["what"] == "exec" and load is not None and load <= seg < end:
                name = p["path"].replace("/", "\\").split("\\")[-1]
                return f" ({name} {seg - load:04X}:{off:04X})"
        return ""

    def section(self, name: str) -> list[str]:
        out: list[str] = []
        if name == "programs":
            for p in self.programs:
                seconds = p["t"] / self.ips
                if p["what"] == "exec":
                    out.append(f"  {seconds:9.3f} s  started {p['path']} (PSP {p['psp']:04X}h)")
                else:
                    out.append(f"  {seconds:9.3f} s  {p['name']} ended, exit code {p['code']}")
        elif name == "services":
            for cat, title in (("dos", "DOS"), ("bios", "BIOS")):
                uses = self.services[cat]
                if uses:
                    out.append(f"  {title} ({sum(u.count for u in uses.values())} calls, "
                               f"{len(uses)} services):")
                    for key, use in sorted(uses.items()):
                        out.append(f"    {key:<48} {use.count:>8}x  {self._when(use)}")
        elif name == "interrupts":
            for number, use in sorted(self.interrupts.items()):
                out.append(f"  INT {number:02X}h {use.count:>10}x  {self._when(use)}")
        elif name == "ports":
            for (direction, port), use in sorted(self.ports.items(), key=lambda kv: (kv[0][1], kv[0][0])):
                out.append(f"  {direction.upper():<3} {port:04X}h {use.count:>10}x  {self._when(use)}")
        elif name == "video":
            for r in self.video:
                seconds = r["t"] / self.ips
                if r["what"] == "mode":
                    out.append(f"  {seconds:9.3f} s  video mode {r['mode']:02X}h set")
                else:
                    out.append(f"  {seconds:9.3f} s  mode register {r['mode_register']:02X}h, "
                               f"colour register {r['colour_register']:02X}h")
            if self.palette_calls:
                out.append(f"  palette / border calls (INT 10h AH=0Bh/10h): {self.palette_calls}")
        elif name == "sound":
            if self.notes:
                low, high = min(self.frequencies), max(self.frequencies)
                out.append(f"  {self.notes} speaker notes, {self.note_seconds:.2f} s in all, "
                           f"{len(self.frequencies)} frequencies from {low:g} to {high:g} Hz")
            if self.beeps:
                out.append(f"  {self.beeps} BIOS beeps")
        elif name == "keys":
            if self.keys_sent:
                out.append(f"  {len(self.keys_sent)} key batches sent: "
                           + ", ".join(self.keys_sent[:30]) + (" ..." if len(self.keys_sent) > 30 else ""))
        elif name == "files":
            for activity in sorted(self.files.values(), key=lambda a: a.first_t or 0):
                out += ["  " + line for line in activity.lines()]
        elif name == "changes":
            if "files" in self.categories:
                out.append(describe_changes(self.changes))
        elif name == "unimplemented":
            for message, use in self.unimplemented.items():
                out.append(f"  {message}: {use.count}x, {self._when(use)}")
            if not out and self.categories:
                out.append("  none: every service the program called is implemented")
        return out

    def text(self, sections: Iterable[str] = SECTIONS) -> str:
        titles = {"programs": "Programs", "services": "Services used (count, first use)",
                  "interrupts": "Software interrupts executed", "ports": "Port I/O",
                  "video": "Video", "sound": "Sound", "keys": "Keys", "files": "Files touched",
                  "changes": "Disk changes after the run", "unimplemented": "Unimplemented services"}
        out = []
        if self.end_seconds is not None:
            out.append(f"Trace of {self.end_seconds:.2f} s of virtual time, {self.records} records, "
                       f"categories: {', '.join(self.categories) or '-'}")
        for name in sections:
            body = self.section(name)
            if body:
                out += ["", titles[name] + ":"] + body
        return "\n".join(out)


def read_trace(path: str | os.PathLike) -> Iterator[dict]:
    """The records of a JSON Lines trace file; a clear error for anything else."""
    for _number, record in _numbered_records(path):
        yield record


def _numbered_records(path: str | os.PathLike) -> Iterator[tuple[int, dict]]:
    path = Path(path)
    try:
        handle = open(path, encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"trace file {path} does not exist") from None
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                raise ReportError(f"{path}, line {number}: not a JSON Lines trace record") from None
            if not isinstance(record, dict) or "cat" not in record or "t" not in record:
                raise ReportError(f"{path}, line {number}: not a pcemu trace record")
            yield number, record


def summarise_file(path: str | os.PathLike, ips: int = 1_200_000) -> Summary:
    summary = Summary(ips=ips)
    for number, record in _numbered_records(path):
        try:
            summary.add(record)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReportError(f"{path}, line {number}: a {record.get('cat')!r} record without "
                              f"a usable {exc}") from None
    return summary
