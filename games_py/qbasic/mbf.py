"""Microsoft Binary Format singles, computed the way the QuickBASIC 3.0 runtime does.

Tommy's Gin Rummy does its floating point in software, in the BASCOM runtime
("Microsoft BASIC Compiler Runtime Version 5.60").  To reproduce its deals we
repeat that arithmetic bit for bit: each function below is a transcription of
one runtime routine (addresses are CS:IP in GINRUMMY.EXE's unpacked image,
runtime segment 0C88h; see docs/ginrummy-internals.md), including the
rounding, the sticky bits and the error exits, not an IEEE approximation.

The format: 4 bytes, ``b0 b1 b2 b3``.  ``b3`` is the exponent biased by 128,
0 meaning zero; ``b2`` bit 7 is the sign; the mantissa is ``1 b2[6:0] b1 b0``
(24 bits, hidden leading 1) read as a fraction 0.1xxx, so the value is
``mantissa / 2**24 * 2**(b3 - 128)``.

The floating accumulator (FAC, DGROUP:0810h).  Routines write results into
the FAC; when a result is zero most of them only clear its exponent byte and
leave its other three bytes as they were.  Those stale bytes matter when the
program hashes the bytes of a zero (``RANDOMIZE TIMER`` at 00:00:00.00), so
every operation here takes the FAC as its first argument and returns the
FAC's new contents, stale bytes included.  Which operand is the FAC follows
the call site (the runtime has one entry point per arrangement).

``counting_paths`` counts which way the routines went (their loops' passes and the
branches whose instruction counts differ), so that what the runtime spends on
given values can be modelled (games_py/meteors/polling.py).
"""
from __future__ import annotations

import math
import struct
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

_MASKS = (0x00, 0x80, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE)   # DGROUP:0920h, for INT/FIX


# Which way the routines went, while ``counting_paths`` is on: the passes of their
# loops and the branches whose instruction counts differ (for a model of the
# instructions the runtime spends on given values: games_py.meteors.polling).
_paths: Counter | None = None
_routine = ""                 # the routine whose shared tails (normalise, round) run


@contextmanager
def counting_paths() -> Iterator[Counter]:
    """Count the routines' paths (name -> times) while the block runs."""
    global _paths
    saved, _paths = _paths, Counter()
    try:
        yield _paths
    finally:
        _paths = saved


def _path(name: str, times: int = 1) -> None:
    if _paths is not None:
        _paths[f"{_routine}:{name}"] += times


def _entered(routine: str) -> None:
    global _routine
    if _paths is not None:
        _routine = routine


class MBFError(ArithmeticError):
    """A BASIC run-time error raised by the arithmetic (the program would stop)."""


class MBFOverflow(MBFError):
    def __init__(self) -> None:
        super().__init__("Overflow (BASIC error 6)")


class MBFDivisionByZero(MBFError, ZeroDivisionError):
    def __init__(self) -> None:
        super().__init__("Division by zero (BASIC error 11)")


