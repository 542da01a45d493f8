"""The accelerations change the cost of a run, never what the program computes.

The same scripted session runs twice, ``Machine(accelerate=True)`` (software
interrupts, the CGA status port, INT 10h AH=02h/08h/09h and EOIs answered by
the C hooks of pcemu/native, idle loops skipped) and ``accelerate=False`` (every hook in
Python, every instruction run).  At the same points of virtual time the
screens, the RAM-and-register hash and the list of services the program asked
for (its DOS and BIOS calls, the machine-level events of the game) must be
identical.  Listening to services keeps INT 10h in Python, so the originals
also run without a listener, comparing screens and hashes.  A run that never
reached the C hooks would compare Python with Python, so each test also checks
that they did the work.
"""
from __future__ import annotations

import pytest

from pcemu import Machine, native
from pcemu.clock import TICK_HZ
from tests.machine_helpers import (DISK1612, PRINT_HEX, TIMER_582HZ_OFF, TIMER_582HZ_ON, TIMER_582HZ_WORDS,
                                   com_program, needs_originals, run_to_exit)

needs_native = pytest.mark.skipif(native.load() is None,
                                  reason="no C compiler here: the native fast paths cannot be built")


def record(m: Machine, points: int, seconds_apart: float, listen: bool = True) -> list[tuple]:
    """Run, and at each point take (virtual time, screen, state hash, services since the last);
    without ``listen`` no services are recorded (and C may answer some)."""
    services: list[tuple] = []

    def on_service(name: str, kind: str, after: bool) -> None:
        if not after:
            services.append((name, m.cpu.ax, m.clock.now))

    if listen:
        m.events.service.connect(on_service)
    taken = []
    for _ in range(points):
        m.run(seconds_apart * TICK_HZ)
        taken.append((m.clock.now, m.screen_text(), m.state_hash(), tuple(services)))
        services.clear()
    return taken


def session(accelerate: bool, keys: str, points: int, seconds_apart: float, listen: bool = True,
            **kwargs):
    m = Machine(accelerate=accelerate, **kwargs)
    m.type(keys)
    before = (m.clock.now, m.screen_text(), m.state_hash())
    return m, before, record(m, points, seconds_apart, listen)


def assert_same(fast, slow) -> None:
    (m_fast, before_fast, points_fast), (_m, before_slow, points_slow) = fast, slow
    assert before_fast == before_slow
    assert len(points_fast) == len(points_slow)
    for i, (a, b) in enumerate(zip(points_fast, points_slow)):
        assert a[0] == b[0], f"point {i}: virtual time"
        assert a[1] == b[1], f"point {i}: screen\n{a[1]}\n---\n{b[1]}"
        assert a[3] == b[3], f"point {i}: services asked for"
        assert a[2] == b[2], f"point {i}: RAM and registers"


@needs_native
@needs_originals
@pytest.mark.parametrize("listen", [True, False], ids=["services-listened", "no-listener"])
def test_ginrummy_demo_is_the_same_game_with_and_without_the_accelerations(listen):
    keys = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}"
    fast = session(True, keys, 6, 2.0, listen, disks=[f"B:{DISK1612}"])
    slow = session(False, keys, 6, 2.0, listen, disks=[f"B:{DISK1612}"])
    assert fast[0].cpu.fast.native_interrupts > 10_000      # INT 3 at every BASIC statement
    if not listen:
        assert fast[0].cpu.fast.native_services > 1_000     # INT 10h AH=02h/09h in C
    assert slow[0].cpu.fast is None
    # the demo really plays in this span: the screen and the services change between points
    screens = {p[1] for p in fast[2]}
    assert len(screens) > 1
    assert_same(fast, slow)


@needs_native
@needs_originals
def test_ezt_menu_polling_the_status_port_is_the_same_with_and_without():
    keys = "EZT{ENTER}{WAIT:Main Menu}"
    fast = session(True, keys, 4, 1.0, disks=[f"B:{DISK1612}"])
    slow = session(False, keys, 4, 1.0, disks=[f"B:{DISK1612}"])
    assert fast[0].cpu.fast.native_status_reads > 10_000
    assert_same(fast, slow)


