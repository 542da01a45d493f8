"""How fast the machine runs the originals, headless, with fixed inputs.

    python benchmarks/machine_speed.py [--seconds 30]

For each workload: virtual seconds per wall second (x real time of an AT at the
default 1.2 MIPS), and guest instructions per wall second.  The ceiling is
Unicorn running a tight loop in the same 20,000-instruction slices, with no
hooks firing, on this machine.
"""
from __future__ import annotations

import argparse
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
}


def measure(script: str, seconds: float) -> tuple[float, float]:
    m = Machine(disks=["B:1612"])
    m.type(script)
    start_instr, start_wall = m.clock.now, time.perf_counter()
    m.run(seconds * TICK_HZ)
    wall = time.perf_counter() - start_wall
    virtual = (m.clock.now - start_instr) / m.clock.ips
    return virtual / wall, (m.clock.now - start_instr) / wall


def ceiling(seconds: float = 3.0) -> float:
    """Instructions a second for a tight loop (INC AX; JMP back) in machine-sized slices."""
    from pcemu.cpu import Cpu
    from pcemu.memory import Memory
    from pcemu.machine import MAX_SLICE
    mem = Memory()
    mem.write(0x1000, bytes([0x40, 0xEB, 0xFD]))
    cpu = Cpu(mem, lambda n: None, lambda p, s: 0xFF, lambda p, s, v: None)
    cpu.set_registers(cs=0x100, ss=0x200, sp=0x100)
    cpu.jump(0x100, 0)
    executed, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        cpu.run(MAX_SLICE)
        executed += MAX_SLICE
    return executed / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="virtual seconds per workload")
    args = parser.parse_args()
    top = ceiling()
    print(f"ceiling (tight loop, same slices): {top / 1e6:.1f} M instructions/s")
    print(f"{'workload':18} {'x real time':>12} {'M instr/s':>10} {'of ceiling':>11}")
    for name, script in WORKLOADS.items():
        speed, ips = measure(script, args.seconds)
        print(f"{name:18} {speed:12.1f} {ips / 1e6:10.2f} {ips / top:10.1%}")


if __name__ == "__main__":
    main()
