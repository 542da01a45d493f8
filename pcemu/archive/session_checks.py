"""What a session file may ask of the host, checked before anything runs (issue 18).

A session file is input from someone else.  It may name disks (looked up as
when recorded, and only read) but the host folders it names are never opened:
the user names each folder on the command line (``pcemu replay --host-dir
X:FOLDER``), and only the files the recording listed are hashed to compare
(so a session naming ``/usr`` costs nothing).  Every number in it is bounded:
a speed pcemu can run at, times in order and within ``MAX_SESSION_SECONDS``,
a start date and time that parse.

``folder_manifest`` is the recording side: the files of a mounted folder with
their SHA-256, not following symbolic links out of it (the drive does not show
those to DOS either), bounded in count and size.
"""
from __future__ import annotations

import datetime as _dt
import math
import stat as st
from pathlib import Path
from typing import TYPE_CHECKING

from pcemu.archive.manifest import MAX_MANIFEST_FILES, hash_file, inside, listing
from pcemu.archive.session import Divergence, Session, SessionError
from pcemu.errors import PcemuError

if TYPE_CHECKING:
    from pcemu.archive.session import HostDirRecord

MAX_SESSION_SECONDS = 24 * 3600          # of virtual time: a day of play
MIN_IPS, MAX_IPS = 1_000, 10_000_000_000  # 0.001 to 10,000 MIPS
MAX_EVENTS = 10_000_000
VIDEO = ("cga", "mda", "hercules")


class SessionCheckError(PcemuError):
    """A session that asks for something pcemu will not do or cannot run."""


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SessionCheckError(f"the session is damaged: {what} is {value!r}, not a whole number")
    return value


def check_session(session: "Session", name: str = "the session") -> None:
    """Refuse a session whose numbers pcemu cannot honour, with one line saying which."""
    p = session.profile
    ips = p.get("ips")
    if isinstance(ips, bool) or not isinstance(ips, (int, float)) or not math.isfinite(ips) \
            or not MIN_IPS <= ips <= MAX_IPS or ips != int(ips):
        raise SessionCheckError(f"{name} runs at {ips!r} instructions a second: pcemu runs "
                                f"between {MIN_IPS:,} and {MAX_IPS:,}")
    for key in ("date", "time"):
        if not isinstance(p.get(key), str):
            raise SessionCheckError(f"{name} has no start {key} (its profile is damaged)")
    try:
        _dt.date.fromisoformat(p["date"])
    except ValueError:
        raise SessionCheckError(f"{name} has a start date {p['date']!r} that is not YYYY-MM-DD") from None
    if p.get("video", "cga") not in VIDEO:
        raise SessionCheckError(f"{name} asks for video {p.get('video')!r}, not one of {', '.join(VIDEO)}")
    ems = p.get("ems", 0)
    if isinstance(ems, bool) or not isinstance(ems, int) or not (ems == 0 or 16 <= ems <= 32 * 1024):
        raise SessionCheckError(f"{name} asks for {ems!r} KB of expanded memory: 0 (none) "
                                f"or 16 to 32768")
    drives = p.get("floppy_drives", 2)
    if isinstance(drives, bool) or drives not in (1, 2):
        raise SessionCheckError(f"{name} asks for {drives!r} diskette drives: 1 or 2")
    if not isinstance(p.get("one_drive_b", False), bool) or (p.get("one_drive_b") and drives != 1):
        raise SessionCheckError(f"{name} asks for B: as the one drive's second name "
                                f"({p.get('one_drive_b')!r}) on a {drives}-drive machine")
    limit = int(MAX_SESSION_SECONDS * ips)
    boot = _int(session.boot.get("t"), "the boot time")
    end = _int(session.end.get("t"), "the end time")
    if not 0 <= boot <= end <= limit:
        raise SessionCheckError(
            f"{name} ends at instruction {end:,}: a session runs from its boot (instruction "
            f"{boot:,}) for at most {MAX_SESSION_SECONDS // 3600} hours of virtual time "
            f"({limit:,} instructions)")
    if len(session.events) > MAX_EVENTS:
        raise SessionCheckError(f"{name} has {len(session.events):,} events, more than {MAX_EVENTS:,}")
    for index, event in enumerate(session.events):
        t = _int(event[1], f"the time of event {index}")
        if not boot <= t <= end:
            raise SessionCheckError(f"{name}: event {index} is at instruction {t:,}, outside "
                                    f"the session's {boot:,} to {end:,}")
    if len(session.host_dirs) > 26:
        raise SessionCheckError(f"{name} names {len(session.host_dirs)} host folders")


def map_host_folders(session: "Session", given: dict[str, str]) -> dict[str, str]:
    """The host folder for each drive the session mounted: only ones the user named.

    The folder a session names is never used by itself: it came from someone
    else's machine and may be any folder on this one.
    """
    folders = {}
    for record in session.host_dirs:
        letter = str(record.letter).upper()
        if letter not in given:
            raise SessionCheckError(
                f"the session mounted a host folder as drive {letter}: (recorded as {record.path!r}); "
                f"pcemu does not open folders a session names: give one with --host-dir "
                f"{letter}:FOLDER (the program changes a private copy of it, unless "
                f"--host-dir-writes is given)")
        folder = given[letter]
        if not folder or not Path(folder).is_dir():
            raise SessionCheckError(f"--host-dir {letter}:{folder}: not an existing folder")
        folders[letter] = folder
    extra = sorted(set(given) - {str(r.letter).upper() for r in session.host_dirs})
    if extra:
        raise SessionCheckError(f"the session mounted no host folder as drive {extra[0]}:")
    return folders


