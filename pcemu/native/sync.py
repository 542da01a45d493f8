"""Keeping the C hooks and the machine in step: all the Python that copies machine state
into ``FastState`` (pcemu/native/layout.py) and back.

Called from pcemu/machine.py and pcemu/cpu.py:

- ``install_native(cpu)``: the library's hooks on the CPU's Unicorn, the callbacks into
  Python (Cpu.__init__); ``install_counter(cpu)``: the reference machine's, which only
  counts instructions;
- ``wire(m, fast, ...)``: what the two share for good: the master 8259's registers, the
  slice sizes, the clock rate, and the calls that keep them in step (Machine.__init__);
- ``prepare_slice(m, fast)`` before each slice: what C may do in it
  (``prepare_chain``: run on from slice to slice; ``permit_services``: which polling
  services it answers, and DOS's time for them; the vectors it delivers, the beam);
- ``after_python(m, fast)`` after each Python handler C called: the same, again;
- ``absorb_chain(m, fast)`` when C ran slices on by itself: the clock, IRQ 0, the timer;
- ``beam_from_c`` / ``status_word_read``: the beam clock of the CGA status port.

Nothing here decides what a run computes: it only tells C what Python would do, so that
C does exactly that (tests/test_speed_equivalence.py, tests/test_exact_waits.py).
"""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING

from bios import bda
from pcemu.devices.cga import SCANLINES as CGA_SCANLINES, VISIBLE_LINES as CGA_VISIBLE_LINES

if TYPE_CHECKING:
    from pcemu.cpu import Cpu
    from pcemu.machine import Machine


# Software interrupts the C hook may vector itself: all but the machine's trap
# (INT FEh) and the vectors a CPU fault can raise (#DE, BOUND, #SS, #GP), which
# need Cpu.deliver_exception's look at the faulting instruction.
ALL_VECTORS = frozenset(range(256))
NATIVE_VECTORS = ALL_VECTORS - {0x00, 0x05, 0x0C, 0x0D, 0xFE}


def install_native(cpu: "Cpu"):
    """Hook INT and IN through pcemu/native (C); None when it cannot be built here.

    The C hooks deliver software interrupts and answer the CGA status port
    themselves only where Cpu would compute the very same result;
    ``Cpu.native_vectors`` and ``prepare_slice`` say where, per slice.
    """
    from unicorn import UcError

    from pcemu import native
    lib = native.load()
    if lib is None:
        return None
    state = native.FastState()
    state.mem = cpu.memory.address
    state.status_port = -1
    state.int3_segment = -1
    # Python callbacks for what C leaves to Python; exceptions are kept and
    # re-raised after emu_start, as the binding's own hook wrapper does.
    cpu._c_interrupt = native.INTERRUPT_CALLBACK(cpu._native_interrupt_fallback)
    cpu._c_in = native.IN_CALLBACK(cpu._native_in_fallback)
    state.on_interrupt = ctypes.cast(cpu._c_interrupt, ctypes.c_void_p).value
    state.on_in = ctypes.cast(cpu._c_in, ctypes.c_void_p).value
    cpu._c_out = native.OUT_CALLBACK(cpu._native_out_fallback)
    state.on_out = ctypes.cast(cpu._c_out, ctypes.c_void_p).value
    cpu._c_skip = native.SKIP_CALLBACK(cpu._native_skip)
    state.on_skip = ctypes.cast(cpu._c_skip, ctypes.c_void_p).value
    cpu._c_irq = native.IRQ_CALLBACK(cpu._native_irq)
    state.on_irq = ctypes.cast(cpu._c_irq, ctypes.c_void_p).value
    cpu._c_handles = (ctypes.c_size_t * native.HOOKS)()
    err = lib.pcemu_fast_install(cpu._uch, ctypes.byref(state), cpu._c_handles)
    if err:
        raise UcError(err)
    cpu._native_lib = lib
    cpu._fast_ref = ctypes.byref(state)
    return state


