"""RND, RANDOMIZE and TIMER of Gin Rummy's QuickBASIC runtime.

Expected values are worked out by hand from the disassembled algorithm
(0C88:3885 RND, 0C88:390C RANDOMIZE, 0C88:3DC9 TIMER; see
docs/ginrummy-internals.md), each derivation in a comment; one agrees with
NOTES-originals.md (12:00:00.00 seeds 502805h).  With ../shared present the
same calls also run through the original runtime on Unicorn and must agree,
and the call sequence of the docs (start-up to the first deal, written out
as ``first_deal_model``) must reproduce the deck the original deals when it
runs in pcemu's Machine.
"""
from __future__ import annotations

import os
import random
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games_py.qbasic import mbf, rng
from games_py.qbasic.mbf import MBF

SHARED = Path(os.environ.get("PCEMU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DISK = SHARED / "disks" / "DISK1612.img"
M = 1 << 24


def state_before(target: int) -> int:
    """The state whose next step is ``target`` (the LCG inverted)."""
    return (target - rng.INCREMENT) * pow(rng.MULTIPLIER, -1, M) % M


def _exact_mbf(value: Fraction) -> MBF:
    assert value.denominator == 1 and value < 2 ** 24
    return MBF.from_float(float(value))


def test_first_rnd_from_the_initial_state():
    g = rng.QuickBasicRandom()
    assert g.state == 5                                   # DGROUP:0850h in the image
    value = g.rnd()
    # 5 * 343FDh + 1A9EC3h = 5 * 214,013 + 1,744,579 = 2,814,644 = 2AF2B4h
    assert g.state == 0x2AF2B4
    # 2AF2B4h / 2**24: BL:DX = 002Ah:F2B4h at exponent 88h; byte shift (80h), then two
    # bit shifts (7Eh): mantissa ABCAD0h -> bytes D0 CA 2B(AB without the hidden bit) 7E
    assert value.raw == bytes.fromhex("d0 ca 2b 7e")
    assert value.to_float() == 0x2AF2B4 / M


@given(st.integers(0, M - 1))
def test_rnd_is_state_over_2_to_the_24(state):
    g = rng.QuickBasicRandom(state)
    value = g.rnd()
    assert g.state == (state * 0x343FD + 0x1A9EC3) % M
    assert Fraction(value.to_float()) == Fraction(g.state, M)


def test_generator_has_full_period_by_hull_dobell():
    # c odd, a - 1 divisible by 4 (the only prime factor of 2**24 is 2): period 2**24
    assert rng.INCREMENT % 2 == 1 and (rng.MULTIPLIER - 1) % 4 == 0


def test_randomize_timer_at_noon_matches_the_field_notes():
    g = rng.QuickBasicRandom()
    value = g.randomize_timer(12, 0, 0, 0)
    # 43200 = A8C0h: mantissa A8C000h, exponent 90h -> bytes 00 C0 28 90
    assert value.raw == bytes.fromhex("00 c0 28 90")
    # w0 ^ w1 = C000h ^ 9028h = 5028h over bits 8-23, low byte 05 kept
    assert g.state == 0x502805


def test_randomize_at_midnight_hashes_the_stale_bytes():
    # 00:00:00.00: every step is zero and leaves the FAC's low bytes: CSNG(60) -> 00 00 70 86,
    # times zero -> 00 00 70 00; CSNG(100) -> 00 00 48 87, times zero -> 00 00 48 00; the
    # adds of zeros and the final zero / 100 keep 00 00 48 00; w0 ^ w1 = 0048h
    value = rng.timer(0, 0, 0, 0, fac=MBF.from_hex("de ad be ef"))
    assert value.raw == bytes.fromhex("00 00 48 00")
    g = rng.QuickBasicRandom()
    g.randomize_timer(0, 0, 0, 0)
    assert g.state == 0x004805


def test_timer_rounds_only_in_the_division():
    for h, mi, s, hs in ((23, 59, 59, 99), (7, 30, 15, 3), (0, 0, 0, 1)):
        exact = Fraction(((h * 60 + mi) * 60 + s) * 100 + hs, 100)
        ours = rng.timer(h, mi, s, hs)
        # the integer steps are exact (below 2**24), so only the final division rounds
        assert abs(Fraction(ours.to_float()) - exact) <= exact / 2 ** 24
        assert ours == mbf.div(_exact_mbf(exact * 100), mbf.from_int(100))
    # 1/100 exactly rounded: mantissa A3D70Ah (1/100 * 2**30 = 10737418.24 -> ...0A), exponent 7Ah
    assert rng.timer(0, 0, 0, 1).raw == bytes.fromhex("0a d7 23 7a")
    with pytest.raises(ValueError, match="minute"):
        rng.timer(1, 60, 0, 0)


def test_randomize_keeps_the_low_byte():
    g = rng.QuickBasicRandom(0xABCDEF)
    g.randomize(MBF.from_hex("34 12 78 56"))
    # w0 = 1234h, w1 = 5678h, xor = 444Ch -> state 444CEFh
    assert g.state == 0x444CEF


def test_rnd_zero_repeats_and_negative_reseeds():
    g = rng.QuickBasicRandom(0x123456)
    first = g.rnd()
    assert g.rnd(mbf.ZERO) == first and g.state == (0x123456 * 0x343FD + 0x1A9EC3) % M
    # RND(-1): -1.0 is 00 00 80 81 -> state 800000h + 81h = 800081h, then one step
    g.rnd(MBF.from_float(-1.0))
    assert g.state == (0x800081 * 0x343FD + 0x1A9EC3) % M
    other = rng.QuickBasicRandom(0x999999)
    other.rnd(MBF.from_float(-1.0))
    assert other.state == g.state                       # the reseed forgets the old state


def test_random_int_can_exceed_the_exact_floor():
    # state 13B13Bh: 52 * 13B13Bh = 4 * 2**24 - 4, so 52*RND = 4 - 2**-22 (exact in 24 bits);
    # + 1 = 5 - 2**-22 lies halfway between 5 - 2**-21 and 5: ties to even give 5.0, INT 5,
    # where the exact INT(52*x + 1) is 4
    g = rng.QuickBasicRandom(state_before(0x13B13B))
    assert g.random_int(52) == 5
    # state FFFFFFh: 4*RND = 4 - 2**-22, + 1 rounds to 5.0 the same way: FNR(4) returns 5
    g = rng.QuickBasicRandom(state_before(0xFFFFFF))
    assert g.random_int(4) == 5


def test_random_int_52_over_all_states_against_an_ieee_model():
    """IEEE binary32 also rounds 24-bit mantissas to nearest even, so for these
    magnitudes it is an independent model of the MBF path: find every state where
    INT(52*RND+1) differs from the exact floor and check the MBF code on those."""
    x = np.arange(M, dtype=np.int64)
    r = (x.astype(np.float64) / M).astype(np.float32)
    model = np.floor((r * np.float32(52)).astype(np.float32) + np.float32(1)).astype(np.int64)
    exact = 52 * x // M + 1
    odd_states = x[model != exact]
    assert 0 < len(odd_states) < 50 and model.max() == 52
    for state in odd_states:
        g = rng.QuickBasicRandom(state_before(int(state)))
        assert g.random_int(52) == model[state] == exact[state] + 1
    sample = random.Random(52).sample(range(M), 300)
    for state in sample:
        g = rng.QuickBasicRandom(state_before(state))
        assert g.random_int(52) == model[state]


def test_bad_arguments():
    with pytest.raises(ValueError):
        rng.QuickBasicRandom(1 << 24)


# -- against the original runtime ---------------------------------------------------------
@pytest.fixture(scope="module")
def probe():
    if not DISK.exists():
        pytest.skip(f"original disk image not found at {DISK}")
    from pyfatfs.PyFatFS import PyFatFS
    from pcemu.tools.runtime_probe import RuntimeProbe
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fs = PyFatFS(str(DISK), read_only=True)
        try:
            data = fs.readbytes("/GINRUMMY.EXE")
        finally:
            fs.close()
    return RuntimeProbe(data)


STATE, FAC, OPERAND = 0x850, 0x810, 0x1000


def _runtime_state(probe) -> int:
    return int.from_bytes(probe.read(STATE, 3), "little")


@pytest.mark.originals
def test_timer_matches_the_runtime(probe):
    rnd = random.Random(2)
    times = [(0, 0, 0, 0), (12, 0, 0, 0), (23, 59, 59, 99), (0, 0, 0, 1), (0, 1, 0, 0)]
    times += [(rnd.randrange(24), rnd.randrange(60), rnd.randrange(60), rnd.randrange(100)) for _ in range(800)]
    for t in times:
        stale = bytes(rnd.randrange(256) for _ in range(4))
        probe.write(FAC, stale)
        probe.time = t
        assert probe.call("TIMER") is None
        assert probe.read(FAC, 4) == rng.timer(*t, fac=MBF(stale)).raw, t


@pytest.mark.originals
def test_rnd_randomize_sequence_matches_the_runtime(probe):
    rnd = random.Random(3)
    g = rng.QuickBasicRandom(0x000005)
    probe.write(STATE, (5).to_bytes(4, "little"))
    for i in range(3000):
        if i % 500 == 0:
            seed = MBF(bytes(rnd.randrange(256) for _ in range(4)))
            probe.write(OPERAND, seed.raw)
            probe.call("RANDOMIZE", bx=OPERAND)
            g.randomize(seed)
        if i % 7 == 3:
            x = MBF(bytes([rnd.randrange(256) for _ in range(3)] + [rnd.choice([0, rnd.randrange(256)])]))
            probe.write(OPERAND, x.raw)
            probe.call("RND(x)", bx=OPERAND)
            ours = g.rnd(x)
        else:
            probe.call("RND")
            ours = g.rnd()
        assert probe.read(FAC, 4) == ours.raw and _runtime_state(probe) == g.state, i


# -- the documented call sequence against the original running in the machine ---------------
QUARTER, TENTH, HALF = (MBF.from_hex(h) for h in ("00 00 00 7f", "cd cc 4c 7d", "00 00 00 80"))


def _below(g: rng.QuickBasicRandom, limit: MBF) -> bool:
    return mbf.compare(g.rnd(), limit) < 0                   # IF RND < limit


def _card_back(g: rng.QuickBasicRandom, previous: int) -> int:
    while True:                                              # lines 490-520
        back = 0xB1
        if _below(g, QUARTER):
            back = 0xD8
        elif _below(g, QUARTER):
            back = 0xD7
        if _below(g, TENTH):
            back = 0xC5
        if back != previous:
            return back


def first_deal_model(time: tuple[int, int, int, int], colour: bool, sound: bool) -> dict:
    """docs/ginrummy-internals.md section 8 as code: RND calls from RANDOMIZE TIMER to the deal."""
    g = rng.QuickBasicRandom()
    g.randomize_timer(*time)
    back = _card_back(g, 0)
    colours = [7, 7, 7, 0]
    if colour:                                               # lines 640-670
        c2 = g.random_int(5)
        while c2 in (2, 3, 7):
            c2 = g.random_int(5)
        c4 = g.random_int(5)
        while c4 in (2, 3, c2):
            c4 = g.random_int(5)
        c3 = g.random_int(5) + 1
        while c3 in (7, c2):
            c3 = g.random_int(5) + 1
        colours = [7, c2, c3, c4]
    dealer = 1 if _below(g, HALF) else 2                     # line 1790
    message = (lambda: g.random_int(4)) if colour else (lambda: None)   # line 12650
    message()                                                # "YOU DEAL" / "I DEAL"
    deck = list(range(53))
    message()                                                # "*SHUFFLING*"
    for _pass in range(3):
        for i in range(1, 53):
            a = g.random_int(52)
            b = g.random_int(52)
            deck[a], deck[b] = deck[b], deck[a]
            if sound and i % 5 == 1:
                g.rnd()
                g.rnd()
        if sound:
            g.rnd()
    message()                                                # ""
    back = _card_back(g, back)
    return {"deck": deck[1:], "dealer": dealer, "back": back, "colours": colours, "state": g.state}


def _run_original(time: str, command: str, keys: str):
    from pcemu import Machine
    machine = Machine(disks=[f"B:{DISK}"], time=time)
    reads: list[tuple[int, int, int, int]] = []
    machine.listeners.setdefault("time_read", []).append(
        lambda now: reads.append((now.hour, now.minute, now.second, now.microsecond // 10_000)))
    machine.type(command + "{ENTER}{WAIT:COWBOY GIN?}" + keys + "S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}")
    memory = bytes(machine.memory.view[:0xA0000])
    module = memory.find(b"brGINRUMMY")                    # offset 0 of the program's segment 0
    dgroup = module + 0x18B2 * 16

    def word(offset: int, base: int = dgroup) -> int:
        return int.from_bytes(memory[base + offset:base + offset + 2], "little")

    deck_base = word(0xF68) * 16                            # D(): descriptor's data segment
    return {
        "seed_time": reads[0],                               # line 110 is the first TIMER
        "deck": [word(2 * i, deck_base) for i in range(1, 53)],
        "dealer": word(0x10D8), "back": word(0xF4C) & 0xFF,
        "colours": [word(o) for o in (0xF5E, 0xF60, 0xF62, 0xF64)],
        "colour": word(0xF40) != 0, "sound": word(0xF46) != 0,
        "state": int.from_bytes(memory[dgroup + 0x850:dgroup + 0x853], "little"),
    }


def _check_against_original(time: str, command: str = "GINRUMMY", keys: str = "") -> None:
    seen = _run_original(time, command, keys)
    ours = first_deal_model(seen["seed_time"], seen["colour"], seen["sound"])
    assert ours["deck"] == seen["deck"]
    assert (ours["dealer"], ours["back"]) == (seen["dealer"], seen["back"])
    if seen["colour"]:
        assert ours["colours"] == seen["colours"]
    # the original goes on to call RND a few more times before "YOU'RE UP" (message colour,
    # the computer's first move): the state must lie a few steps past ours
    state = ours["state"]
    for _ in range(40):
        if state == seen["state"]:
            break
        state = (state * rng.MULTIPLIER + rng.INCREMENT) % M
    assert state == seen["state"]


@pytest.mark.originals
def test_documented_sequence_deals_what_the_original_deals():
    if not DISK.exists():
        pytest.skip(f"original disk image not found at {DISK}")
    _check_against_original("12:00:00")


@pytest.mark.originals
@pytest.mark.slow
@pytest.mark.parametrize("time, command, keys", [
    ("23:59:58", "GINRUMMY", ""),            # you deal: the computer plays before YOU'RE UP
    ("07:00:00", "GINRUMMY /M", ""),         # mono: no colour RNDs
    ("13:13:13", "GINRUMMY", "{F1}"),        # sound off before the first shuffle
])
def test_documented_sequence_other_settings(time, command, keys):
    if not DISK.exists():
        pytest.skip(f"original disk image not found at {DISK}")
    _check_against_original(time, command, keys)
