"""The native fast paths (``fastcpu.c``), built on first use with the system C compiler.

The library is compiled once per source version into the user's cache folder
(``$XDG_CACHE_HOME/pcemu``, else ``~/.cache/pcemu``) against the Unicorn the
Python binding loaded.  When there is no compiler or the build fails, ``load``
returns None and the machine keeps its pure-Python hooks, which compute the
same results more slowly.
"""
from __future__ import annotations

import contextlib
import ctypes
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

log = logging.getLogger("pcemu.native")

SOURCE = Path(__file__).with_name("fastcpu.c")
_loaded: ctypes.CDLL | None = None
_failed = False


PROBE_REGS = 36            # probe_ids in fastcpu.c
LOG_BYTES = 256            # LOG_BYTES in fastcpu.c
PASS_READS = 8             # PASS_READS in fastcpu.c
PURE_PER_PASS = 64         # PURE_PER_PASS in fastcpu.c
# service_calls in fastcpu.c: the polling services C answers, in its order
# Faults a test may inject with ``faults`` (FAULT_* in fastcpu.c), to prove that the
# equivalence tests catch a broken acceleration.
FAULTS = {"status_passes": 1, "pure_counters": 2, "all_calls_pure": 4, "repeats": 8,
          "native_answers": 32, "ports_idle": 64, "regs_ignored": 128,
          "timer_early": 256, "no_run_whole": 512}
SERVICE_COUNTERS = 5       # SVC_KEY_POLL, SVC_TICKS, SVC_DOS_TIME, SVC_DOS_DATE, SVC_CURSOR_SHAPE
HOOKS = 5                  # the handles pcemu_fast_install fills


class FastState(ctypes.Structure):
    """Mirror of ``struct fast_state`` in fastcpu.c (keep the two in step)."""
    _fields_ = [
        ("mem", ctypes.c_void_p),
        ("on_interrupt", ctypes.c_void_p),
        ("on_in", ctypes.c_void_p),
        ("clock_now", ctypes.c_int64),
        ("port_reads", ctypes.c_int64),
        ("beam_base", ctypes.c_int64),
        ("beam_reads", ctypes.c_int64),
        ("frame", ctypes.c_double),
        ("status_port", ctypes.c_int32),
        ("scanlines", ctypes.c_int32),
        ("visible_lines", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("native_interrupts", ctypes.c_uint64),
        ("native_status_reads", ctypes.c_uint64),
        ("native", ctypes.c_uint8 * 256),
        ("int3_segment", ctypes.c_int32),
        ("reserved2", ctypes.c_int32),
        ("int3_passed", ctypes.c_uint64),
        ("int3_break", ctypes.c_uint8 * 8192),
        ("budget", ctypes.c_int64),
        ("executed", ctypes.c_int64),
        ("watch", ctypes.c_int64),
        ("visit_at", ctypes.c_int64),
        ("visit_int3", ctypes.c_uint64),
        ("visit_native", ctypes.c_uint64),
        ("changed", ctypes.c_int32),
        ("visits", ctypes.c_int32),
        ("written", ctypes.c_int32),
        ("reserved3", ctypes.c_int32),
        ("skipped", ctypes.c_uint64),
        ("loops_skipped", ctypes.c_uint64),
        ("log_address", ctypes.c_uint32 * LOG_BYTES),
        ("log_old", ctypes.c_uint8 * LOG_BYTES),
        ("visit_regs", ctypes.c_uint8 * (PROBE_REGS * 16)),
        ("video_trap", ctypes.c_int64),
        ("crtc", ctypes.c_void_p),
        ("native_services", ctypes.c_uint64),
        ("on_out", ctypes.c_void_p),
        ("master_isr", ctypes.c_void_p),
        ("native_eois", ctypes.c_uint64),
        ("chain", ctypes.c_int32),
        ("irq0_pending", ctypes.c_int32),
        ("other_irr", ctypes.c_int32),
        ("max_slice", ctypes.c_int64),
        ("timer_due", ctypes.c_int64),
        ("other_due", ctypes.c_int64),
        ("ips", ctypes.c_int64),
        ("pit_start", ctypes.c_int64),
        ("pit_reload", ctypes.c_int64),
        ("irq0_vector", ctypes.c_int32),
        ("auto_eoi", ctypes.c_int32),
        ("if_poll_slice", ctypes.c_int64),
        ("if_wait_at", ctypes.c_int64),
        ("chain_end", ctypes.c_int64),
        ("slice_budget", ctypes.c_int64),
        ("chain_instructions", ctypes.c_int64),
        ("chain_fires", ctypes.c_uint64),
        ("chained_slices", ctypes.c_uint64),
        ("chain_irq0s", ctypes.c_uint64),
        ("chain_sti_waits", ctypes.c_uint64),
        ("master_imr", ctypes.c_void_p),
        ("master_init", ctypes.c_void_p),
        ("pic_native", ctypes.c_int32),
        ("reserved5", ctypes.c_int32),
        ("native_mask_accesses", ctypes.c_uint64),
        ("on_skip", ctypes.c_void_p),
        ("pure_call", ctypes.c_int32),
        ("pass_reads", ctypes.c_int32),
        ("pure_calls", ctypes.c_uint64),
        ("visit_pure", ctypes.c_uint64),
        ("pass_values", ctypes.c_uint8 * PASS_READS),
        ("probe_began", ctypes.c_int64),
        ("rearm_at", ctypes.c_int64),
        ("rearms", ctypes.c_int32),
        ("reserved6", ctypes.c_int32),
        ("last_address", ctypes.c_int64),
        ("keyboard_trap", ctypes.c_int64),
        ("timeofday_trap", ctypes.c_int64),
        ("dos_trap", ctypes.c_int64),
        ("time_ticks", ctypes.c_int64),
        ("time_cx", ctypes.c_uint32),
        ("time_dx", ctypes.c_uint32),
        ("date_cx", ctypes.c_uint32),
        ("date_dx", ctypes.c_uint32),
        ("date_al", ctypes.c_uint32),
        ("reserved7", ctypes.c_int32),
        ("service_calls", ctypes.c_uint64 * SERVICE_COUNTERS),
        ("visit_calls", ctypes.c_uint64 * SERVICE_COUNTERS),
        ("on_irq", ctypes.c_void_p),
        ("irq_watch", ctypes.c_int32),
        ("reserved8", ctypes.c_int32),
        ("skipped_status_reads", ctypes.c_uint64),
    ]


INTERRUPT_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p)
OUT_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint32,
                                ctypes.c_void_p)
