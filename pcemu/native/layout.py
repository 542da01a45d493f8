"""The one description of what fastcpu.c shares with Python: ``struct fast_state``, the
callbacks, the constants and the fault bits.

``header()`` renders it as C (``fast_state.h``, written into the build's temporary
folder and included by fastcpu.c); ``pcemu.native.FastState`` takes its ``_fields_``
from ``FIELDS``; ``check_offsets`` compares every field's offset in the compiled
library (``pcemu_field_offset``) with ctypes'.  Each shared constant is taken from the
Python module that owns it, so a change there reaches C at the next build (the
library's cache key includes the header's text).

This module imports no part of the machine (``pcemu.machine`` imports it).
"""
from __future__ import annotations

import ctypes
from typing import NamedTuple

from bios import bda
from bios import rom as _rom
from bios import video as _video
from pcemu import clock as _clock
from pcemu import cpu as _cpu
from pcemu.devices import cga as _cga, crtc as _crtc, mda as _mda

# -- constants owned here (the C side's sizes) ----------------------------------------
PROBE_REGS = 36            # probe_ids in fastcpu.c (a static assertion there checks it)
LOG_BYTES = 256            # distinct bytes an idle pass may write (an idle pass writes few)
LOG_MARK_BYTES = 0x100000 // 8   # one bit per byte of the 1 MB: "already in the write log"
PASS_READS = 8             # status-port reads an idle pass may make (a retrace wait makes one)
PURE_PER_PASS = 64         # pure Python calls a skipped pass may make (machine.PURE_LOG)
INT3_BREAK_BYTES = 8192    # one bit per offset of the statement breakpoints' segment
HOOKS = 5                  # the handles pcemu_fast_install may fill
SMC_SITES = 8              # stores seen to rewrite their own translated block (smc_site)
# The polling services C answers, in the order of service_calls (SVC_* in C); the
# machine's NATIVE_SERVICES names them in the same order.
SERVICES = ("KEY_POLL", "TICKS", "DOS_TIME", "DOS_DATE", "CURSOR_SHAPE")
SERVICE_COUNTERS = len(SERVICES)
# Faults a test may inject with ``pcemu.native.faults`` (FAULT_* in C), to prove that the
# equivalence tests catch a broken acceleration; 0 in every real run.
FAULTS = {"status_passes": 1,      # one status-port pass too many computed
          "pure_counters": 2,      # Python not told of the pure calls skipped
          "all_calls_pure": 4,     # every Python call taken as pure
          "repeats": 8,            # an instruction run again does not spoil a pass
          "native_answers": 32,    # the polling services answered in C answer wrong
          "ports_idle": 64,        # any port read leaves a pass idle
          "regs_ignored": 128,     # the probe does not compare the general registers
          "timer_early": 256,      # C's next IRQ 0 comes an instruction early
          "no_run_whole": 512,     # the ROM stubs always run (a switch, not a fault)
          "smc_single": 1024,      # a store into its own block answered in C counted once
          "int_stale": 2048,       # an INT whose number C wrote takes its old number
          "wait_leaves": 4096,     # a status-port wait's probe stays on when a pass leaves it
          "eoi_late": 8192,        # an EOI or mask written in C never lets a request through
          "unhooked_probes": 16384,  # loops skipped while the write hook is off
          "write_hook_pinned": 32768,  # the write hook never goes off (a switch, not a fault)
          "stepwise": 65536,       # status_passes reads the beam pass by pass (a switch)
          "no_wait_run": 131072,   # status-port waits run in Unicorn, probed (a switch)
          "wait_run_count": 262144}  # a wait run in C counts one instruction less


def _graphics_modes() -> tuple[int, ...]:
    return tuple(sorted(mode for mode, spec in _video.MODES.items() if spec[2]))


