"""The contract between pcemu/native/fastcpu.c and the Python it mirrors (issue 17, item 4).

- The layout: every field of ``struct fast_state`` is where ctypes' ``FastState`` puts
  it (both come from pcemu/native/layout.py; ``load`` checks each offset), and a
  library built from another description is refused, naming the field out of step.
- Each C function that repeats Python computes what Python computes, on the same
  inputs (many, drawn by hypothesis): the CGA status port and its beam clock, the PIT's
  next IRQ 0, interrupt delivery, the master 8259's EOI and mask, the INT 10h calls
  answered in C, and the polling services (INT 16h, INT 1Ah, INT 21h AH=2Ah/2Ch, INT 10h
  AH=01h) against two booted machines, one answering in C and one in Python; and the
  instruction lengths C decodes (to find an INT in a translated block) against capstone.
  The C side is reached through its ``pcemu_test_*`` entry points.
"""
from __future__ import annotations

import ctypes
import datetime as _dt
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, event, example, given, settings, strategies as st
from unicorn import UC_ARCH_X86, UC_MODE_16, Uc
from unicorn import x86_const as X

from bios import bda, video as bios_video
from pcemu import native
from pcemu.clock import MAX_MIPS, MIN_MIPS, Clock, Scheduler
from pcemu.cpu import REGISTERS, Cpu
from pcemu.devices.cga import FRAME_HZ, SCANLINES, VISIBLE_LINES, CgaCard
from pcemu.devices.crtc import Crtc6845
from pcemu.devices.pic import Pic8259
from pcemu.devices.pit import Pit8253
from pcemu.memory import MEGABYTE, Memory
from pcemu.native import layout, sync

LIB = native.load()
pytestmark = pytest.mark.skipif(LIB is None, reason="no C compiler here: no native library")
EXAMPLES = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
P = ctypes.POINTER(native.FastState)
I64P = ctypes.POINTER(ctypes.c_int64)
ENTRY_POINTS = {
    "pcemu_test_cga_status": (ctypes.c_uint32, [P]),
    "pcemu_test_frame_remainder": (ctypes.c_double, [ctypes.c_double, ctypes.c_double]),
    "pcemu_test_status_passes": (ctypes.c_int64, [P, ctypes.c_int64, ctypes.c_int64,
                                                  ctypes.c_int64]),
    "pcemu_test_next_timer_due": (ctypes.c_int64, [P, ctypes.c_int64]),
    "pcemu_test_video_set_cursor": (None, [P, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]),
    "pcemu_test_text_cursor_cell": (ctypes.c_int, [P, ctypes.c_uint32, I64P, I64P]),
    "pcemu_test_video_write_cells": (ctypes.c_int, [P, ctypes.c_uint32, ctypes.c_uint32,
                                                    ctypes.c_uint32, ctypes.c_int64]),
    "pcemu_test_video_read_cell": (ctypes.c_int, [ctypes.c_void_p, P, ctypes.c_uint32]),
    "pcemu_test_native_service": (ctypes.c_int, [ctypes.c_void_p, P]),
    "pcemu_test_port_in": (ctypes.c_uint32, [ctypes.c_void_p, P, ctypes.c_uint32, ctypes.c_int]),
    "pcemu_test_port_out": (None, [ctypes.c_void_p, P, ctypes.c_uint32, ctypes.c_int,
                                   ctypes.c_uint32]),
    "pcemu_test_insn_length": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32]),
    "pcemu_test_halted_at": (ctypes.c_int, [P, ctypes.c_int64, ctypes.c_int64]),
}
if LIB is not None:
    for _name, (_restype, _argtypes) in ENTRY_POINTS.items():
        getattr(LIB, _name).restype = _restype
        getattr(LIB, _name).argtypes = _argtypes


# -- the layout -------------------------------------------------------------------------
def test_every_field_is_where_ctypes_puts_it():
    assert LIB.pcemu_field_count() == len(layout.FIELDS) > 90
    for i, field in enumerate(layout.FIELDS):
        assert LIB.pcemu_field_offset(i) == getattr(native.FastState, field.name).offset, field
    assert LIB.pcemu_state_size() == ctypes.sizeof(native.FastState)


def _tampered(layout_items, name: str, ctype: str):
    """The description with field ``name`` of another C type."""
    return tuple(item._replace(ctype=ctype) if isinstance(item, layout.Field) and item.name == name
                 else item for item in layout_items)


def test_the_offset_check_names_the_first_field_out_of_step():
    fields = tuple(item for item in _tampered(layout.LAYOUT, "status_port", "int64_t")
                   if isinstance(item, layout.Field))

    class Wrong(ctypes.Structure):
        _fields_ = layout.ctypes_fields(fields)

    with pytest.raises(layout.LayoutError, match=r"FastState\.scanlines is out of step"):
        layout.check_offsets(LIB, Wrong, fields)
    layout.check_offsets(LIB, native.FastState)          # the true description passes