@dataclass(frozen=True)
class MBF:
    """One MBF single, held as its 4 stored bytes (so stale zeros survive)."""

    raw: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.raw, (bytes, bytearray)) or len(self.raw) != 4:
            raise ValueError(f"an MBF single is 4 bytes, not {self.raw!r}")
        object.__setattr__(self, "raw", bytes(self.raw))

    # -- fields -------------------------------------------------------
    @property
    def exponent(self) -> int:
        return self.raw[3]

    @property
    def negative(self) -> bool:
        return bool(self.raw[2] & 0x80)

    @property
    def mantissa(self) -> int:
        """The 24-bit mantissa including the hidden bit."""
        return 0x800000 | (self.raw[2] & 0x7F) << 16 | self.raw[1] << 8 | self.raw[0]

    @property
    def is_zero(self) -> bool:
        return self.raw[3] == 0

    @property
    def words(self) -> tuple[int, int]:
        """The two little-endian words (``w0`` = b1:b0, ``w1`` = b3:b2)."""
        return struct.unpack("<HH", self.raw)

    # -- conversions --------------------------------------------------
    def to_float(self) -> float:
        if self.is_zero:
            return 0.0
        value = math.ldexp(self.mantissa, self.exponent - 128 - 24)
        return -value if self.negative else value

    __float__ = to_float

    @classmethod
    def from_float(cls, value: float) -> "MBF":
        """The nearest MBF single (ties to even).  A convenience for constants and
        tests: the runtime never converts from IEEE, so this is not one of its paths."""
        if value == 0:
            return ZERO
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"{value} has no MBF representation")
        sign = 0x80 if value < 0 else 0
        frac, exp = math.frexp(abs(value))            # abs(value) = frac * 2**exp, 0.5 <= frac < 1
        scaled = frac * (1 << 24)
        mant = int(scaled)
        rest = scaled - mant
        if rest > 0.5 or (rest == 0.5 and mant & 1):
            mant += 1
        if mant == 1 << 24:
            mant >>= 1
            exp += 1
        biased = exp + 128
        if biased > 255:
            raise MBFOverflow()
        if biased < 1:
            return ZERO
        return cls(bytes([mant & 0xFF, mant >> 8 & 0xFF, sign | (mant >> 16 & 0x7F), biased]))

    @classmethod
    def from_hex(cls, text: str) -> "MBF":
        """From the bytes as a memory dump shows them, e.g. ``"00 00 00 81"`` (1.0)."""
        return cls(bytes.fromhex(text))

    def hex(self) -> str:
        return self.raw.hex(" ")

    def __repr__(self) -> str:
        return f"MBF({self.to_float()!r} [{self.hex()}])"


ZERO = MBF(b"\0\0\0\0")


class _Zero(Exception):
    """Internal: the routine reached its zero exit (only the exponent byte is cleared)."""


def _zeroed(fac: MBF) -> MBF:
    return MBF(fac.raw[:3] + b"\0")


# -- the shared tails: normalise (0C88:3A00), round and pack (3A2E, 3A46) -------------------
def _pack(al: int, ah: int, bx: int, dx: int) -> MBF:
    # [0812h] = AX with AL = sign | BH[6:0], [0810h] = BL:DH
    al = (al & 0x80) | (bx >> 8 & 0x7F)
    return MBF(bytes([dx >> 8 & 0xFF, bx & 0xFF, al, ah & 0xFF]))


def _round_pack(al: int, ah: int, bx: int, dx: int) -> MBF:
    """0C88:3A2E: round BX:DX to 24 bits on DL (half to even), then pack."""
    dl = dx & 0xFF
    dh = dx >> 8
    _path("round.above" if dl > 0x80 else "round.half" if dl == 0x80 else "round.below")
    if dl > 0x80 or (dl == 0x80 and dh & 1):
        _path("round.up")
        dh += 1
        if dh > 0xFF:
            _path("round.carry")
            dh &= 0xFF
            bx += 1
            if bx > 0xFFFF:                      # rounded up to the next power of two: ADC carries
                _path("round.exponent")          # out, INC AH (062B:3753, 0C88:3A53 in GINRUMMY.EXE)
                bx &= 0xFFFF
                ah = (ah + 1) & 0xFF
                if ah == 0:
                    raise MBFOverflow()
    return _pack(al, ah, bx, dh << 8 | dl)