IRQ_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_uint32)
SKIP_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint64)
IN_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                               ctypes.c_void_p)


def _unicorn_paths() -> tuple[Path, Path]:
    import unicorn
    package = Path(unicorn.__file__).parent
    return package / "include", package / "lib"


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "pcemu"


def _build(target: Path, include: Path, libdir: Path) -> None:
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        raise OSError("no C compiler (cc or gcc) found")
    target.parent.mkdir(parents=True, exist_ok=True)
    # Build to a private name, then rename: parallel sweep workers may race here.
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    try:
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", tmp, str(SOURCE),
                        f"-I{include}", f"-L{libdir}", "-l:libunicorn.so.2",
                        f"-Wl,-rpath,{libdir}", "-lm"],
                       check=True, capture_output=True, text=True)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load() -> ctypes.CDLL | None:
    """The compiled library, or None when it cannot be built here (logged once)."""
    global _loaded, _failed
    if _loaded is not None or _failed:
        return _loaded
    try:
        include, libdir = _unicorn_paths()
        key = hashlib.sha256(SOURCE.read_bytes() + str(libdir).encode()).hexdigest()[:16]
        target = _cache_dir() / f"fastcpu-{key}.so"
        if not target.exists():
            _build(target, include, libdir)
        lib = ctypes.CDLL(str(target))
        lib.pcemu_fast_install.restype = ctypes.c_int
        lib.pcemu_fast_install.argtypes = [ctypes.c_void_p, ctypes.POINTER(FastState),
                                           ctypes.c_void_p]
        if lib.pcemu_state_size() != ctypes.sizeof(FastState):
            raise OSError("pcemu/native: FastState is out of step with fastcpu.c")
        lib.pcemu_probe_start.restype = None
        lib.pcemu_set_faults.restype = None
        lib.pcemu_set_faults.argtypes = [ctypes.c_int]
        lib.pcemu_log_write.restype = None
        lib.pcemu_log_write.argtypes = [ctypes.POINTER(FastState), ctypes.c_uint64, ctypes.c_int]
        lib.pcemu_probe_start.argtypes = [ctypes.POINTER(FastState), ctypes.c_int64]
        lib.pcemu_run_slice.restype = ctypes.c_int
        lib.pcemu_run_slice.argtypes = [ctypes.c_void_p, ctypes.POINTER(FastState), ctypes.c_int64,
                                        ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p,
                                        ctypes.c_int, ctypes.c_void_p]
        lib.pcemu_deliver.restype = None
        lib.pcemu_deliver.argtypes = [ctypes.c_void_p, ctypes.POINTER(FastState), ctypes.c_uint32]
        _loaded = lib
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        log.warning("native fast paths unavailable, using the Python hooks: %s", detail)
        _failed = True
    return _loaded


@contextlib.contextmanager
def faults(*names: str):
    """Inject the named faults into the C hooks of every machine in this process while
    the block runs (tests only: it proves they catch a broken acceleration)."""
    lib = load()
    if lib is None:
        raise OSError("the native library cannot be built here")
    lib.pcemu_set_faults(sum(FAULTS[name] for name in names))
    try:
        yield
    finally:
        lib.pcemu_set_faults(0)