def compare_folder(record: "HostDirRecord", folder: str) -> list[str]:
    """Names that differ between the recorded manifest and ``folder``: only the files the
    recording listed are read; other files are noticed by name (at most
    MAX_MANIFEST_FILES of them), never read."""
    root = Path(folder)
    if not isinstance(record.files, dict) or len(record.files) > MAX_MANIFEST_FILES:
        raise SessionCheckError(f"drive {record.letter}: the session's list of the folder's files "
                                "is damaged or too long")
    differ = []
    for name, digest in sorted(record.files.items()):
        path = inside(root, str(name))
        if path is None or hash_file(path) != digest:
            differ.append(str(name))
    present = listing(root)
    differ += sorted(set(present) - set(record.files))
    return differ


def replayable(session: "Session", folders: dict[str, str], writes: bool = True) -> "Session":
    """A copy of ``session`` that mounts ``folders`` (the user's) and whose host folders
    the replayer neither looks up nor hashes (``compare_folder`` has done that).  Without
    ``writes`` the folders are mounted copy-on-write: the replayed program changes a
    private copy, never the folder."""
    import dataclasses
    from pcemu.storage.mount import HostFolder
    folders = {letter: HostFolder(folder, writes=writes) for letter, folder in folders.items()}

    @dataclasses.dataclass
    class _Mapped(Session):
        def machine_arguments(self, disk_paths):
            arguments = super().machine_arguments(disk_paths)
            arguments["host_dirs"] = dict(folders)
            return arguments

    values = {f.name: getattr(session, f.name) for f in dataclasses.fields(Session)}
    values["host_dirs"] = []
    return _Mapped(**values)


MAX_SESSION_FILE = 64 * 1024 * 1024        # bytes, compressed or not
MAX_SESSION_JSON = 512 * 1024 * 1024       # bytes of JSON after decompressing


def load_session(path) -> "Session":
    """``Session.load`` with every input bounded: the file's size, what it decompresses to,
    the JSON's nesting, then `check_session`."""
    import gzip
    import json
    import zlib

    path = Path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SESSION_FILE + 1)
    except FileNotFoundError:
        raise SessionError(f"session file {path} does not exist") from None
    except OSError as exc:
        raise SessionError(f"cannot read the session {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_SESSION_FILE:
        raise SessionError(f"{path} is larger than {MAX_SESSION_FILE // 2**20} MB: not a session pcemu reads")
    try:
        if raw[:2] == b"\x1f\x8b":
            inflate = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            text = inflate.decompress(raw, MAX_SESSION_JSON + 1)
            if len(text) > MAX_SESSION_JSON or inflate.unconsumed_tail:
                raise SessionError(f"{path} unpacks to more than {MAX_SESSION_JSON // 2**20} MB: "
                                   "not a session pcemu reads")
            raw = text
        data = json.loads(raw)
    except SessionError:
        raise
    except RecursionError:
        raise SessionError(f"{path} is not a pcemu session: its JSON is nested too deeply") from None
    except (OSError, EOFError, ValueError, UnicodeDecodeError, zlib.error, gzip.BadGzipFile) as exc:
        raise SessionError(f"{path} is not a pcemu session (or it is damaged): {exc}") from None
    try:
        session = Session.from_json(data, str(path))
    except RecursionError:
        raise SessionError(f"{path} is damaged: nested too deeply") from None
    except (AttributeError, IndexError) as exc:
        raise SessionError(f"{path} is damaged: {exc}") from None
    check_session(session, str(path))
    return session


MAX_DISK_IMAGE = 4 * 1024 * 1024           # the largest diskette image pcemu mounts is 2.88 MB


def check_session_disks(session: "Session", overrides: dict[str, str] | None = None) -> None:
    """Each disk the session names must be a regular file of diskette size before it is
    read and hashed (a session naming /dev/zero or a huge file is refused, not read)."""
    from disks.catalog import DiskError, find_disk
    overrides = {k.upper().rstrip(":"): v for k, v in (overrides or {}).items()}
    for disk in session.disks:
        spec = overrides.get(str(disk.letter).upper(), disk.spec)
        try:
            path = Path(find_disk(str(spec)))
            info = path.stat()
        except (DiskError, OSError, ValueError):
            continue                  # the replayer says which disk is missing, and how to give it
        if not st.S_ISREG(info.st_mode) or info.st_size > MAX_DISK_IMAGE:
            raise SessionCheckError(f"drive {disk.letter}: of the session names {spec!r}, which is not "
                                    f"a diskette image (a regular file of at most "
                                    f"{MAX_DISK_IMAGE // 2**20} MB): give the image with "
                                    f"--disk {disk.letter}:PATH")


def prepare_replay(path, host_dir_specs=(), disks: dict[str, str] | None = None, *,
                   writes: bool = True):
    """The session at ``path``, ready for `Replayer`: loaded with its bounds, its host
    folders replaced by the ones the user named (``X:FOLDER`` specs) and compared, and
    mounted copy-on-write unless ``writes`` (the command line's ``--host-dir-writes``).
    Returns (session, divergences of the folders)."""
    given = {}
    for spec in host_dir_specs:
        letter, sep, folder = str(spec).partition(":")
        if not sep or len(letter) != 1 or not letter.isalpha() or not folder:
            raise SessionCheckError(f"--host-dir wants X:FOLDER, not {spec!r}")
        given[letter.upper()] = folder
    session = load_session(path)
    check_session_disks(session, disks)
    folders = map_host_folders(session, given)
    changed = []
    for record in session.host_dirs:
        folder = folders[str(record.letter).upper()]
        names = compare_folder(record, folder)
        if names:
            changed.append(Divergence("host folder", f"drive {record.letter}: the folder {folder} "
                                      "differs from the recorded one: " + ", ".join(names[:8])
                                      + (" ..." if len(names) > 8 else "")))
    return replayable(session, folders, writes), changed