def _normalise(al: int, ah: int, bx: int, dx: int) -> MBF:
    """0C88:3A00: shift BX:DX left until bit 31 is set, one exponent step per bit."""
    if bx == 0:
        _path("normalise.word")
        if ah <= 0x10:
            raise _Zero
        ah -= 0x10
        bx, dx = dx, 0
        if bx == 0:
            raise _Zero
    if bx >> 8 == 0:
        _path("normalise.byte")
        if ah <= 8:
            raise _Zero
        ah -= 8
        bx = (bx << 8 | dx >> 8) & 0xFFFF
        dx = (dx << 8) & 0xFFFF
    while not bx & 0x8000:
        _path("normalise.bit")
        ah -= 1
        if ah == 0:
            raise _Zero
        bx = (bx << 1 | dx >> 15) & 0xFFFF
        dx = (dx << 1) & 0xFFFF
    return _round_pack(al, ah, bx, dx)


# -- addition and subtraction (0C88:3917 .. 39FE) -----------------------------------------
def _add(a: MBF, b: MBF, negate_b: bool) -> MBF:
    """``a + b`` (or ``a - b``) with A at SI and B at DI, as 0C88:393D does it."""
    al, ah = b.raw[2], b.raw[3]
    if negate_b:
        al ^= 0x80
    bx = (b.raw[2] << 8 | b.raw[1]) | 0x8000
    dx = b.raw[0] << 8
    cl, ch = a.raw[2], a.raw[3]
    si = (a.raw[2] << 8 | a.raw[1]) | 0x8000
    di = a.raw[0] << 8
    if ch == 0:                                  # A is zero: the result is B
        _path("a_zero")
        return _pack(al, ah, bx, dx)
    if ah == 0:                                  # B is zero: the result is A
        _path("b_zero")
        return _pack(cl, ch, si, di)
    if ch < ah:                                  # make SI:DI / CH the larger exponent
        _path("swap")
        bx, si = si, bx
        dx, di = di, dx
        al, ah, cl, ch = cl, ch, al, ah
    d = ch - ah
    if d > 0x18:
        _path("far")
        return _pack(cl, ch, si, di)
    # AL bit 7 = smaller's sign, bit 6 = larger's sign; AH = larger exponent
    al, ah = ((al & 0x80) | (cl >> 1)) & 0xFF, ch
    count = d
    came = "direct"                              # the way to the shift loops (their jumps differ)
    if count:
        if count >= 14:
            _path("word")
            if dx:
                _path("word_sticky")
                bx |= 1
            dx, bx = bx, 0
            count -= 16
            came = "word"
            if count == 0:
                _path("word_exact")
        if count > 0:
            if count > 5:
                _path("byte")
                if came == "word":
                    _path("byte_from_word")
                if dx & 0xFF:
                    _path("byte_sticky")
                    dx |= 0x100
                dx = (bx << 8 | dx >> 8) & 0xFFFF      # DL=DH, DH=BL
                bx = bx >> 8                           # BL=BH, BH=0
                count -= 8
                came = "byte"
                if count == 0:
                    _path("byte_exact")
            if count > 0:
                _path("right", count)
                _path(f"right_from_{came}")
                if dx & 0x3F:
                    _path("bits_sticky")
                    dx |= 0x20
                value = (bx << 16 | dx) >> count
                bx, dx = value >> 16, value & 0xFFFF
        if count < 0:
            _path("left", -count)
            _path(f"left_from_{came}")
            value = ((bx << 16 | dx) << -count) & 0xFFFFFFFF
            bx, dx = value >> 16, value & 0xFFFF
    else:
        _path("aligned")
    if dx & 0x3F:
        _path("sticky")
        dx |= 0x20
    if not (al >> 7 ^ al >> 6) & 1:              # same signs: add magnitudes
        _path("same_signs")
        total = (si << 16 | di) + (bx << 16 | dx)
        al = (al << 1) & 0xFF
        if total > 0xFFFFFFFF:
            _path("carry")
            total >>= 1                          # RCR brings the carry back in at bit 31
            ah += 1
            if ah > 0xFF:
                raise MBFOverflow()
        return _round_pack(al, ah, total >> 16, total & 0xFFFF)
    al = (al << 1) & 0xFF
    diff = (si << 16 | di) - (bx << 16 | dx)
    if diff < 0:
        _path("negative")
        diff = -diff
        al ^= 0xFF
    return _normalise(al, ah, diff >> 16, diff & 0xFFFF)