# name -> (value, where it comes from); rendered as #define NAME value
CONSTANTS: dict[str, tuple[int, str]] = {
    # bios/bda.py: BIOS data area fields, as linear addresses
    "BDA_KB_HEAD": (bda.BDA + bda.KB_HEAD, "bios/bda.py"),
    "BDA_KB_TAIL": (bda.BDA + bda.KB_TAIL, "bios/bda.py"),
    "BDA_VIDEO_MODE": (bda.BDA + bda.VIDEO_MODE, "bios/bda.py"),
    "BDA_COLUMNS": (bda.BDA + bda.VIDEO_COLUMNS, "bios/bda.py"),
    "BDA_PAGE_SIZE": (bda.BDA + bda.VIDEO_PAGE_SIZE, "bios/bda.py"),
    "BDA_PAGE_OFFSET": (bda.BDA + bda.VIDEO_PAGE_OFFSET, "bios/bda.py"),
    "BDA_CURSORS": (bda.BDA + bda.CURSOR_POSITIONS, "bios/bda.py"),
    "BDA_CURSOR_SHAPE": (bda.BDA + bda.CURSOR_SHAPE, "bios/bda.py"),
    "BDA_ACTIVE_PAGE": (bda.BDA + bda.ACTIVE_PAGE, "bios/bda.py"),
    "BDA_TIMER_COUNT": (bda.BDA + bda.TIMER_COUNT, "bios/bda.py"),
    "BDA_TIMER_OVERFLOW": (bda.BDA + bda.TIMER_OVERFLOW, "bios/bda.py"),
    # pcemu/cpu.py: FLAGS bits, and what a real-mode 286 keeps of FLAGS
    "FLAG_CF": (_cpu.FLAG_CF, "pcemu/cpu.py"),
    "FLAG_ZF": (_cpu.FLAG_ZF, "pcemu/cpu.py"),
    "FLAG_PF": (_cpu.FLAG_PF, "pcemu/cpu.py"),
    "FLAG_AF": (_cpu.FLAG_AF, "pcemu/cpu.py"),
    "FLAG_SF": (_cpu.FLAG_SF, "pcemu/cpu.py"),
    "FLAG_OF": (_cpu.FLAG_OF, "pcemu/cpu.py"),
    "FLAG_TF": (_cpu.FLAG_TF, "pcemu/cpu.py"),
    "FLAG_IF": (_cpu.FLAG_IF, "pcemu/cpu.py"),
    "FLAGS_286_MASK": (_cpu.FLAGS_286_MASK, "pcemu/cpu.py"),
    "FLAGS_286_FIXED": (_cpu.FLAGS_286_FIXED, "pcemu/cpu.py"),
    "FLAGS_IOPL_NT": (_cpu.FLAGS_IOPL_NT, "pcemu/cpu.py"),
    # pcemu/clock.py: the PIT's input clock
    "PIT_HZ": (_clock.PIT_HZ, "pcemu/clock.py"),
    # pcemu/devices/crtc.py: the beam moves this far with each status read (BeamClock)
    "INSTRUCTIONS_PER_STATUS_READ": (_crtc.INSTRUCTIONS_PER_STATUS_READ,
                                     "pcemu/devices/crtc.py"),
    # bios/video.py video_base: mode 7 is the monochrome card's (pcemu/devices/mda.py)
    "VIDEO_MONO_MODE": (7, "bios/video.py video_base"),
    "VIDEO_MONO_BASE": (_mda.MDA_MEMORY, "pcemu/devices/mda.py"),
    "VIDEO_COLOUR_BASE": (_cga.CGA_MEMORY, "pcemu/devices/cga.py"),
    # bios/rom.py: the two-byte INT FEh of a service trap
    "TRAP_VECTOR": (_rom.TRAP_OPCODE[1], "bios/rom.py TRAP_OPCODE"),
    "TRAP_SIZE": (len(_rom.TRAP_OPCODE), "bios/rom.py TRAP_OPCODE"),
    # pcemu/devices/pic.py: the master 8259's ports; OCW2's non-specific EOI
    "PIC_MASTER_COMMAND": (0x20, "pcemu/devices/pic.py InterruptControllers"),
    "PIC_MASTER_DATA": (0x21, "pcemu/devices/pic.py InterruptControllers"),
    "PIC_NONSPECIFIC_EOI": (0x20, "pcemu/devices/pic.py Pic8259.write (OCW2 command 1)"),
    # the native library's own sizes (above)
    "PROBE_REGS": (PROBE_REGS, "pcemu/native/layout.py"),
    "LOG_BYTES": (LOG_BYTES, "pcemu/native/layout.py"),
    "LOG_MARK_BYTES": (LOG_MARK_BYTES, "pcemu/native/layout.py"),
    "PASS_READS": (PASS_READS, "pcemu/native/layout.py"),
    "PURE_PER_PASS": (PURE_PER_PASS, "pcemu/native/layout.py"),
    "INT3_BREAK_BYTES": (INT3_BREAK_BYTES, "pcemu/native/layout.py"),
    "HOOKS": (HOOKS, "pcemu/native/layout.py"),
    "SMC_SITES": (SMC_SITES, "pcemu/native/layout.py"),
}