def test_a_library_built_from_another_description_is_refused(tmp_path, monkeypatch):
    """Build fastcpu.c with a header whose struct differs from FastState (one field wider):
    load's check refuses it and names the first field whose offset moved."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    wrong = layout.header(_tampered(layout.LAYOUT, "reserved", "int64_t"))
    assert wrong != layout.header()
    with pytest.raises(OSError, match=r"FastState\.reserved is out of step"):
        native.build_library(wrong)
    built = list((tmp_path / "pcemu").glob("fastcpu-*.so"))
    assert len(built) == 1                                # the cache key covers the header
    native.build_library()                               # the true one builds and passes
    assert len(list((tmp_path / "pcemu").glob("fastcpu-*.so"))) == 2
    # load() reports it and does not fall back to the Python hooks
    monkeypatch.setattr(native, "_loaded", None)
    monkeypatch.setattr(native.layout, "header", lambda *args: wrong)
    with pytest.raises(layout.LayoutError, match=r"FastState\.reserved is out of step"):
        native.load()


def test_the_shared_constants_are_the_owners():
    from pcemu import machine
    # C's service_calls, in SVC_* order, as the machine folds them into its counts
    assert dict(zip(layout.SERVICES, ((counted, poll) for _, counted, poll
                                      in machine.NATIVE_SERVICES), strict=True)) == {
        "KEY_POLL": (None, True), "TICKS": (None, False),
        "DOS_TIME": ("INT 21h AH=2Ch", False), "DOS_DATE": ("INT 21h AH=2Ah", False),
        "CURSOR_SHAPE": (None, False)}
    assert machine.PURE_LOG >= layout.PURE_PER_PASS
    header = layout.header()
    for name, (value, _source) in layout.CONSTANTS.items():
        if name != "SERVICE_COUNTERS":
            assert f"#define {name} " in header
    assert "#define BDA_TIMER_COUNT 0x46c" in header
    assert "#define VIDEO_GRAPHICS_MODE(mode) ((mode) == 4 || (mode) == 5 || (mode) == 6)" in header


# -- the beam: cga_status against CgaCard._status and BeamClock -----------------------------
MIPS = st.one_of(st.sampled_from([1.2, 4.77, 0.5, 8.0]), st.floats(MIN_MIPS, MAX_MIPS))


@EXAMPLES
@given(mips=MIPS, frames=st.integers(0, 2**36), offset=st.integers(-3, 3),
       t=st.integers(0, 2**53 - 1), near_edge=st.booleans())
def test_the_frame_remainder_is_python_s(mips, frames, offset, t, near_edge):
    """cga_status's remainder (one division and a fused multiply-add, not fmod) is
    Python's float remainder, most of all next to a frame's edge, where a quotient off
    by one would show."""
    frame = Clock(mips).ips / FRAME_HZ
    if near_edge:
        t = max(0, min(2**53 - 1, round(frames * frame) + offset))
    assert LIB.pcemu_test_frame_remainder(float(t), frame) == float(t) % frame


@EXAMPLES
@given(mips=MIPS, start=st.integers(0, 2**40),
       steps=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 50_000), st.integers(0, 40)),
                      min_size=1, max_size=40))
def test_cga_status_reads_the_beam_as_python_does(mips, start, steps):
    from pcemu.machine import Machine
    ips = Clock(mips).ips
    now = SimpleNamespace(clock=SimpleNamespace(now=start), cpu=SimpleNamespace(slice_executed=0))
    card = CgaCard(lambda: Machine._instr_now(now), ips)
    s = native.FastState(frame=card.beam.frame, scanlines=SCANLINES, visible_lines=VISIBLE_LINES,
                         beam_base=card.beam._base, beam_reads=card.beam.reads, clock_now=start)
    for kind, advance, instructions in steps:
        if kind == 0:                     # a new slice: the clock moves, its count starts at 0
            now.clock.now += advance
            now.cpu.slice_executed = 0
        elif kind == 1:                   # instructions in between (none: a second read at once)
            now.cpu.slice_executed += instructions
        s.clock_now, s.executed = now.clock.now, now.cpu.slice_executed
        assert LIB.pcemu_test_cga_status(s) == card._status()
        assert (s.beam_base, s.beam_reads) == (card.beam._base, card.beam.reads)


@EXAMPLES
@given(mips=MIPS, clock=st.integers(0, 2**40), executed=st.integers(0, 20_000),
       period=st.integers(1, 300), data=st.data(), passes=st.integers(1, 20_000),
       own_values=st.booleans(), bias=st.one_of(st.just(0), st.integers(-40, 40)))
def test_status_passes_in_leaps_reads_as_read_by_read(mips, clock, executed, period, data,
                                                     passes, own_values, bias):
    """status_passes searches the passes for the first that reads otherwise, from a
    guess (here also a wrong one, by ``bias`` passes); reading them one by one (the
    switch "stepwise") gives the same count and leaves the beam and counters the same."""
    offsets = sorted(data.draw(st.sets(st.integers(0, period - 1), min_size=1,
                                       max_size=min(3, period))))
    def state():
        s = native.FastState(frame=Clock(mips).ips / FRAME_HZ, scanlines=SCANLINES,
                             visible_lines=VISIBLE_LINES, clock_now=clock, executed=executed,
                             beam_base=clock + executed - period + offsets[-1], beam_reads=1,
                             pass_reads=len(offsets))
        for i, offset in enumerate(offsets):
            s.pass_offsets[i] = offset
        return s
    values = []
    for offset in offsets:                # what the first pass reads, or any values
        probe = state()
        probe.executed, probe.beam_base = executed + offset, -1
        values.append(LIB.pcemu_test_cga_status(probe) if own_values
                      else data.draw(st.sampled_from([0, 1, 8, 9])))
    results = []
    for switch in ([], ["stepwise"]):
        s = state()
        for i, value in enumerate(values):
            s.pass_values[i] = value
        with native.faults(*switch):
            done = LIB.pcemu_test_status_passes(s, passes, period, bias)
        results.append((done, s.beam_base, s.beam_reads, s.port_reads, s.native_status_reads,
                        s.skipped_status_reads, s.executed))
        event(f"passes computed: {'none' if done == 0 else 'all' if done == passes else 'some'}")
    assert results[0] == results[1]


@pytest.mark.parametrize("mips", [1.2, 4.77, 0.3])
def test_a_polling_loop_sees_every_line_of_a_frame_as_python_does(mips):
    """Time moves with every instruction: read the status port as a retrace wait does
    (IN, TEST, JZ), through two whole frames, so that every scan line (the edges of each
    blanking) is read, in C and in Python."""
    from pcemu.machine import Machine
    ips = Clock(mips).ips
    now = SimpleNamespace(clock=SimpleNamespace(now=123_456), cpu=SimpleNamespace(slice_executed=0))
    card = CgaCard(lambda: Machine._instr_now(now), ips)
    s = native.FastState(frame=card.beam.frame, scanlines=SCANLINES, visible_lines=VISIBLE_LINES,
                         beam_base=card.beam._base, beam_reads=card.beam.reads, clock_now=123_456)
    seen = set()
    for _ in range(int(2 * card.beam.frame) // 3):
        now.cpu.slice_executed += 3
        s.executed = now.cpu.slice_executed
        status = card._status()
        assert LIB.pcemu_test_cga_status(s) == status
        seen.add(status)
    assert seen == {0x00, 0x01, 0x09}


# -- the PIT: next_timer_due against Pit8253.next_irq0_after and Clock.instructions_for_pit --
@EXAMPLES
@given(mips=MIPS, now=st.integers(0, 2**42), mode=st.sampled_from([2, 3]),
       reload=st.integers(1, 0x10000), start_back=st.integers(-2**20, 2**34))
def test_the_next_irq0_is_where_python_schedules_it(mips, now, mode, reload, start_back):
    assert _timer_due_differences(mips, now, mode, reload, start_back) == (None, None)


def _timer_due_differences(mips, now, mode, reload, start_back):
    """(C's due, Python's) when they differ, else (None, None)."""
    from pcemu.machine import Machine
    clock = Clock(mips)
    clock.now = now
    m = SimpleNamespace(clock=clock, cpu=SimpleNamespace(slice_executed=0), scheduler=Scheduler(clock),
                        _timer_event=None, _timer_due=None, _timer_fired=lambda: None)
    m._instr_now = lambda: Machine._instr_now(m)
    m.pit = Pit8253(lambda: Machine._pit_now(m), lambda: None, lambda: None)
    channel = m.pit.channels[0]
    channel.mode, channel.reload = mode, reload
    channel.start = Machine._pit_now(m) - start_back
    Machine._schedule_timer(m, m.pit.next_irq0_after(Machine._pit_now(m)))   # _timer_fired's
    s = native.FastState(ips=clock.ips, pit_start=channel.start, pit_reload=channel.reload)
    due = LIB.pcemu_test_next_timer_due(s, now)
    return (None, None) if due == m._timer_due else (due, m._timer_due)


def test_an_irq0_one_instruction_early_is_caught():
    with native.faults("timer_early"):
        assert _timer_due_differences(1.2, 10_000_000, 3, 0x10000, 5) != (None, None)


# -- interrupt delivery: pcemu_deliver against Cpu.deliver_interrupt -----------------------
@pytest.fixture(scope="module")
def cpus():
    def never(*args):
        raise AssertionError("no callback expected")
    return (Cpu(Memory(), never, never, never),
            Cpu(Memory(), never, never, never, accelerator=sync.install_native))


@EXAMPLES
@given(vector=st.integers(0, 255), flags=st.integers(0, 0xFFFF), cs=st.integers(0, 0xFFFF),
       ip=st.integers(0, 0xFFFF), ss=st.integers(0, 0xFFFF), sp=st.integers(0, 0xFFFF),
       handler=st.integers(0, 2**32 - 1), noise=st.binary(min_size=8, max_size=8))
def test_interrupts_are_delivered_as_python_delivers_them(cpus, vector, flags, cs, ip, ss, sp,
                                                          handler, noise):
    py, c = cpus
    assert py.fast is None and c.fast is not None
    for cpu in cpus:
        cpu.memory.write_dword(vector * 4, handler)
        cpu.memory.write(((ss << 4) + sp - 8) & 0xFFFFF, noise)
        cpu.set_registers(flags=flags, cs=cs, ip=ip, ss=ss, sp=sp, ax=0x1234)
        cpu.deliver_interrupt(vector)           # C's pcemu_deliver for the native CPU
    assert c.registers() == py.registers()
    assert c.memory.read(0, MEGABYTE) == py.memory.read(0, MEGABYTE)


# -- the master 8259: EOIs on port 20h and the mask on port 21h ----------------------------
PIC_OPS = st.lists(st.one_of(
    st.tuples(st.just("out"), st.sampled_from([0x20, 0x21]),
              st.one_of(st.just(0x20), st.sampled_from([0x11, 0x13, 0x08, 0x0B, 0x0A, 0x01,
                                                         0x03, 0x60, 0x62]),
                        st.integers(0, 255))),
    st.tuples(st.just("in"), st.sampled_from([0x20, 0x21]), st.just(0)),
    st.tuples(st.just("irq"), st.integers(0, 7), st.just(0)),
    st.tuples(st.just("ack"), st.just(0), st.just(0))), max_size=60)


@EXAMPLES
@given(ops=PIC_OPS, imr=st.integers(0, 255), interrupts_on=st.booleans())
@example(ops=[("irq", 5, 0), ("ack", 0, 0), ("irq", 2, 0), ("ack", 0, 0), ("irq", 0, 0),
              ("ack", 0, 0), ("out", 0x20, 0x20), ("out", 0x20, 0x0B), ("in", 0x20, 0),
              ("out", 0x20, 0x20), ("out", 0x21, 0xFE), ("in", 0x21, 0), ("out", 0x20, 0x20)],
         imr=0, interrupts_on=True)                    # nested interrupts, ended one by one
def test_the_master_8259_ends_interrupts_and_masks_as_python_does(ops, imr, interrupts_on):
    """C answers port 20h EOIs and port 21h outside initialisation in the cells it shares
    with Pic8259 (the rest goes to Python, as through Machine's bus); Python's own 8259
    gets every access.  The two must stay equal; after each, a request the PIC now
    presents must be let through as Machine._pic_written does (the slice ends after the
    OUT with IF set, else the IF watch starts); and C must stop running slices on
    when a request other than IRQ 0 is unmasked, as sync.prepare_chain would."""
    py, shared = Pic8259(0x20, 0x08), Pic8259(0x20, 0x08)
    py.imr = shared.imr = imr
    handed = []

    def on_out(_uc, port, size, value, _user):
        handed.append(port)
        shared.write(port, value & 0xFF)

    def on_in(_uc, port, size, _user):
        handed.append(port)
        return shared.read(port)

    out_cb, in_cb = native.OUT_CALLBACK(on_out), native.IN_CALLBACK(on_in)
    s = native.FastState(status_port=-1, pic_native=1)
    s.on_out = ctypes.cast(out_cb, ctypes.c_void_p).value
    s.on_in = ctypes.cast(in_cb, ctypes.c_void_p).value
    s.master_isr, s.master_imr, s.master_init = (
        ctypes.addressof(cell) for cell in (shared.isr_cell, shared.imr_cell, shared.init_cell))
    engine = Uc(UC_ARCH_X86, UC_MODE_16)               # (kept: C reads its FLAGS)
    engine.reg_write(X.UC_X86_REG_EFLAGS, 0x0202 if interrupts_on else 0x0002)
    uc = engine._uch
    for op, port, value in ops:
        if op == "out":
            s.chain, s.irq0_pending, s.other_irr = 1, shared.irr & 1, shared.irr & ~1
            s.budget, s.executed, s.if_watch = 1000, 7, 0
            native_path = (port == 0x20 and value == 0x20) or (port == 0x21 and not shared.initialising)
            LIB.pcemu_test_port_out(uc, s, port, 1, value)
            py.write(port, value)
            if native_path and port == 0x21 and s.budget == 1000:
                assert s.chain == (not py.irr & ~py.imr & ~1)
            if native_path:
                presents = py.highest_pending() is not None
                assert (s.budget == 7 and not s.chain) == (presents and interrupts_on)
                assert s.if_watch == (presents and not interrupts_on)
        elif op == "in":
            assert LIB.pcemu_test_port_in(uc, s, port, 1) == py.read(port)
        elif op == "irq":
            py.raise_irq(port)
            shared.raise_irq(port)
        else:
            line = py.highest_pending()
            assert line == shared.highest_pending()
            if line is not None:
                py.acknowledge(line)
                shared.acknowledge(line)
        assert (shared.isr, shared.imr, shared.irr, shared._init_step, shared.vector_base,
                shared.auto_eoi, shared.read_isr) == (py.isr, py.imr, py.irr, py._init_step,
                                                      py.vector_base, py.auto_eoi, py.read_isr)
    assert s.native_eois + s.native_mask_accesses + len(handed) == sum(
        op in ("out", "in") for op, _, _ in ops)


# -- INT 10h in text modes: the cursor, the cell under it, writing cells ---------------------
VIDEO_BDA = st.fixed_dictionaries({
    "mode": st.one_of(st.integers(0, 7), st.integers(0, 255)),
    "columns": st.one_of(st.sampled_from([0, 40, 80]), st.integers(0, 0xFFFF)),
    "page_size": st.one_of(st.sampled_from([0x800, 0x1000, 0x4000]), st.integers(0, 0xFFFF)),
    "page_offset": st.one_of(st.sampled_from([0, 0x1000]), st.integers(0, 0xFFFF)),
    "cursors": st.binary(min_size=16, max_size=16),
    "active": st.one_of(st.integers(0, 7), st.integers(0, 255)),
})
PAGE = st.one_of(st.integers(0, 7), st.integers(0, 255))


class _Video:
    """Two memories and two 6845s: one for C, one for bios/video.py."""

    def __init__(self) -> None:
        self.c_memory, self.py_memory = Memory(), Memory()
        self.c_crtc, self.py_crtc = Crtc6845([]), Crtc6845([])
        self.view = (ctypes.c_uint8 * 18).from_buffer(self.c_crtc.registers)
        self.s = native.FastState(mem=self.c_memory.address, crtc=ctypes.addressof(self.view))
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.cpu = SimpleNamespace()
        self.m = SimpleNamespace(memory=self.py_memory, cpu=self.cpu,      # a service context
                                 devices=SimpleNamespace(video_card=SimpleNamespace(crtc=self.py_crtc)))

    def set(self, state: dict, fill: bytes) -> None:
        for memory in (self.c_memory, self.py_memory):
            memory.write(0xB0000, fill * (0x10000 // len(fill)))
            memory.write(0xC0000, fill * (0x10000 // len(fill)))
            memory[bda.BDA + bda.VIDEO_MODE] = state["mode"]
            memory.write_word(bda.BDA + bda.VIDEO_COLUMNS, state["columns"])
            memory.write_word(bda.BDA + bda.VIDEO_PAGE_SIZE, state["page_size"])
            memory.write_word(bda.BDA + bda.VIDEO_PAGE_OFFSET, state["page_offset"])
            memory.write(bda.BDA + bda.CURSOR_POSITIONS, state["cursors"])
            memory[bda.BDA + bda.ACTIVE_PAGE] = state["active"]
        self.c_crtc.registers[:] = self.py_crtc.registers[:] = bytes(range(18))

    def same(self) -> bool:
        return (self.c_memory.read(0, MEGABYTE) == self.py_memory.read(0, MEGABYTE)
                and self.c_crtc.registers == self.py_crtc.registers)


@pytest.fixture(scope="module")
def screen():
    return _Video()


@EXAMPLES
@given(state=VIDEO_BDA, page=PAGE, row=st.integers(0, 255), col=st.integers(0, 255))
def test_set_cursor_is_bios_video_set_cursor_position(screen, state, page, row, col):
    screen.set(state, b"\x07")
    LIB.pcemu_test_video_set_cursor(screen.s, page, row, col)
    screen.cpu.bh, screen.cpu.dh, screen.cpu.dl = page, row, col
    bios_video.set_cursor_position(screen.m)
    assert screen.same()


@EXAMPLES
@given(state=VIDEO_BDA, page=PAGE)
def test_the_cell_under_the_cursor_is_bios_video_cell_address(screen, state, page):
    screen.set(state, b"\x00")
    cell, end = ctypes.c_int64(), ctypes.c_int64()
    text = LIB.pcemu_test_text_cursor_cell(screen.s, page, ctypes.byref(cell), ctypes.byref(end))
    assert text == (not bios_video.is_graphics(screen.m))
    if text:
        row, col = bios_video.cursor(screen.m, page)
        assert cell.value == bios_video.cell_address(screen.m, page, row, col)
        assert end.value == (bios_video.page_base(screen.m, page)
                             + screen.py_memory.read_word(bda.BDA + bda.VIDEO_PAGE_SIZE))


@EXAMPLES
@given(state=VIDEO_BDA, page=PAGE, char=st.integers(0, 255), attr=st.integers(0, 255),
       count=st.one_of(st.integers(0, 300), st.integers(0, 0xFFFF)), fill=st.binary(min_size=2, max_size=2))
def test_write_cells_is_bios_video_write_char_attr(screen, state, page, char, attr, count, fill):
    screen.set(state, fill)
    done = LIB.pcemu_test_video_write_cells(screen.s, page, char, attr, count)
    assert done == (not bios_video.is_graphics(screen.m))
    if done:                                  # (Python draws graphics modes)
        screen.cpu.bh, screen.cpu.al, screen.cpu.bl, screen.cpu.cx = page, char, attr, count
        bios_video.write_char_attr(screen.m)
        assert screen.same()


@EXAMPLES
@given(state=VIDEO_BDA, page=PAGE, fill=st.binary(min_size=2, max_size=2))
def test_read_cell_is_bios_video_read_char_attr(screen, state, page, fill):
    screen.set(state, fill + bytes((fill[0] ^ 0x5A, fill[1] ^ 0xA5)))
    screen.uc.reg_write(X.UC_X86_REG_AX, 0xFFFF)
    done = LIB.pcemu_test_video_read_cell(screen.uc._uch, screen.s, page)
    assert done == (not bios_video.is_graphics(screen.m))
    if done:
        screen.cpu.bh = page
        bios_video.read_char_attr(screen.m)
        assert screen.uc.reg_read(X.UC_X86_REG_AX) == screen.cpu.ax


# -- the polling services: two booted machines, one answering in C ---------------------------
@pytest.fixture(scope="module")
def machines():
    from pcemu.machine import Machine
    python, c = Machine(accelerate=False), Machine(accelerate=True)
    assert python.cpu.fast is None and c.cpu.fast is not None
    return python, c


SERVICE = st.fixed_dictionaries({
    "call": st.sampled_from([(0x16, 0x01), (0x16, 0x11), (0x1A, 0x00), (0x21, 0x2C),
                             (0x21, 0x2A), (0x10, 0x01), (0x10, 0x02), (0x10, 0x08),
                             (0x10, 0x09), (0x16, 0x02), (0x1A, 0x02)]),
    "regs": st.tuples(*[st.integers(0, 0xFFFF)] * 4),          # AL, BX, CX, DX
    "flags": st.integers(0, 0xFFFF),                            # as the caller's INT pushed them
    "live_flags": st.integers(0, 0x0FFF),
    "sp": st.integers(0x100, 0xFFF0),
    "key": st.one_of(st.none(), st.integers(0, 0xFFFF)),        # a key in the buffer
    "ticks": st.one_of(st.integers(0, 0x1800AF), st.integers(0, 2**32 - 1)),
    "overflow": st.sampled_from([0, 0, 1]),
    "stale": st.booleans(),                                     # DOS's cache for other ticks
    "date": st.dates(_dt.date(1980, 1, 1), _dt.date(2099, 12, 31)),
    "mode": st.sampled_from([3, 3, 7, 1, 4, 6]),
    "shape": st.one_of(st.none(), st.integers(0, 0xFFFF)),     # the shape set, else CX
    "crtc_shape": st.sampled_from([0, 0, 0x0100, 0x0001]),     # the 6845's differs from it
})


def _prepare(m, case, rom_segment: int) -> None:
    intno, ah = case["call"]
    mem = m.memory
    mem.write_word(bda.BDA + bda.KB_HEAD, bda.KB_BUFFER + 4)
    if case["key"] is None:
        mem.write_word(bda.BDA + bda.KB_TAIL, bda.KB_BUFFER + 4)
    else:
        mem.write_word(bda.BDA + bda.KB_BUFFER + 4, case["key"])
        mem.write_word(bda.BDA + bda.KB_TAIL, bda.KB_BUFFER + 6)
    mem.write_dword(bda.BDA + bda.TIMER_COUNT, case["ticks"])
    mem[bda.BDA + bda.TIMER_OVERFLOW] = case["overflow"]
    mem[bda.BDA + bda.VIDEO_MODE] = case["mode"]
    al, bx, cx, dx = case["regs"]
    shape = cx if case["shape"] is None else case["shape"]
    mem.write_word(bda.BDA + bda.CURSOR_SHAPE, shape)
    crtc = shape ^ case["crtc_shape"]
    m.video_card.crtc.registers[0x0A], m.video_card.crtc.registers[0x0B] = crtc >> 8, crtc & 0xFF
    m.dos_clock.date = case["date"]
    ss, sp = 0x7000, case["sp"]
    mem.write_word((ss << 4) + sp, 0x1234)              # the caller's IP, CS, FLAGS
    mem.write_word((ss << 4) + sp + 2, 0x5678)
    mem.write_word((ss << 4) + sp + 4, case["flags"])
    trap = {0x16: m._keyboard_trap, 0x1A: m._timeofday_trap, 0x21: m._dos_trap,
            0x10: m._video_trap}[intno]
    m.cpu.set_registers(ax=(ah << 8) | (al & 0xFF), bx=bx, cx=cx, dx=dx, ss=ss, sp=sp,
                        flags=case["live_flags"] | 0x0002, cs=rom_segment,
                        ip=trap - (rom_segment << 4) + 2)   # just past the trap's INT FEh


def _service_differences(machines, case) -> list[str] | None:
    """Run the call in C (the machine that accelerates) and in Python; what differs, or
    None when C left the call to Python."""
    from bios.rom import ROM_SEGMENT
    python, c = machines
    c.memory.write(0, python.memory.read(0, MEGABYTE))
    c.video_card.crtc.registers[:] = python.video_card.crtc.registers
    for m in machines:
        _prepare(m, case, ROM_SEGMENT)
    fast = c.cpu.fast
    sync.prepare_slice(c, fast)                         # what C may answer, DOS's time cache
    if case["stale"]:                                   # the tick moved on since
        for m in machines:
            m.memory.write_dword(bda.BDA + bda.TIMER_COUNT, (case["ticks"] + 1) & 0xFFFFFFFF)
    before = (c.keyboard_polls, dict(c.service_counts))
    counts = (python.keyboard_polls, dict(python.service_counts))
    if not LIB.pcemu_test_native_service(c.cpu._uch, ctypes.byref(fast)):
        return None
    python._on_interrupt(0xFE)
    differences = []
    if c.cpu.registers() != python.cpu.registers():
        differences.append(f"registers {c.cpu.registers()} != {python.cpu.registers()}")
    if c.memory.read(0, MEGABYTE) != python.memory.read(0, MEGABYTE):
        differences.append("memory")
    if bytes(c.video_card.crtc.registers) != bytes(python.video_card.crtc.registers):
        differences.append("6845")
    polls_c, polls_py = c.keyboard_polls - before[0], python.keyboard_polls - counts[0]
    if polls_c != polls_py:
        differences.append(f"keyboard polls {polls_c} != {polls_py}")
    new_c = {k: v - before[1].get(k, 0) for k, v in c.service_counts.items()
             if v != before[1].get(k, 0)}
    new_py = {k: v - counts[1].get(k, 0) for k, v in python.service_counts.items()
              if v != counts[1].get(k, 0)}
    if new_c != new_py:
        differences.append(f"service counts {new_c} != {new_py}")
    return differences


CASE = {"regs": (0, 0, 0, 0), "flags": 0x0202, "live_flags": 0x0202, "sp": 0x1000, "key": None,
        "ticks": 0x12345, "overflow": 0, "stale": False, "date": _dt.date(1988, 3, 1), "mode": 3,
        "shape": None, "crtc_shape": 0}


EDGES = [{"call": (0x10, 0x01), "crtc_shape": 0x0001}, {"call": (0x10, 0x01), "crtc_shape": 0x0100},
         {"call": (0x10, 0x01), "shape": 0x0F0F}, {"call": (0x16, 0x01), "key": 0x1C0D},
         {"call": (0x16, 0x11), "key": 0x011B}, {"call": (0x1A, 0x00), "overflow": 1},
         {"call": (0x21, 0x2C), "stale": True}, {"call": (0x21, 0x2A), "stale": True},
         {"call": (0x10, 0x08), "mode": 4}, {"call": (0x10, 0x09), "mode": 6}]


def _with_edges(test):
    """The cases where C must leave the call to Python, each tried for sure."""
    for edge in EDGES:
        test = example(case={**CASE, **edge})(test)
    return test


@EXAMPLES
@given(case=SERVICE)
@_with_edges
def test_the_polling_services_answer_in_c_as_in_python(machines, case):
    differences = _service_differences(machines, case)
    event("left to Python" if differences is None else f"answered in C: {case['call']}")
    assert not differences, (case, differences)


ANSWERED_IN_C = [(0x16, 0x01), (0x16, 0x11), (0x1A, 0x00), (0x21, 0x2C), (0x21, 0x2A),
                 (0x10, 0x01), (0x10, 0x02), (0x10, 0x08), (0x10, 0x09)]


@pytest.mark.parametrize("call", ANSWERED_IN_C)
def test_c_answers_each_polling_service_as_python_does(machines, call):
    """(So the comparison above compares something: C does answer these calls.)"""
    assert _service_differences(machines, {**CASE, "call": call}) == []


@pytest.mark.parametrize("call", [(0x16, 0x01), (0x1A, 0x00), (0x21, 0x2C)])
def test_a_wrong_answer_in_c_is_caught(machines, call):
    with native.faults("native_answers"):
        assert _service_differences(machines, {**CASE, "call": call})
    assert _service_differences(machines, {**CASE, "call": call}) == []


# -- a program's INT 16h/1Ah/21h: the ROM stub run whole in C, or run in Unicorn ------------
PROGRAM_AT = (0x6000, 0x0100)             # where the program's INT n is


def _stub_differences(machines, case, whole: bool, after: int = 0) -> list[str]:
    """One slice from a program's ``INT n`` through the ROM's stub (to its IRET) and
    ``after`` NOPs more, in the machine that accelerates (C runs the stub whole, or runs it
    with the trap answered in C or Python) and in the one that runs every instruction with
    the services in Python."""
    from bios.rom import ROM_SEGMENT
    python, c = machines
    intno, _ah = case["call"]
    c.memory.write(0, python.memory.read(0, MEGABYTE))
    c.video_card.crtc.registers[:] = python.video_card.crtc.registers
    stub = 5 if intno in (0x16, 0x21) else 3          # INT n, [STI,] trap, [JNC,] IRET
    cs, ip = PROGRAM_AT
    for m in machines:
        _prepare(m, case, ROM_SEGMENT)
        m.memory.write((cs << 4) + ip, bytes((0xCD, intno)) + b"\x90" * 8)
        m.cpu._forget_code(cs, ip, 2)                 # (Unicorn translated the last example's)
        m.cpu.set_registers(cs=cs, ip=ip)
    fast = c.cpu.fast
    sync.prepare_slice(c, fast)
    fast.chain = 0                                    # this one slice only
    counts = [(m.keyboard_polls, dict(m.service_counts)) for m in machines]
    with native.faults(*([] if whole else ["no_run_whole"])):
        results = [m.cpu.run(stub + after) for m in machines]
    differences = []
    if results[0] != results[1]:
        differences.append(f"slices {results}")
    if c.cpu.registers() != python.cpu.registers():
        differences.append(f"registers {c.cpu.registers()} != {python.cpu.registers()}")
    if c.memory.read(0, MEGABYTE) != python.memory.read(0, MEGABYTE):
        differences.append("memory")
    after = [(m.keyboard_polls, dict(m.service_counts)) for m in machines]
    moved = [(a[0] - b[0], {k: v - b[1].get(k, 0) for k, v in a[1].items() if v != b[1].get(k, 0)})
             for a, b in zip(after, counts)]
    if moved[0] != moved[1]:
        differences.append(f"counts {moved}")
    return differences


STUB_CASE = SERVICE.filter(lambda case: case["call"][0] in (0x16, 0x1A, 0x21)
                           and not case["flags"] & 0x0100)


@EXAMPLES
@given(case=STUB_CASE, live_tf=st.booleans(), after=st.integers(0, 6))
@pytest.mark.parametrize("stubs", ["run-whole", "trapped"])
def test_a_programs_polling_call_runs_as_the_rom_stub_runs(machines, stubs, case, live_tf, after):
    case = {**case, "live_flags": case["live_flags"] & ~0x0100 | (0x0100 if live_tf else 0)}
    assert _stub_differences(machines, case, stubs == "run-whole", after) == []


def _capstone_length(code: bytes) -> int | None:
    import capstone
    decoder = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_16)
    found = next(decoder.disasm(code, 0x100), None)
    return None if found is None else found.size


def _as_capstone_reads_it(code: bytes) -> bool:
    """Capstone decodes these otherwise than a 286 in real mode: FWAIT joined with the
    x87 instruction after it, C4h/C5h with a register operand as a VEX prefix."""
    at = 0
    while code[at] in (0x26, 0x2E, 0x36, 0x3E, 0xF0, 0xF2, 0xF3) and at < 4:
        at += 1
    return not (code[at] == 0x9B or (code[at] in (0xC4, 0xC5) and code[at + 1] >= 0xC0))


@EXAMPLES
@given(code=st.binary(min_size=12, max_size=12), at=st.integers(0, MEGABYTE - 12))
@example(code=bytes.fromhex("2ea22b00") + bytes(8), at=0x13FD7)      # EZT's MOV CS:[2Bh], AL
@example(code=bytes.fromhex("cd21") + bytes(10), at=0)
@example(code=bytes.fromhex("f7460a0100") + bytes(7), at=5)           # TEST [BP+0Ah], imm16
def test_instruction_lengths_are_capstones(code, at):
    """insn_length (fastcpu.c) finds the INT a store rewrites by decoding a translated
    block from its start: each length it gives is the length capstone decodes (0: it
    does not know the instruction, and C then leaves the store to Unicorn)."""
    event("capstone decodes it" if _capstone_length(code) else "capstone refuses it")
    memory = (ctypes.c_uint8 * MEGABYTE)()
    ctypes.memmove(ctypes.addressof(memory) + at, code, len(code))
    length = LIB.pcemu_test_insn_length(memory, at)
    event("known" if length else "unknown")
    expected = _capstone_length(code) if _as_capstone_reads_it(code) else None
    if length and expected is not None:           # (capstone refuses some a 286 runs: C6h /1)
        assert length == expected, code.hex()


def test_every_opcode_and_operand_form_is_measured_as_capstone_does():
    """Each opcode a 286 has (but 0Fh, its system instructions) with each ModRM byte: C
    knows its length, and it is capstone's wherever capstone decodes the bytes."""
    import capstone
    decoder = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_16)
    memory = (ctypes.c_uint8 * MEGABYTE)()
    unknown, wrong = set(), []
    for opcode in range(256):
        if opcode in (0x0F, 0x63, 0x64, 0x65, 0x66, 0x67, 0xD6, 0xF1):
            continue
        for modrm in range(256):
            code = bytes([opcode, modrm, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
            ctypes.memmove(memory, code, len(code))
            length = LIB.pcemu_test_insn_length(memory, 0)
            if length == 0:
                if opcode not in (0x26, 0x2E, 0x36, 0x3E, 0xF0, 0xF2, 0xF3):   # (prefix + 0Fh ...)
                    unknown.add(hex(opcode))
                continue
            found = next(decoder.disasm(code, 0x100), None)
            if found is not None and _as_capstone_reads_it(code + bytes(4)) and found.size != length:
                wrong.append((code[:2].hex(), length, found.size))
    assert unknown == set()
    assert wrong == []


# -- HLT: halted_at against cpu.halted_at ------------------------------------------------------
@EXAMPLES
@given(code=st.lists(st.sampled_from([0xF4, 0xF0, 0x2E, 0xF3, 0x75, 0x90]), min_size=1,
                     max_size=16).map(bytes),
       at=st.sampled_from([0, 0x1234, MEGABYTE - 16]), above_1mb=st.booleans(),
       last=st.integers(0, 15), before=st.integers(0, 15))
@example(code=bytes.fromhex("f0f4"), at=0x1234, above_1mb=False, last=0, before=1)   # LOCK HLT
@example(code=bytes.fromhex("75f4"), at=0x1234, above_1mb=False, last=0, before=1)   # JNE -12
@example(code=bytes.fromhex("f4"), at=0x1234, above_1mb=True, last=0, before=0)      # FFFF:xxxx
def test_a_hlt_is_seen_as_python_sees_it(code, at, above_1mb, last, before):
    from pcemu.cpu import halted_at
    memory = (ctypes.c_uint8 * MEGABYTE)()
    ctypes.memmove(ctypes.addressof(memory) + at, code, len(code))
    s = native.FastState(mem=ctypes.addressof(memory))
    last_address = at + last + (MEGABYTE if above_1mb and at < 0x10000 else 0)
    expected = halted_at(memory, last_address, at + before)
    event("halted" if expected else "not halted")
    assert bool(LIB.pcemu_test_halted_at(s, last_address, at + before)) == expected
