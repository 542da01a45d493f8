"""The knocker's hand arranged again at the hand's end (the ``rearranged`` event).

Line 2540 arranges the knocker's hand once more before the lay-offs; a card shared
by a straight and a flat goes to a new coin toss (line 8660), so the melds laid
down can differ from those the knock showed.  The trace then says so, and the
lay-offs name melds of that arrangement (docs/trace-format.md).
"""
from __future__ import annotations

import pytest

from games_py.cards import Card
from games_py.ginrummy import computer, game, rules, trace
from games_py.qbasic import rng
from games_py.ginrummy.deal import OriginalRandom
from pcemu.trace import sweep
from tests.ginrummy_helpers import empty_table, with_hand
from tests.machine_helpers import DISK1612, needs_originals

# 9D sits in 6D 7D 8D 9D and in 9C 9D 9H 9S: either way 7 cards are matched, a tie
KNOCKER_HAND = ["6D", "7D", "8D", "9D", "9C", "9H", "9S", "AS", "2D", "7H"]
OTHER_HAND = ["5D", "4D", "KC", "QH", "JS", "10C", "8C", "3H", "KS", "QC"]


def _table() -> computer.Table:
    return with_hand(with_hand(empty_table(top=40), 1, OTHER_HAND), 2, KNOCKER_HAND)


def _settled(seed: int) -> tuple[dict, list[dict], list[list[Card]]]:
    """The computer knocks with KNOCKER_HAND as arranged with RND state ``seed``; the
    events of the hand's end and the melds line 2540 laid down."""
    t = _table()
    random = OriginalRandom(rng.QuickBasicRandom(seed))
    hand = computer.DemoHand(t, random, dealer=1, variant=rules.STANDARD)
    computer.arrange(t, 1, 10, random)
    computer.arrange(t, 2, 10, random)                 # the arrangement the knock shows
    hand.knocker = 2
    knock = hand._arrangement_event(trace.knock_event, 2, hand._knocker_melds(2))
    hand._settle()
    return knock, hand.events, t.melds[2]


def _grows(meld: list[str], card: str) -> list[str]:
    grown = [Card.parse(c) for c in meld + [card]]
    assert rules.is_straight(grown) or rules.is_flat(grown), f"{card} does not fit {meld}"
    return meld + [card]


def test_a_new_arrangement_is_written_and_the_lay_offs_name_its_melds():
    kinds = set()
    for seed in range(0, 0x30000, 0x1000):
        knock, events, final = _settled(seed)
        rearranged = [e for e in events if e["event"] == "rearranged"]
        changed = [[str(c) for c in m] for m in rules.canonical_melds(final)] != knock["melds"]
        kinds.add(changed)
        # written exactly when line 2540's melds are not the knock's, before any lay-off
        assert len(rearranged) == (1 if changed else 0)
        shown = [list(m) for m in knock["melds"]]
        if changed:
            r = rearranged[0]
            assert events[0] is r and r["player"] == trace.COMPUTER
            assert r["melds"] == [[str(c) for c in m] for m in rules.canonical_melds(final)]
            assert sorted(r["deadwood"] + [c for m in r["melds"] for c in m]) == sorted(KNOCKER_HAND)
            assert r["points"] == rules.pv([Card.parse(c) for c in r["deadwood"]])
            shown = [list(m) for m in r["melds"]]
        layoffs = [e for e in events if e["event"] == "layoff"]
        assert {e["card"] for e in layoffs} == {"5D", "4D"}
        for e in layoffs:                               # each card extends the meld it names
            shown[e["meld"]] = _grows(shown[e["meld"]], e["card"])
    assert kinds == {True, False}                      # both ways of the toss were seen


def test_in_a_game_the_new_arrangement_follows_the_knock():
    """00:00:00.00 Space Cowboy without sound, hand 2 (as the original plays it, below)."""
    settings = game.Settings(time=(0, 0, 0, 0), variant=rules.COWBOY, sound=False, demo=True)
    events = game.python_trace(settings, 2)
    at = [i for i, e in enumerate(events) if e["event"] == "rearranged"]
    assert len(at) == 1
    knock, rearranged = events[at[0] - 1], events[at[0]]
    assert knock["event"] == "knock" and knock["player"] == rearranged["player"]
    assert rearranged["melds"] != knock["melds"]
    end = next(e for e in events[at[0]:] if e["event"] == "hand_end")
    assert end["knocker_points"] == rearranged["points"]


