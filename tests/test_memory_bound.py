"""Programs that rewrite their own code keep the process small, and still run the new code.

Unicorn translates guest code into host code in a buffer (QEMU's code_gen_buffer)
that it only empties when it is full; its default is 1 GiB.  Every write into code
that has been translated throws the translation away and the code is translated
again at its next run, so a program that rewrites its own code, or keeps writing
new code, fills that buffer: the process grows towards 1.1 GB.  ``pcemu.cpu``
caps the buffer (``TCG_BUFFER_SIZE``); a full buffer is flushed and the code
translated again on demand.  That changes only the host's work, never what the
program computes or when (virtual time counts instructions): the same runs with
and without the cap end in the same state at the same instruction.

Each machine runs in a subprocess of its own, so its peak RSS is its own (and
nothing here depends on what else a pytest-xdist worker ran before).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pcemu import cpu, native
from tests.dos_harness import assemble16
from tests.machine_helpers import END, PRINT_HEX, REPO_ROOT

MB = 1024 * 1024

# Patches the immediate of its own ADD SI,imm16 every pass (an INC of the word inside
# that instruction, in the very block that is running): OUTER x 65536 passes adding
# 0, 1, 2, ... each followed by ROL SI,1, so a pass that ran a stale immediate shows in SI.
# Prints SI and the immediate it ended with.
PATCH = """
    xor si, si
    mov bx, {count}
outer:
    xor cx, cx
inner:
patched:
    .byte 0x81, 0xc6
    .word 0
    rol si, 1
    inc word ptr [patched + 2]
    loop inner
    dec bx
    jnz outer
    mov ax, si
    call print_hex
    mov ax, word ptr [patched + 2]
    call print_hex
""" + END + PRINT_HEX

# The same sums with the number as data beside the loop (the same 1 KB, the same page):
# writes next to translated code that do not touch it.
DATA = """
    xor si, si
    mov bx, {count}
outer:
    xor cx, cx
inner:
    add si, word ptr [value]
    rol si, 1
    inc word ptr [value]
    loop inner
    dec bx
    jnz outer
    mov ax, si
    call print_hex
    mov ax, word ptr [value]
    call print_hex
""" + END + PRINT_HEX + """
value:
    .word 0
"""

# Code at ever new addresses: writes a routine (MOV AX,n; RETF) into the next 4 bytes of
# a 64 KB segment, calls it and adds AX to SI (then ROL SI,1), for n = 0, 1, 2, ...;
# five segments above the program a sweep, COUNT sweeps, so the later sweeps write
# over code translated in the earlier ones, with other immediates.  Prints SI and n.
GENERATE = """
    xor si, si
    xor bp, bp
    mov bx, {count}
sweep:
    mov dx, cs
    add dx, 0x1000
segment:
    mov es, dx
    xor di, di
routine:
    mov word ptr [target], di
    mov word ptr [target + 2], es
    mov al, 0xb8
    stosb
    mov ax, bp
    stosw
    mov al, 0xcb
    stosb
    .byte 0xff, 0x1e
    .word target
    add si, ax
    rol si, 1
    inc bp
    test di, di
    jnz routine
    add dx, 0x1000
    mov ax, cs
    add ax, 0x6000
    cmp dx, ax
    jb segment
    dec bx
    jnz sweep
    mov ax, si
    call print_hex
    mov ax, bp
    call print_hex
""" + END + PRINT_HEX + """
target:
    .word 0, 0
"""

PROGRAMS = {"PATCH": PATCH, "DATA": DATA, "GENERATE": GENERATE}


def expected(program: str, count: int) -> str:
    """What PROGRAM prints when every pass runs the code as it was last written."""
    passes = count * (5 * 0x4000 if program == "GENERATE" else 0x10000)
    si = 0
    for n in range(passes):
        si = (si + (n & 0xFFFF)) & 0xFFFF
        si = ((si << 1) | (si >> 15)) & 0xFFFF
    return f"{si:04X}{passes & 0xFFFF:04X}"


def _rss_kb() -> tuple[int, int]:
    """(current RSS, peak RSS) of this process in KB, from /proc/self/status."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def run_in_this_process(folder: str, program: str, cap: int | None,
                        accelerate: bool = True) -> dict:
    """Run C:PROGRAM to its end with the translation buffer ``cap`` (None: Unicorn's own).
    The subprocess's side of `measure`."""
    import time
    from pcemu.machine import Machine
    cpu.TCG_BUFFER_SIZE = cap
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    m.type("C:{ENTER}")
    m.run(2)
    before, _ = _rss_kb()
    exits = []
    m.events.exit.connect(lambda *args: exits.append(args))
    began = time.perf_counter()
    m.type(f"{program}{{ENTER}}")
    m.run_until(condition=lambda m: bool(exits), max_ticks=18.2 * 6000)
    wall = time.perf_counter() - began
    m.run(2)
    after, peak = _rss_kb()
    printed = m.screen_text().split(program)[-1].split()[0]
    return {"printed": printed, "hash": m.state_hash(), "now": m.clock.now,
            "instructions": m.cpu.instructions, "seconds": m.clock.now / m.clock.ips,
            "wall": wall, "rss_before_mb": before / 1024, "rss_after_mb": after / 1024,
            "peak_mb": peak / 1024,
            "buffer": m.cpu.uc.ctl_get_tcg_buffer_size()}