@needs_native
@needs_originals
@pytest.mark.parametrize("listen", [True, False], ids=["services-listened", "no-listener"])
def test_meteors_game_is_the_same_with_and_without_the_accelerations(listen):
    keys = "METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}{F2}"
    fast = session(True, keys, 3, 1.0, listen, disks=[f"B:{DISK1612}"])
    slow = session(False, keys, 3, 1.0, listen, disks=[f"B:{DISK1612}"])
    native = fast[0].cpu.fast
    assert native.native_interrupts > 10_000
    # its WHILE ... WEND waits on what the music interrupt changes: passes skipped, not run
    assert native.loops_skipped > 300 and native.skipped > 1_000_000
    assert native.native_eois > 1_000                   # the music's 582 Hz timer, ended in C
    if not listen:
        assert native.native_services > 1_000
    assert_same(fast, slow)


# A program of our own for the corners the originals do not reach: a chain of
# software interrupts through a handler it installs (INT 3 and INT 60h, whose
# handler reads FLAGS and the stacked return address), word reads of the status
# port (IN AX,DX at 3D9h and 3DAh, left to Python while C answers byte reads),
# and a retrace wait, summing what it saw into SI, which it then prints in hex.
PROGRAM = """
    mov ax, 0x2503
    mov dx, offset_handler3
    int 0x21
    mov ax, 0x2560
    mov dx, offset_handler60
    int 0x21
    xor si, si
    mov cx, 300
again:
    int 3
    int 0x60
    mov dx, 0x3da
    in al, dx
    add si, ax
    mov dx, 0x3d9
    in ax, dx
    add si, ax
    mov dx, 0x3da
    in ax, dx
    add si, ax
wait_retrace:
    in al, dx
    test al, 8
    jz wait_retrace
    loop again
    mov ax, si
    mov cx, 4
digits:
    rol ax, 4
    push ax
    and al, 0x0f
    add al, 0x30
    cmp al, 0x39
    jbe print
    add al, 7
print:
    mov dl, al
    mov ah, 2
    int 0x21
    pop ax
    loop digits
    mov ax, 0x4c00
    int 0x21
handler3:
    inc bx
    iret
handler60:
    push bp
    mov bp, sp
    add di, [bp+2]
    pushf
    pop ax
    add di, ax
    pop bp
    iret
"""


def _program_source() -> str:
    # keystone wants labels, not offset_ names; keep the source above readable
    return PROGRAM.replace("offset_handler3", "handler3").replace("offset_handler60", "handler60")


def run_both_ways(tmp_path, program: str, source: str) -> Machine:
    """Run our PROGRAM.COM with the native library and without: the two runs must end with
    the same screen, RAM and registers, virtual time and instruction count.  Returns the
    machine that ran with the library, for what its C hooks counted."""
    folder = com_program(tmp_path, f"{program}.COM", source)
    fast, slow = (run_to_exit(folder, program, accelerate) for accelerate in (True, False))
    assert slow.cpu.fast is None and fast.cpu.fast is not None
    assert (fast.screen_text(), fast.state_hash(), fast.clock.now, fast.cpu.instructions) == \
           (slow.screen_text(), slow.state_hash(), slow.clock.now, slow.cpu.instructions)
    return fast


def printed_by(m: Machine, program: str) -> str:
    """What PROGRAM printed: the first word after its name on the screen."""
    return m.screen_text().split(program)[-1].split()[0]


@needs_native
def test_own_program_interrupt_chains_and_status_reads_match(tmp_path):
    native = run_both_ways(tmp_path, "CHAIN", _program_source()).cpu.fast
    # C delivered INT 3/60h and answered 3DAh
    assert native.native_interrupts >= 300 * 2 and native.native_status_reads >= 300


def test_the_switch_turns_the_native_hooks_off():
    assert Machine(accelerate=False).cpu.fast is None


# A program that only waits: it asks DOS for the time forever.
POLL_FOREVER = """
again:
    mov ah, 0x2c
    int 0x21
    jmp again
"""


def _polling_the_time(accelerate: bool, tmp_path) -> tuple:
    folder = com_program(tmp_path, "POLL.COM", POLL_FOREVER)
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    m.type("C:{ENTER}POLL{ENTER}")
    before = m.service_counts.get("INT 21h AH=2Ch", 0)
    m.run(18.2065)                          # one second of virtual time
    return m.service_counts["INT 21h AH=2Ch"] - before, m.clock.now, m.state_hash()


