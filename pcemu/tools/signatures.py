"""Find the QuickBASIC 3.0 (BASCOM 2 / BCOM30) runtime's routines by their bytes.

Programs link different parts of the runtime, so the same routine lands at
different offsets (RND is at 0C88:3885 in GINRUMMY.EXE and 062B:3594 in
METEORS.EXE).  Each signature here is a stretch of a routine's code with the
bytes that vary between links (DGROUP offsets, call displacements) left as
``??``; a routine is named where its signature matches exactly once.

Offsets returned are linear offsets in the unpacked load module
(segment*16 + offset, segments relative to the module as in the MZ header).
``runtime_segment`` recovers the runtime's segment so they can be shown as
SEG:OFF.  The signatures were taken from GINRUMMY.EXE and checked against
METEORS.EXE; see docs/ginrummy-internals.md for what each routine does.
"""
from __future__ import annotations

import re
import struct
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Signature:
    """A byte pattern; ``entries`` name routine entry points at offsets from the
    match; ``words`` name 16-bit operands to read at offsets from the match."""

    name: str
    pattern: str
    entries: dict[str, int] = field(default_factory=dict)
    words: dict[str, int] = field(default_factory=dict)

    @property
    def regex(self) -> re.Pattern[bytes]:
        parts = []
        for token in self.pattern.split():
            parts.append(b"." if token == "??" else re.escape(bytes([int(token, 16)])))
        return re.compile(b"".join(parts), re.DOTALL)