def measure(tmp_path: Path, program: str, count: int, cap: int | None | str = "default",
            accelerate: bool = True) -> dict:
    """Assemble PROGRAM with its loop count, run it in a fresh Python process, return what
    `run_in_this_process` saw.  ``cap="default"``: pcemu.cpu's own TCG_BUFFER_SIZE."""
    folder = tmp_path / f"{program}-{count}"
    folder.mkdir(exist_ok=True)
    source = PROGRAMS[program].format(count=count)
    (folder / f"{program}.COM").write_bytes(assemble16(source))
    if cap == "default":
        cap = cpu.TCG_BUFFER_SIZE
    code = ("import json, sys; from tests.test_memory_bound import run_in_this_process as r; "
            f"print(json.dumps(r({str(folder)!r}, {program!r}, {cap!r}, {accelerate!r})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# With Unicorn's own 1 GiB buffer the runs below grow the process from 54 MB to about
# 400 MB (PATCH 5) and 350 MB (GENERATE 5); DATA does not grow (QEMU sees that its
# writes miss the translated bytes).  With the cap each stays under 100 MB.
LIMIT_MB = 300                                    # the whole process, at its peak
GROWTH_MB = cpu.TCG_BUFFER_SIZE / MB + 48         # while the program runs: the buffer and slack


@pytest.mark.parametrize("program, count", [("PATCH", 5), ("GENERATE", 5), ("DATA", 16)])
def test_self_modifying_programs_run_in_bounded_memory(tmp_path, program, count):
    seen = measure(tmp_path, program, count)
    assert seen["printed"] == expected(program, count)       # the new code ran, every time
    assert seen["buffer"] == cpu.TCG_BUFFER_SIZE
    assert seen["peak_mb"] < LIMIT_MB, seen
    assert seen["peak_mb"] - seen["rss_before_mb"] < GROWTH_MB, seen


@pytest.mark.parametrize("program", ["PATCH", "GENERATE"])
def test_the_cap_and_its_flushes_change_nothing_the_program_computes(tmp_path, program):
    """Unicorn's own 1 GiB (never full here), the default cap (full once or twice) and the
    smallest buffer Unicorn takes, 1 MB (flushed dozens of times): the same screen, RAM,
    registers, virtual time and instruction count."""
    runs = [measure(tmp_path, program, 1, cap) for cap in (None, "default", MB)]
    assert [run["buffer"] for run in runs] == [1 << 30, cpu.TCG_BUFFER_SIZE, MB]
    assert runs[0]["printed"] == expected(program, 1)
    results = {(run["printed"], run["hash"], run["now"], run["instructions"]) for run in runs}
    assert len(results) == 1, runs


@pytest.mark.skipif(native.load() is None, reason="no C compiler here: no native library")
def test_a_self_patching_loop_takes_the_same_virtual_time_with_and_without_the_native_library(
        tmp_path):
    """Unicorn runs an instruction that wrote into its own running block twice (the first
    run is undone with the block): the idle-loop probe in C must not take the second run
    for a pass of a loop that changed nothing, and skip the rest of the slice."""
    fast, slow = (measure(tmp_path, "PATCH", 1, accelerate=accelerate)
                  for accelerate in (True, False))
    assert fast["printed"] == slow["printed"] == expected("PATCH", 1)
    assert (fast["hash"], fast["now"]) == (slow["hash"], slow["now"])


if __name__ == "__main__":
    # python -m tests.test_memory_bound PROGRAM COUNT CAP [--slow]: one measurement, printed
    import tempfile
    name, count, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    cap = None if cap == "none" else ("default" if cap == "default" else int(cap))
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(measure(Path(tmp), name, count, cap, "--slow" not in sys.argv)))