@needs_native
def test_polling_the_time_runs_every_poll_as_the_reference_machine_does(tmp_path):
    """The exact machine skips no poll: every pass of the loop is answered (in C) or
    skipped as a pass that provably repeats, and counted as the reference counts it."""
    fast = _polling_the_time(True, tmp_path)
    reference = _polling_the_time(False, tmp_path)
    assert fast == reference
    assert fast[0] > 10_000                          # every iteration counted


@needs_native
@needs_originals
def test_statement_breakpoints_fire_the_same_with_the_int3_filter_in_c():
    """A tracer stopping at a few BASIC lines: C delivers the other statements' INT 3s
    (pcemu/native's statement filter).  The same lines must fire at the same instants,
    the statement count must agree, and the game must not change."""
    from games_py.ginrummy.original import _image, read_program
    from pcemu.trace.qbasic import QuickBasicProcess
    image = _image(read_program("1612"))
    lines = sorted({number for number in image.line_offsets.values()})
    watched = lines[::40]                       # a spread of lines, hit and not hit
    keys = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}{F2}S{WAIT:OPEN HANDS?}Y"
    runs = []
    for accelerate in (True, False):
        m = Machine(accelerate=accelerate, disks=[f"B:{DISK1612}"])
        process = QuickBasicProcess(m, image)
        hits: list[tuple[int, int]] = []
        for line in watched:
            process.at_line(line, lambda line=line: hits.append((line, m.clock.now)))
        m.type(keys)
        m.run(8 * TICK_HZ)
        runs.append((m, process, hits, m.screen_text(), m.state_hash()))
    (fast, fast_process, *fast_seen), (slow, slow_process, *slow_seen) = runs
    assert fast.cpu.int3_passed > 10_000                # C delivered most statements
    assert slow.cpu.int3_passed == 0
    assert len({line for line, _ in fast_seen[0]}) > 3  # and several breakpoints fired
    assert fast_seen == slow_seen
    assert fast_process.statements == slow_process.statements > fast.cpu.int3_passed
    fast_process.detach()
    assert fast.cpu.fast.int3_segment == -1             # detached: no filter left behind




# Three ways to wait for the BIOS tick: a pure wait (a call, a push and a read, the same
# state every pass: the C hooks may skip its passes), one that counts its passes in SI and
# one that counts them in memory (never skippable: each pass changes something).  It then
# prints both counts; they must come out the same whether passes were skipped or not.
WAITS = """
    mov ax, 0x40
    mov es, ax
    xor si, si
    mov cx, 20
idle:
    mov bx, word ptr es:[0x6c]
wait_idle:
    call read_tick
    cmp ax, bx
    je wait_idle
    loop idle
    mov cx, 10
busy:
    mov bx, word ptr es:[0x6c]
wait_busy:
    inc si
    mov ax, word ptr es:[0x6c]
    cmp ax, bx
    je wait_busy
    loop busy
    mov cx, 10
counted:
    mov bx, word ptr es:[0x6c]
wait_counted:
    inc word ptr [counter]
    mov ax, word ptr es:[0x6c]
    cmp ax, bx
    je wait_counted
    loop counted
    mov ax, si
    call print_hex
    mov ax, word ptr [counter]
    call print_hex
    mov ax, 0x4c00
    int 0x21
read_tick:
    push bx
    mov bx, 0x6c
    mov ax, word ptr es:[bx]
    pop bx
    ret
counter:
    .word 0
""" + PRINT_HEX


@needs_native
def test_idle_loops_are_skipped_and_nothing_else_is(tmp_path):
    m = run_both_ways(tmp_path, "WAITS", WAITS)
    native = m.cpu.fast
    # 20 ticks of pure waiting are about 1.3 million instructions; most were skipped
    assert native.skipped > 1_000_000
    # the counting loops ran every pass: 10 ticks each, thousands of passes a tick
    counts = printed_by(m, "WAITS")
    assert len(counts) == 8 and int(counts[:4], 16) > 10_000 and int(counts[4:], 16) > 10_000