@needs_originals
@pytest.mark.originals
def test_the_original_lays_off_on_its_new_arrangement_as_python_does():
    """00:00:00.00 Space Cowboy without sound, hand 2: the computer knocks with
    6D 7D 8D 9D and 9C 9H 9S, lays down 6D 7D 8D and 9C 9D 9H 9S, and you lay off 5D
    and 4D on the straight (about 15 s)."""
    from pcemu.trace.ginrummy import trace_original
    settings = game.Settings(time=(0, 0, 0, 0), variant=rules.COWBOY, sound=False, demo=True)
    original = trace_original(settings, hands=2, disk=str(DISK1612))
    python = game.python_trace(settings, 2)
    strip = [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in original]
    assert strip == [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in python]
    assert any(e["event"] == "rearranged" for e in original)


@needs_originals
@pytest.mark.slow
def test_a_whole_first_game_with_a_new_arrangement_matches_the_original():
    """19:20:44.53 Space Cowboy without sound: stopped at a lay-off before the
    ``rearranged`` event (about 30 s)."""
    result = sweep.check_game(sweep.Case((19, 20, 44, 53), rules.COWBOY, False), disk=str(DISK1612))
    assert result.equal, result.detail


# -- a card beyond PLACES -------------------------------------------------------------------------
# PLACES, the number of places an arrangement closes up, is one variable for both hands.
# When the knocker knocks before drawing, with a gap left by his last discard, line 2540
# closes up only the first PLACES places the opponent's last arrangement left: a card
# beyond the gap is not arranged and not counted in his PV.

def _knock_with_a_gap(places: int) -> tuple[dict, list[dict], tuple]:
    t = _table()
    random = OriginalRandom(rng.QuickBasicRandom(0x2468))
    hand = computer.DemoHand(t, random, dealer=1, variant=rules.STANDARD)
    computer.arrange(t, 1, 10, random)
    computer.arrange(t, 2, 10, random)
    knock = hand._arrangement_event(trace.knock_event, 2, hand._knocker_melds(2))
    h = t.hands[2]
    h[11], h[10], h[0] = h[10], 0, 11                   # a discard from place 10 after a draw
    t.places = places                                   # what the last arrangement left in PLACES
    hand.knocker = 2
    hand._settle()
    return knock, hand.events, hand.outcome


def test_a_card_beyond_places_is_left_out_of_the_final_arrangement_and_the_score():
    knock, events, outcome = _knock_with_a_gap(places=10)
    rearranged = [e for e in events if e["event"] == "rearranged"]
    assert len(rearranged) == 1
    r = rearranged[0]
    assert len(r["left_out"]) == 1 and r["left_out"][0] in knock["deadwood"]
    assert sorted(r["deadwood"] + r["left_out"]) == sorted(knock["deadwood"])
    assert r["points"] == knock["points"] - rules.pv([Card.parse(r["left_out"][0])])
    _score, _knocker, knocker_pv, _other = outcome
    assert knocker_pv == r["points"]                   # the hand is scored without it


def test_with_places_enough_nothing_is_left_out():
    knock, events, outcome = _knock_with_a_gap(places=11)
    assert not any("left_out" in e for e in events)
    assert outcome[2] == knock["points"]


@needs_originals
@pytest.mark.originals
def test_the_original_leaves_out_the_card_beyond_places_as_python_does():
    """20:22:58.10 Space Cowboy with sound, you played by random:3: in hand 2 the computer
    knocks before drawing with 7D 6D 5D, QS QH QD QC, 7S 2H and, after the gap of its
    discard, AS in place 11; PLACES is 10 (your arrangement), so it scores 9, not 10."""
    from pcemu.trace.ginrummy import trace_original
    settings = game.Settings(time=(20, 22, 58, 10), variant=rules.COWBOY, sound=True, demo=False,
                             human="random:3")
    original = trace_original(settings, hands=2, disk=str(DISK1612))
    python = game.python_trace(settings, 2)
    strip = [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in original]
    assert strip == [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in python]
    r = next(e for e in original if e["event"] == "rearranged")
    assert (r["left_out"], r["points"]) == (["AS"], 9)
    end = [e for e in original if e["event"] == "hand_end"][-1]
    assert end["knocker_points"] == 9
