"""The computer player of GINRUMMY.EXE (games_py.ginrummy.computer).

Unit tests of the transcribed rules on positions built here, and differential
tests against the original running in pcemu: each decision the original takes
(draw, discard, knock) is recomputed from the position and RND state read out of
the machine at that moment, and whole demo hands are compared event for event.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from games_py.ginrummy import computer, game, trace
from games_py.qbasic import rng
from games_py.ginrummy.computer import Table, fn_rank, fn_suit
from games_py.ginrummy.deal import OriginalRandom
from games_py.cards import Card
from tests.ginrummy_helpers import card, empty_table, with_hand

SHARED = Path(os.environ.get("PCEMU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DISK = SHARED / "disks" / "DISK1612.img"




def random_at(state: int) -> OriginalRandom:
    return OriginalRandom(rng.QuickBasicRandom(state))


# -- the program's functions ------------------------------------------------------------------
def test_rank_and_suit_of_an_empty_place():
    # MOD keeps the dividend's sign and INT floors: an empty place matches no rank or suit
    assert fn_rank(0) == 0 and fn_suit(0) == 2
    assert [fn_rank(c) for c in (1, 13, 14, 52)] == [1, 13, 1, 13]
    assert [fn_suit(c) for c in (1, 13, 14, 52)] == [3, 3, 4, 6]


def test_straights_are_found_high_card_first_per_suit_in_program_order():
    hand = [card(c) for c in ("2H", "3H", "4H", "9S", "10S", "JS", "QS", "5C")]
    runs = computer._straights(computer._rank_sorted(hand))
    # spades before hearts (SUITS = S, H, D, C), each run from its highest card down
    assert runs == [[card(c) for c in ("QS", "JS", "10S", "9S")], [card(c) for c in ("4H", "3H", "2H")]]


def test_a_shared_card_is_settled_by_one_rnd_on_a_tie():
    # 9H sits in 7H 8H 9H and in 9C 9D 9H: both choices match 6 cards (with the 5s)
    cards = ["5C", "9D", "9H", "7H", "4H", "8H", "5S", "2S", "AH", "5H", "9C"]
    for state in (0x123456, 0x654321, 0x0ABCDE, 0xFEDCBA):
        t = with_hand(empty_table(), 1, cards)
        random = random_at(state)
        keep_straight = random_at(state).below(computer.HALF)
        computer.arrange(t, 1, 11, random, final=True)
        assert random.generator.calls == 1             # the tie's RND; your hand is not shuffled
        straight = [computer._card(card(c)) for c in ("9H", "8H", "7H")]
        assert (straight in t.melds[1]) == keep_straight
        assert t.unmatched[1] == 5 and t.pv[1] == (25 if keep_straight else 22)


def test_the_hidden_hand_is_shuffled_with_eight_fnr_and_the_pause_costs_two_rnd():
    cards = ["10D", "9D", "AH", "QD", "2H", "7C", "5C", "JH", "8H", "KS"]     # no meld at all
    t = with_hand(empty_table(), 2, cards)
    random = random_at(0x502805)
    probe = random_at(0x502805).generator
    first = probe.rnd()
    pause = computer.mbf.compare(computer.mbf.mul(probe.rnd(), first), computer.THINK_AGAIN) >= 0
    computer.arrange(t, 2, 10, random)
    assert random.generator.calls == 2 + (3 if pause else 0) + 8
    assert sorted(t.hands[2][1:11]) == sorted(card(c) for c in cards)
    assert t.unmatched[2] == 10 and t.pv[2] == 1 + 2 + 5 + 7 + 8 + 9 + 10 + 10 + 10 + 10


def test_open_hands_are_laid_out_high_to_low_without_rnd():
    cards = ["10D", "9D", "AH", "QD", "2H", "7C", "5C", "JH", "8H", "KS"]
    t = with_hand(empty_table(open_hands=True), 2, cards)
    random = random_at(1)
    computer.arrange(t, 2, 10, random)
    assert random.generator.calls == 0
    assert [fn_rank(c) for c in t.hands[2][1:11]] == [13, 12, 11, 10, 9, 8, 7, 5, 2, 1]


def test_a_discard_that_allows_a_knock_spends_no_rnd():
    t = with_hand(empty_table(), 2, ["3C", "3D", "3S", "9C", "9H", "9S", "4H", "5H", "6H", "2C", "KD"])
    computer.arrange(t, 2, 11, random_at(7), final=True)
    random = random_at(99)
    k = computer.discard_decision(t, 2, random)
    assert computer._card(t.hands[2][k]) == Card.parse("KD") and random.generator.calls == 0


def test_standard_knock_needs_ten_or_less_and_always_draws_line_5190s_rnd():
    t = empty_table(turn=3)
    t.pv[1], t.pv[2] = 11, 30
    random = random_at(5)
    assert computer.knock_decision(t, 1, random) is False
    assert random.generator.calls == 1


# -- against the original ---------------------------------------------------------------------
def _original_hand_with_decisions(settings: game.Settings):
    """The original's events for one demo hand, and each decision it took next to the
    one computer.py takes from the same position and RND state."""
    from pcemu.trace import ginrummy as gt
    tracer = gt.GinRummyTracer(settings, 1)
    p = tracer.process
    state = lambda: int.from_bytes(p.bytes_at(gt.RND_STATE, 3), "little")   # noqa: E731

    def table() -> Table:
        seg, stride = p.word(gt.HANDS), p.word(0x0FE4)
        hands = [[p.integer(2 * (k * stride + pl), seg) for k in range(53)] for pl in range(4)]
        rseg, rstride = p.word(0x107A), p.word(0x1084)
        counts = [[p.integer(2 * (r * rstride + pl), rseg) for pl in range(rstride)] for r in range(14)]
        return Table(hands, p.array(gt.UNMATCHED, 3), p.array(gt.PV, 3), counts, p.array(gt.DECK, 52),
                     p.integer(gt.TOP), turn=p.integer(0x10DE), knock_value=p.integer(gt.KNOCK_VALUE),
                     knock_set=p.integer(0x10E2) != 0, last_taken=p.integer(0x10FA),
                     open_hands=p.integer(0x0F2E) != 0, oklahoma=p.integer(gt.OKLAHOMA) != 0)

    pending, decisions = {}, []

    def snap(kind):
        return lambda: pending.__setitem__(kind, (table(), state(), p.integer(gt.PLAYER)))

    def check(kind, decide, read):
        def callback():
            if kind in pending:
                t, before, player = pending.pop(kind)
                random = random_at(before)
                decisions.append((kind, decide(t, player, random), read(), random.state, state()))
        return callback

    p.at_line(3690, snap("draw"))
    p.at_line(3910, check("draw", computer.draw_decision, lambda: p.integer(0x1130) != 0))
    p.at_line(4170, snap("discard"))
    p.at_line(4730, check("discard", computer.discard_decision, lambda: p.integer(0x113E)))
    p.at_line(5080, snap("knock"))
    p.at_line(5240, check("knock", computer.knock_decision, lambda: p.integer(0x1100) != 0))
    return tracer.run(), decisions


def _strip(events):
    return [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in events]


def _compare(settings: game.Settings):
    if not DISK.exists():
        pytest.skip(f"original disk image not found at {DISK}")
    original, decisions = _original_hand_with_decisions(settings)
    assert len(decisions) > 10
    for kind, mine, theirs, my_state, their_state in decisions:
        assert (kind, mine, my_state) == (kind, theirs, their_state)
    assert _strip(game.python_trace(settings, 1)) == _strip(original)


@pytest.mark.parametrize("settings", [
    game.Settings(time=(12, 0, 0, 0), variant="standard", sound=True, demo=True),
    game.Settings(time=(0, 0, 0, 0), variant="cowboy", sound=False, demo=True),
], ids=["noon-standard-sound", "midnight-cowboy-quiet"])
def test_demo_hand_matches_the_original(settings):
    _compare(settings)


@pytest.mark.slow
@pytest.mark.parametrize("time,variant,sound", [
    ((9, 13, 27, 41), "oklahoma", True), ((7, 45, 12, 34), "standard", False),
    ((16, 20, 33, 50), "oklahoma", True), ((21, 47, 56, 78), "cowboy", False),
    ((13, 5, 9, 27), "oklahoma", True), ((5, 6, 7, 8), "standard", True),
])
def test_more_demo_hands_match_the_original(time, variant, sound):
    _compare(game.Settings(time=time, variant=variant, sound=sound, demo=True))