# A program of our own for the timer corners C takes over from the slice loop
# (pcemu_run_slice's chain): it waits for its ENTER's break code to be read (a
# pending keyboard IRQ keeps slices in Python), installs an IRQ 0 handler that counts, sets
# channel 0 to 582 Hz as the BASIC runtime does for music, waits for 200 ticks,
# then keeps IF clear for longer than a period 100 times (IRQ 0 waits for STI),
# masks IRQ 0 for a while, makes its handler re-enable interrupts and run long
# before its EOI (IRQ 0 falls due while in service, and is taken right after the
# EOI; the handler stays shorter than a period, or each would nest in the last as on
# an AT, until the stack ran out), and finally puts the timer and the vector back.  It prints its tick count and a sum of the counts seen at
# each STI; the run must be the same instruction for instruction.
TIMER = """
    mov ax, 0x40
    mov es, ax
    mov bx, word ptr es:[0x6c]
    add bx, 3
settle:
    cmp word ptr es:[0x6c], bx
    jb settle
""" + TIMER_582HZ_ON + """wait_ticks:
    cmp word ptr [ticks], 200
    jb wait_ticks
    xor si, si
    mov cx, 100
no_interrupts:
    cli
    mov dx, 1500
spin:
    dec dx
    jnz spin
    add si, word ptr [ticks]
    sti
    nop
    loop no_interrupts
    in al, 0x21
    or al, 1
    out 0x21, al
    mov cx, 5000
masked:
    loop masked
    in al, 0x21
    and al, 0xfe
    out 0x21, al
    mov byte ptr [slow], 1
    mov bx, word ptr [ticks]
    add bx, 50
wait_slow:
    cmp word ptr [ticks], bx
    jb wait_slow
    mov byte ptr [slow], 0
""" + TIMER_582HZ_OFF + """    mov ax, word ptr [ticks]
    call print_hex
    mov ax, si
    call print_hex
    mov ax, 0x4c00
    int 0x21
handler:
    push ax
    inc word ptr cs:[ticks]
    cmp byte ptr cs:[slow], 0
    je done
    sti
    push cx
    mov cx, 800
long_handler:
    loop long_handler
    pop cx
done:
    mov al, 0x20
    out 0x20, al
    pop ax
    iret
""" + TIMER_582HZ_WORDS + """slow:
    .byte 0
""" + PRINT_HEX


@needs_native
def test_timer_slices_run_on_in_c_exactly_as_the_slice_loop_runs_them(tmp_path):
    m = run_both_ways(tmp_path, "TIMER", TIMER)
    native = m.cpu.fast
    printed = printed_by(m, "TIMER")
    assert len(printed) == 8 and int(printed[:4], 16) >= 250
    # C ran the slices between the ticks, took the ticks and waited for STI itself
    assert native.chained_slices > 300 and native.chain_irq0s > 250
    assert native.chain_sti_waits >= 100          # one at each of the 100 STIs at least


ORIGINALS = {
    "GINRUMMY-demo": "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}",
    "METEORS-demo": "METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}{F2}",
    "EZT-menu": "EZT{ENTER}{WAIT:Main Menu}",
}


def states_at_every_irq0(accelerate: bool, keys: str, seconds: float) -> list[tuple]:
    """The machine at each IRQ 0, before it enters its handler: virtual time, registers
    and a CRC of RAM (conventional and video)."""
    import zlib
    m = Machine(disks=[f"B:{DISK1612}"], accelerate=accelerate)
    m.type(keys)
    seen = []
    ram = m.memory.view[:0xC0000]

    def at_irq(vector: int, now: int) -> None:
        if vector == m.pic.master.vector_base:
            seen.append((now, tuple(sorted(m.cpu.registers().items())), zlib.crc32(ram)))

    m.events.irq.connect(at_irq)
    m.run(seconds * TICK_HZ)
    seen.append((m.clock.now, m.state_hash()))
    return seen


@needs_native
@needs_originals
@pytest.mark.parametrize("workload", list(ORIGINALS))
def test_the_originals_are_the_reference_machines_runs_at_every_irq0(workload):
    """60 s of virtual time of each original on disk #1612: the accelerated machine (C
    services, skipped passes, timer slices run on in C, every IRQ 0 heard from C) and
    the reference machine (everything in Python, nothing skipped) are in the same state
    each time IRQ 0 is taken."""
    fast = states_at_every_irq0(True, ORIGINALS[workload], 60)
    reference = states_at_every_irq0(False, ORIGINALS[workload], 60)
    assert len(fast) > 60 * 18
    for i, (a, b) in enumerate(zip(fast, reference)):
        assert a == b, f"IRQ 0 number {i} of {len(reference)}: {a[0]} / {b[0]}"
    assert len(fast) == len(reference)