def install_counter(cpu: "Cpu"):
    """The reference machine's instruction counter in C (fastcpu.c hook_count): a state
    whose ``budget``, ``executed`` and ``last_address`` Cpu reads and sets, or None when
    the library cannot be built here (Cpu then counts in a Python hook, slowly)."""
    from unicorn import UcError

    from pcemu import native
    lib = native.load()
    if lib is None:
        return None
    state = native.FastState()
    state.mem = cpu.memory.address                # (interrupts_open looks for an STI)
    cpu._c_handles = (ctypes.c_size_t * native.HOOKS)()
    err = lib.pcemu_count_install(cpu._uch, ctypes.byref(state), cpu._c_handles)
    if err:
        raise UcError(err)
    return state


def wire(m: "Machine", fast, max_slice: int) -> None:
    """What the C hooks share with the machine for good: the master 8259's registers,
    the slice sizes and the clock rate, and the calls that keep the two in step."""
    master = m.pic.master
    fast.master_isr, fast.master_imr, fast.master_init = (
        ctypes.addressof(cell) for cell in (master.isr_cell, master.imr_cell, master.init_cell))
    fast.max_slice, fast.ips = max_slice, m.clock.ips
    m.cpu.on_chain_absorb = lambda fast: absorb_chain(m, fast)
    m.cpu.on_pure_calls_skipped = m._pure_calls_skipped
    m.cpu.on_irq_delivered = m._irq_delivered
    m.cpu.on_python_returned = lambda fast: after_python(m, fast)


def prepare_slice(m: "Machine", fast) -> None:
    """Tell the C hooks what they may do in this slice (nothing a watcher must see)."""
    watched = m._watched_vectors()
    if watched != m._native_watched:
        m._native_watched = watched
        m.cpu.native_vectors(NATIVE_VECTORS - watched)
    fast.clock_now = m.clock.now
    share_requests(m, fast)
    # stores that rewrite their own block answered in C, unless a Python hook watches
    fast.smc_native = not m.cpu.has_python_hooks
    prepare_chain(m, fast)
    permit_services(m, fast)
    crtc = m.video_card.crtc.registers
    if crtc is not m._native_crtc:
        m._native_crtc = crtc
        m._native_crtc_view = (ctypes.c_uint8 * len(crtc)).from_buffer(crtc)
        fast.crtc = ctypes.addressof(m._native_crtc_view)
    # EOIs on port 20h and the mask on port 21h in C unless a port watcher must see them
    fast.pic_native = not m.bus.watchers
    status_native = m.video_profile == "cga" and not m.bus.watchers
    if status_native:
        beam = m.video_card.beam
        fast.beam_base, fast.beam_reads = beam._base, beam.reads
        if not m._status_native:
            fast.status_port, fast.frame = 0x3DA, beam.frame
            fast.scanlines, fast.visible_lines = CGA_SCANLINES, CGA_VISIBLE_LINES
    elif m._status_native:
        fast.status_port = -1
    m._status_native = status_native


def prepare_chain(m: "Machine", fast) -> None:
    """Let C run on from slice to slice while Python would only raise IRQ 0 and take it
    there (pcemu_run_slice): when no Python hook can see the slices' ends (a
    debugger's), channel 0 repeats with no deferred count waiting (C knows one period),
    and no other unmasked IRQ is requested."""
    master = m.pic.master
    channel = m.pit.channels[0]
    channel.settle(m._pit_now())
    timer = m._timer_event is not None
    fast.chain = chain = (
        not m.cpu.has_python_hooks
        and (not timer or (channel.mode in (2, 3) and channel.reload > 0 and channel.pending is None))
        and not master.irr & ~master.imr & ~1 and not master.initialising)
    if not chain:
        return
    fast.timer_due = m._timer_due if timer else -1
    other = m.scheduler.next_due_except(m._timer_event)
    fast.other_due = -1 if other is None else other
    fast.pit_start, fast.pit_reload = channel.start, channel.reload
    fast.irq0_vector, fast.auto_eoi = master.vector_base, master.auto_eoi
    # a caller that looks after every step (a replay window paces there) gets one
    # at least every MAX_SLICE (fast.max_slice) instructions, as before C ran on
    fast.chain_end = -1 if m._time_bound_steps else m.clock.now + fast.max_slice
    fast.irq_watch = bool(m.events.irq)


