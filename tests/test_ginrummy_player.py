"""Tommy's Gin Rummy as a player meets it (issue 22): ``play`` goes on where GINRUMMY.EXE
itself crashes, ``demo`` and ``--seed``, the repaint after a resize and on Ctrl-L.  The
traces and the differential tests are untouched by these: ``trace`` still ends with the
``fault`` event (tests/test_ginrummy_fault.py)."""
from __future__ import annotations

from games_py.cards import Card
from games_py.ginrummy import computer, game, rules, trace
from games_py.ginrummy.terminal import NOTICE_ROW, overflow_notice
from tests.ginrummy_helpers import empty_table, with_hand
from tests.test_ginrummy_fault import FAULT_CASE, SIX_SHARED, _random
from tests.test_ginrummy_terminal import Script, run

FAULT_START = (15, 52, 59, 45)          # Oklahoma with sound: your hand 1 overflows CONF


# -- where the original crashes, play goes on -------------------------------------------------------
def test_an_overflowing_hand_is_arranged_by_the_document_when_playing_on():
    """With ``on_overflow`` set (``play``), 6 shared cards are settled by GINRUMMY.DOC's rule,
    "THE MOST MATCHED CARDS, AND, AMONG EQUAL ALTERNATIVES, THOSE WITH THE LOWEST PV"."""
    seen = []
    t = with_hand(empty_table(), 1, SIX_SHARED)
    t.on_overflow = lambda p, shared: seen.append((p, shared))
    computer.arrange(t, 1, 10, _random(), final=True)
    best = rules.arrange([Card.parse(c) for c in SIX_SHARED])
    assert seen == [(1, 6)]
    assert sum(len(m) for m in t.melds[1]) == best.matched == 10 and t.pv[1] == best.pv == 0
    assert rules.canonical_melds(t.melds[1]) == [list(m) for m in best.melds]
    assert t.unmatched[1] == 0 and t.hands[1][11] == 0
    laid = [c for m in t.melds[1] for c in m]
    assert len(laid) == len(set(laid)) and all(rules.is_straight(m) or rules.is_flat(m)
                                               for m in t.melds[1])


def test_play_goes_on_where_the_original_crashes_and_says_so_in_one_line():
    """15:52:59.45, Oklahoma, demo mode: your hand 1 has 6 cards shared by a straight and a
    flat, where GINRUMMY.EXE overflows CONF and crashes.  The session records the same
    ``fault`` event the traces end with, shows one line saying what the original does, and
    the game goes on to hand 2."""
    s = run(Script("F2", "O", "N", "WAIT:HAND: 2"), FAULT_START)
    traced = game.python_trace(FAULT_CASE.settings(), 3)
    assert traced[-1]["event"] == "fault"                  # the trace: unchanged, it stops
    fault = s.events.index(traced[-1])
    assert s.events[:fault + 1] == traced[1:]              # the same game up to the fault
    assert any(e["event"] in ("hand_end", "dead_hand") for e in s.events[fault:])
    assert s.notices == [overflow_notice(6)]
    assert "HAND: 2" in s.screen.text()
    assert len(overflow_notice(6)) <= 80 and "CRASHES" in overflow_notice(6)


def test_the_notice_stays_on_the_table_until_the_next_deal():
    s = run(Script("F2", "O", "N", "WAIT:PLAYER 1 KNOCKS"), FAULT_START)
    assert overflow_notice(6) in s.screen.row_text(NOTICE_ROW)
    assert trace.YOU == computer.shared_cards_fault(trace.YOU)["player"]
