"""Fuzzing what pcemu reads from others (issue 18, docs/security.md).

Disk images (the FAT reader, ``disk ls`` and ``disk extract``), PCjs JSON, session
files, key scripts and MZ headers, each mutated by Hypothesis.  The invariant every
time: no Python exception escapes (only the module's own error, which the command
line prints as one line), the source image is unchanged, and nothing appears
outside the output folder.

The default run is a few seconds per target.  The longer campaign runs the same
properties with many more examples:

    PCEMU_FUZZ_EXAMPLES=5000 .venv/bin/pytest -n 0 -m fuzz_long tests/test_fuzz.py

(``fuzz_long`` is excluded from the default run; PCEMU_FUZZ_EXAMPLES sets its size,
2,000 examples per target when unset.)
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import string
import struct
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcemu.commands.disk import cli as disk_cli
from pcemu.storage.errors import DosError, MountError
from pcemu.storage.image import FloppyImage, format_image

LONG = int(os.environ.get("PCEMU_FUZZ_EXAMPLES", "2000"))
FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG_RUN = settings(max_examples=LONG, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def both(prop, strategy, fast=FAST):
    """A fast test for the default run and a long one for ``-m fuzz_long``, of one property."""
    quick = fast(given(strategy)(prop))
    long = pytest.mark.fuzz_long(LONG_RUN(given(strategy)(prop)))
    return quick, long


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


# ---------------------------------------------------------------- disk images
@lru_cache(maxsize=1)
def base_image() -> bytes:
    img = FloppyImage(format_image("360K", label="FUZZ"))
    vol = img.drive
    with vol.create(["README.TXT"]) as f:
        f.write(b"read me\r\n" * 100)
    vol.mkdir(["SUB"])
    vol.mkdir(["SUB", "INNER"])
    with vol.create(["SUB", "INNER", "F.TXT"]) as f:
        f.write(b"deep" * 400)
    with vol.create(["SUB", "G.TXT"]) as f:
        f.write(b"g")
    return img.data()


# the boot sector, both FATs, the root directory and the first data clusters (SUB, INNER)
HOT = 512 * 24
image_edits = st.lists(st.tuples(st.integers(0, HOT - 1), st.integers(0, 255)), min_size=1,
                       max_size=24)


def fuzz_disk_image(edits) -> None:
    data = bytearray(base_image())
    for offset, value in edits:
        data[offset] = value
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        source = tmp / "fuzz.img"
        source.write_bytes(bytes(data))
        digest = hashlib.sha256(bytes(data)).hexdigest()
        # the reader itself: what mounts lists and reads, or says why not
        try:
            img = FloppyImage(bytes(data))
        except MountError:
            img = None
        if img is not None:
            try:
                for path, entry, read in img.drive.walk_data():
                    if not entry.is_dir:
                        try:
                            read()
                        except DosError:
                            pass
            except DosError:                     # a damaged directory: the drive says so
                pass
            img.changes()                        # whatever the damage, a list of changes
        # the commands
        work = tmp / "work"
        out = work / "out"
        out.mkdir(parents=True)
        runner = CliRunner()
        for args in (["disk", "ls", str(source)], ["disk", "ls", str(source), "SUB"],
                     ["disk", "info", str(source)],
                     ["disk", "extract", str(source), "SUB", "-o", str(out)],
                     ["disk", "extract", str(source), "*.*", "-o", str(out), "--force"]):
            result = runner.invoke(disk_cli, args, catch_exceptions=False)
            assert result.exit_code in (0, 2), (args, result.output)
        assert all(name == "out" or name.startswith("out" + os.sep) for name in _tree(work))
        assert hashlib.sha256(source.read_bytes()).hexdigest() == digest


test_fuzz_disk_images, test_fuzz_disk_images_long = both(fuzz_disk_image, image_edits)

# whole names: the bytes of a directory entry's name replaced by anything
name_bytes = st.binary(min_size=11, max_size=11)


def fuzz_entry_names(names) -> None:
    data = bytearray(base_image())
    for old, new in zip((b"SUB        ", b"INNER      ", b"G       TXT", b"README  TXT"), names):
        at = data.index(old)
        data[at:at + 11] = new
    fuzz_disk_image([(0, data[0])] + [(i, data[i]) for i in range(HOT) if data[i] != base_image()[i]])


test_fuzz_entry_names, test_fuzz_entry_names_long = both(
    fuzz_entry_names, st.lists(name_bytes, min_size=1, max_size=4))


# ---------------------------------------------------------------- PCjs JSON
@lru_cache(maxsize=1)
def base_pcjs() -> dict:
    data = format_image("160K", label="PCJS")
    disk = []
    for c in range(40):
        disk.append([[{"c": c, "h": 0, "s": s, "l": 512,
                       "d": list(struct.unpack("<128i", data[(c * 8 + s - 1) * 512:][:512]))}
                      for s in range(1, 9)]])
    return {"imageInfo": {"hash": hashlib.md5(data).hexdigest(), "cylinders": 40, "heads": 1},
            "diskData": disk}


KEYS = ["diskData", "imageInfo", "s", "l", "d", "c", "h", "bytes", "pattern", "sector", "length",
        "data", "hash", "cylinders", "heads", "trackDefault", "sectorDefault", "diskSize"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    max_leaves=12)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:3]) if len(doc) > 3 else enumerate(doc):
            yield from _paths(value, prefix + (i,))


def _replace(doc, path, value):
    if not path:
        return value
    doc = json.loads(json.dumps(doc)) if not isinstance(doc, (dict, list)) else doc
    head, *rest = path
    doc[head] = _replace(doc[head], tuple(rest), value)
    return doc


@st.composite
def mutated_json(draw, base):
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        doc = _replace(doc, path, draw(json_values))
    return doc


def fuzz_pcjs(doc) -> None:
    from pcemu.storage.pcjs import PcjsFormatError, pcjs_to_image
    try:
        image = pcjs_to_image(doc, "fuzz.json")
        assert isinstance(image, bytes)
    except PcjsFormatError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "fuzz.json"
        source.write_text(json.dumps(doc))
        result = CliRunner().invoke(disk_cli, ["import", str(source), "-o", str(Path(tmp) / "o.img")],
                                    catch_exceptions=False)
        assert result.exit_code in (0, 2), result.output
        assert _tree(Path(tmp)) <= {"fuzz.json", "o.img"}


test_fuzz_pcjs, test_fuzz_pcjs_long = both(fuzz_pcjs, mutated_json(base_pcjs()))
test_fuzz_pcjs_any, test_fuzz_pcjs_any_long = both(fuzz_pcjs, json_values)


# ---------------------------------------------------------------- sessions
@lru_cache(maxsize=1)
def base_session() -> dict:
    from pcemu.archive.session import Recorder
    from pcemu.machine import Machine
    folder = Path(tempfile.mkdtemp(prefix="pcemu-fuzz-"))
    (folder / "fuzz.img").write_bytes(base_image())
    m = Machine(disks=[f"B:{folder / 'fuzz.img'}"])
    recorder = Recorder(m)
    m.type("DIR{ENTER}")
    doc = recorder.finish().to_json()
    doc["host_dirs"] = [{"letter": "D", "path": "/usr", "files": {"X.TXT": "0" * 64}}]
    return json.loads(json.dumps(doc))


def fuzz_session(doc) -> None:
    from pcemu.archive.session import SessionError
    from pcemu.archive.session_checks import SessionCheckError, prepare_replay
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = tmp / "d"
        folder.mkdir()
        path = tmp / "fuzz.session"
        path.write_bytes(gzip.compress(json.dumps(doc).encode()))
        try:
            session, _changed = prepare_replay(path, [f"D:{folder}"])
            session.machine_arguments({"B": "x"})
        except (SessionError, SessionCheckError):
            return
        assert _tree(tmp) == {"d", "fuzz.session"}


test_fuzz_sessions, test_fuzz_sessions_long = both(fuzz_session, mutated_json(base_session()))


def test_fuzz_sessions_replay_or_refuse_in_one_line():
    """A handful of mutated sessions replayed by the command: exit 0, 1 or 2, never a traceback."""
    from pcemu.cli import main
    doc = base_session()

    @settings(max_examples=6, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.integers(0, len(doc["events"]) - 1), st.sampled_from(["t", "codes", "screen", "kind"]),
           json_values)
    def replay(index, what, value):
        mutated = json.loads(json.dumps(doc))
        mutated["host_dirs"] = []
        event = mutated["events"][index]
        position = {"kind": 0, "t": 1, "codes": 2, "screen": 3}[what]
        if position < len(event):
            event[position] = value
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fuzz.session"
            path.write_text(json.dumps(mutated))
            result = CliRunner().invoke(main, ["replay", str(path)], catch_exceptions=False)
            assert result.exit_code in (0, 1, 2), result.output

    replay()


# ---------------------------------------------------------------- key scripts
NAMES = ["ENTER", "ESC", "F1", "F10", "UP", "WAIT:", "WAIT:x", "TICKS:", "TICKS:1", "TICKS:nan",
         "TICKS:-1", "TICKS:1e999", "CTRL+", "ALT+X", "SHIFT+F1", "{", "}", ""]
scripts = st.lists(st.sampled_from(NAMES).map(lambda n: "{" + n + "}")
                   | st.text(alphabet=string.printable + "{}\x00\xe9\u2603", max_size=6),
                   max_size=10).map("".join)


def fuzz_key_script(script) -> None:
    from pcemu.keys import KeyScriptError, parse_script
    try:
        parse_script(script)
    except KeyScriptError:
        pass


test_fuzz_key_scripts, test_fuzz_key_scripts_long = both(
    fuzz_key_script, scripts, settings(max_examples=400, deadline=None, derandomize=True))


# ---------------------------------------------------------------- MZ headers
@lru_cache(maxsize=1)
def base_exe() -> bytes:
    from pcemu.tools.mz import build_mz
    code = bytes([0xB8, 0x00, 0x4C, 0xCD, 0x21]) + bytes(300)
    return build_mz(code, [(0, 1), (0, 20)], cs=0, ip=0, ss=0, sp=0x200, minalloc=0x20)


header_edits = st.lists(st.tuples(st.integers(0, 0x3F), st.integers(0, 0xFFFF)), min_size=1, max_size=8)


def fuzz_mz(edits) -> None:
    from pcemu.archive.program_map import ProgramMap
    from pcemu.dos.process import exe_header
    from pcemu.errors import ProgramLoadError
    from pcemu.tools.exe import analyse, describe
    from pcemu.tools.mz import ExeError
    data = bytearray(base_exe())
    for offset, word in edits:
        data[offset:offset + 2] = struct.pack("<H", word)
    data = bytes(data)
    try:
        exe_header(data)
    except ProgramLoadError:
        pass
    try:
        describe(analyse(data), "FUZZ.EXE")
    except ExeError:
        pass
    try:
        ProgramMap.from_exe(data, 0, "FUZZ.EXE")
    except ExeError:
        pass


test_fuzz_mz_headers, test_fuzz_mz_headers_long = both(
    fuzz_mz, header_edits, settings(max_examples=300, deadline=None, derandomize=True))


def test_fuzz_mz_headers_run_by_dos():
    """Mutated EXEs run by the machine: it loads them, refuses them, or the program runs;
    the command ends with a status and at most a one-line reason."""
    from pcemu.cli import main

    @settings(max_examples=8, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(header_edits)
    def run(edits):
        data = bytearray(base_exe())
        for offset, word in edits:
            data[offset:offset + 2] = struct.pack("<H", word)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "c"
            folder.mkdir()
            (folder / "FUZZ.EXE").write_bytes(bytes(data))
            result = CliRunner().invoke(main, ["run", str(folder), "FUZZ", "--headless", "--ticks", "3"],
                                        catch_exceptions=False)
            assert "Traceback" not in result.output
            assert _tree(Path(tmp)) == {"c", "c/FUZZ.EXE"} or result.exit_code in (0, 2)

    run()


# ---------------------------------------------------------------- INT 21h with random registers
SKIPPED_FUNCTIONS = (0x00, 0x01, 0x07, 0x08, 0x0A, 0x0C,   # end the program, or wait for a key
                     0x25, 0x26, 0x31, 0x35, 0x4B, 0x4C, 0x50, 0x55)  # vectors, PSPs, EXEC


def random_dos_calls(seed: int, calls: int) -> str:
    """A .COM program making ``calls`` INT 21h calls with registers from a 16-bit LCG
    (DS and ES on a scratch segment 64 KB above the program), then exiting with 4Ch.
    Skipped: the calls in SKIPPED_FUNCTIONS, reads and writes on the standard handles
    (they wait for keys or fill the screen); lengths and seek positions are kept small
    so the host folder stays small."""
    regs = ["ax", "bx", "cx", "dx", "si", "di", "bp"]
    lcg = "".join(f"""
        mov ax, word ptr cs:[seed]
        mov dx, 25173
        mul dx
        add ax, 13849
        mov word ptr cs:[seed], ax
        mov word ptr cs:[r{i}], ax
    """ for i in range(len(regs)))
    load = "".join(f"        mov {r}, word ptr cs:[r{i}]\n" for i, r in enumerate(regs))
    skips = "".join(f"        cmp ah, {f:#x}\n        je skip\n" for f in SKIPPED_FUNCTIONS)
    return f"""
        mov ax, 0x2524
        mov dx, critical
        int 0x21
        mov ax, cs
        add ax, 0x1000
        mov word ptr cs:[scratch], ax
        mov es, ax
        xor di, di
        mov cx, 0x8000
        mov ax, 0x2441
        rep stosw
        mov word ptr cs:[seed], {seed & 0xFFFF:#x}
        mov word ptr cs:[count], {calls}
    next:
{lcg}
{load}
{skips}
        cmp ah, 0x3f
        jb keep
        cmp ah, 0x40
        ja seek
        cmp bx, 5
        jb skip
        and cx, 0x0fff
    seek:
        cmp ah, 0x42
        jne keep
        and cx, 0x000f
    keep:
        push ax
        mov ax, word ptr cs:[scratch]
        mov ds, ax
        mov es, ax
        pop ax
        int 0x21
    skip:
        dec word ptr cs:[count]
        jz finish
        jmp next
    finish:
        mov ax, 0x4c00
        int 0x21
    critical:
        mov al, 3
        iret
    seed: .word 0
    count: .word 0
    scratch: .word 0
    r0: .word 0
    r1: .word 0
    r2: .word 0
    r3: .word 0
    r4: .word 0
    r5: .word 0
    r6: .word 0
    """


def dos_call_storm(tmp: Path, seed: int, calls: int = 10_000) -> None:
    from dos_harness import machine_with, run_command
    image, other = FloppyImage(base_image()), FloppyImage(base_image())
    before = hashlib.sha256(image.source_data()).hexdigest()
    run = machine_with(tmp, {"STORM.COM": random_dos_calls(seed, calls)},
                       mounts={"A": other, "B": image})
    m = run.machine
    functions: dict[int, int] = {}
    m.events.dos.connect(lambda ah: functions.__setitem__(ah, functions.get(ah, 0) + 1))
    m.type("C:{ENTER}")
    run_command(run, "STORM", max_ticks=18.2 * 600)
    assert sum(functions.values()) > calls * 0.8 and len(functions) > 100, functions
    assert m._stopped is None, m._stopped
    assert m.dos.shell.exit_codes[-1][1] == 0 and m.dos.shell.termination >> 8 == 0
    assert hashlib.sha256(image.source_data()).hexdigest() == before
    assert all(p.resolve().is_relative_to(tmp.resolve()) for p in tmp.rglob("*"))


def test_fuzz_ten_thousand_dos_calls_with_random_registers(tmp_path):
    dos_call_storm(tmp_path, seed=0x1987)


@pytest.mark.fuzz_long
@pytest.mark.parametrize("seed", range(1, 1 + max(1, LONG // 200)))
def test_fuzz_dos_calls_long(tmp_path, seed):
    dos_call_storm(tmp_path, seed=seed * 7919)