# -- callbacks into Python ------------------------------------------------------------
_CTYPES_OF_ARG = {"uc_engine *": ctypes.c_void_p, "void *": ctypes.c_void_p,
                  "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64, "int": ctypes.c_int,
                  "void": None}


class Callback(NamedTuple):
    c_name: str                        # the typedef in C
    py_name: str                       # the CFUNCTYPE in pcemu.native
    restype: str
    args: tuple[tuple[str, str], ...]  # (C type, name)
    comment: str

    def c_typedef(self) -> str:
        args = ", ".join(f"{ctype}{'' if ctype.endswith('*') else ' '}{name}"
                         for ctype, name in self.args)
        return f"typedef {self.restype} (*{self.c_name})({args});  /* {self.comment} */"

    def prototype(self):
        return ctypes.CFUNCTYPE(_CTYPES_OF_ARG[self.restype],
                                *(_CTYPES_OF_ARG[ctype] for ctype, _ in self.args))


CALLBACKS = (
    Callback("intr_fallback", "INTERRUPT_CALLBACK", "void",
             (("uc_engine *", "uc"), ("uint32_t", "intno"), ("void *", "user")),
             "Cpu._native_interrupt_fallback"),
    Callback("in_fallback", "IN_CALLBACK", "uint32_t",
             (("uc_engine *", "uc"), ("uint32_t", "port"), ("int", "size"), ("void *", "user")),
             "Cpu._native_in_fallback"),
    Callback("out_fallback", "OUT_CALLBACK", "void",
             (("uc_engine *", "uc"), ("uint32_t", "port"), ("int", "size"),
              ("uint32_t", "value"), ("void *", "user")),
             "Cpu._native_out_fallback"),
    Callback("skip_fallback", "SKIP_CALLBACK", "void",
             (("uint32_t", "pure_per_pass"), ("uint64_t", "passes")), "Cpu._native_skip"),
    Callback("irq_fallback", "IRQ_CALLBACK", "void", (("uint32_t", "vector"),),
             "Cpu._native_irq"),
)


# -- struct fast_state ----------------------------------------------------------------
_CTYPES_OF_FIELD = {"int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32,
                    "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
                    "uint8_t": ctypes.c_uint8, "double": ctypes.c_double,
                    "uint8_t *": ctypes.c_void_p, "int32_t *": ctypes.c_void_p,
                    **{callback.c_name: ctypes.c_void_p for callback in CALLBACKS}}


class Field(NamedTuple):
    name: str
    ctype: str                  # the C type (pointers and callbacks are c_void_p in ctypes)
    comment: str = ""
    length: int | str | None = None   # an array: its length, or the constant naming it

    @property
    def count(self) -> int | None:
        if self.length is None:
            return None
        if isinstance(self.length, int):
            return self.length
        return eval(self.length, {"__builtins__": {}},            # e.g. "PROBE_REGS * 16"
                    {name: value for name, (value, _) in CONSTANTS.items()})

    @property
    def ctypes_type(self):
        base = _CTYPES_OF_FIELD[self.ctype]
        return base if self.length is None else base * self.count

    def c_declaration(self) -> str:
        space = "" if self.ctype.endswith("*") else " "
        size = "" if self.length is None else f"[{self.length}]"
        text = f"    {self.ctype}{space}{self.name}{size};"
        return f"{text:<39} /* {self.comment} */" if self.comment else text


