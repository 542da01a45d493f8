"""The clock counts instructions by translated block, and counts exactly what runs.

The block hook (C in pcemu/native, Python in pcemu/cpu.py) adds each block's
instruction count, decoded from its bytes (pcemu/blocks.py, and its twin in
fastcpu.c).  These tests hold the decoders to Unicorn's own count of the
blocks it translates, and the machine's clock to an independent count of
every instruction executed (a per-instruction code hook), through the cases
that end a block early: a trap (INTO) and a fault (#DE) inside a block.
"""
from __future__ import annotations

import ctypes
import random

import pytest
from unicorn import UC_ARCH_X86, UC_HOOK_CODE, UC_MODE_16, UC_PROT_ALL, Uc

from pcemu import Machine, native
from pcemu.blocks import count_instructions
from pcemu.clock import TICK_HZ
from tests.machine_helpers import DISK1612, com_program, needs_originals

needs_native = pytest.mark.skipif(native.load() is None,
                                  reason="no C compiler here: the native fast paths cannot be built")
# MMX shifts by an immediate (0F 71-73) with a memory operand are invalid on
# every x86; Unicorn reads their length differently from case to case.
INVALID_MMX = (b"\x0f\x71", b"\x0f\x72", b"\x0f\x73")


@needs_native
def test_both_decoders_count_random_blocks_as_unicorn_translates_them():
    lib = native.load()
    uc = Uc(UC_ARCH_X86, UC_MODE_16)
    memory = (ctypes.c_ubyte * 0x100000)()
    uc.mem_map_ptr(0, 0x100000, UC_PROT_ALL, ctypes.addressof(memory))
    rng = random.Random(1612)
    checked = 0
    for trial in range(4000):
        base = 0x10000 + (trial % 64) * 0x100
        code = bytes(rng.randrange(256) for _ in range(64))
        if trial % 3 == 0:                    # prefixes and two-byte opcodes more often
            code = bytes([rng.choice((0x66, 0x67, 0x0F, 0x26, 0xF3))]) + code[1:]
        memory[base:base + 64] = code
        uc.ctl_remove_cache(base, base + 64)
        _pc, icount, size = uc.ctl_request_cache(base)
        block = bytes(memory[base:base + size + 15])
        if any(pair in block[:size + 1] for pair in INVALID_MMX):
            continue
        assert count_instructions(block, size) == icount, block[:size].hex()
        assert lib.pcemu_count_instructions(ctypes.addressof(memory), base, size) == icount
        checked += 1
    assert checked > 3000


def _count_every_instruction(m: Machine) -> list[int]:
    """An independent count: a code hook on every instruction (blocks retranslated with it)."""
    executed = [0]

    def on_code(_uc, _address, _size, _user):
        executed[0] += 1

    m.cpu.uc.hook_add(UC_HOOK_CODE, on_code)
    m.cpu.flush_translations()
    return executed


# INTO traps and DIV faults in the middle of their blocks, many times over.
TRAPS_AND_FAULTS = """
    mov ax, 0x2504
    mov dx, into_handler
    int 0x21
    mov ax, 0x2500
    mov dx, divide_handler
    int 0x21
    xor bp, bp
    mov cx, 300
again:
    mov al, 0x7f
    add al, 1
    into
    inc si
    mov ax, 5
    mov bl, 0
    div bl
    inc di
    inc si
    loop again
    mov ax, bp
    mov ah, 0x4c
    int 0x21
into_handler:
    inc bp
    iret
divide_handler:
    push bp
    mov bp, sp
    add word ptr [bp+2], 2
    pop bp
    add bp, 2
    iret
"""


@pytest.mark.parametrize("accelerate", [True, False])
def test_the_clock_counts_every_instruction_run_even_when_blocks_end_early(tmp_path, accelerate):
    if accelerate and native.load() is None:
        pytest.skip("no C compiler here")
    folder = com_program(tmp_path, "TRAPS.COM", TRAPS_AND_FAULTS)
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    m.type("C:{ENTER}")
    exits = []
    m.listeners.setdefault("exit", []).append(lambda *args: exits.append(args))
    executed = _count_every_instruction(m)
    start = m.cpu.instructions
    m.type("TRAPS{ENTER}")
    m.run_until(condition=lambda m: bool(exits), max_ticks=18.2 * 30)
    m.run(2)
    assert exits[0][1] & 0xFF == (300 * 1 + 300 * 2) & 0xFF     # every INTO and #DE was taken
    assert m.cpu.instructions - start == executed[0]


@needs_native
@needs_originals
@pytest.mark.parametrize("accelerate", [True, False])
def test_the_clock_counts_every_instruction_meteors_runs(accelerate):
    m = Machine(disks=[f"B:{DISK1612}"], accelerate=accelerate)
    m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}{F2}")
    executed = _count_every_instruction(m)
    start, clock = m.cpu.instructions, m.clock.now
    m.run(0.3 * TICK_HZ)
    assert m.cpu.instructions - start == executed[0] > 100_000
    assert m.clock.now - clock >= executed[0]        # skipped waits add to the clock, never less


# DEC sets ZF, then LOOPNZ leaves on CX=0 in the same block: ZF must survive.
# (Unicorn 2.1.4 loses it unless the loop instruction has a code hook.)
LOOP_FLAGS = """
    mov bx, 1
    mov cx, 1
    mov dx, 0
again:
    dec bx
    loopne again
    jnz wrong
    mov dl, 0x5a
wrong:
    mov ax, dx
    mov ah, 0x4c
    int 0x21
"""


@pytest.mark.parametrize("accelerate", [True, False])
def test_loopnz_leaving_on_cx_zero_keeps_the_flags_set_before_it(tmp_path, accelerate):
    if accelerate and native.load() is None:
        pytest.skip("no C compiler here")
    folder = com_program(tmp_path, "LOOPZF.COM", LOOP_FLAGS)
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    exits = []
    m.listeners.setdefault("exit", []).append(lambda *args: exits.append(args))
    m.type("C:{ENTER}LOOPZF{ENTER}")
    m.run_until(condition=lambda m: bool(exits), max_ticks=18.2 * 10)
    assert exits[0][1] & 0xFF == 0x5A               # ZF from DEC BX was seen after the loop


@needs_originals
@pytest.mark.parametrize("keys", [
    "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}",
    "METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}{F2}",
])
def test_running_without_code_hooks_computes_what_running_with_them_does(keys):
    """Slices run with no code hook, which Unicorn translates differently (the LOOPZ/LOOPNZ
    flags above); with code hooks on every block (as a debugger has them) the run must be
    the same, block for block: same clock, same RAM and registers."""
    runs = []
    for everywhere in (False, True):
        m = Machine(disks=[f"B:{DISK1612}"])
        m.cpu.keep_code_hooks_working(everywhere)
        m.type(keys)
        points = []
        for _ in range(3):
            m.run(2 * TICK_HZ)
            points.append((m.clock.now, m.cpu.instructions, m.state_hash()))
        runs.append(points)
    assert runs[0] == runs[1]