def _fac_result(fac: MBF, compute) -> MBF:
    try:
        return compute()
    except _Zero:
        _path("zero")
        return _zeroed(fac)


def add(fac: MBF, other: MBF) -> MBF:
    """FAC + other (0C88:392C, ``FADD``: FAC at SI, other at DI)."""
    _entered("add")
    return _fac_result(fac, lambda: _add(fac, other, False))


def sub(fac: MBF, other: MBF) -> MBF:
    """FAC - other (0C88:3917: FAC at SI, other at DI negated)."""
    _entered("add")
    return _fac_result(fac, lambda: _add(fac, other, True))


def rsub(fac: MBF, other: MBF) -> MBF:
    """other - FAC (0C88:391F: other at SI, FAC at DI negated)."""
    _entered("add")
    return _fac_result(fac, lambda: _add(other, fac, True))


# -- multiplication (0C88:3A63 .. 3AE2) --------------------------------------------------
def _exponent_sum(total: int) -> int:
    """The signed 8-bit exponent arithmetic and its overflow exit (0C88:3A58)."""
    if not -128 <= total <= 127:
        if total < 0:                 # wrapped result non-negative: underflow, a zero
            raise _Zero
        raise MBFOverflow()
    return (total + 0x80) & 0xFF


def _mul(a: MBF, b: MBF) -> MBF:
    _path("product")
    if a.exponent == 0 or b.exponent == 0:
        _path("fac_zero" if a.exponent == 0 else "other_zero")
        raise _Zero
    al = (a.raw[2] ^ b.raw[2]) & 0xFF
    ah = _exponent_sum((a.exponent - 0x81) + (b.exponent - 0x80))
    product = a.mantissa * b.mantissa           # 48 bits
    high = product >> 16
    if product & 0xFFFF:                        # sticky bit for the rounding
        _path("sticky")
        high |= 1
    return _finish_quotient_or_product(al, ah, high)


def _finish_quotient_or_product(al: int, ah: int, value: int) -> MBF:
    """0C88:3A9A: one-bit normalisation of a 32-bit result, then round."""
    if value & 0x80000000:
        ah = (ah + 1) & 0xFF
        if ah == 0:
            raise MBFOverflow()
    else:
        _path("finish.shift")
        value = (value << 1) & 0xFFFFFFFF
        if ah == 0:
            raise _Zero
    return _round_pack(al, ah, value >> 16, value & 0xFFFF)


def mul(fac: MBF, other: MBF) -> MBF:
    """FAC * other (0C88:3A63, ``FMUL``; the product does not depend on which is the FAC)."""
    _entered("mul")
    return _fac_result(fac, lambda: _mul(fac, other))


# -- division (0C88:3AE3 .. 3B6D) ----------------------------------------------------------
def _div_digit(dx: int, ax: int, bx: int, cx: int, checked: bool) -> tuple[int, int, int]:
    """One 16-bit quotient digit of DX:AX:0000 / BX:CX (0C88:3B41 / 3B45).

    Returns (digit, DX, AX) with DX:AX the new partial remainder."""
    if checked and dx >= bx:                     # DIV would overflow: guess FFFFh
        _path("guess")
        si = 0xFFFF
        borrow_ax = (ax - cx) & 0xFFFF
        total = dx + borrow_ax
        dx = total & 0xFFFF
        ax = cx
        if total > 0xFFFF:
            return si, dx, ax
    else:
        dividend = dx << 16 | ax
        si, dx = divmod(dividend, bx)
        ax = 0
        if cx == 0:
            _path("exact_divisor")
            return si, dx, ax
        product = si * cx
        low = product & 0xFFFF
        neg_ax = (-low) & 0xFFFF
        borrow = 1 if low else 0
        new_dx = dx - (product >> 16) - borrow
        ax = neg_ax
        dx = new_dx & 0xFFFF
        if new_dx >= 0:
            return si, dx, ax
    while True:                                   # remainder negative: add the divisor back
        _path("correction")
        si = (si - 1) & 0xFFFF
        low = ax + cx
        ax = low & 0xFFFF
        high = dx + bx + (low >> 16)
        dx = high & 0xFFFF
        if high > 0xFFFF:
            return si, dx, ax