# Fields in order; a string is a comment for the fields that follow it.
LAYOUT: tuple[Field | str, ...] = (
    Field("mem", "uint8_t *", "the 1 MB guest memory"),
    Field("on_interrupt", "intr_fallback", "Python: traps, faults, watched interrupts"),
    Field("on_in", "in_fallback", "Python: every port but the status port"),
    Field("clock_now", "int64_t", "the machine's clock at the start of the slice (the time "
          "of an instruction in it: clock_now + executed, Machine._instr_now)"),
    Field("port_reads", "int64_t", "statistics: INs executed in this slice"),
    Field("beam_base", "int64_t", "BeamClock._base"),
    Field("beam_reads", "int64_t", "BeamClock.reads"),
    Field("frame", "double", "instructions per video frame"),
    Field("status_port", "int32_t", "0x3DA, or -1: Python answers it"),
    Field("scanlines", "int32_t"),
    Field("visible_lines", "int32_t"),
    Field("reserved", "int32_t"),
    Field("native_interrupts", "uint64_t", "statistics"),
    Field("native_status_reads", "uint64_t"),
    Field("native", "uint8_t", "1: deliver this vector here", 256),
    "Statement breakpoints: a QuickBASIC program has an INT 3 before every statement.  "
    "When int3_segment >= 0, an INT 3 from that code segment is handed to Python only "
    "if the offset of the INT 3 (IP - 1) has its bit set in int3_break; the others are "
    "delivered here and counted.",
    Field("int3_segment", "int32_t"),
    Field("reserved2", "int32_t"),
    Field("int3_passed", "uint64_t", "INT 3s from int3_segment delivered here"),
    Field("int3_break", "uint8_t", "one bit per offset in int3_segment", "INT3_BREAK_BYTES"),
    "Counting (see the top of fastcpu.c).",
    Field("budget", "int64_t", "instructions this slice may run"),
    Field("executed", "int64_t", "instructions run, or skipped as idle, in this slice"),
    "Idle-loop probe (one watched address per slice; see probe_visit).",
    Field("watch", "int64_t", "linear address watched, or -1"),
    Field("visit_at", "int64_t", "executed at the last pass through watch"),
    Field("visit_int3", "uint64_t", "int3_passed at that pass"),
    Field("visit_native", "uint64_t", "native_interrupts at that pass"),
    Field("changed", "int32_t", "a port, a Python call or a log overflow since then"),
    Field("visits", "int32_t"),
    Field("written", "int32_t", "bytes in the write log"),
    Field("reserved3", "int32_t"),
    Field("skipped", "uint64_t", "statistics: instructions skipped, loops skipped"),
    Field("loops_skipped", "uint64_t"),
    Field("log_address", "uint32_t", "each byte written since the last pass, once...",
          "LOG_BYTES"),
    Field("log_old", "uint8_t", "...with its value at that pass", "LOG_BYTES"),
    Field("log_mark", "uint8_t", "a bit set for each address in log_address (a lookup "
          "without searching the log)", "LOG_MARK_BYTES"),
    Field("visit_regs", "uint8_t", "the probe's registers at the last pass, 16 bytes each",
          "PROBE_REGS * 16"),
    "INT 10h functions 02h, 08h and 09h in text modes, answered here exactly as "
    "bios/video.py's set_cursor_position, read_char_attr and write_char_attr answer "
    "them, when no Python listener watches services.",
    Field("video_trap", "int64_t", "linear address of the INT 10h ROM trap, or -1"),
    Field("crtc", "uint8_t *", "the video card's 6845 registers (18 bytes)"),
    Field("native_services", "uint64_t", "services answered here"),
    Field("on_out", "out_fallback", "Python: every OUT"),
    "The master 8259's in-service register (pcemu/devices/pic.py keeps it in a C int): "
    "when pic_native is set (no port watcher must see them), a non-specific EOI "
    "(OUT 20h, 20h) clears its lowest bit here, as Pic8259.end_of_interrupt does, and "
    "port 21h reads and sets the mask (master_imr) unless an initialisation sequence is "
    "under way (master_init).",
    Field("master_isr", "int32_t *"),
    Field("native_eois", "uint64_t", "statistics"),
    "Timer chaining (see pcemu_run_slice): with chain set, a slice that ends with "
    "nothing for Python to do goes on into the next one here, raising and delivering "
    "IRQ 0 at its due time as Machine._run_slice and step would.",
    Field("chain", "int32_t", "1: allowed (Python re-decides after each of its calls)"),
    Field("irq0_pending", "int32_t", "the master's IRR bit 0..."),
    Field("other_irr", "int32_t", "...and its others, which C never changes (both shared "
          "before each slice and after each Python call: an EOI here may present them)"),
    Field("max_slice", "int64_t", "machine.MAX_SLICE"),
    Field("timer_due", "int64_t", "instruction count of the next IRQ 0, or -1"),
    Field("other_due", "int64_t", "the next other device event, or -1 (none)"),
    Field("ips", "int64_t", "instructions per virtual second"),
    Field("pit_start", "int64_t", "channel 0, in mode 2 or 3: where its count began..."),
    Field("pit_reload", "int64_t", "...and its period, in PIT clocks"),
    Field("irq0_vector", "int32_t", "the master 8259's vector base"),
    Field("auto_eoi", "int32_t", "the master acknowledges without setting ISR"),
    Field("chain_end", "int64_t", "no slice starts at or after this count (-1: any may)"),
    Field("slice_budget", "int64_t", "out: the budget of the slice that ended last"),
    Field("chain_instructions", "int64_t", "out: instructions of the slices run before it..."),
    Field("chain_fires", "uint64_t", "...and the IRQ 0s raised there"),
    Field("chained_slices", "uint64_t", "statistics: slices run on, IRQ 0s delivered,"),
    Field("chain_irq0s", "uint64_t", "and slices with the IF watch"),
    Field("chain_sti_waits", "uint64_t"),
    Field("master_imr", "int32_t *", "the master 8259's mask register (a C int)..."),
    Field("master_init", "int32_t *", "...and its initialisation step, 0 when running"),
    Field("pic_native", "int32_t"),
    Field("if_watch", "int32_t", "1: an IRQ waits for IF; the counting hook ends the slice "
          "before the first instruction that runs with IF set (not right after an STI)"),
    Field("native_mask_accesses", "uint64_t", "statistics"),
    "Pure Python calls: a service that reports it changed nothing and read only what "
    "cannot change before the slice ends (Machine.pure_answer) sets pure_call; such a "
    "call does not spoil an idle pass.  When passes with pure calls are skipped, on_skip "
    "tells Python how many calls each pass made and how many passes went, so that its "
    "counters move as if they had run.",
    Field("on_skip", "skip_fallback"),
    Field("pure_call", "int32_t", "in: set by Python during its call"),
    Field("pass_reads", "int32_t", "status-port reads since the last pass..."),
    Field("pure_calls", "uint64_t", "Python calls that changed nothing"),
    Field("visit_pure", "uint64_t", "pure_calls at the last pass"),
    Field("pass_values", "uint8_t", "...the values they returned...", "PASS_READS"),
    Field("pass_offsets", "int64_t", "...and when: executed at the read less visit_at",
          "PASS_READS"),
    Field("probe_began", "int64_t", "executed when the probe was armed"),
    Field("rearm_at", "int64_t", "executed at which to arm a new probe, or -1"),
    Field("rearms", "int32_t", "probes armed in this slice"),
    Field("reserved6", "int32_t"),
    Field("last_address", "int64_t", "of the instruction before (a restarted one repeats it)"),
    "Polling services answered here exactly as Python answers them when the answer needs "
    "no Python state (pcemu/native/sync.py permit_native_services says where, and keeps "
    "the DOS time cache): INT 16h AH=01h/11h with an empty buffer, INT 1Ah AH=00h with "
    "no midnight flag, INT 21h AH=2Ah/2Ch from the cache for the tick count it was made "
    "for, INT 10h AH=01h with the shape already set.  Each is counted in service_calls "
    "(Python folds the counts into its own).",
    Field("keyboard_trap", "int64_t", "linear addresses of the ROM traps, or -1"),
    Field("timeofday_trap", "int64_t"),
    Field("dos_trap", "int64_t"),
    Field("time_ticks", "int64_t", "the tick count the cache below is for, or -1"),
    Field("time_cx", "uint32_t", "INT 21h AH=2Ch's answer"),
    Field("time_dx", "uint32_t"),
    Field("date_cx", "uint32_t", "INT 21h AH=2Ah's answer..."),
    Field("date_dx", "uint32_t"),
    Field("date_al", "uint32_t", "...and its day of the week"),
    Field("reserved7", "int32_t"),
    Field("service_calls", "uint64_t", "by SVC_*", "SERVICE_COUNTERS"),
    Field("visit_calls", "uint64_t", "service_calls at the last pass", "SERVICE_COUNTERS"),
    "With irq_watch set, on_irq hears of every IRQ 0 C delivers (before it enters the "
    "handler, with the clock at clock_now), as Python's listeners do.",
    Field("on_irq", "irq_fallback"),
    Field("irq_watch", "int32_t"),
    Field("reserved8", "int32_t"),
    Field("skipped_status_reads", "uint64_t", "statistics"),
    "Stores that rewrite their own translated block with the value already there (see "
    "same_value_store in fastcpu.c): the block being run, as the block hook saw it "
    "begin, and the addresses of stores seen to rewrite their own block.",
    Field("smc_native", "int32_t", "1: such stores may be answered here (no Python hook)"),
    Field("smc_count", "int32_t", "addresses in smc_site"),
    Field("block_hooked", "int32_t", "1: the block hook is on (from the first such store)"),
    Field("reserved10", "int32_t"),
    Field("block_hook", "uint64_t", "its handle"),
    Field("block_start", "int64_t", "linear address of the block being run, or -1..."),
    Field("block_end", "int64_t", "...and of its end"),
    Field("smc_site", "int64_t", "linear addresses of those stores", "SMC_SITES"),
    Field("smc_stores", "uint64_t", "statistics: stores answered here..."),
    Field("smc_patches", "uint64_t", "...of which wrote a new INT number (int_patched)"),
    Field("int_patched", "int64_t", "INT instructions whose number C wrote, so that "
          "translated blocks may still hold the old one (hook_interrupt reads memory)",
          "SMC_SITES"),
    Field("int_patched_count", "int32_t"),
    Field("reserved9", "int32_t"),
    "A status-port wait (status_wait_end in fastcpu.c) is watched by a light probe, "
    "armed at its first read: a pass changes nothing but AL and FLAGS, so only they "
    "are compared.",
    Field("wait_end", "int64_t", "the end of the wait's code while one is watched, or -1"),
    Field("waits_watched", "uint64_t", "statistics: light probes armed"),
    Field("waits_run", "uint64_t", "statistics: status-port waits run here (run_wait)"),
    "The write hook (hook_write) fills the write log, but while any memory hook is on "
    "Unicorn translates every load and store to its slow path.  So it is on only while "
    "the probes it serves (all but the light ones) skip enough (write_hook_policy in "
    "fastcpu.c).  While it is off they skip nothing: a pass whose registers repeat "
    "only counts what it would have skipped (shadow_skipped), to turn the hook on again.",
    Field("write_hook", "uint64_t", "its handle"),
    Field("write_hooked", "int32_t", "1: on, and every block translated since has it"),
    Field("write_flush", "int32_t", "1: deleted before the last slice; flush at the next"),
    Field("probe_window_end", "int64_t", "clock at which the probes' gain is judged, or -1"),
    Field("probe_window_skipped", "uint64_t", "general_skipped when the window began..."),
    Field("probe_window_shadow", "uint64_t", "...and shadow_skipped"),
    Field("general_skipped", "uint64_t", "statistics: instructions skipped by probes "
          "that need the write log..."),
    Field("shadow_skipped", "uint64_t", "...and those they would have skipped without it"),
    Field("probes_off_since", "int64_t", "clock when the hook went off"),
    Field("probes_backoff", "int64_t", "how long it stays off at least"),
    Field("probes_paid", "int32_t", "1: a window gained enough since it went on"),
    Field("probes_dry", "int32_t", "windows in a row that gained too little"),
    Field("write_hook_changes", "uint64_t", "statistics: times the hook went on or off"),
)
FIELDS: tuple[Field, ...] = tuple(item for item in LAYOUT if isinstance(item, Field))

