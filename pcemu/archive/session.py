"""Recorded sessions: everything needed to run a session again, instruction for instruction.

A run is a pure function of its disks, the machine profile, the start date and
time, and its inputs.  Inputs are not only keys: a CPU slice that the host
chose to end (``Machine.run``, a key script's checks, a window frame) is a
boundary where pending interrupts are taken and idle polling is charged, so
those ends are recorded too.  A session therefore holds:

* the disks (catalogue name or path, size, MD5, SHA-256) and host folders
  (every file's SHA-256), the machine profile and the start date and time;
* the machine state hash right after boot (the emulator's own fingerprint);
* the events in order: ``["run", end]`` - the host ran the machine to
  instruction ``end``; ``["keys", t, codes, screen]`` - scancodes sent at
  instruction ``t``, with the fingerprint of the screen just before;
  ``["mouse", t, method, args]`` - the host moved the mouse or pressed a
  button (``Mouse.move``, ``move_by``, ``button``);
* the end: instruction count, screen fingerprint and state hash;
* the text of each distinct screen seen at an input, to show divergences.

Replaying builds the same machine, checks the disks, and repeats the events at
the same instruction counts, comparing the screen at every input and at the
end.  The first difference is reported with the virtual time and both screens.

Files are gzip-compressed JSON (``gunzip -c run.session`` to read one).
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import gzip
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from pcemu.archive.manifest import folder_manifest
from pcemu.events import MOUSE_EVENTS, KeyCodes, mouse_event
from pcemu.archive.screens import fingerprint
from pcemu.errors import PcemuError

if TYPE_CHECKING:
    from pcemu.machine import Machine

FORMAT = "pcemu-session"
VERSION = 1


class SessionError(PcemuError):
    """A session file that cannot be read or used; the message says why."""


# ---------------------------------------------------------------------------- the file
@dataclass
class DiskRecord:
    letter: str
    spec: str               # a catalogue name ("1612") or the image's path when recorded
    file: str
    size: int
    md5: str
    sha256: str


@dataclass
class HostDirRecord:
    letter: str
    path: str
    files: dict[str, str]   # path inside the folder -> SHA-256


@dataclass
class Session:
    profile: dict
    disks: list[DiskRecord]
    host_dirs: list[HostDirRecord]
    boot: dict                                  # {"t": instructions, "state": hash}
    events: list[list] = field(default_factory=list)
    screens: dict[str, str] = field(default_factory=dict)
    end: dict = field(default_factory=dict)     # {"t", "screen", "state"}
    notes: list[str] = field(default_factory=list)
    pcemu: str = ""

    # -- reading and writing ---------------------------------------------------
    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "pcemu": self.pcemu,
                "profile": self.profile,
                "disks": [dataclasses.asdict(d) for d in self.disks],
                "host_dirs": [dataclasses.asdict(h) for h in self.host_dirs],
                "boot": self.boot, "events": self.events, "screens": self.screens,
                "end": self.end, "notes": self.notes}

    def save(self, path: str | os.PathLike) -> Path:
        path = Path(path)
        data = json.dumps(self.to_json(), separators=(",", ":")).encode()
        tmp = path.with_name(path.name + ".tmp")
        try:
            with gzip.open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError as exc:
            raise SessionError(f"cannot write the session {path}: {exc.strerror or exc}") from None
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Session":
        path = Path(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise SessionError(f"session file {path} does not exist") from None
        except OSError as exc:
            raise SessionError(f"cannot read the session {path}: {exc.strerror or exc}") from None
        try:
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            data = json.loads(raw)
        except (OSError, EOFError, ValueError, UnicodeDecodeError) as exc:
            raise SessionError(f"{path} is not a pcemu session (or it is damaged): {exc}") from None
        return cls.from_json(data, str(path))

    @classmethod
    def from_json(cls, data, name: str = "session") -> "Session":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SessionError(f"{name} is not a pcemu session file")
        if data.get("version") != VERSION:
            raise SessionError(f"{name} is a session of format version {data.get('version')}; "
                               f"this pcemu reads version {VERSION}")
        try:
            session = cls(profile=dict(data["profile"]),
                          disks=[DiskRecord(**d) for d in data["disks"]],
                          host_dirs=[HostDirRecord(**h) for h in data.get("host_dirs", [])],
                          boot=dict(data["boot"]), events=list(data["events"]),
                          screens=dict(data.get("screens", {})), end=dict(data["end"]),
                          notes=list(data.get("notes", [])), pcemu=data.get("pcemu", ""))
            for event in session.events:
                _check_event(event)
            int(session.boot["t"]), int(session.end["t"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"{name} is damaged: {exc}") from None
        return session

    # -- what it holds ------------------------------------------------------
    @property
    def key_events(self) -> list[list]:
        return [e for e in self.events if e[0] == "keys"]

    def machine_arguments(self, disk_paths: dict[str, str]) -> dict:
        """Keyword arguments for ``Machine`` that rebuild the recorded one."""
        p = self.profile
        return dict(disks=[f"{letter}:{path}" for letter, path in sorted(disk_paths.items())],
                    host_dirs={h.letter: h.path for h in self.host_dirs},
                    date=p["date"], time=p["time"], mips=p["ips"] / 1_000_000, video=p["video"],
                    mouse=p["mouse"], strict=p["strict"], ems=p.get("ems", 0),
                    floppy_drives=p.get("floppy_drives", 2),    # before it was kept: always 2
                    one_drive_b=p.get("one_drive_b", False),
                    inexact_idle_skip=p.get("inexact_idle_skip", p.get("fast_forward", False)))


def _check_event(event) -> None:
    if not isinstance(event, list) or not event:
        raise ValueError(f"bad event {event!r}")
    if event[0] == "run" and len(event) == 2:
        int(event[1])
        return
    if event[0] == "mouse" and len(event) == 4:
        int(event[1])
        if event[2] not in MOUSE_EVENTS or not all(isinstance(a, int) for a in event[3]):
            raise ValueError(f"bad mouse event {event!r}")
        return
    if event[0] == "keys" and len(event) == 4:
        int(event[1])
        if not all(isinstance(c, int) and 0 <= c <= 0xFF for c in event[2]):
            raise ValueError(f"bad scancodes in {event!r}")
        return
    raise ValueError(f"unknown event {event!r}")


# ---------------------------------------------------------------------------- machine facts
def machine_profile(m: "Machine") -> dict:
    start: _dt.datetime = m._start
    return {"date": start.date().isoformat(),
            "time": f"{start:%H:%M:%S}.{start.microsecond // 10_000:02d}",
            "ips": m.clock.ips, "video": m.video_profile, "mouse": bool(m.mouse_enabled),
            "strict": bool(m.strict), "inexact_idle_skip": bool(m.inexact_idle_skip),
            "ems": m.ems_kilobytes, "floppy_drives": m.floppy_drives, "one_drive_b": m.one_drive_b}


def _file_hashes(path: Path) -> tuple[int, str, str]:
    data = path.read_bytes()
    return len(data), hashlib.md5(data).hexdigest(), hashlib.sha256(data).hexdigest()


def describe_disks(m: "Machine") -> tuple[list[DiskRecord], list[HostDirRecord]]:
    from disks.catalog import CATALOG
    disks, folders = [], []
    images = {chr(ord("A") + n): image for n, image in m.dos.floppies.items()}
    for letter, drive in sorted(m.dos.drives.items()):
        image = images.get(letter)
        if image is not None:
            source = image.source_data()
            md5 = hashlib.md5(source).hexdigest()
            known = next((d for d in CATALOG.values() if d.md5 == md5), None)
            path = image.source_path
            spec = known.name if known else str(Path(path).resolve()) if path else image.name
            disks.append(DiskRecord(letter, spec, Path(image.name).name, len(source), md5,
                                    hashlib.sha256(source).hexdigest()))
        elif hasattr(drive, "root"):
            folders.append(HostDirRecord(letter, str(drive.root), folder_manifest(Path(drive.root))))
    return disks, folders


# ---------------------------------------------------------------------------- recording
class Recorder:
    """Records a machine's inputs from now on; attach it right after the machine booted.

        m = Machine(disks=["B:1612"])
        rec = Recorder(m)
        m.type("GINRUMMY{ENTER}...")          # or a window, or a terminal
        rec.finish().save("run.session")
    """

    def __init__(self, machine: "Machine") -> None:
        self.m = machine
        disks, folders = describe_disks(machine)
        notes = []
        self.session = Session(profile=machine_profile(machine), disks=disks, host_dirs=folders,
                               boot={"t": machine.clock.now, "state": machine.state_hash()},
                               notes=notes, pcemu=_version())
        self._attached = True
        machine.events.run_to.connect(self._on_run_to)
        machine.events.input.connect(self._on_input)

    def _on_run_to(self, end: int) -> None:
        self.session.events.append(["run", end])

    def _on_input(self, t: int, event) -> None:
        if not isinstance(event, KeyCodes):
            self.session.events.append(["mouse", t, event.method, list(event.args())])
            return
        codes = list(event.codes)
        screen = fingerprint(self.m)
        self.session.screens.setdefault(screen, self.m.screen_text())
        self.session.events.append(["keys", t, list(codes), screen])

    def detach(self) -> None:
        if self._attached:
            self.m.events.run_to.disconnect(self._on_run_to)
            self.m.events.input.disconnect(self._on_input)
            self._attached = False

    def finish(self) -> Session:
        """Stop recording and return the session, ending at the machine's present."""
        self.detach()
        m = self.m
        screen = fingerprint(m)
        self.session.screens.setdefault(screen, m.screen_text())
        self.session.end = {"t": m.clock.now, "screen": screen, "state": m.state_hash()}
        return self.session


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("pcemu")
    except Exception:
        return "unknown"


