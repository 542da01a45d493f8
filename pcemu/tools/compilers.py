"""Recognise which compiler and runtime library built a DOS program.

Each check looks for code or text the runtime library itself carries, never
for a program's own strings:

* Microsoft QuickBASIC / BASCOM: the runtime banner "Microsoft BASIC Compiler
  Runtime ... Version x.yy".  Linked with the standalone library (BCOMxx.LIB)
  the startup code also carries "Must link with BCOMxx.LIB"; a program built
  for the runtime module names "BRUNxx.EXE" instead, which it loads at start.
  With the banner present the routine signatures (pcemu.tools.signatures)
  confirm the runtime's code.
* Turbo Pascal 4.0: the entry point is a list of far calls to unit
  initialisations, the first (System) at offset 0 of its segment; System's
  code starts ``mov dx,DATA; mov ds,dx; mov [PrefixSeg],es; mov ax,sp;
  add ax,13h; mov cl,4; shr ax,cl ...`` and saves INT 00, 02, 23, 24 and 75
  with single INT 21h/35h calls (later versions save a longer list).
* Microsoft C: its run-time library's message block ("<<NMSG>>", "R6000")
  or copyright line.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from pcemu.tools.mz import MZFile
from pcemu.tools.signatures import locate_runtime

_BASIC_BANNER = re.compile(rb"Microsoft BASIC Compiler Runtime.{0,8}?Version (\d+\.\d+)", re.DOTALL)
_BCOM = re.compile(rb"Must link with (BCOM(\d)(\d))\.LIB", re.IGNORECASE)
_BRUN = re.compile(rb"(BRUN(\d)(\d))\.EXE", re.IGNORECASE)
_TP_SYSTEM_INIT = re.compile(rb"\xba..\x8e\xda\x8c\x06..\x8b\xc4\x05\x13\x00\xb1\x04\xd3\xe8\x8c\xd2\x03\xc2",
                             re.DOTALL)
_GET_VECTOR = re.compile(rb"\xb8(.)\x35\xcd\x21", re.DOTALL)
_MSC = re.compile(rb"MS Run-Time Library - Copyright \(c\) (\d{4})|<<NMSG>>|R6000", re.DOTALL)

TP4_VECTORS = (0x00, 0x02, 0x23, 0x24, 0x75)


@dataclass
class Identification:
    compiler: str
    runtime: str = ""
    evidence: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        text = self.compiler + (f", {self.runtime}" if self.runtime else "")
        return text


def _quickbasic(image: bytes) -> Identification | None:
    banner = _BASIC_BANNER.search(image)
    bcom = _BCOM.search(image)
    brun = _BRUN.search(image)
    if banner is None and brun is None:
        return None
    evidence: list[str] = []
    if banner:
        evidence.append(f"runtime banner 'Microsoft BASIC Compiler Runtime Version "
                        f"{banner.group(1).decode()}' at {banner.start():#x}")
    if bcom:
        major, minor = bcom.group(2).decode(), bcom.group(3).decode()
        name = f"Microsoft QuickBASIC {major}.{minor} / BASCOM"
        runtime = f"standalone runtime library {bcom.group(1).decode()}.LIB linked in"
        evidence.append(f"startup message 'Must link with {bcom.group(1).decode()}.LIB' at {bcom.start():#x}")
    elif brun and not banner:
        major, minor = brun.group(2).decode(), brun.group(3).decode()
        name = f"Microsoft QuickBASIC {major}.{minor}"
        runtime = f"needs the runtime module {brun.group(1).decode()}.EXE"
        evidence.append(f"runtime module name '{brun.group(1).decode()}.EXE' at {brun.start():#x}")
    else:
        name = "Microsoft QuickBASIC / BASCOM"
        runtime = "runtime linked in"
    if banner:
        runtime += f" (runtime version {banner.group(1).decode()})"
        found = locate_runtime(image)
        if not found.missing:
            evidence.append(f"runtime routines found by signature in segment {found.segment:04X}h "
                            f"(RND, RANDOMIZE, TIMER, GOSUB, RETURN, PRINT, INT 3 handler)")
        elif found.routines:
            evidence.append(f"some runtime routines found by signature; missing: {', '.join(found.missing)}")
    return Identification(name, runtime, evidence)


def _turbo_pascal(mz: MZFile) -> Identification | None:
    image = mz.image
    entry = mz.entry_offset
    if image[entry:entry + 3] != b"\x9a\x00\x00":
        return None
    system_seg = struct.unpack_from("<H", image, entry + 3)[0]
    start = system_seg * 16
    if not _TP_SYSTEM_INIT.match(image, start):
        return None
    vectors = tuple(m.group(1)[0] for m in _GET_VECTOR.finditer(image, start, start + 0x200))
    evidence = [f"entry point calls the System unit's initialisation at {system_seg:04X}:0000",
                f"System saves INT {', '.join(f'{v:02X}h' for v in vectors)}"]
    if b"Runtime error " in image:
        evidence.append("run-time error message 'Runtime error '")
    if vectors == TP4_VECTORS:
        return Identification("Borland Turbo Pascal 4.0", "System unit linked in", evidence)
    return Identification("Borland Turbo Pascal (startup differs from 4.0's)", "", evidence)


def _microsoft_c(image: bytes) -> Identification | None:
    hits = [m for m in _MSC.finditer(image)]
    if not hits:
        return None
    evidence = [f"C run-time text {m.group(0)[:40]!r} at {m.start():#x}" for m in hits[:3]]
    return Identification("Microsoft C", "C run-time library linked in", evidence)


def identify(mz: MZFile) -> list[Identification]:
    """Everything recognised about the compiler of an (unpacked) executable."""
    found = []
    for check in (lambda: _quickbasic(mz.image), lambda: _turbo_pascal(mz), lambda: _microsoft_c(mz.image)):
        result = check()
        if result is not None:
            found.append(result)
    return found