CONSTANTS["SERVICE_COUNTERS"] = (SERVICE_COUNTERS, "pcemu/native/layout.py SERVICES")


def ctypes_fields(fields=FIELDS) -> list[tuple[str, object]]:
    """``_fields_`` for a ctypes Structure mirroring ``fields``."""
    return [(field.name, field.ctypes_type) for field in fields]


def _wrap(text: str, indent: str, width: int = 88) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(indent) + 3 + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    out = [f"{indent}/* {lines[0]}"] + [f"{indent} * {rest}" for rest in lines[1:]]
    out[-1] += " */"
    return out


_HEX = ("BDA_", "FLAG", "VIDEO_MONO_BASE", "VIDEO_COLOUR_BASE", "TRAP_VECTOR", "PIC_")


def header(layout=LAYOUT) -> str:
    """The C header (fast_state.h) for fastcpu.c, from this description."""
    out = ["/* fast_state.h: GENERATED at build time by pcemu/native/layout.py; do not edit.",
           " * What fastcpu.c shares with Python: struct fast_state (pcemu.native.FastState",
           " * mirrors it), the callbacks, the constants and the fault bits, and the table",
           " * of each field's offset that pcemu.native.load checks against ctypes'. */",
           "#ifndef PCEMU_FAST_STATE_H", "#define PCEMU_FAST_STATE_H",
           "#include <stddef.h>", "#include <stdint.h>", "#include <unicorn/unicorn.h>", ""]
    for name, (value, source) in CONSTANTS.items():
        if name == "SERVICE_COUNTERS":
            continue                                   # the enum below ends with it
        text = f"{value:#x}" if name.startswith(_HEX) else str(value)
        out.append(f"#define {name} {text}  /* {source} */")
    modes = " || ".join(f"(mode) == {mode}" for mode in _graphics_modes())
    out += ["/* bios/video.py MODES: the graphics modes, which Python draws and reads */",
            f"#define VIDEO_GRAPHICS_MODE(mode) ({modes})", "",
            "/* service_calls: the polling services answered here (Machine.NATIVE_SERVICES) */",
            "enum { " + ", ".join(f"SVC_{name}" for name in SERVICES) + ", SERVICE_COUNTERS };",
            "", "/* Faults a test may inject (pcemu_set_faults); 0 in every real run. */"]
    for name, bit in FAULTS.items():
        out.append(f"#define FAULT_{name.upper()} {bit}")
    out += ["", "/* Callbacks into Python (pcemu/cpu.py) */"]
    out += [callback.c_typedef() for callback in CALLBACKS]
    out += ["", "struct fast_state {"]
    fields = []
    for item in layout:
        if isinstance(item, str):
            out += _wrap(item, "    ")
        else:
            fields.append(item)
            out.append(item.c_declaration())
    out += ["};", "",
            "/* Each field's offset, in the order of pcemu/native/layout.py FIELDS. */",
            "static const size_t pcemu_field_offsets[] = {"]
    out += [f"    offsetof(struct fast_state, {field.name})," for field in fields]
    out += ["};",
            f"#define PCEMU_FIELDS {len(fields)}",
            "int pcemu_field_count(void) { return PCEMU_FIELDS; }",
            "int64_t pcemu_field_offset(int i)",
            "{",
            "    return i >= 0 && i < PCEMU_FIELDS ? (int64_t)pcemu_field_offsets[i] : -1;",
            "}",
            "int pcemu_state_size(void) { return (int)sizeof(struct fast_state); }",
            "", "#endif", ""]
    return "\n".join(out)


