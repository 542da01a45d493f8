"""The native fast paths (``fastcpu.c``), built on first use with the system C compiler.

The library is compiled once per version of fastcpu.c and of the header generated
from pcemu/native/layout.py (``fast_state.h``: the struct, callbacks and constants
shared with Python) into the user's cache folder (``$XDG_CACHE_HOME/pcemu``, else
``~/.cache/pcemu``) against the Unicorn the Python binding loaded; ``load`` checks
each field's offset in it against ``FastState``.  When there is no compiler or the build fails, ``load``
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

from pcemu.native import layout
from pcemu.native.layout import (FAULTS, HOOKS, LOG_BYTES, PASS_READS, PROBE_REGS,  # noqa: F401
                                 PURE_PER_PASS, SERVICE_COUNTERS)

log = logging.getLogger("pcemu.native")

SOURCE = Path(__file__).with_name("fastcpu.c")
_loaded: ctypes.CDLL | None = None
_failed = False

HEADER = "fast_state.h"           # written from layout.header() into the build's folder
# -O3: about 6% faster than -O2 at EZT's menu.  Floating point stays IEEE either way (no
# -ffast-math; no -march, so no fused multiply-add the code does not write itself), so the
# beam's arithmetic equals Python's (tests/test_native_contract.py).
CFLAGS = ("-O3", "-shared", "-fPIC")


class FastState(ctypes.Structure):
    """Mirror of ``struct fast_state`` in fastcpu.c: both come from pcemu/native/layout.py,
    and ``load`` checks every field's offset."""
    _fields_ = layout.ctypes_fields()


# The C hooks' calls into Python (layout.CALLBACKS: the typedefs in C come from there too)
_PROTOTYPES = {callback.py_name: callback.prototype() for callback in layout.CALLBACKS}
INTERRUPT_CALLBACK = _PROTOTYPES["INTERRUPT_CALLBACK"]
IN_CALLBACK = _PROTOTYPES["IN_CALLBACK"]
OUT_CALLBACK = _PROTOTYPES["OUT_CALLBACK"]
SKIP_CALLBACK = _PROTOTYPES["SKIP_CALLBACK"]
IRQ_CALLBACK = _PROTOTYPES["IRQ_CALLBACK"]


def _unicorn_paths() -> tuple[Path, Path]:
    import unicorn
    package = Path(unicorn.__file__).parent
    return package / "include", package / "lib"


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "pcemu"


def _build(target: Path, include: Path, libdir: Path, header: str) -> None:
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        raise OSError("no C compiler (cc or gcc) found")
    target.parent.mkdir(parents=True, exist_ok=True)
    # Build to a private name, then rename: parallel sweep workers may race here.
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    try:
        with tempfile.TemporaryDirectory(dir=target.parent) as generated:
            Path(generated, HEADER).write_text(header)
            subprocess.run([compiler, *CFLAGS, "-o", tmp, str(SOURCE),
                            f"-I{generated}", f"-I{include}", f"-L{libdir}",
                            "-l:libunicorn.so.2", f"-Wl,-rpath,{libdir}", "-lm"],
                           check=True, capture_output=True, text=True)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def build_library(header: str | None = None, structure=None, fields=None) -> ctypes.CDLL:
    """Build (or find in the cache) the library for ``header`` (default: the one from
    layout.py), open it and check it against ``structure``'s fields (default FastState):
    a LayoutError (an OSError) names the first field out of step."""
    header = layout.header() if header is None else header
    include, libdir = _unicorn_paths()
    key = hashlib.sha256(SOURCE.read_bytes() + header.encode() + str(libdir).encode()
                         + " ".join(CFLAGS).encode())
    target = _cache_dir() / f"fastcpu-{key.hexdigest()[:16]}.so"
    if not target.exists():
        _build(target, include, libdir, header)
    lib = ctypes.CDLL(str(target))
    lib.pcemu_field_count.restype = ctypes.c_int
    lib.pcemu_field_count.argtypes = []
    lib.pcemu_field_offset.restype = ctypes.c_int64
    lib.pcemu_field_offset.argtypes = [ctypes.c_int]
    lib.pcemu_state_size.restype = ctypes.c_int
    layout.check_offsets(lib, FastState if structure is None else structure,
                         layout.FIELDS if fields is None else fields)
    return lib


def load() -> ctypes.CDLL | None:
    """The compiled library, or None when it cannot be built here (logged once)."""
    global _loaded, _failed
    if _loaded is not None or _failed:
        return _loaded
    try:
        lib = build_library()
        lib.pcemu_fast_install.restype = ctypes.c_int
        lib.pcemu_fast_install.argtypes = [ctypes.c_void_p, ctypes.POINTER(FastState),
                                           ctypes.c_void_p]
        lib.pcemu_count_install.restype = ctypes.c_int
        lib.pcemu_count_install.argtypes = [ctypes.c_void_p, ctypes.POINTER(FastState),
                                            ctypes.c_void_p]
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
    except layout.LayoutError:
        raise                 # fastcpu.c and FastState out of step: a bug, never a fallback
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