SIGNATURES: tuple[Signature, ...] = (
    Signature("rnd", """E8 ?? ?? EB 0F E8 ?? ?? 80 7F 03 00 74 ?? F6 47 02 80 78 ??
                        A1 ?? ?? 8B 0E ?? ?? F7 E1 97 8B DA A1 ?? ?? F7 E1 03 D8
                        A1 ?? ?? F7 26 ?? ?? 03 D8 03 3E ?? ?? 12 1E ?? ?? 32 FF""",
              entries={"RND": 0, "RND(x)": 5},
              words={"rnd_state": 0x15, "rnd_multiplier": 0x19, "rnd_increment": 0x32}),
    Signature("randomize", "50 8B 07 33 47 02 A3 ?? ?? 58 CB",
              entries={"RANDOMIZE": 0}, words={"rnd_seed_word": 7}),
    Signature("randomize_prompt", "E8 ?? ?? BB ?? ?? 9A ?? ?? ?? ?? 00 9A ?? ?? ?? ?? 01 01 BB ?? ?? 9A",
              entries={"RANDOMIZE(prompt)": 0}),
    Signature("timer", "50 53 51 52 B4 2C CD 21 B0 3C F6 E5 32 ED 03 C1 8B D8 9A",
              entries={"TIMER": 0}),
    Signature("gosub", "3B 26 ?? ?? 72 ?? 5E 89 26 ?? ?? 1F AD 56 1E 50 06 1F FF 46 FC CB",
              entries={"GOSUB": 0}),
    Signature("return", "FF 4E FC 78 ?? 58 5E 5F 0B FF 74 ?? 89 26 ?? ?? 56 57 CB",
              entries={"RETURN": 0}),
    # the twelve PRINT item entries: CALL dispatcher / DB type, separator
    Signature("print", " ".join(f"E8 ?? 00 {t:02X} {s:02X}" for s in range(3) for t in (4, 8, 2, 3)),
              entries={f"PRINT_{kind}_{sep}": 5 * (4 * s + i)
                       for s, sep in enumerate(("NEWLINE", "SEMICOLON", "COMMA"))
                       for i, kind in enumerate(("SINGLE", "DOUBLE", "INTEGER", "STRING"))}),
    Signature("print_begin", "C6 06 ?? ?? 00 C7 06 ?? ?? 00 00 E8 ?? ?? C6 06 ?? ?? 00 E8 01 00 CB",
              entries={"PRINT_BEGIN": 0}),
    Signature("print_end", "56 8B 36 ?? ?? 0B F6 74 ?? 81 FE ?? ?? 74 ?? F6 44 31 80",
              entries={"PRINT_END": 0}),
    Signature("int3_install", "0E 1F BA ?? ?? B8 03 25 CD 21",
              words={"int3_handler_offset": 3}),
    Signature("fadd", """BE ?? ?? EB 06 E8 ?? ?? BF ?? ?? E8 ?? ?? 8B 45 02 34 80 EB 11
                         BE ?? ?? EB 06 E8 ?? ?? BF ?? ?? E8 ?? ?? 8B 45 02 8B 5D 01""",
              entries={"FSUB fac-[di]": 0, "FSUB inline-fac": 5, "FSUB [si]-fac": 8,
                       "FADD fac+[di]": 0x15, "FADD inline+fac": 0x1A, "FADD [si]+fac": 0x1D},
              words={"fac": 1}),
    Signature("fmul", "BE ?? ?? EB 06 E8 ?? ?? BF ?? ?? E8 ?? ?? AD 8B 34 96 0A E4",
              entries={"FMUL fac*[di]": 0, "FMUL inline*fac": 5, "FMUL [si]*fac": 8}),
    Signature("fdiv", "BE ?? ?? EB 06 E8 ?? ?? BF ?? ?? E8 ?? ?? 8B 4D 02 8B 44 02 0A ED",
              entries={"FDIV fac/[di]": 0, "FDIV inline/fac": 5, "FDIV [si]/fac": 8}),
    Signature("fcmp", "BE ?? ?? EB 06 E8 ?? ?? BF ?? ?? E8 ?? ?? B9 02 00 03 F1 03 F9",
              entries={"FCMP fac:[di]": 0, "FCMP inline:fac": 5, "FCMP [si]:fac": 8}),
    Signature("fnormalise", "0B DB 75 0B 80 EC 10 76 ?? 87 DA 0B DB 74",
              entries={"FNORMALISE": 0}),
    Signature("csng_int", "53 52 50 B8 00 90 0A C7 79 02 F7 DB 33 D2 E8",
              entries={"CSNG(int)": 0}),
    Signature("cint", "89 26 ?? ?? 50 51 A1 ?? ?? 8B 0E ?? ?? 33 DB 0A E4 74",
              entries={"CINT(fac)": 0}),
    Signature("int", "89 26 ?? ?? 87 F3 E8 ?? ?? 87 F3 51 B9 02 00 80 3E ?? ?? 00 74",
              entries={"INT([bx])": 0}),
    Signature("fix", "87 F3 E8 ?? ?? 87 F3 51 B9 02 00 E8 ?? ?? 59 CB",
              entries={"FIX([bx])": 0}),
    Signature("sound", "E8 ?? ?? 89 1E ?? ?? 8B F2 BF ?? ?? A5 A5 BF ?? ?? 80 7D 03 00",
              entries={"SOUND": 0}),
    # the first call of every DEF FN body: counts the nesting, checks the stack, saves the frame
    Signature("def_fn", "FF 06 ?? ?? 3B 26 ?? ?? 72 ?? 83 3E ?? ?? 00 74 ?? 53 BB FF 00",
              entries={"DEF_FN_ENTER": 0}),
    # the temporary-slot helper: pops its caller's return address, reads the slot number
    # byte placed after the CALL (LODSB) and points DI at slot*8 in the temporaries' frame
    Signature("temp_slot", "8F 06 ?? ?? 5E 1F 97 AC D0 E0 B4 00 D1 E0 D1 E0 03 06 ?? ?? 97 1E 56",
              entries={"TEMP_SLOT": 0}),
    # four far entries around it: save SI/DI, CALL the helper, copy 4 or 8 bytes, RETF
    Signature("temp_copies", """89 36 ?? ?? 89 3E ?? ?? E8 ?? ?? BE ?? ?? A5 A5 8B 36 ?? ?? 8B 3E ?? ?? CB
                                89 36 ?? ?? 89 3E ?? ?? E8 ?? ?? BE ?? ?? A5 A5 A5 A5 8B 36 ?? ?? 8B 3E ?? ?? CB
                                89 36 ?? ?? 89 3E ?? ?? E8 ?? ?? BF ?? ?? A5 A5 8B 36 ?? ?? 8B 3E ?? ?? CB
                                89 36 ?? ?? 89 3E ?? ?? E8 ?? ?? BF ?? ?? A5 A5 A5 A5 8B 36""",
              entries={"STORE fac->temp": 0, "STORE dfac->temp": 0x19,
                       "LOAD temp->fac": 0x34, "LOAD temp->dfac": 0x4D}),
    Signature("runtime_errors", "B3 02 B8 B3 03 B8 B3 04 B8 B3 05 B8 B3 06 B8 B3 07",
              entries={"ERROR 2 (syntax)": 0, "ERROR 5 (illegal function call)": 9,
                       "ERROR 6 (overflow)": 12}),
)

