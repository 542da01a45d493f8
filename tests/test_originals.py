"""The three programs of disk #1612, unmodified, in the machine.

Each test drives the original the way a user would, through key scripts, and
checks what it shows (and, for EZ-Tree, what it writes to the disk).
"""
from __future__ import annotations

import re

import pytest

from pcemu import Machine
from tests.machine_helpers import DISK1612, md5, needs_originals

pytestmark = needs_originals

DEAL = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}"
SUITS = set("♥♦♣♠")


def boot(**kwargs) -> Machine:
    return Machine(disks=[f"B:{DISK1612}"], **kwargs)


def score_box(m: Machine) -> str:
    lines = m.screen_text().splitlines()
    return "\n".join(line[:30] for line in lines[17:22])


def test_ginrummy_prompts_for_the_variant_then_open_hands():
    m = boot()
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}")
    assert "S FOR STANDARD, O FOR OKLAHOMA, OR C FOR SPACE COWBOY GIN?" in m.screen_text()
    m.type("S{WAIT:OPEN HANDS?}")
    assert "OPEN HANDS?" in m.screen_text()


def test_ginrummy_open_hands_deals_both_hands_face_up():
    m = boot()
    m.type(DEAL)
    lines = m.screen_text().splitlines()
    your_hand, my_hand = lines[1], lines[7]
    assert sum(ch in SUITS for ch in your_hand) == 10
    assert sum(ch in SUITS for ch in my_hand) == 10      # face up: suits, not card backs
    assert "DRAW FROM UPCARD (U) OR DECK (D)?" in m.screen_text()
    assert "CARDS DRAWN: 21 OUT OF 52" in m.screen_text()


def hands_won(m: Machine) -> tuple[int, int] | None:
    found = re.search(r"HANDS: YOU: (\d+) +ME: (\d+)", m.screen_text())
    return (int(found.group(1)), int(found.group(2))) if found else None


def test_ginrummy_demo_plays_a_hand_to_its_end_and_the_score_boxes_change():
    m = boot()
    m.type(DEAL)
    before = score_box(m)
    assert hands_won(m) == (0, 0)
    m.type("{F2}")
    m.run_until(condition=lambda mm: hands_won(mm) not in (None, (0, 0)), max_ticks=18.2 * 900,
                text="a hand to be won")
    assert sum(hands_won(m)) == 1
    assert score_box(m) != before


@pytest.mark.xfail(strict=True, reason="F7 (quit) is answered with a beep, not a quit: see the "
                                       "machine issue's notes; under investigation")
def test_ginrummy_f7_leaves_to_the_prompt():
    m = boot()
    m.type(DEAL + "{F7}")
    m.run_until(text="B:\\>", max_ticks=18.2 * 10, condition=lambda mm: mm.dos.shell.at_prompt)
    assert m.dos.shell.exit_codes[-1][0].endswith("GINRUMMY.EXE")


def meteors_status(m: Machine) -> tuple[int, int] | None:
    found = re.search(r"SCORE: *(-?\d+) COUNTDOWN: *(\d+)", m.screen_text())
    return (int(found.group(1)), int(found.group(2))) if found else None


def test_meteors_title_then_the_game_runs_its_countdown():
    m = boot()
    m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START}")
    assert "TOMMY'S METEORS (C) COPYRIGHT 1986" in m.screen_text()
    m.type(" ")
    m.run_until(condition=lambda mm: meteors_status(mm) is not None, max_ticks=18.2 * 30,
                text="the score line")
    first = meteors_status(m)
    m.run(18.2 * 3)
    assert meteors_status(m) is not None and meteors_status(m)[1] < first[1]


@pytest.mark.xfail(strict=True, reason="after F7 the program polls INT 16h AH=11h and never ends; "
                                       "see the machine issue's notes")
def test_meteors_f7_quits_to_the_prompt():
    m = boot()
    m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START}{F7}")
    m.run_until(text="B:\\>", max_ticks=18.2 * 10, condition=lambda mm: mm.dos.shell.at_prompt)


EZT_NEW_TREE = ("EZT{ENTER}{WAIT:Main Menu}C{WAIT:description of the new}Smith Family{ENTER}"
                "{WAIT:Smith Family}W{WAIT:ADD FIRST PERSON}John{ENTER}{ENTER}Smith{ENTER}"
                "{PGDN}M{PGDN}{TICKS:20}{ESC}{WAIT:Main Menu}S{TICKS:40}")


def test_ezt_creates_a_tree_saves_it_and_a_second_run_retrieves_it(tmp_path):
    source_md5 = md5(DISK1612)
    m = boot()
    m.type(EZT_NEW_TREE)
    changes = {c.path: c for c in m.dos.floppies[1].changes()}
    assert changes["\\FAMILY.EZT"].status == "new"
    assert changes["\\TREE1.EZT"].new_size > 2          # the person's record is in it
    saved = tmp_path / "with-tree.img"
    m.dos.floppies[1].save(saved)
    assert md5(DISK1612) == source_md5                   # the original image is untouched
    second = Machine(disks=[f"B:{saved}"])
    second.type("EZT{ENTER}{WAIT:Main Menu}R{WAIT:Smith Family}")
    assert "Smith Family" in second.screen_text()