def permit_services(m: "Machine", fast) -> None:
    """Which services C may answer now (fastcpu.c native_service): none that a
    listener must see, none while the inexact skip counts polls in Python, DOS's
    only outside a critical error; and DOS's time for the tick count in memory."""
    observed = m._services_observed() or m.inexact_idle_skip
    fast.video_trap = -1 if m.events.service else m._video_trap
    fast.keyboard_trap = -1 if observed else m._keyboard_trap
    fast.timeofday_trap = -1 if observed else m._timeofday_trap
    dos = getattr(m, "dos", None)
    if observed or dos is None or dos.critical is not None:
        fast.dos_trap = -1
        return
    fast.dos_trap = m._dos_trap
    ticks = m.memory.read_dword(bda.BDA + bda.TIMER_COUNT)
    now = m.now_datetime()
    if m._time_cache_for != (ticks, now):
        m._time_cache_for = (ticks, now)
        fast.time_ticks = ticks
        fast.time_cx, fast.time_dx = ((now.hour << 8) | now.minute,
                                      (now.second << 8) | now.microsecond // 10_000)
        fast.date_cx, fast.date_dx = now.year, (now.month << 8) | now.day
        fast.date_al = (now.weekday() + 1) % 7


def share_requests(m: "Machine", fast) -> None:
    """The master 8259's requests, for C's EOIs and masks (request_let_through) and its
    IRQ 0s: only C changes them during a slice (IRQ 0), or a Python call, after which
    they are shared again."""
    irr = m.pic.master.irr
    fast.irq0_pending, fast.other_irr = irr & 1, irr & ~1


def after_python(m: "Machine", fast) -> None:
    """After a Python handler inside a slice: what may C do now?"""
    share_requests(m, fast)
    if fast.chain:
        chain_after_python(m, fast)
    permit_services(m, fast)


def chain_after_python(m: "Machine", fast) -> None:
    """After a Python handler inside a slice: may C still run on past its end?  Only
    for a caller of step() that waits for a time alone (_run_until_instruction); others
    (press) test what a handler changes after every slice."""
    if m._time_bound_steps:
        prepare_chain(m, fast)
    else:
        fast.chain = 0


def absorb_chain(m: "Machine", fast) -> None:
    """C ran slices on by itself: the clock to the start of its current one, IRQ 0's
    request as C left it, and IRQ 0 rescheduled if C raised it."""
    m.clock.now = fast.clock_now
    master = m.pic.master
    master.irr = (master.irr & ~1) | fast.irq0_pending
    if fast.chain_fires:
        fast.chain_fires = 0
        m.scheduler.cancel(m._timer_event)
        m._timer_due = fast.timer_due
        m._timer_event = m.scheduler.at(m._timer_due, m._timer_fired)


def beam_from_c(m: "Machine", fast) -> None:
    """After a slice: the beam clock as C's status-port reads left it."""
    beam = m.video_card.beam
    beam._base, beam.reads = fast.beam_base, fast.beam_reads


def status_word_read(m: "Machine", port: int, size: int) -> int:
    """A read of the status port that the C hook left to Python (IN AX): share its beam."""
    fast, beam = m.cpu.fast, m.video_card.beam
    beam_from_c(m, fast)
    value = m.bus.read(port, size)
    fast.beam_base, fast.beam_reads = beam._base, beam.reads
    return value
