"""The memory layout of a QuickBASIC 3.0 program with the standalone BCOM30 runtime.

What the startup code (the module the first instruction calls) reveals:

* DGROUP, the data segment: ``mov dx, <stack top>; sub dx, <DGROUP>`` computes
  the stack size, so the second immediate is DGROUP's segment.
* The compiled program's constants and string literals are not in DGROUP in
  the file: ``rep movsw`` copies them at startup from a segment of their own
  to a later point of DGROUP.  ``initial_dgroup`` rebuilds DGROUP as the
  program sees it after that copy, so DGROUP offsets in the code can be read.
* The compiler passes the runtime a table of (code offset, BASIC line number)
  pairs, one per statement (the places of the INT 3 statement traps) and per
  line label, ending with two zero words.  ``line_table`` reads it back: the
  disassembly can then say which BASIC line an address belongs to.

All segments are relative to the load module, as relocations leave them.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

_STACK_SIZE = re.compile(rb"\xba(..)\x81\xea(..)\xb1\x04\xd3\xe2", re.DOTALL)
_CONSTANT_COPY = re.compile(
    rb"\xb8(..)\x8e\xd8\xb9(..)\x2b\xc8\xd1\xe1\xd1\xe1\xd1\xe1\xb8(..)\x8e\xc0"
    rb"\x33\xff\x33\xf6\xfc\xf3\xa5", re.DOTALL)


@dataclass
class QuickBasicLayout:
    dgroup: int                     # DGROUP segment
    stack_segment_end: int          # the segment the stack size is measured to
    constants_from: int             # segment of the constants in the file
    constants_to: int               # segment just past them (the copy length)
    constants_dest: int             # the DGROUP segment they are copied to
    lines: dict[int, int] = field(default_factory=dict)   # main-module offset -> BASIC line

    @property
    def constants_dgroup_offset(self) -> int:
        """The DGROUP offset where the constants start (e.g. 1350h in GINRUMMY)."""
        return (self.constants_dest - self.dgroup) * 16

    def initial_dgroup(self, image: bytes) -> bytes:
        """DGROUP after the startup copy: file bytes, zeros for the rest, then constants."""
        start = self.dgroup * 16
        dest = self.constants_dgroup_offset
        data = bytearray(image[start:start + dest])
        data += bytes(dest - len(data))
        data += image[self.constants_from * 16:self.constants_to * 16]
        return bytes(data)

    def line_at(self, offset: int) -> int | None:
        """The BASIC line whose statement contains main-module ``offset``."""
        best = None
        for start, line in self.lines.items():
            if start <= offset and (best is None or start > best[0]):
                best = (start, line)
        return best[1] if best else None


def _word(data: bytes) -> int:
    return struct.unpack("<H", data)[0]


def line_table(image: bytes, runtime_segment: int, code_segment: int = 0) -> dict[int, int]:
    """The statement table after a far call into the runtime: offset -> first line number.

    Accepted where the pairs end with 0,0 and most offsets hold an INT 3 (CCh)."""
    base = code_segment * 16
    call = re.compile(rb"\x9a..", re.DOTALL)
    target = struct.pack("<H", runtime_segment)
    best: tuple[float, int, list[tuple[int, int]]] | None = None
    for match in call.finditer(image, base, min(len(image), base + 0x10000)):
        at = match.end()
        if image[at:at + 2] != target:
            continue
        pos = at + 2
        pairs: list[tuple[int, int]] = []
        misses = 0
        while pos + 4 <= len(image) and len(pairs) < 40000:
            offset, line = struct.unpack_from("<HH", image, pos)
            if offset == 0 and line == 0:
                break
            pairs.append((offset, line))
            pos += 4
            if not (base + offset < len(image) and image[base + offset] == 0xCC):
                misses += 1
                if misses > 8 + len(pairs) // 50:       # cannot be a statement table: give up early
                    break
        else:
            continue
        if len(pairs) < 8 or misses > 8 + len(pairs) // 50:
            continue
        traps = len(pairs) - misses
        # code before the real table also parses as "pairs" up to its terminator, but
        # far fewer of those point at INT 3s: keep the best ratio, then the shortest
        key = (traps / len(pairs), -len(pairs), pairs)
        if key[0] >= 0.98 and (best is None or key[:2] > best[:2]):
            best = key
    table: dict[int, int] = {}
    for offset, line in (best[2] if best else []):
        table.setdefault(offset, line)
    return table


def analyse_layout(image: bytes, runtime_segment: int | None = None) -> QuickBasicLayout | None:
    """The layout of a BCOM30 program, or None if the startup code is not recognised."""
    stack = _STACK_SIZE.search(image)
    copy = _CONSTANT_COPY.search(image)
    if stack is None or copy is None:
        return None
    layout = QuickBasicLayout(dgroup=_word(stack.group(2)), stack_segment_end=_word(stack.group(1)),
                              constants_from=_word(copy.group(1)), constants_to=_word(copy.group(2)),
                              constants_dest=_word(copy.group(3)))
    if runtime_segment is not None:
        layout.lines = line_table(image, runtime_segment)
    return layout
