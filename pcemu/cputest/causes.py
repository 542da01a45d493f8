"""Why a test fails: the known differences between a 286 and Unicorn's core.

Each known cause is recognised from the test itself (the exception the 286
took, the instruction, the initial registers), never from our result, so a
new kind of failure shows up as "unexplained" instead of hiding under an old
label.  docs/cpu.md explains each one and what it means for DOS programs.
"""
from __future__ import annotations

from pcemu.cpu import LOCK, split_prefixes
from pcemu.cputest.runner import Outcome

MAX_286_LENGTH = 10

GP_OFFSET = ("#GP at offset FFFFh: the 286 faults on a word access that would run past "
             "the end of a segment; Unicorn does the access, with no real-mode limit check")
GP_LENGTH = ("#GP for an instruction over 10 bytes (the 286 limit); "
             "Unicorn accepts up to 15")
UD_286 = ("#UD on the 286 for a form Unicorn runs (8F with reg 1-7, MOV to or from "
          "FS/GS, which a 286 does not have)")
STACK_WRAP = ("far return with SP=FFFEh: the 286 takes the second word from SS:0000h, "
              "Unicorn from SS:10000h (no wrap at the segment end)")
LOCK_NEG = ("LOCK NEG: Unicorn (QEMU 5) sets SF/ZF/PF from the operand before "
            "negating it when the LOCK prefix is present")
UNEXPLAINED = "unexplained: see the example"


def cause_of(outcome: Outcome) -> str:
    code = outcome.code[:-1] if outcome.code.endswith(b"\xf4") else outcome.code
    if outcome.exception == 13:
        return GP_LENGTH if len(code) > MAX_286_LENGTH else GP_OFFSET
    if outcome.exception == 6:
        return UD_286
    opcode = code[split_prefixes(code)]
    if opcode in (0xCA, 0xCB) and outcome.initial_sp == 0xFFFE:
        return STACK_WRAP
    if outcome.form in ("F6.3", "F7.3") and LOCK in code[:split_prefixes(code)]:
        return LOCK_NEG
    return UNEXPLAINED