# ---------------------------------------------------------------------------- replaying
@dataclass
class Divergence:
    """Where a replay first stopped matching the recording."""

    what: str                       # "disk", "host folder", "boot", "screen", "time", "end state"
    message: str
    event: int | None = None        # index in session.events
    t: int | None = None            # instruction count
    expected_screen: str | None = None
    actual_screen: str | None = None

    @property
    def note(self) -> bool:
        """A difference inside the machine (the emulator changed) while what it showed did
        not: reported, but the replay still reproduces the run."""
        return self.what in ("boot", "end state")

    def describe(self, ips: int) -> str:
        out = [self.message]
        if self.t is not None:
            seconds = self.t / ips
            out[0] += f" (at instruction {self.t:,}, {seconds:.3f} s of virtual time)"
        if self.expected_screen is not None and self.actual_screen is not None:
            out.append(screen_diff(self.expected_screen, self.actual_screen))
        return "\n".join(out)


@dataclass
class ReplayResult:
    session: Session
    machine: "Machine | None"
    divergences: list[Divergence]
    events_replayed: int = 0
    inputs_checked: int = 0

    @property
    def failures(self) -> list[Divergence]:
        return [d for d in self.divergences if not d.note]

    @property
    def notes(self) -> list[Divergence]:
        return [d for d in self.divergences if d.note]

    @property
    def matches(self) -> bool:
        """Same disks, and every screen and input time as recorded."""
        return not self.failures

    @property
    def first(self) -> Divergence | None:
        return self.failures[0] if self.failures else None


