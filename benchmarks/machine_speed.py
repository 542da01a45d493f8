"""How fast the machine runs the originals, headless, with fixed inputs.

    python benchmarks/machine_speed.py [--seconds 20] [--repeat 3] [--no-accelerate] [--split]

For each workload: virtual seconds per wall second (x real time of an AT at the
default 1.2 MIPS), the same per second of this process's CPU time (the cores
here are shared, so wall time depends on the load, printed too), and virtual
instructions per wall second as a share of the ceiling.  The ceiling is Unicorn
running a tight loop in the same 20,000-instruction slices, with no hooks
firing, measured in the same run.  "Virtual instructions" include the passes of
loops that the C hooks proved to repeat and skipped (the last column), so a
workload can exceed the ceiling.

Every run is exact: the default machine computes what the reference machine
(``--no-accelerate``: every instruction in Unicorn, every service in Python,
nothing skipped) computes, instruction for instruction (tests/test_exact_waits.py,
tests/test_speed_equivalence.py).  There is no inexact skip to turn on here.

The host is a VM on shared cores whose speed dips for seconds at a time, so
each workload runs ``--repeat`` times (each from a fresh machine, the same
virtual span): the figures are those of the fastest run, as timeit reports, and
the median's speed is printed beside them.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pcemu import Machine                      # noqa: E402
from pcemu.clock import TICK_HZ                 # noqa: E402

WORKLOADS = {
    "GINRUMMY demo": "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}",
    "METEORS game": "METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}{F2}",
    "EZT at its menu": "EZT{ENTER}{WAIT:Main Menu}",
    "INT 16h title": "C:{ENTER}TITLE{ENTER}",
}

# A title screen of the shareware kind that waits "N polls or a key": it counts its
# INT 16h AH=01h polls and shows the count at the top left after every 64K of them.
TITLE = """
    mov ax, 0xb800
    mov es, ax
    xor si, si
poll:
    mov ah, 1
    int 0x16
    jnz key
    inc si
    jnz poll
    inc byte ptr es:[0]
    jmp poll
key:
    mov ax, 0x4c00
    int 0x21
"""


def _title_folder() -> str:
    """A folder holding TITLE.COM (assembled with keystone, a test dependency)."""
    import tempfile
    import keystone
    folder = Path(tempfile.mkdtemp(prefix="pcemu-bench-"))
    code, _ = keystone.Ks(keystone.KS_ARCH_X86, keystone.KS_MODE_16).asm(TITLE, 0x100)
    (folder / "TITLE.COM").write_bytes(bytes(code))
    return str(folder)


def measure(script: str, seconds: float, accelerate: bool, split: bool = False) -> dict[str, float]:
    host = {"C": _title_folder()} if script.startswith("C:") else {}
    m = Machine(disks=["B:1612"], host_dirs=host, accelerate=accelerate)
    m.type(script)
    spent = _time_the_parts(m) if split else None
    start_instr = m.clock.now
    skipped, chained = _counter(m, "skipped"), _counter(m, "chained_slices")
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    m.run(seconds * TICK_HZ)
    wall = time.perf_counter() - start_wall
    cpu = time.process_time() - start_cpu
    virtual = (m.clock.now - start_instr) / m.clock.ips
    skipped = _counter(m, "skipped") - skipped
    result = {"x_wall": virtual / wall, "x_cpu": virtual / cpu,
              "ips": (m.clock.now - start_instr) / wall,
              "idle_skipped": skipped / (m.clock.now - start_instr)}
    if spent is not None:
        result.update(wall=wall, chained=_counter(m, "chained_slices") - chained, **spent)
    return result


def _counter(m, name: str) -> int:
    """A statistic of the C hooks (0 without the native library)."""
    fast = m.cpu.fast
    return getattr(fast, name) if fast is not None else 0


def _time_the_parts(m) -> dict[str, float]:
    """Wrap this machine's ``emu_start`` and the Python hooks it calls with timers."""
    spent = {"emu_start": 0.0, "python_hooks": 0.0, "slices": 0}
    # the slice's run: pcemu_run_slice (C) with the native library, else the binding's emu_start
    owner, name = (m.cpu, "_run_native") if m.cpu.fast is not None else (m.cpu.uc, "emu_start")
    emu_start = getattr(owner, name)

    def timed_emu_start(*args, **kwargs):
        began = time.perf_counter()
        try:
            return emu_start(*args, **kwargs)
        finally:
            spent["emu_start"] += time.perf_counter() - began
            spent["slices"] += 1
    setattr(owner, name, timed_emu_start)
    # what C calls in Python (with the machine's bookkeeping around it), else the binding's hooks
    names = ("_from_c",) if m.cpu.fast is not None else ("_on_interrupt", "_on_port_in", "_on_port_out")
    for name in names:
        hook = getattr(m.cpu, name)

        def timed_hook(*args, _hook=hook):
            began = time.perf_counter()
            try:
                return _hook(*args)
            finally:
                spent["python_hooks"] += time.perf_counter() - began
        setattr(m.cpu, name, timed_hook)
    return spent


