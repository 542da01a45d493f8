"""Counting instructions by translated block: the x86 instruction-length decoder.

Unicorn (QEMU) runs code in translated blocks, and its block hook is called
before a block runs with the block's linear address and size in bytes.  The
machine's clock counts executed instructions, so each block adds the number
of instructions in those bytes, found by decoding their lengths as Unicorn's
x86 decoder reads them in 16-bit mode.  This is the Python twin of
``pcemu_insn_length`` in ``pcemu/native/fastcpu.c`` (keep the two in step);
``tests/test_block_counting.py`` checks both against Unicorn's own count.
"""
from __future__ import annotations

PREFIXES = frozenset((0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0xF0, 0xF2, 0xF3))
PREFIXES_ALL = PREFIXES | {0x66, 0x67}
# one-byte opcodes followed by a ModRM byte
MODRM_1 = frozenset([b for g in range(0, 0x40, 8) for b in range(g, g + 4)]
                    + [0x62, 0x63, 0x69, 0x6B, *range(0x80, 0x90), 0xC0, 0xC1,
                       *range(0xC4, 0xC8), *range(0xD0, 0xD4), *range(0xD8, 0xE0),
                       0xF6, 0xF7, 0xFE, 0xFF])
IMM8_1 = frozenset([0x04, 0x0C, 0x14, 0x1C, 0x24, 0x2C, 0x34, 0x3C, 0x6A, 0x6B, 0x80, 0x82,
                    0x83, 0xA8, 0xC0, 0xC1, 0xC6, 0xCD, 0xD4, 0xD5, 0xEB,
                    *range(0x70, 0x80), *range(0xB0, 0xB8), *range(0xE0, 0xE8)])
IMMZ_1 = frozenset([0x05, 0x0D, 0x15, 0x1D, 0x25, 0x2D, 0x35, 0x3D, 0x68, 0x69, 0x81, 0xA9,
                    0xC7, 0xE8, 0xE9, *range(0xB8, 0xC0)])
NO_MODRM_2 = frozenset([0x05, 0x06, 0x07, 0x08, 0x09, 0x0B, 0x0E, 0x77, 0xA0, 0xA1, 0xA2,
                        0xA8, 0xA9, 0xAA, *range(0x30, 0x38), *range(0xC8, 0xD0)])
IMM8_2 = frozenset([0x70, 0x71, 0x72, 0x73, 0xA4, 0xAC, 0xBA, 0xC2, 0xC4, 0xC5, 0xC6, 0x0F])


def _modrm_length(code, at: int, adsize32: bool) -> int:
    modrm = code[at]
    mod, rm = modrm >> 6, modrm & 7
    if mod == 3:
        return 1
    if not adsize32:
        if mod == 0:
            return 3 if rm == 6 else 1
        return 2 if mod == 1 else 3
    n = 1
    if rm == 4:                                   # SIB
        n += 1
        if mod == 0 and code[at + 1] & 7 == 5:
            return n + 4
    if mod == 0:
        return n + 4 if rm == 5 else n
    return n + (1 if mod == 1 else 4)


def insn_length(code, at: int = 0) -> int:
    """Length of the instruction at ``code[at]`` (``code`` must hold 15 more bytes)."""
    i = at
    opsize32 = adsize32 = False
    while True:
        op = code[i]
        if op == 0x66:                             # repeated, still one switch
            opsize32 = True
        elif op == 0x67:
            adsize32 = True
        elif op not in PREFIXES:
            break
        i += 1
        if i - at >= 15:
            return i - at                          # too long: #GP on the prefixes
    z = 4 if opsize32 else 2
    i += 1
    if op == 0x0F:
        op2 = code[i]
        i += 1
        if 0x80 <= op2 <= 0x8F:
            return i + z - at
        if op2 == 0x38:
            return i + 1 + _modrm_length(code, i + 1, adsize32) - at
        if op2 == 0x3A:
            return i + 2 + _modrm_length(code, i + 1, adsize32) - at
        if op2 in NO_MODRM_2:
            return i - at
        if 0x20 <= op2 <= 0x23:                    # MOV to/from CR, DR: always a register
            return i + 1 - at
        n = i + _modrm_length(code, i, adsize32)
        return n + (op2 in IMM8_2) - at
    n = i
    if op in MODRM_1:
        n += _modrm_length(code, i, adsize32)
    if op in IMM8_1:
        return n + 1 - at
    if op in IMMZ_1:
        return n + z - at
    if op in (0xC2, 0xCA):
        return n + 2 - at
    if op == 0xC8:
        return n + 3 - at
    if op in (0x9A, 0xEA):
        return n + 2 + z - at
    if 0xA0 <= op <= 0xA3:
        return n + (4 if adsize32 else 2) - at
    if op in (0xF6, 0xF7) and (code[i] >> 3) & 7 < 2:
        return n + (1 if op == 0xF6 else z) - at
    return n - at


def count_instructions(code, size: int) -> int:
    """Instructions that start in the first ``size`` bytes of ``code`` (a block)."""
    count = at = 0
    while at < size:
        at += insn_length(code, at)
        count += 1
    return count


def block_shape(code, size: int) -> tuple[int, int, bool]:
    """(instructions in the block, offset of a LOOPZ/LOOPNZ ending it after others, else -1,
    whether it ends in HLT).

    Unicorn 2.1.4 translates LOOPZ/LOOPNZ so that, when CX reaches 0, the
    lazy flags of an earlier instruction of the same block are left unsaved
    and the flags come out wrong.  Such blocks are retranslated with a code
    hook on the loop instruction, which makes the translator save them first.
    """
    count = at = last = 0
    while at < size:
        last = at
        at += insn_length(code, at)
        count += 1
    op_at = last
    while op_at < last + 14 and code[op_at] in PREFIXES_ALL:
        op_at += 1
    loop = last if count >= 2 and code[op_at] in (0xE0, 0xE1) else -1
    return count, loop, code[op_at] == 0xF4