def screen_diff(expected: str, actual: str) -> str:
    """The rows that differ, recorded above replayed."""
    rows = []
    exp, act = expected.splitlines(), actual.splitlines()
    for row in range(max(len(exp), len(act))):
        a = exp[row] if row < len(exp) else ""
        b = act[row] if row < len(act) else ""
        if a != b:
            rows.append(f"  row {row:2d} recorded: {a.rstrip()}\n  row {row:2d} replayed: {b.rstrip()}")
    return "\n".join(rows) if rows else "  (the text is the same: colours, cursor or mode differ)"


def check_disks(session: Session, overrides: dict[str, str] | None = None
                ) -> tuple[dict[str, str], list[Divergence]]:
    """Find each recorded disk (or take the override) and compare its hashes."""
    from disks.catalog import DiskError, find_disk
    overrides = {k.upper().rstrip(":"): v for k, v in (overrides or {}).items()}
    paths: dict[str, str] = {}
    problems: list[Divergence] = []
    for disk in session.disks:
        spec = overrides.get(disk.letter, disk.spec)
        try:
            path = find_disk(spec)
        except DiskError as exc:
            raise SessionError(f"drive {disk.letter}: of the session: {exc} "
                               f"(give the image with --disk {disk.letter}:PATH)") from None
        size, md5, sha = _file_hashes(Path(path))
        paths[disk.letter] = str(path)
        if sha != disk.sha256:
            problems.append(Divergence("disk", f"drive {disk.letter}: {path} is not the recorded disk "
                                       f"{disk.file} (SHA-256 {sha[:16]}..., {size} bytes; recorded "
                                       f"{disk.sha256[:16]}..., {disk.size} bytes)"))
    for folder in session.host_dirs:
        if not Path(folder.path).is_dir():
            raise SessionError(f"drive {folder.letter}: the host folder {folder.path} is missing")
        now = folder_manifest(Path(folder.path))
        if now != folder.files:
            changed = sorted(set(now.items()) ^ set(folder.files.items()))
            names = sorted({name for name, _ in changed})
            problems.append(Divergence("host folder", f"drive {folder.letter}: the folder "
                                       f"{folder.path} changed since the recording: "
                                       + ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")))
    return paths, problems


class Replayer:
    """Replays a session event by event; ``run()`` does it all.

    ``attach`` is called with the machine right after boot (to add a tracer or
    a film strip); ``between_steps`` is called after every CPU slice (a window
    draws and paces there - it must not run the machine itself).
    """

    def __init__(self, session: Session, *, disks: dict[str, str] | None = None,
                 attach: Callable[["Machine"], None] | None = None,
                 between_steps: Callable[["Machine"], None] | None = None,
                 keep_going: bool = False, force: bool = False) -> None:
        self.session = session
        self.between_steps = between_steps
        self.keep_going = keep_going
        paths, problems = check_disks(session, disks)
        self.result = ReplayResult(session, None, list(problems))
        if problems and not force:
            return
        from pcemu.machine import Machine
        m = Machine(**session.machine_arguments(paths))
        self.result.machine = m
        if m.clock.ips != session.profile["ips"]:
            raise SessionError(f"this machine runs at {m.clock.ips} instructions a second, "
                               f"the session at {session.profile['ips']}")
        boot = session.boot
        if m.clock.now != boot["t"] or m.state_hash() != boot["state"]:
            self._diverge(Divergence("boot", "the machine's memory after boot differs from the "
                                     "recording's: pcemu has changed since", t=m.clock.now))
        if attach is not None:
            attach(m)
        self.index = 0

    @property
    def machine(self) -> "Machine | None":
        return self.result.machine

    @property
    def done(self) -> bool:
        m = self.result.machine
        return m is None or self.index > len(self.session.events) or (
            bool(self.result.failures) and not self.keep_going)

    def _diverge(self, divergence: Divergence) -> None:
        self.result.divergences.append(divergence)

    def _advance_to(self, end: int) -> None:
        """Run to instruction ``end`` as ``Machine._run_until_instruction`` does, with a
        callback after each slice (slices end where they would anyway)."""
        m = self.result.machine
        if self.between_steps is None:
            m._run_until_instruction(end)
            return
        handle = m.scheduler.at(end, lambda: None)
        try:
            while m.clock.now < end:
                m.step()
                self.between_steps(m)
        finally:
            m.scheduler.cancel(handle)

    def step_event(self) -> None:
        """Replay the next event (or, after the last, run to the recorded end and compare)."""
        events = self.session.events
        if self.index < len(events):
            event = events[self.index]
            if event[0] == "run":
                self._advance_to(event[1])
            elif event[0] == "mouse":
                self._replay_mouse(event)
            else:
                self._replay_keys(event)
            self.index += 1
            self.result.events_replayed = self.index
            return
        if self.index == len(events):
            self._finish()
            self.index += 1

    def _replay_keys(self, event: list) -> None:
        m = self.result.machine
        _, t, codes, expected = event
        if m.clock.now < t:
            self._advance_to(t)
        if m.clock.now != t:
            self._diverge(Divergence("time", f"input {self.index} was recorded at instruction {t:,} "
                                     f"but the replay is already at {m.clock.now:,}",
                                     event=self.index, t=m.clock.now))
        actual = fingerprint(m)
        self.result.inputs_checked += 1
        if actual != expected:
            self._diverge(Divergence(
                "screen", f"the screen differs before input {self.index} "
                f"({_describe_codes(codes)})", event=self.index, t=m.clock.now,
                expected_screen=self.session.screens.get(expected, "(not recorded)"),
                actual_screen=m.screen_text()))
        m.send_keys(codes)

    def _replay_mouse(self, event: list) -> None:
        m = self.result.machine
        _, t, method, args = event
        if m.clock.now < t:
            self._advance_to(t)
        if getattr(m, "mouse", None) is None:
            raise SessionError("the session moves a mouse, but this machine has none")
        m.input(mouse_event(method, args))

    def _finish(self) -> None:
        m = self.result.machine
        end = self.session.end
        if m.clock.now < end["t"]:
            self._advance_to(end["t"])
        actual = fingerprint(m)
        if actual != end["screen"]:
            self._diverge(Divergence("screen", "the final screen differs", t=m.clock.now,
                                     expected_screen=self.session.screens.get(end["screen"], "(not recorded)"),
                                     actual_screen=m.screen_text()))
        elif m.state_hash() != end["state"]:
            self._diverge(Divergence("end state", "every screen matches, but the machine's memory "
                                     "or registers at the end differ from the recording's",
                                     t=m.clock.now))

    def run(self) -> ReplayResult:
        while not self.done:
            self.step_event()
        return self.result


def _describe_codes(codes: list[int]) -> str:
    from pcemu.archive.keynames import describe_scancodes
    return describe_scancodes(codes)


def replay(session: Session | str | os.PathLike, **options) -> ReplayResult:
    """Replay a session (object or file) headless; see ``Replayer`` for the options."""
    if not isinstance(session, Session):
        session = Session.load(session)
    return Replayer(session, **options).run()
