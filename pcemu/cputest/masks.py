"""FLAGS bits a test may not compare: those Intel documents as undefined.

Source: the "Flags Affected" entries of the Intel 80286 Programmer's
Reference Manual (and the iAPX 86/88 User's Manual, which agrees).  Where an
instruction leaves a flag undefined, the 286 and Unicorn (a 386-class core)
legitimately compute different values, so those bits are masked out of the
FLAGS register and out of a FLAGS word an exception pushes.  Nothing else is
masked: every defined flag, and bits 12-15 (IOPL, NT: always 0 on a real-mode
286), must match exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

from pcemu.cpu import FLAG_AF, FLAG_CF, FLAG_OF, FLAG_PF, FLAG_SF, FLAG_ZF, split_prefixes

ARITH = FLAG_CF | FLAG_PF | FLAG_AF | FLAG_ZF | FLAG_SF | FLAG_OF

_NAMES = ((FLAG_OF, "OF"), (FLAG_SF, "SF"), (FLAG_ZF, "ZF"), (FLAG_AF, "AF"),
          (FLAG_PF, "PF"), (FLAG_CF, "CF"))


def flag_names(mask: int) -> str:
    return " ".join(name for bit, name in _NAMES if mask & bit) or "-"


@dataclass(frozen=True)
class Rule:
    forms: str                # human description of the forms covered
    mask: int
    reason: str


# The fixed masks, by opcode or "opcode.reg" form.  Shifts and rotates depend
# on the count and are handled in undefined_flags().
LOGIC = Rule("AND, OR, XOR, TEST", FLAG_AF,
             "AF is undefined after the logical instructions (OF and CF are cleared, "
             "SF ZF PF follow the result)")
BCD_ADD = Rule("DAA, DAS", FLAG_OF, "OF is undefined after decimal adjust")
ASCII_ADD = Rule("AAA, AAS", FLAG_OF | FLAG_SF | FLAG_ZF | FLAG_PF,
                 "only AF and CF are defined after ASCII adjust for addition/subtraction")
ASCII_MUL = Rule("AAM, AAD", FLAG_OF | FLAG_AF | FLAG_CF,
                 "only SF ZF PF (from AL) are defined after AAM and AAD")
MULTIPLY = Rule("MUL, IMUL (F6/F7 reg 4-5, 69, 6B)", FLAG_SF | FLAG_ZF | FLAG_AF | FLAG_PF,
                "only CF and OF (upper half significant) are defined after a multiply")
DIVIDE = Rule("DIV, IDIV (F6/F7 reg 6-7)", ARITH,
              "all six arithmetic flags are undefined after a divide, "
              "also in the FLAGS a divide error pushes")
SHIFT = Rule("SHL, SHR, SAL, SAR (C0-D3 reg 4-7)", FLAG_AF,
             "AF is undefined after a shift by a non-zero count; "
             "OF too unless the count is 1")
ROTATE = Rule("ROL, ROR, RCL, RCR (C0-D3 reg 0-3)", FLAG_OF,
              "OF is undefined after a rotate unless the count is 1")

_BY_FORM: dict[str, Rule] = {}
for _op in ("08", "09", "0A", "0B", "0C", "0D", "20", "21", "22", "23", "24", "25",
            "30", "31", "32", "33", "34", "35", "84", "85", "A8", "A9",
            "80.1", "80.4", "80.6", "81.1", "81.4", "81.6", "82.1", "82.4", "82.6",
            "83.1", "83.4", "83.6", "F6.0", "F6.1", "F7.0", "F7.1"):
    _BY_FORM[_op] = LOGIC
for _op in ("27", "2F"):
    _BY_FORM[_op] = BCD_ADD
for _op in ("37", "3F"):
    _BY_FORM[_op] = ASCII_ADD
for _op in ("D4", "D5"):
    _BY_FORM[_op] = ASCII_MUL
for _op in ("F6.4", "F6.5", "F7.4", "F7.5", "69", "6B"):
    _BY_FORM[_op] = MULTIPLY
for _op in ("F6.6", "F6.7", "F7.6", "F7.7"):
    _BY_FORM[_op] = DIVIDE

RULES = (LOGIC, BCD_ADD, ASCII_ADD, ASCII_MUL, MULTIPLY, DIVIDE, SHIFT, ROTATE)
SHIFT_OPCODES = {0xC0: "imm8", 0xC1: "imm8", 0xD0: "one", 0xD1: "one", 0xD2: "cl", 0xD3: "cl"}


def form_of(code: bytes) -> str:
    """The test-file form name of an instruction: '00', or '80.3' for a group opcode."""
    start = split_prefixes(code)
    opcode = code[start]
    if opcode in GROUP_OPCODES and start + 1 < len(code):
        return f"{opcode:02X}.{(code[start + 1] >> 3) & 7}"
    return f"{opcode:02X}"


GROUP_OPCODES = {0x80, 0x81, 0x82, 0x83, 0xC0, 0xC1, 0xD0, 0xD1, 0xD2, 0xD3,
                 0xF6, 0xF7, 0xFE, 0xFF}


def modrm_length(modrm: int) -> int:
    """Bytes taken by a 16-bit ModRM byte and its displacement."""
    mod, rm = modrm >> 6, modrm & 7
    if mod == 0:
        return 3 if rm == 6 else 1
    return {1: 2, 2: 3, 3: 1}[mod]


def shift_count(code: bytes, cl: int) -> int:
    """The count a shift or rotate uses, masked to 5 bits as the 286 does."""
    start = split_prefixes(code)
    kind = SHIFT_OPCODES[code[start]]
    if kind == "one":
        return 1
    if kind == "cl":
        return cl & 0x1F
    return code[start + 1 + modrm_length(code[start + 1])] & 0x1F


def undefined_flags(code: bytes, cx: int) -> tuple[int, Rule | None]:
    """(mask of undefined flags, the rule that says so) for one instruction.

    ``code`` is the instruction's bytes (prefixes included), ``cx`` the initial
    CX, whose low byte is the count of the D2/D3 shifts.
    """
    start = split_prefixes(code)
    opcode = code[start]
    if opcode in SHIFT_OPCODES:
        count = shift_count(code, cx & 0xFF)
        if count == 0:
            return 0, None                    # a zero count leaves every flag alone
        shift = (code[start + 1] >> 3) & 7 >= 4
        rule = SHIFT if shift else ROTATE
        mask = 0 if count == 1 else FLAG_OF
        if shift:
            mask |= FLAG_AF
        return mask, rule if mask else None
    rule = _BY_FORM.get(form_of(code))
    return (rule.mask, rule) if rule else (0, None)