def ceiling(seconds: float = 3.0) -> float:
    """Instructions a second for a tight loop (INC AX; JMP back) in machine-sized slices."""
    from pcemu.cpu import Cpu
    from pcemu.memory import Memory
    from pcemu.machine import MAX_SLICE
    from pcemu.native.sync import install_counter
    mem = Memory()
    mem.write(0x1000, bytes([0x40, 0xEB, 0xFD]))
    # the reference machine's CPU: every instruction counted by the C hook (hook_count)
    cpu = Cpu(mem, lambda n: None, lambda p, s: 0xFF, lambda p, s, v: None,
              counter=install_counter)
    cpu.set_registers(cs=0x100, ss=0x200, sp=0x100)
    cpu.jump(0x100, 0)
    executed, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        cpu.run(MAX_SLICE)
        executed += MAX_SLICE
    return executed / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="virtual seconds per workload")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per workload; the fastest is reported, the median beside it")
    parser.add_argument("--no-accelerate", action="store_true",
                        help="Machine(accelerate=False): every hook in Python (the reference)")
    parser.add_argument("--split", action="store_true",
                        help="also time the parts: inside emu_start, its Python hooks, the rest")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f} on {os.cpu_count()} cores; "
          f"accelerations {'off' if args.no_accelerate else 'on'}")
    top = ceiling()
    print(f"ceiling (tight loop, same slices): {top / 1e6:.1f} M instructions/s")
    print(f"{'workload':18} {'x real (wall)':>14} {'x real (CPU)':>13} {'M instr/s':>10} {'of ceiling':>11}"
          f" {'idle loops skipped':>19} {'median x (wall)':>16}")
    for name, script in WORKLOADS.items():
        runs = sorted((measure(script, args.seconds, not args.no_accelerate, args.split)
                       for _ in range(max(1, args.repeat))), key=lambda r: r["x_wall"])
        r, median = runs[-1], runs[len(runs) // 2]["x_wall"]
        print(f"{name:18} {r['x_wall']:14.1f} {r['x_cpu']:13.1f} {r['ips'] / 1e6:10.2f} "
              f"{r['ips'] / top:10.1%} {r['idle_skipped']:19.1%} {median:16.1f}")
        if args.split:
            unicorn = r["emu_start"] - r["python_hooks"]
            print(f"{'':18} per virtual second: {r['slices'] / args.seconds:.0f} slices begun in Python, "
                  f"{r['chained'] / args.seconds:.0f} run on in C; wall time: "
                  f"Unicorn and C hooks {unicorn / r['wall']:.0%}, Python hooks "
                  f"{r['python_hooks'] / r['wall']:.0%}, slice loop {1 - r['emu_start'] / r['wall']:.0%}; "
                  f"Unicorn alone would allow {args.seconds / unicorn:.1f}x")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