class LayoutError(OSError):
    """fastcpu.c was built from another description than FastState's: a bug, which
    ``load`` reports (it never falls back to the Python hooks for it)."""


def check_offsets(lib, structure, fields=FIELDS) -> None:
    """Raise LayoutError naming the first field whose offset in the compiled library is not
    the offset ctypes gives it in ``structure`` (or when the counts or sizes differ)."""
    count = lib.pcemu_field_count()
    for i, field in enumerate(fields):
        if i >= count:
            raise LayoutError(f"pcemu/native: FastState.{field.name} is not in the compiled "
                          f"struct fast_state ({count} fields there)")
        c_offset = lib.pcemu_field_offset(i)
        py_offset = getattr(structure, field.name).offset
        if c_offset != py_offset:
            raise LayoutError(f"pcemu/native: FastState.{field.name} is out of step with "
                          f"struct fast_state: offset {py_offset} in ctypes, {c_offset} in C")
    if count != len(fields):
        raise LayoutError(f"pcemu/native: struct fast_state has {count} fields, FastState "
                      f"{len(fields)}")
    if lib.pcemu_state_size() != ctypes.sizeof(structure):
        raise LayoutError(f"pcemu/native: struct fast_state is {lib.pcemu_state_size()} bytes, "
                      f"FastState {ctypes.sizeof(structure)}")
