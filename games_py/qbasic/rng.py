"""RND, RANDOMIZE and TIMER of the QuickBASIC 3.0 runtime in GINRUMMY.EXE.

Transcribed from the disassembly (runtime segment 0C88h of the unpacked
image; docs/ginrummy-internals.md has the listings):

* The generator state is 24 bits at DGROUP:0850h-0852h, 000005h when the
  program starts.  Each RND steps it ``x = (x * 0x343FD + 0x1A9EC3) mod 2**24``
  (multiplier at DGROUP:0848h, increment at 084Ch) and returns ``x / 2**24``
  as an MBF single: the state is loaded as a 32-bit mantissa with exponent
  88h and normalised, which is exact (0C88:3885).
* ``RANDOMIZE v`` stores ``w0 XOR w1`` of the single ``v``'s two words over
  the state's middle and high bytes (DGROUP:0851h), keeping the low byte
  (0C88:390C).  Only 65,536 start states are reachable.
* ``RND(x)``: x = 0 repeats the last value; x < 0 first reseeds with the
  24-bit sum of x's mantissa bytes and exponent byte, then steps (0C88:388A).
* ``TIMER`` reads INT 21h AH=2Ch and computes
  ``(((h*60+m)*60+s)*100+hs)/100`` in MBF, the first product in integers
  (0C88:3DC9).  Every step but the division is exact.
"""
from __future__ import annotations

from games_py.qbasic import mbf
from games_py.qbasic.mbf import MBF

MULTIPLIER = 0x343FD
INCREMENT = 0x1A9EC3
STATE_BITS = 24
STATE_MASK = (1 << STATE_BITS) - 1
INITIAL_STATE = 0x000005            # DGROUP:0850h in the program image

ONE = MBF.from_hex("00 00 00 81")    # the constant 1.0 at DGROUP:1350h


def _state_value(state: int, fac: MBF) -> MBF:
    """0C88:38C9: BL:DX = state, AX = 8800h, normalise into the FAC."""
    return mbf.from_fixed(state, 0x88, fac=fac)


def timer(hour: int, minute: int, second: int, hundredths: int, fac: MBF = mbf.ZERO) -> MBF:
    """TIMER for a DOS time (INT 21h AH=2Ch: CH, CL, DH, DL), as 0C88:3DC9 computes it.

    ``fac`` is what the FAC held before; it only shows through at 00:00:00.00,
    where every step yields a zero whose low bytes are left over from before."""
    for name, value, top in (("hour", hour, 23), ("minute", minute, 59),
                             ("second", second, 59), ("hundredths", hundredths, 99)):
        if not 0 <= value <= top:
            raise ValueError(f"{name} must be 0..{top}, not {value}")
    acc = mbf.from_int(hour * 60 + minute, fac)
    for operand, operation in ((60, mbf.mul), (second, mbf.add), (100, mbf.mul), (hundredths, mbf.add)):
        # 0C88:3E06 pushes the FAC, converts the byte operand into the FAC, then
        # multiplies (AH=0) or adds (AH=1) with FAC = operand and [DI] = pushed value
        pushed = acc
        acc = mbf.from_int(operand, acc)
        acc = operation(acc, pushed)
    # AH=2: the running value goes back into the FAC and is divided by 100
    return mbf.div(acc, mbf.from_int(100, acc))


class QuickBasicRandom:
    """The runtime's RND generator with its 24-bit state.

    ``fac`` tracks the floating accumulator as far as RND needs it: the one
    zero RND can return (state 0, once per 2**24 steps) keeps its other bytes."""

    def __init__(self, state: int = INITIAL_STATE) -> None:
        if not 0 <= state <= STATE_MASK:
            raise ValueError(f"the RND state is 24 bits, not {state:#x}")
        self.state = state
        self.fac = mbf.ZERO
        self.calls = 0

    def randomize(self, seed: MBF) -> None:
        """RANDOMIZE seed: state bits 8-23 become w0 XOR w1 of the single."""
        w0, w1 = seed.words
        self.state = ((w0 ^ w1) << 8 | (self.state & 0xFF)) & STATE_MASK

    def randomize_timer(self, hour: int, minute: int, second: int, hundredths: int) -> MBF:
        """``RANDOMIZE TIMER`` as the program's line 110 runs it; returns the TIMER value."""
        value = timer(hour, minute, second, hundredths, self.fac)
        self.fac = value
        self.randomize(value)
        return value

    def step(self) -> int:
        self.state = (self.state * MULTIPLIER + INCREMENT) & STATE_MASK
        return self.state

    def rnd(self, x: MBF | None = None) -> MBF:
        """RND or RND(x), returning the MBF single the runtime leaves in the FAC."""
        if x is not None and x.exponent == 0:
            value = _state_value(self.state, self.fac)      # RND(0): the last number again
        else:
            if x is not None and x.negative:
                # 0C88:38D9: state = b2:b1:b0 + exponent byte, then step
                self.state = ((x.raw[2] << 16 | x.raw[1] << 8 | x.raw[0]) + x.raw[3]) & STATE_MASK
            self.step()
            value = _state_value(self.state, self.fac)
        self.calls += 1
        self.fac = value
        return value

    def random_int(self, n: int) -> int:
        """Gin Rummy's ``DEF FN`` at line 270, INT(N*RND+1) (code at 0000:016D):
        CSNG(N) is saved, RND is multiplied by it, 1.0 is added, then INT and CINT."""
        factor = mbf.from_int(n, self.fac)
        self.fac = factor
        value = self.rnd()
        value = mbf.mul(value, factor)
        value = mbf.add(value, ONE)
        value = mbf.int_(value)
        self.fac = value
        return mbf.cint(value)
