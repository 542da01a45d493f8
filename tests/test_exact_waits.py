"""Every way a program waits gives the same run on the accelerated machine as on the
reference machine.

The reference machine is ``Machine(accelerate=False)``: every instruction runs in
Unicorn, every service and port in Python, nothing is skipped.  It is the
specification of a run.  The accelerated machine (the default) answers the polling
services and the CGA status port in C, skips the passes of loops that provably repeat,
and runs timer slices on in C.  For each waiting style a program of ours counts what
it sees (polls between ticks, reads during retrace, wake-ups from HLT ...) and prints
the count; the two machines must end with the same count on screen, the same RAM and
registers, the same virtual time and instruction count, and the same counters of what
the program asked for (keyboard polls, counted services).

Each acceleration is also broken on purpose (``pcemu.native.faults``): the same
comparison must then fail, or the test could not see the acceleration go wrong.
"""
from __future__ import annotations

import functools

import pytest

from pcemu import Machine, native
from pcemu.errors import ScriptTimeout
from tests.machine_helpers import (END, PRINT_HEX, TIMER_582HZ_OFF, TIMER_582HZ_ON, TIMER_582HZ_WORDS,
                                   com_program, run_to_exit)

needs_native = pytest.mark.skipif(native.load() is None,
                                  reason="no C compiler here: the native fast paths cannot be built")

# ES = BIOS data area; wait for the tick count (0040:006C) to change, so that every
# count starts at a tick's edge.
PROLOGUE = """
    mov ax, 0x40
    mov es, ax
    mov bx, word ptr es:[0x6c]
sync:
    cmp bx, word ptr es:[0x6c]
    je sync
"""

