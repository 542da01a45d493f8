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


def at_prompt(m: Machine) -> bool:
    return m.dos.shell.at_prompt


def test_ginrummy_f7_asks_quit_and_only_y_leaves_to_the_prompt():
    """F7 ("TO QUIT: HIT FUNCTION KEY F7") beeps and asks "QUIT?" on row 5; the program
    then waits in an INKEY$ loop and quits only on Y (either case): its own code compares
    the upper-cased key with "Y" (0000:7F42 in the unpacked module). Any other key puts
    the message row back and the game goes on."""
    m = boot()
    m.type(DEAL + "{F7}{WAIT:QUIT?}")
    assert m.screen_text().splitlines()[5].strip() == "QUIT?"
    m.run(18.2 * 2)                                    # it waits for the answer...
    assert m.screen_text().splitlines()[5].strip() == "QUIT?"
    assert not m.dos.shell.exit_codes and not m.dos.shell.at_prompt
    m.type("N{TICKS:9}")                               # ...N: back to the game
    assert "QUIT?" not in m.screen_text()
    assert "DRAW FROM UPCARD (U) OR DECK (D)?" in m.screen_text()
    assert not m.dos.shell.exit_codes
    m.type("{F7}{WAIT:QUIT?}y")
    m.run_until(max_ticks=18.2 * 10, condition=at_prompt)
    assert m.dos.shell.exit_codes[-1] == ("B:\\GINRUMMY.EXE", 0)
    assert "DID YOU LIKE THIS TOY?" in m.screen_text()   # CALL ADVERT on the way out


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


def test_meteors_f2_demo_mode_steers_and_the_score_advances():
    """METEORS.DOC: "FUNCTION KEY F2 TOGGLES THE DEMO MODE ON AND OFF". In demo mode the
    program steers the ship and the score climbs; left alone without it, the ship is hit
    and the score goes below zero (checked too, so the climb is the demo's doing)."""
    def scores(demo: bool) -> list[int]:
        m = boot()
        m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} {TICKS:5}" + ("{F2}" if demo else ""))
        seen = []
        for _ in range(8):
            m.run(18.2 * 2)
            status = meteors_status(m)
            if status is not None:
                seen.append(status[0])
        return seen

    demo = scores(demo=True)
    # (the demo ship is hit now and then: the score may dip, but it climbs)
    rises = sum(later > earlier for earlier, later in zip(demo, demo[1:]))
    assert len(demo) >= 4 and rises > len(demo) // 2 and demo[-1] >= demo[0] + 100, demo
    assert min(scores(demo=False)) < 0


@pytest.mark.parametrize("answer", ["Y", "q", "{ESC}"])
def test_meteors_f7_asks_quit_and_y_q_or_esc_quits_to_the_prompt(answer):
    """F7 shows "QUIT?" on the top row and waits (INKEY$ loop); Y, y, Q, q and Esc
    quit (0000:4696..46EB compares with each), anything else goes back."""
    m = boot()
    m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START}{F7}{WAIT:QUIT?}")
    assert m.screen_text().splitlines()[0].strip() == "QUIT?"
    m.run(18.2 * 2)
    assert not m.dos.shell.exit_codes and not m.dos.shell.at_prompt
    m.type(answer)
    m.run_until(max_ticks=18.2 * 10, condition=at_prompt)
    assert m.dos.shell.exit_codes[-1] == ("B:\\METEORS.EXE", 0)


def test_meteors_esc_in_the_game_asks_quit_and_another_key_goes_back():
    """"TO QUIT: HIT FUNCTION KEY F7 OR THE ESC KEY": Esc during play asks too."""
    m = boot()
    m.type("METEORS{ENTER}{WAIT:PRESS ANY KEY TO START} ")
    m.run_until(condition=lambda mm: meteors_status(mm) is not None, max_ticks=18.2 * 30,
                text="the score line")
    m.type("{ESC}{WAIT:QUIT?}")
    assert m.screen_text().splitlines()[0].strip() == "QUIT?"
    m.type("N{TICKS:18}")
    assert "QUIT?" not in m.screen_text()
    assert meteors_status(m) is not None and not m.dos.shell.exit_codes


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