REQUIRED = ("RND", "RANDOMIZE", "TIMER", "GOSUB", "RETURN", "PRINT_STRING_SEMICOLON", "INT3_HANDLER")


@dataclass
class RuntimeMap:
    """Where the runtime's routines and variables are in one load module."""

    routines: dict[str, int]                 # name -> linear offset
    variables: dict[str, int]                # name -> DGROUP offset (or code offset)
    segment: int | None                      # the runtime's code segment
    ambiguous: list[str] = field(default_factory=list)
    inline: dict[int, int] = field(default_factory=dict)   # linear entry -> inline operand bytes

    def seg_off(self, name: str) -> tuple[int, int]:
        linear = self.routines[name]
        if self.segment is None:
            raise ValueError("runtime segment unknown")
        return self.segment, linear - self.segment * 16

    @property
    def missing(self) -> list[str]:
        return [name for name in REQUIRED if name not in self.routines]


def far_call_segments(image: bytes) -> Counter[int]:
    """How often each segment is the target of a direct far call (9A off seg)."""
    counts: Counter[int] = Counter()
    for match in re.finditer(rb"\x9a(..)(..)", image, re.DOTALL):
        off, seg = struct.unpack("<HH", match.group(1) + match.group(2))
        if seg * 16 + off < len(image):
            counts[seg] += 1
    return counts


def runtime_segment(image: bytes, anchor: int | None = None) -> int | None:
    """The runtime's code segment: the most called far segment that contains ``anchor``."""
    for seg, _count in far_call_segments(image).most_common(8):
        if anchor is None or seg * 16 <= anchor < seg * 16 + 0x10000:
            return seg
    return None


def locate_runtime(image: bytes) -> RuntimeMap:
    routines: dict[str, int] = {}
    variables: dict[str, int] = {}
    ambiguous: list[str] = []
    for sig in SIGNATURES:
        matches = [m.start() for m in sig.regex.finditer(image)]
        if len(matches) != 1:
            if len(matches) > 1:
                ambiguous.append(sig.name)
            continue
        at = matches[0]
        for name, delta in sig.entries.items():
            routines[name] = at + delta
        for name, delta in sig.words.items():
            variables[name] = struct.unpack_from("<H", image, at + delta)[0]
    anchor = routines.get("RND", routines.get("GOSUB"))
    segment = runtime_segment(image, anchor)
    handler = variables.pop("int3_handler_offset", None)
    if handler is not None and segment is not None:
        routines["INT3_HANDLER"] = segment * 16 + handler
    return RuntimeMap(routines, variables, segment, ambiguous,
                      _temp_slot_entries(image, routines.get("TEMP_SLOT"), segment))


_SAVE_SI_DI = re.compile(rb"\x89\x36..\x89\x3e..", re.DOTALL)


def _temp_slot_entries(image: bytes, helper: int | None, segment: int | None) -> dict[int, int]:
    """Every far entry that reaches the temporary-slot helper takes one inline byte: a CALL
    to the helper that is itself an entry (the FP operations' "inline" forms), and the
    entries that save SI and DI just before such a CALL."""
    if helper is None or segment is None:
        return {}
    base = segment * 16
    entries = {}
    for at in range(base, min(len(image), base + 0x10000) - 2):
        if image[at] == 0xE8 and (at + 3 + struct.unpack_from("<h", image, at + 1)[0] - base) & 0xFFFF \
                == helper - base:
            entries[at] = 1
            if at - 8 >= base and _SAVE_SI_DI.fullmatch(image, at - 8, at):
                entries[at - 8] = 1
    return entries


def find_runtime_routines(image: bytes) -> dict[str, int]:
    """Name -> linear offset of every runtime routine recognised in ``image``."""
    return locate_runtime(image).routines


# routines that read operand bytes placed after their CALL (see disasm.Disassembler.inline)
_INLINE_SIZES = {"GOSUB": 2, "FSUB inline-fac": 1, "FADD inline+fac": 1, "FMUL inline*fac": 1,
                 "FDIV inline/fac": 1, "FCMP inline:fac": 1}


def inline_operand_sizes(runtime: RuntimeMap) -> dict[int, int]:
    """Linear address -> bytes of inline operand, for the routines that take one
    (GOSUB's target word; the temporary-slot byte of the FP operations)."""
    sizes = dict(runtime.inline)
    sizes.update({runtime.routines[name]: size for name, size in _INLINE_SIZES.items()
                  if name in runtime.routines})
    return sizes