PROGRAMS = {
    # INT 16h AH=01h polls counted over 4 ticks (a title screen that waits "N polls or a key")
    "KEYPOLLS": PROLOGUE + """
    xor si, si
    mov di, 4
tick:
    mov bx, word ptr es:[0x6c]
poll:
    mov ah, 1
    int 0x16
    jnz key
    inc si
    cmp bx, word ptr es:[0x6c]
    je poll
    dec di
    jnz tick
    mov ax, si
    call print_hex
    jmp done
key:
    mov ax, 0xdead
    call print_hex
done:
""" + END + PRINT_HEX,
    # a delay loop calibrated against the tick: how many counts of 100 fit in 3 ticks
    # (DEC CX; JNZ: a loop whose passes differ in CX alone, which a probe examines;
    # LOOP to itself would spoil every pass as an instruction run again)
    "DELAY": PROLOGUE + """
    xor si, si
    mov bx, word ptr es:[0x6c]
    add bx, 3
outer:
    mov cx, 100
inner:
    dec cx
    jnz inner
    inc si
    cmp bx, word ptr es:[0x6c]
    jne outer
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # INT 1Ah AH=00h: wait idly for the next tick, then count the polls of 2 ticks
    "TICKWAIT": PROLOGUE + """
    mov ah, 0
    int 0x1a
    mov bx, dx
idle:
    mov ah, 0
    int 0x1a
    cmp bx, dx
    je idle
    xor si, si
    add bx, 3
count:
    inc si
    mov ah, 0
    int 0x1a
    cmp bx, dx
    jne count
    sub dx, word ptr es:[0x6c]
    add si, dx
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # TIMER as the BASIC runtime reads it (INT 21h AH=2Ch): an idle wait for the next
    # hundredths, then the polls counted until the time has changed 3 more times
    "DOSTIME": """
    mov ah, 0x2c
    int 0x21
    mov bx, dx
idle:
    mov ah, 0x2c
    int 0x21
    cmp bx, dx
    je idle
    xor si, si
    mov di, 3
again:
    mov bx, dx
count:
    inc si
    mov ah, 0x2c
    int 0x21
    cmp bx, dx
    je count
    dec di
    jnz again
    push si
    mov ax, dx
    call print_hex
    pop ax
    call print_hex
""" + END + PRINT_HEX,
    # services Python answers: an idle wait on DOS's input status (INT 21h AH=0Bh, a pure
    # call: its passes may be skipped), a wait for the next tick that asks DOS its version
    # (AH=30h, not declared pure: no pass skipped), then the AH=0Bh polls of 2 ticks counted
    "DOSPOLL": PROLOGUE + """
    mov bx, word ptr es:[0x6c]
idle:
    mov ah, 0x0b
    int 0x21
    cmp bx, word ptr es:[0x6c]
    je idle
    mov di, word ptr es:[0x6c]
version:
    mov ah, 0x30
    int 0x21
    cmp di, word ptr es:[0x6c]
    je version
    xor si, si
    mov bx, word ptr es:[0x6c]
    add bx, 2
count:
    inc si
    mov ah, 0x0b
    int 0x21
    cmp bx, word ptr es:[0x6c]
    jne count
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # the CGA status port: per frame, an idle wait for the vertical retrace's end and
    # start, then the reads counted while the retrace lasts; over 4 frames
    "RETRACE": """
    mov dx, 0x3da
    xor si, si
    mov di, 4
frame:
in_retrace:
    in al, dx
    test al, 8
    jnz in_retrace
not_yet:
    in al, dx
    test al, 8
    jz not_yet
count:
    inc si
    in al, dx
    test al, 8
    jnz count
    dec di
    jnz frame
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # the RTC through ports 70h/71h: wait idly for the seconds to change, then count the
    # polls until they change again
    "RTCPOLL": """
    mov al, 0
    out 0x70, al
    in al, 0x71
    mov bl, al
idle:
    mov al, 0
    out 0x70, al
    in al, 0x71
    cmp al, bl
    je idle
    mov bl, al
    xor si, si
    xor di, di
count:
    add si, 1
    adc di, 0
    mov al, 0
    out 0x70, al
    in al, 0x71
    cmp al, bl
    je count
    mov ax, di
    call print_hex
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # HLT until an interrupt: the wake-ups counted over 12 BIOS ticks
    "HLTWAIT": PROLOGUE + """
    xor si, si
    mov bx, word ptr es:[0x6c]
    add bx, 12
wait:
    hlt
    inc si
    cmp bx, word ptr es:[0x6c]
    jns wait
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # its own timer, as the BASIC music runtime sets it: channel 0 at 582 Hz and an
    # INT 08h handler that counts and ends the interrupt; a busy loop counts its passes
    # until 200 interrupts have come, then the BIOS's vector and rate come back.  (It
    # starts a tick after the key that ran it: a key still waiting for IRQ 1 would wait
    # behind IRQ 0 until the end, as pcemu takes IRQs only between slices.)
    "FASTTICK": PROLOGUE + TIMER_582HZ_ON + """
    xor si, si
busy:
    inc si
    cmp word ptr [ticks], 200
    jb busy
""" + TIMER_582HZ_OFF + """
    mov ax, si
    call print_hex
""" + END + PRINT_HEX + """
handler:
    inc word ptr cs:[ticks]
    push ax
    mov al, 0x20
    out 0x20, al
    pop ax
    iret
""" + TIMER_582HZ_WORDS,
    # code that writes into itself as it runs (Unicorn runs the writing instruction
    # again, with the same registers and memory: no loop of one instruction)
    "SELFMOD": """
    xor si, si
    mov cx, 3000
again:
    mov byte ptr cs:[patch + 1], 0x34
patch:
    mov ax, 0x1234
    add si, ax
    loop again
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # snow-free CGA output, as Turbo Pascal's Crt writes (EZT): before each character a
    # wait for the scan line's blanking, with interrupts off; a character written in the
    # vertical retrace goes at once and is counted.  1,000 characters into the top left
    # cell, then the count.
    "SNOWFREE": """
    mov ax, 0xb800
    mov es, ax
    mov dx, 0x3da
    xor di, di
    xor si, si
    mov cx, 1000
char:
    cli
not_blank:
    in al, dx
    test al, 8
    jnz vertical
    rcr al, 1
    jb not_blank
blank:
    in al, dx
    rcr al, 1
    jae blank
    jmp write
vertical:
    inc si
write:
    mov word ptr es:[di], 0x1741
    sti
    loop char
    mov ax, si
    call print_hex
""" + END + PRINT_HEX,
    # Turbo Pascal's Intr: the interrupt number written into the routine's own INT
    # instruction before each call (Unicorn would translate the routine again each
    # time); two handlers of ours count their calls, made as 60h, 61h, 61h (a new
    # number, a new one, the same one) over and over for 3 ticks
    "INTPATCH": """
    mov ax, 0x2560
    mov dx, h60
    int 0x21
    mov ax, 0x2561
    mov dx, h61
    int 0x21
""" + PROLOGUE + """
    xor si, si
    xor di, di
    mov bx, word ptr es:[0x6c]
    add bx, 3
again:
    mov al, 0x60
    call intr
    mov al, 0x61
    call intr
    mov al, 0x61
    call intr
    cmp bx, word ptr es:[0x6c]
    jne again
    push di
    mov ax, si
    call print_hex
    pop ax
    call print_hex
""" + END + PRINT_HEX + """
intr:
    push bp
    mov bp, sp
    mov byte ptr cs:[intcall + 1], al
    mov bp, 0
intcall:
    int 0x60
    pop bp
    ret
h60:
    add si, 1
    iret
h61:
    add di, 3
    iret
""",
    # status-port waits of every kind C runs itself (fastcpu.c run_wait: each operation
    # on AL and FLAGS, each conditional jump); after each, FLAGS and AL are added up, so
    # that a flag computed otherwise than Unicorn computes it shows in the sums
    "WAITOPS": """
    mov dx, 0x3da
    xor si, si
    xor di, di
    mov cx, 20
again:
w1:
    in al, dx
    cmp al, 1
    je w1
    call sum
w2:
    in al, dx
    shr al, 1
    jnc w2
    call sum
w3:
    in al, dx
    ror al, 1
    shl al, 1
    jc w3
    call sum
w4:
    in al, dx
    ror al, 1
    rol al, 1
    jnc w4
    call sum
w5:
    in al, dx
    ror al, 1
    jo w5
    call sum
w6:
    in al, dx
    sar al, 1
    jnc w6
    call sum
w7:
    in al, dx
    and al, 9
    cmp al, 1
    jne w7
    call sum
w8:
    in al, dx
    or al, al
    jpe w8
    call sum
w9:
    in al, dx
    ror al, 1
    rcl al, 1
    jnc w9
    call sum
w10:
    in al, dx
    rcr al, 1
    jb w10
    call sum
w11:
    in al, dx
    test al, al
    jnz w11
    call sum
w12:
    in al, dx
    cmp al, 8
    jl w12
    call sum
w13:
    in al, dx
    cmp al, 2
    jg w13
    call sum
w14:
    in al, dx
    or al, 0x40
    cmp al, 0x41
    jbe w14
    call sum
w15:
    in al, dx
    and al, al
    jo w15
    jz w15
    call sum
    dec cx
    jz finish
    jmp again
finish:
    mov ax, si
    call print_hex
    mov ax, di
    call print_hex
""" + END + PRINT_HEX + """
sum:
    pushf
    pop bx
    add si, bx
    add di, ax
    rol di, 1
    ret
""",
    # a count kept in memory for 18 ticks: each pass leaves the registers as they were
    # and the memory not (a probe must see the write: the write hook, which C takes off
    # while the probes gain too little, must be on whenever a probe compares memory)
    "MEMCOUNT": PROLOGUE + """
    mov bx, word ptr es:[0x6c]
    add bx, 18
count:
    add word ptr [low], 1
    adc word ptr [high], 0
    cmp bx, word ptr es:[0x6c]
    jne count
    mov ax, word ptr [high]
    call print_hex
    mov ax, word ptr [low]
    call print_hex
""" + END + PRINT_HEX + """
low:
    .word 0
high:
    .word 0
""",
}

# the acceleration each program leans on, and a fault that breaks it
BROKEN_BY = {
    "KEYPOLLS": ["native_answers", "regs_ignored"],
    "DELAY": ["regs_ignored"],
    "TICKWAIT": ["native_answers", "regs_ignored"],
    "DOSTIME": ["native_answers", "regs_ignored"],
    "RETRACE": ["status_passes", "regs_ignored", "wait_run_count"],
    "RTCPOLL": ["ports_idle"],
    "DOSPOLL": ["pure_counters", "all_calls_pure"],
    "HLTWAIT": [],
    "FASTTICK": ["timer_early"],
    "SELFMOD": ["repeats"],
    "SNOWFREE": ["status_passes", "wait_leaves", "wait_run_count"],
    "INTPATCH": ["smc_single", "int_stale"],
    "MEMCOUNT": ["unhooked_probes"],
    "WAITOPS": ["wait_run_count"],
}
# faults of the probes' comparisons are injected with the write hook kept on (else they
# would act only while C judges the probes worth it); "unhooked_probes" is the hook's own;
# "wait_leaves" breaks the probe of a status-port wait, which C otherwise runs itself
SWITCHES = {fault: () if fault == "unhooked_probes"
            else ("write_hook_pinned", "no_wait_run") if fault == "wait_leaves"
            else ("write_hook_pinned",)
            for faults in BROKEN_BY.values() for fault in faults}


def outcome(folder, program: str, accelerate: bool) -> tuple:
    """Run C:PROGRAM to its end and two ticks more; what the run computed."""
    m = run_to_exit(folder, program, accelerate)
    printed = m.screen_text().split(program)[-1].split()[0]
    return {"printed": printed, "screen": m.screen_text(), "state": m.state_hash(),
            "time": m.clock.now, "instructions": m.cpu.instructions,
            "keyboard polls": m.keyboard_polls, "services": dict(m.service_counts)}, m


@functools.lru_cache(maxsize=None)
def reference(folder, program: str) -> dict:
    return outcome(folder, program, accelerate=False)[0]


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    base = tmp_path_factory.mktemp("waits")
    for name, source in PROGRAMS.items():
        folder = com_program(base, f"{name}.COM", source)
    return folder


@needs_native
@pytest.mark.parametrize("program", list(PROGRAMS))
@pytest.mark.parametrize("stubs", ["run-whole", "trapped", "write-hook-pinned", "waits-probed"])
def test_each_waiting_style_runs_as_on_the_reference_machine(programs, program, stubs):
    """("trapped": C does not run the ROM's service stubs whole, so the INT FEh trap
    inside each is answered by C or Python as the stub runs; "write-hook-pinned": the
    write hook never goes off, so every probe that finds a loop may skip it;
    "waits-probed": status-port waits run in Unicorn and are probed, not run in C.)"""
    expected = reference(programs, program)
    switch = {"trapped": ["no_run_whole"], "write-hook-pinned": ["write_hook_pinned"],
              "waits-probed": ["no_wait_run"]}
    with native.faults(*switch.get(stubs, [])):
        got, m = outcome(programs, program, accelerate=True)
    assert m.cpu.fast is not None
    assert got == expected
    count = int(expected["printed"], 16)
    assert count > 10, f"{program} counted {count}: the wait was not exercised"


@needs_native
def test_the_accelerations_did_the_work(programs):
    """The waits above are answered or skipped in C, not only run (else the equivalence
    would compare Python with Python)."""
    def native_stats(program):
        with native.faults("write_hook_pinned"):   # short programs: C would not judge it yet
            return outcome(programs, program, accelerate=True)[1].cpu.fast
    keys = native_stats("KEYPOLLS")
    assert keys.service_calls[0] > 10_000                 # INT 16h AH=01h answered in C
    retrace = native_stats("RETRACE")
    # retrace waits run in C, their passes computed in leaps (while the retrace holds)
    assert retrace.waits_run > 8 and retrace.skipped_status_reads > 400
    dos = native_stats("DOSPOLL")
    assert dos.pure_calls > 1_000                          # AH=0Bh: pure calls, passes skipped
    timer = native_stats("DOSTIME")
    assert timer.service_calls[2] > 1_000 and timer.skipped > 10_000   # 2Ch in C, idle skipped
    snow = native_stats("SNOWFREE")
    assert snow.waits_run > 1_000 and snow.skipped_status_reads > 1_000   # waits run in C
    with native.faults("no_wait_run"):                                 # or probed, and skipped
        probed = outcome(programs, "SNOWFREE", accelerate=True)[1].cpu.fast
    assert probed.waits_watched > 500 and probed.loops_skipped > 500
    memory = outcome(programs, "MEMCOUNT", accelerate=True)[1].cpu.fast   # the hook unpinned
    # its passes repeat but for memory: the write hook (off at first: no pass skipped, only
    # counted as a bound) went on when the probes would gain, off when they did not, and on
    assert memory.write_hook_changes >= 3 and memory.shadow_skipped > 50_000
    patched = native_stats("INTPATCH")
    # the INT number written by C (new numbers), and stores of the same number left out
    assert patched.smc_patches > 1_000 and patched.smc_stores - patched.smc_patches > 1_000


@needs_native
@pytest.mark.parametrize("program,fault", [(p, f) for p, faults in BROKEN_BY.items() for f in faults])
def test_a_broken_acceleration_is_caught(programs, program, fault):
    expected = reference(programs, program)
    with native.faults(fault, *SWITCHES[fault]):
        try:
            got, _m = outcome(programs, program, accelerate=True)
        except ScriptTimeout as stuck:          # a phantom loop may never let it finish
            got = {"timed out": str(stuck)}
    assert got != expected, f"{program} ran the same with the fault {fault!r}"


@needs_native
def test_the_inexact_idle_skip_is_opt_in_and_changes_what_programs_count(programs):
    """Machine(inexact_idle_skip=True) jumps to the next device event after a few
    fruitless polls: the poll-counting program counts far less.  Never the default."""
    exact = reference(programs, "KEYPOLLS")
    m = Machine(host_dirs={"C": programs})
    assert not m.inexact_idle_skip
    skipping = Machine(host_dirs={"C": programs}, inexact_idle_skip=True)
    exits = []
    skipping.events.exit.connect(lambda *args: exits.append(args))
    skipping.type("C:{ENTER}KEYPOLLS{ENTER}")
    skipping.run_until(condition=lambda m: bool(exits), max_ticks=18.2 * 60)
    counted = int(skipping.screen_text().split("KEYPOLLS")[-1].split()[0], 16)
    assert counted < int(exact["printed"], 16) // 10


@needs_native
def test_a_jump_to_itself_with_interrupts_off_runs_in_whole_slices(programs, tmp_path):
    """CLI; JMP $ hangs an AT for good (issue 18: `--ticks` must still bound the run).
    No pass can set IF again, so the machine runs it in whole slices, not one
    instruction at a time, on both machines, with the same clock and state."""
    folder = com_program(tmp_path, "CLILOOP.COM", "cli\nspin:\njmp spin\n")

    def run(accelerate: bool) -> tuple:
        m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
        m.type("C:{ENTER}CLILOOP")
        m.press([0x1C])                           # Enter's make code (its break would wait for good)
        steps = 0
        step = m.step

        def counted() -> None:
            nonlocal steps
            steps += 1
            step()
        m.step = counted
        m.run(18.2065)                            # a second of virtual time
        assert m.memory[m.cpu.linear_ip] == 0xEB and not m.cpu.interrupts_enabled  # spinning
        return steps, m.clock.now, m.state_hash(), m.cpu.linear_ip

    fast, reference = run(True), run(False)
    assert fast[1:] == reference[1:]
    assert reference[0] < 200 and fast[0] < 200   # a second is about 60 slices, not 1.2 million