def _div(a: MBF, b: MBF) -> MBF:
    if b.exponent == 0:
        raise MBFDivisionByZero()
    if a.exponent == 0:
        raise _Zero
    al = (a.raw[2] ^ b.raw[2]) & 0xFF
    ah = _exponent_sum((a.exponent - 0x80) - (b.exponent - 0x80))
    dividend = a.mantissa << 8                   # DX:AX
    bx, cx = (b.mantissa << 8) >> 16, (b.mantissa << 8) & 0xFFFF
    dividend >>= 1
    q1, dx, ax = _div_digit(dividend >> 16, dividend & 0xFFFF, bx, cx, checked=False)
    q2, dx, ax = _div_digit(dx, ax, bx, cx, checked=True)
    if dx | ax:
        _path("sticky")
        q2 |= 1
    return _finish_quotient_or_product(al, ah, q1 << 16 | q2)


def div(fac: MBF, other: MBF) -> MBF:
    """FAC / other (0C88:3AE3, ``FDIV``: dividend FAC at SI, divisor at DI)."""
    _entered("div")
    return _fac_result(fac, lambda: _div(fac, other))


def rdiv(fac: MBF, other: MBF) -> MBF:
    """other / FAC (0C88:3AEB: dividend at SI, divisor FAC at DI)."""
    _entered("div")
    return _fac_result(fac, lambda: _div(other, fac))


# -- comparison (0C88:3433) ----------------------------------------------------------------
def compare(fac: MBF, other: MBF) -> int:
    """-1, 0 or 1 as FAC is below, equal to or above other (the flags JB/JE test)."""
    _entered("compare")
    if other.is_zero:
        _path("other_zero")
        if fac.is_zero:
            _path("both_zero")
            return 0
        return -1 if fac.negative else 1
    if fac.is_zero:
        _path("fac_zero")
        return 1 if other.negative else -1
    if fac.negative != other.negative:
        _path("signs_differ")
        return -1 if fac.negative else 1
    if fac.negative:
        _path("negative")
    a, b = (other, fac) if fac.negative else (fac, other)
    aw0, aw1 = a.words
    bw0, bw1 = b.words
    key_a, key_b = (aw1, aw0), (bw1, bw0)
    if aw1 == bw1:
        _path("low_word")
    if key_a == key_b:
        _path("equal")
        return 0
    return -1 if key_a < key_b else 1


# -- conversions to and from integers ------------------------------------------------------
def from_fixed(magnitude: int, exponent: int, negative: bool = False, fac: MBF = ZERO) -> MBF:
    """0C88:3A00 on a 32-bit magnitude BX:DX read as 0.xxx * 2**(exponent-128):
    normalise, round, pack; a zero only clears ``fac``'s exponent byte.
    RND passes its 24-bit state with exponent 88h, CSNG an integer with 90h."""
    if not 0 <= magnitude <= 0xFFFFFFFF or not 0 < exponent <= 0xFF:
        raise ValueError("magnitude is 32 bits and the exponent 1..255")
    sign = 0x80 if negative else 0
    _entered("fixed")
    return _fac_result(fac, lambda: _normalise(sign, exponent, magnitude >> 16, magnitude & 0xFFFF))


def from_int(value: int, fac: MBF = ZERO) -> MBF:
    """CSNG of a 16-bit integer (0C88:3487); ``fac`` is the FAC it overwrites."""
    if not -32768 <= value <= 32767:
        raise ValueError(f"{value} is not a 16-bit BASIC integer")
    _entered("fixed")
    if value < 0:
        _path("negative")
    return from_fixed(abs(value) << 16, 0x90, value < 0, fac)


def _truncate(raw: bytearray) -> bool:
    """0C88:3727 on a single: clear the fraction bits.  False if it zeroed the exponent."""
    k = raw[3] - 0x80
    if k <= 0:
        _path("below_one")
        raw[3] = 0
        return False
    whole = k >> 3
    if whole > 2:
        _path("whole")
        return True
    index = 2 - whole                            # the byte holding the binary point
    _path(f"point_in_byte{index}")
    if any(raw[:index]):
        _path("low_bytes")
    raw[index] &= _MASKS[k & 7]
    for i in range(index):
        raw[i] = 0
    return True


def _negate24(raw: bytearray) -> bool:
    """0C88:375E: two's complement of b2:b1:b0 in place; True if the result is zero."""
    if raw[0] == 0:                              # NEG of the low byte gave no borrow:
        _path("negate.carry")                    # the words above are incremented
        if raw[1] == raw[2] == 0:
            _path("negate.carry_on")
    value = (-(raw[2] << 16 | raw[1] << 8 | raw[0])) & 0xFFFFFF
    raw[0], raw[1], raw[2] = value & 0xFF, value >> 8 & 0xFF, value >> 16
    return value == 0


def fix(x: MBF) -> MBF:
    """FIX(x), truncation toward zero (0C88:36A2; the result replaces the FAC)."""
    raw = bytearray(x.raw)
    _truncate(raw)
    return MBF(bytes(raw))


def int_(x: MBF) -> MBF:
    """INT(x), the largest integer not above x (0C88:36C2; the result replaces the FAC)."""
    _entered("int")
    raw = bytearray(x.raw)
    if raw[3] == 0:
        _path("zero")
        return x
    if not raw[2] & 0x80:
        _truncate(raw)
        return MBF(bytes(raw))
    _path("negative")
    _negate24(raw)
    if not _truncate(raw):
        _path("minus_one")
        return MBF(bytes([0, 0, 0x80, 0x81]))      # -1.0, written in full
    if _negate24(raw):
        _path("carried")                             # magnitude carried out: next power of two
        raw[2] = 0x80
        raw[3] = (raw[3] + 1) & 0xFF
        if raw[3] == 0:
            raise MBFOverflow()
    return MBF(bytes(raw))


def cint(x: MBF) -> int:
    """CINT(x) as 0C88:3518 does it: round half away from zero, judged on the
    top 16 bits of the mantissa; Overflow outside -32768..32767.

    (The routine has a second mode, selected by DGROUP:0815h = 4, which this
    program never sets; it is not modelled.)"""
    _entered("cint")
    if x.exponent == 0:
        _path("zero")
        return 0
    k = x.exponent - 0x80
    negative = x.negative
    if k < 0:                                      # |x| < 0.5
        _path("below_half")
        if negative:
            _path("below_half.negative")
        return 0
    bx = x.mantissa >> 8                           # hidden bit + 15 bits
    if k > 16:
        raise MBFOverflow()
    if k == 16:
        _path("top")                               # 2**15 <= |x| < 2**16 (062B:3274)
        if (x.raw[2] << 8 | x.raw[1]) == 0x8000:   # -32768 plus a fraction in b0
            if x.raw[0] == 0 or not x.raw[0] & 0x80:
                return -32768
        raise MBFOverflow()
    shift = 16 - k
    half = bx >> (shift - 1) & 1
    value = (bx >> shift) + half
    if value == 0x8000:
        if negative:
            return -32768
        raise MBFOverflow()
    if not negative and value & 0x8000:
        raise MBFOverflow()
    if negative:
        _path("negative")                          # NEG BX (062B:3265)
    return -value if negative else value
