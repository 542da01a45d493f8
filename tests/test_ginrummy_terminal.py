"""The playable Python Gin Rummy (games_py/ginrummy/terminal.py, ``python -m games_py.ginrummy
play``): its screen and prompts against the original's in pcemu, cell for cell; demo mode and
the keyboard player against the traced Python game, event for event; the hot keys; and the
real command in a pseudo-terminal."""
from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from games_py.ginrummy import game, human, instructions, rules
from games_py.ginrummy.screen import Screen
from games_py.ginrummy.terminal import Session
from tests.machine_helpers import DISK1612, needs_originals
from tests.pty_helpers import kill_and_close

REPO = Path(__file__).resolve().parents[1]
VARIANT_KEY = {rules.STANDARD: "S", rules.OKLAHOMA: "O", rules.COWBOY: "C"}
PROMPT_ANSWERS = (("DRAW FROM", "D"), ("DISCARD WHICH", "B"), ("KNOCK?", "Y"), ("ARE YOU NUTS", "N"))
ENDING = ("KNOCKS", "GO GIN!", "LAYING OFF", "UNDERCUT")     # the hand's end, message by message


class Script:
    """Keys typed when the program waits, like pcemu's key scripts: a key is typed at the
    next prompt (function keys also during a pause), "WAIT:text" waits until the screen
    shows text.  The screen is recorded at every prompt; the keys running out ends the
    program (EOFError, as Ctrl-D would)."""

    def __init__(self, *keys: str) -> None:
        self.keys = list(keys)
        self.session: Session | None = None
        self.prompts: list[str] = []          # the message line at each key read at a prompt

    def key(self, timeout):
        screen = self.session.screen
        while self.keys and self.keys[0].startswith("WAIT:"):
            if self.keys[0][5:] not in screen.text():
                if timeout is not None:
                    return None
                raise AssertionError(f"waiting for {self.keys[0][5:]!r} at a prompt:\n{screen.text()}")
            self.keys.pop(0)
        if not self.keys:
            raise EOFError
        if timeout is not None and not self.keys[0].startswith("F"):
            return None
        if timeout is None:
            self.prompts.append(screen.row_text(17).strip())
        return self.keys.pop(0)


class Robot:
    """Answers every prompt from what the screen asks: D, B (place 11: after the draw it
    holds the lowest unmatched card), Y to knock, N to ARE YOU NUTS; or, with a policy,
    the key for the policy's answer on the hand's view.  Stops when ``stop`` is shown."""

    def __init__(self, *stop: str, policy: human.HumanPolicy | None = None, before=()) -> None:
        self.stop, self.policy, self.before = stop, policy, list(before)
        self.session: Session | None = None
        self.screens: list[Screen] = []
        self.last_ending = ""

    def key(self, timeout):
        screen = self.session.screen
        if self.before:
            return self.before.pop(0) if timeout is None or self.before[0].startswith("F") else None
        if any(text in screen.text() for text in self.stop):
            self.screens.append(screen.copy())
            raise EOFError
        line = screen.row_text(17)
        if timeout is not None:
            if any(text in line for text in ENDING) and line != self.last_ending:
                self.last_ending = line
                self.screens.append(screen.copy())
            return None
        self.screens.append(screen.copy())
        if self.policy is not None:
            view = self.session.hand.view()
            if "DRAW FROM" in line:
                return "U" if self.policy.draw(view) == human.UPCARD else "D"
            if "DISCARD WHICH" in line:
                return "123456789AB"[self.policy.discard(view) - 1]
            if "KNOCK?" in line:
                return "Y" if self.policy.knock(view) else "N"
            return "N"
        return next(answer for prompt, answer in PROMPT_ANSWERS if prompt in line)


class Shown:
    def __init__(self) -> None:
        self.frames = 0

    def show(self, screen: Screen) -> None:
        self.frames += 1


def session(keys, start=(12, 0, 0, 0), **options) -> Session:
    s = Session(keys, Shown(), start, pace=0, clock=lambda: 0.0, wall=lambda: "00:00:00", **options)
    keys.session = s
    return s


def run(keys, start=(12, 0, 0, 0), **options) -> Session:
    s = session(keys, start, **options)
    s.run()
    return s


# -- against the original, in the machine ------------------------------------------------------------
def machine_cells(m) -> list[list[tuple[str, int]]]:
    from pcemu.cp437 import CP437
    return [[(CP437[c], a) for c, a in row] for row in m.screen_cells()]


def differences(original, python, skip_rows=()) -> list[tuple]:
    """Cells that differ, but for the clock (wall time) and the logo (its colours turn)."""
    out = []
    for r in range(25):
        for c in range(80):
            if (r < 3 and c >= 70) or (r == 21 and 32 <= c <= 46) or r in skip_rows:
                continue
            if original[r][c] != python[r][c]:
                out.append((r, c, original[r][c], python[r][c]))
    return out


def original_after_deal(start, variant, open_hands, colour=True):
    """The original started at ``start`` (the tracer sets the clock RANDOMIZE TIMER reads),
    the variant and OPEN HANDS? answered, just after the first deal (``colour`` False: on
    a monochrome adapter)."""
    from games_py.ginrummy.original import GinRummyTracer
    tracer = GinRummyTracer(game.Settings(time=start, variant=variant, demo=False,
                                          open_hands=open_hands, colour=colour), hands=0)
    tracer.run()
    return tracer.machine


def to_machine(steps) -> str:
    return "".join("{" + s + "}{TICKS:3}" if s.startswith("WAIT:") else s for s in steps)


@needs_originals
@pytest.mark.parametrize("start, variant, open_hands, colour, steps", [
    ((12, 0, 0, 0), rules.STANDARD, False, True, ["WAIT:DRAW FROM"]),
    ((12, 0, 3, 0), rules.OKLAHOMA, True, True, ["WAIT:DRAW FROM", "D", "WAIT:DISCARD"]),
    ((12, 0, 6, 0), rules.COWBOY, False, True,
     ["WAIT:DRAW FROM", "U", "WAIT:DISCARD", "5", "WAIT:DRAW FROM", "D", "WAIT:DISCARD", "B",
      "WAIT:DRAW FROM"]),
    ((14, 15, 16, 17), rules.OKLAHOMA, False, False, ["WAIT:DRAW FROM", "D", "WAIT:DISCARD"]),
])
def test_the_screen_at_a_prompt_is_the_originals(start, variant, open_hands, colour, steps):
    """Same start time, same keys: every cell of the screen (character and colour, the message
    colour drawn by RND included; on a monochrome display, its attributes) is the original's,
    but for the clock and the logo."""
    m = original_after_deal(start, variant, open_hands, colour)
    m.type(to_machine(steps))
    s = run(Script(VARIANT_KEY[variant], "Y" if open_hands else "N", *steps), start, colour=colour)
    assert differences(machine_cells(m), s.screen.cells) == []


@needs_originals
def test_are_you_nuts_then_yes_asks_again_and_no_discards_as_the_original():
    """12:00:03.00, open hands: after the draw, places 1-3 are three sevens.  1 brings "ARE YOU
    NUTS? ... CANCEL?", Y the discard prompt again, 2 and N discard the seven; the computer's
    next turn and your next prompt are the original's."""
    steps = ["WAIT:DRAW FROM", "D", "WAIT:DISCARD", "1", "WAIT:ARE YOU NUTS", "Y", "WAIT:DISCARD",
             "2", "WAIT:ARE YOU NUTS", "N", "WAIT:DRAW FROM"]
    m = original_after_deal((12, 0, 3, 0), rules.STANDARD, True)
    m.type(to_machine(steps))
    keys = Script("S", "Y", *steps)
    s = run(keys, (12, 0, 3, 0))
    assert differences(machine_cells(m), s.screen.cells) == []
    assert [p for p in keys.prompts if p][:5] == [
        "DRAW FROM UPCARD (U) OR DECK (D)?", "DISCARD WHICH CARD (1-9,A,B)?",
        "ARE YOU NUTS? YOU ARE SPOILING A MATCHED SET! CANCEL?", "DISCARD WHICH CARD (1-9,A,B)?",
        "ARE YOU NUTS? YOU ARE SPOILING A MATCHED SET! CANCEL?"]


def original_messages(start, variant, open_hands, keys, until, count=1, before="") -> list[str]:
    """Every message line 12640 shows (M$), in order, for ``keys`` typed after the two
    questions (``before``: at the first), until ``count`` messages have contained ``until``;
    hands' and games' seconds as "s"."""
    from games_py.ginrummy import original as tracer_module
    tracer = tracer_module.GinRummyTracer(game.Settings(time=start, variant=variant, demo=False,
                                                        open_hands=open_hands), hands=0)
    shown = []
    tracer.process.at_line(tracer_module.LINE_MESSAGE,
                           lambda: shown.append(tracer.process.string(tracer_module.M_STRING)))
    m = tracer.machine
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}" + before + VARIANT_KEY[variant] + "{WAIT:OPEN HANDS?}"
           + ("Y" if open_hands else "N") + keys)
    limit = m.ticks + 18.2065 * 900
    while sum(until in text for text in shown) < count and m.ticks < limit:
        m.run(18.2065 * 5)
    return [SECONDS.sub("s SECS", text) for text in shown]


SECONDS = re.compile(r"\b\d+ SECS")


@needs_originals
@pytest.mark.parametrize("keys, script", [
    ("{WAIT:DRAW FROM}{TICKS:5}{F2}", ["WAIT:DRAW FROM", "F2"]),
    pytest.param("{WAIT:DRAW FROM}{TICKS:5}D{WAIT:DISCARD}{TICKS:5}{F2}",
                 ["WAIT:DRAW FROM", "D", "WAIT:DISCARD", "F2"], marks=pytest.mark.slow)])
def test_f2_at_a_prompt_then_demo_mode_is_the_originals(keys, script):
    """F2 while a prompt waits: the prompt's line is cleared, the computer answers it and plays
    on for you; every message after it, two hands long, is the original's (the RND spent on
    their colours and on the play included)."""
    start = (12, 0, 0, 0)
    original = original_messages(start, rules.STANDARD, True, keys, "WON THE HAND", 2)
    s = run(Script("S", "Y", *script, "WAIT:HAND: 3"), start)
    python = [SECONDS.sub("s SECS", text) for text in s.messages]
    assert sum("WON THE HAND" in text for text in original) == 2
    assert python[:len(original)] == original


def message_line(m) -> str:
    """Row 17 of the machine's screen, read alone (checked twice a tick while waiting)."""
    from pcemu.cp437 import CP437
    from pcemu.screen import geometry
    base, columns, _graphics = geometry(m)
    return "".join(CP437[b] for b in m.memory.read(base + 17 * columns * 2, columns * 2)[::2])


@needs_originals
@pytest.mark.slow                      # two hands of the original's time: ~15 s of ours
def test_f2_at_the_knock_prompt_then_demo_mode_is_the_originals():
    """11:07:11.00: D and B until KNOCK? is asked, then F2: the line is cleared, the computer
    decides (it does not knock there) and plays on; two hands of messages are the original's."""
    from games_py.ginrummy import original as tracer_module
    start = (11, 7, 11, 0)
    tracer = tracer_module.GinRummyTracer(game.Settings(time=start, demo=False), hands=0)
    shown = []
    tracer.process.at_line(tracer_module.LINE_MESSAGE,
                           lambda: shown.append(tracer.process.string(tracer_module.M_STRING)))
    m = tracer.machine
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}N")
    answers = {"DRAW FROM": "D", "DISCARD WHICH": "B", "KNOCK?": "{F2}"}
    while True:
        m.run_until(condition=lambda mm: any(p in message_line(mm) for p in answers), max_ticks=18.2 * 600)
        line = message_line(m)
        key = next(a for p, a in answers.items() if p in line)
        m.type(key)
        if key == "{F2}":
            break
        m.run_until(condition=lambda mm: message_line(mm) != line, max_ticks=18.2 * 60)
    while sum("WON THE HAND" in text for text in shown) < 2:
        m.run(18.2065 * 5)
    original = [SECONDS.sub("s SECS", text) for text in shown]

    class KnockTakenOver(Robot):
        def key(self, timeout):
            answer = super().key(timeout)
            return "F2" if answer == "Y" else answer
    s = run(KnockTakenOver("HAND: 3", before=["S", "N"]), start)
    python = [SECONDS.sub("s SECS", text) for text in s.messages]
    assert "KNOCK? " in original and python[:len(original)] == original


@needs_originals
@pytest.mark.slow                      # eight minutes of the original's time: ~30 s of ours
def test_demo_mode_messages_through_a_dead_hand_are_the_originals():
    """Demo mode from the first question (F2), 14:30:00.00 Oklahoma: three hands, the third
    dead; every message (deals, shuffles, draws, discards, knocks, lay-offs, the hands' ends,
    DEAD HAND) is the original's, in the same order."""
    start = (14, 30, 0, 0)
    original = original_messages(start, rules.OKLAHOMA, False, "", "DEAD HAND", before="{F2}")
    s = run(Script("F2", "O", "N", "WAIT:HAND: 4"), start)
    python = [SECONDS.sub("s SECS", text) for text in s.messages]
    assert original[-1] == "DEAD HAND"
    assert python[:len(original)] == original


def play_original_hand(start, variant):
    """The original with a robot at the keys (D, B, Y, N): the screens at each prompt and at
    each message of the hand's end."""
    m = original_after_deal(start, variant, False)
    screens = []
    wanted = [p for p, _ in PROMPT_ANSWERS] + list(ENDING) + ["WON THE HAND", "DEAD HAND"]
    while True:
        m.run_until(condition=lambda mm: any(p in message_line(mm) for p in wanted), max_ticks=18.2 * 600)
        line = message_line(m)
        m.run(2)
        screens.append(machine_cells(m))
        if "WON THE HAND" in line or "DEAD HAND" in line:
            return screens
        prompt = next((answer for prompt, answer in PROMPT_ANSWERS if prompt in line), None)
        if prompt is not None:
            m.type(prompt)
        m.run_until(condition=lambda mm: message_line(mm) != line, max_ticks=18.2 * 60)


@needs_originals
@pytest.mark.parametrize("start, variant", [((11, 7, 11, 0), rules.STANDARD),    # you knock, undercut
                                            ((14, 2, 7, 5), rules.OKLAHOMA),    # the computer knocks
                                            ((0, 17, 11, 0), rules.STANDARD)])  # ... you lay off
def test_a_whole_hand_shows_what_the_original_shows(start, variant):
    """A whole hand with the same answers on both sides: the screen at every prompt and at each
    message of the hand's end (the computer's hand shown, undercut, lay-offs) is the original's;
    the last message ("... WON THE HAND! (n POINTS, s SECS)") up to its seconds (wall time)."""
    original = play_original_hand(start, variant)
    robot = Robot("WON THE HAND", "DEAD HAND", before=[VARIANT_KEY[variant], "N"])
    run(robot, start)
    python = robot.screens
    assert len(python) == len(original) > 3
    python = [screen.cells for screen in python]
    for o, p in zip(original[:-1], python[:-1]):
        assert differences(o, p) == []
    assert differences(original[-1], python[-1], skip_rows=(17,)) == []
    end = "".join(ch for ch, _ in original[-1][17]).strip()
    assert "".join(ch for ch, _ in python[-1][17]).strip().split(",")[0] == end.split(",")[0]


# -- against the traced Python game -------------------------------------------------------------------
@pytest.mark.parametrize("start, variant, hands", [((12, 0, 0, 0), rules.STANDARD, 6),
                                                   ((9, 30, 0, 0), rules.COWBOY, 3),
                                                   ((18, 45, 12, 34), rules.OKLAHOMA, 3)])
def test_demo_mode_plays_hands_without_input_as_the_traced_game(start, variant, hands):
    """F2 at the first question: the computer plays both hands with no key typed, hand after
    hand (through a game's end at 12:00:00.00), and the game is the one ``trace --demo``
    writes, event for event."""
    keys = Script("F2", VARIANT_KEY[variant], "N", f"WAIT:HAND:{hands + 1:2d}")
    s = run(keys, start)
    traced = game.python_trace(game.Settings(time=start, variant=variant, demo=True), hands)[1:]
    assert keys.prompts == [""] * 3              # F2, S, N at the two questions; no prompt after
    assert s.events[:len(traced)] == traced
    assert sum(e["event"] in ("hand_end", "dead_hand") for e in traced) == hands
    assert "F2=PLAY" in s.screen.text() and "DEMO" in s.screen.row_text(13)


def test_a_game_ends_with_its_messages_and_the_next_game_begins():
    """12:00:00.00 in demo mode: the game ends after its fifth hand with the original's
    messages (as read from the original's M$: "YOU WON THE GAME! (330 SECS)", "YOU GET 202
    GAME POINTS"), then GAME 2 begins with the games and points in the right-hand box."""
    s = run(Script("F2", "S", "N", "WAIT:GAME: 2"))
    end = next(e for e in s.events if e["event"] == "game_end")
    winner = "YOU" if end["winner"] == "you" else "I"
    at = s.messages.index(f"{winner} WON THE GAME! (0 SECS)")
    assert s.messages[at + 1] == f"{winner} GET {end['game_points']} GAME POINTS"
    if end["shutout"]:
        assert s.messages[at + 2] == ("OH NO! YOU SKUNKED ME!" if winner == "YOU"
                                      else "HA HA HA! I SKUNKED YOU!")
    else:
        assert s.messages[at + 2] in ("YOU DEAL", "I DEAL")        # the new game's dealer
    text = s.screen.text()
    games = (1, 0) if winner == "YOU" else (0, 1)
    assert f"GAMES: YOU: {games[0]} ME: {games[1]}" in text and "GAME: 2" in text
    assert f"POINTS: YOU: {end['points']['you']} ME: {end['points']['computer']}" in text
    assert "HANDS: YOU: 0    ME: 0" in text and "YOU:   0 ME:   0" in text


@pytest.mark.parametrize("policy, start, variant", [("simple", (10, 20, 30, 40), rules.STANDARD),
                                                    ("random:3", (7, 1, 13, 48), rules.OKLAHOMA),
                                                    ("random:11", (21, 5, 0, 0), rules.COWBOY)])
def test_your_keys_reach_the_game_as_a_scripted_policy_does(policy, start, variant):
    """Keys chosen by a policy on the hand's view give the game ``trace --human POLICY``
    writes: the keyboard player and the scripted players share one engine."""
    robot = Robot("HAND: 3", policy=human.policy_from(policy), before=[VARIANT_KEY[variant], "N"])
    s = run(robot, start)
    traced = game.python_trace(game.Settings(time=start, variant=variant, demo=False,
                                             human=policy), 2)[1:]
    assert s.events[:len(traced)] == traced
    assert any(e["event"] == "hand_end" or e["event"] == "dead_hand" for e in traced)


# -- prompts, bad keys, hot keys -----------------------------------------------------------------------
def test_the_questions_come_in_order_and_other_keys_are_ignored():
    keys = Script("X", "1", "ENTER", "S", "Q", "Y", "WAIT:DRAW FROM", "X", "9", "U", "WAIT:DISCARD",
                  "0", "C", "ESC", "U")
    s = run(keys)
    lines = s.screen.text().splitlines()
    assert keys.prompts[:6] == [""] * 6                       # the two questions: no message line
    assert keys.prompts[6:9] == ["DRAW FROM UPCARD (U) OR DECK (D)?"] * 3
    assert keys.prompts[9:] == ["DISCARD WHICH CARD (1-9,A,B)?"] * 4
    assert "DISCARD WHICH CARD (1-9,A,B)?" in lines[17]        # nothing accepted U here either
    assert s.variant == rules.STANDARD and s.open_hands
    assert s.events[-1] == {"event": "draw", "player": "you", "from": "upcard", "card": "3C"}


def test_a_scripted_hand_reaches_its_end_and_the_score_is_shown():
    """Answers at every prompt until the next hand's deal: the hand's end message, then the
    score boxes with the new scores."""
    robot = Robot("HAND: 2", before=["S", "N"])
    s = run(robot, (9, 15, 0, 0))
    end = [e for e in s.events if e["event"] == "hand_end"][0]
    text = s.screen.text()
    winner = "YOU" if end["winner"] == "you" else "I"
    assert f"{winner} WON THE HAND! ({end['points']} POINTS, 0 SECS)" in s.messages
    assert f"YOU:{end['scores']['you']:4d} ME:{end['scores']['computer']:4d}" in text
    assert f"HANDS: YOU:{end['hands_won']['you']:2d}    ME:{end['hands_won']['computer']:2d}" in text
    assert end["scores"] != {"you": 0, "computer": 0}
    assert f"PLAYER {1 if end['knocker'] == 'you' else 2} KNOCKS" in s.messages


def test_f7_asks_quit_n_goes_on_and_y_quits():
    keys = Script("S", "N", "WAIT:DRAW FROM", "F7", "WAIT:QUIT?", "X", "N", "F7", "Y", "D")
    s = run(keys)
    assert keys.keys == ["D"]                                   # Y left the program
    assert s.screen.row_text(5).startswith("QUIT?")
    assert not any(e["event"] == "draw" for e in s.events)
    keys = Script("S", "N", "WAIT:DRAW FROM", "F7", "N", "D", "WAIT:DISCARD")
    s = run(keys)
    assert "QUIT?" not in s.screen.text()
    assert s.events[-1]["event"] == "draw"


def test_f1_toggles_sound_and_the_legend_and_changes_the_deal():
    """F1 before the shuffle: the shuffle spends no RND on sound effects, so the deal is the
    one ``trace --sound off`` gives."""
    s = run(Script("F1", "S", "N", "WAIT:DRAW FROM"))
    assert "F1=SOUND" in s.screen.row_text(23)
    quiet = game.python_trace(game.Settings(time=(12, 0, 0, 0), sound=False, demo=False), 0)[1]
    loud = game.python_trace(game.Settings(time=(12, 0, 0, 0), sound=True, demo=False), 0)[1]
    assert s.events[0] == quiet != loud
    s = run(Script("F1", "F1", "S", "N", "WAIT:DRAW FROM"))
    assert "F1=MUTE" in s.screen.row_text(23) and s.events[0] == loud


def test_f2_at_a_prompt_lets_the_computer_answer_it():
    keys = Script("S", "N", "WAIT:DRAW FROM", "F2", "WAIT:HAND: 2")
    s = run(keys)
    assert s.demo and keys.prompts.count("DRAW FROM UPCARD (U) OR DECK (D)?") == 1
    assert any(e["event"] == "discard" and e["player"] == "you" for e in s.events)
    assert any(e["event"] in ("hand_end", "dead_hand") for e in s.events)


@needs_originals
def test_f5_shows_ginrummy_doc_page_by_page_and_esc_goes_back():
    lines = instructions.read_doc(str(DISK1612))
    pages = instructions.pages(lines)
    keys = Script("S", "N", "WAIT:DRAW FROM", "F5", "WAIT:INSTRUCTIONS", " ", "X", " ")
    s = session(keys)
    shown = []
    original_key = keys.key

    def spy(timeout):
        if "HIT SPACE BAR TO SCROLL, ESC TO EXIT" in s.screen.text():
            shown.append([s.screen.row_text(r).rstrip() for r in range(1, 21)])
        return original_key(timeout)
    keys.key = spy
    s.run()
    assert len(pages) > 2 and shown[0] == [line.rstrip() for line in pages[0]]
    assert shown[-1] == [line.rstrip() for line in pages[2]]
    before = run(Script("S", "N", "WAIT:DRAW FROM")).screen.text()
    after = run(Script("S", "N", "WAIT:DRAW FROM", "F5", " ", "ESC", "WAIT:DRAW FROM"))
    assert after.screen.text() == before


@needs_originals
def test_f5_pages_look_as_the_originals():
    """The second page of the instructions (after SPACE), rows 0-21 cell for cell, and the
    table back after ESC."""
    m = original_after_deal((12, 0, 0, 0), rules.STANDARD, False)
    m.type("{WAIT:DRAW FROM}{TICKS:5}{F5}{WAIT:INSTRUCTIONS}{TICKS:10} {TICKS:20}")
    s = run(Script("S", "N", "WAIT:DRAW FROM", "F5", " ", "WAIT:INSTRUCTIONS"),
            disk=str(DISK1612))
    assert differences(machine_cells(m), s.screen.cells, skip_rows=range(22, 25)) == []
    m.type("{ESC}{WAIT:DRAW FROM}{TICKS:5}")
    s = run(Script("S", "N", "WAIT:DRAW FROM", "F5", " ", "ESC", "WAIT:DRAW FROM"))
    assert differences(machine_cells(m), s.screen.cells) == []


def test_f5_without_a_disk_says_where_the_instructions_come_from(tmp_path):
    s = run(Script("S", "N", "WAIT:DRAW FROM", "F5"), disk=str(tmp_path / "none.img"))
    text = s.screen.text()
    assert "CAN'T FIND INSTR. FILE GINRUMMY.DOC" in text and "--disk IMAGE" in text
    assert "HIT SPACE BAR TO SCROLL, ESC TO EXIT" in text


# -- the command, in a pseudo-terminal -----------------------------------------------------------------
def read_screen(data: str) -> list[str]:
    """What a terminal shows after ``data``, for the sequences ``screen.ansi_frame`` writes."""
    rows = [[" "] * 80 for _ in range(25)]
    r = c = 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|[^\x1b]", data):
        if token.startswith("\x1b"):
            if token.endswith("H"):
                r, c = (int(x) - 1 for x in (token[2:-1] or "1;1").split(";"))
            elif token == "\x1b[2J":
                rows = [[" "] * 80 for _ in range(25)]
            continue
        if token in "\r\n":
            continue
        if 0 <= r < 25 and 0 <= c < 80:
            rows[r][c] = token
        c += 1
    return ["".join(row) for row in rows]


def spawn_play(rows: int = 25, columns: int = 80, start: str = "12:00:00.00") -> tuple[int, int]:
    """``python -m games_py.ginrummy play`` in a new pseudo-terminal of that size."""
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.chdir(REPO)
        os.execv(sys.executable, [sys.executable, "-m", "games_py.ginrummy", "play",
                                  "--time", start, "--pace", "0"])
    return pid, fd


@contextlib.contextmanager
def playing(start: str = "12:00:00.00"):
    """``spawn_play`` whose process is killed and terminal closed however the test ends."""
    pid, fd = spawn_play(start=start)
    try:
        yield pid, fd
    finally:
        kill_and_close(pid, fd)


def test_the_ansi_frame_writes_the_screen_and_then_only_rows_that_changed():
    from games_py.ginrummy.screen import ansi_frame, sgr
    s = run(Script("S", "N", "WAIT:DRAW FROM"))
    first = ansi_frame(s.screen)
    assert read_screen(first) == s.screen.text().splitlines()[:24] + [s.screen.row_text(24)[:79].ljust(80)]
    changed = s.screen.copy()
    changed.put(17, 0, "X" * 80, 0x0E)
    update = ansi_frame(changed, s.screen)
    assert re.findall(r"\x1b\[(\d+);1H", update) == ["18"]          # row 18 alone rewritten
    assert read_screen(first + update)[17] == "X" * 80
    assert "\x1b[0;1;33;40m" in update                     # yellow (CGA 14) as bright yellow
    assert sgr(0x01, mono=True) != sgr(0x01) and ";4;" in sgr(0x01, mono=True)
    assert ";5" in sgr(0x8F) and ";5" not in sgr(0x0F)      # bit 7 blinks (Meteors' prompt)
    assert ";5" in sgr(0x81, mono=True) and ";4" in sgr(0x81, mono=True)


def test_play_in_a_terminal_draws_the_table_and_quits_with_f7():
    with playing() as (pid, fd):
        _draws_the_table_and_quits_with_f7(pid, fd)


def _draws_the_table_and_quits_with_f7(pid: int, fd: int) -> None:
    raw = b""                          # decoded whole: a read may end inside a character

    def shown() -> list[str]:
        return read_screen(raw.decode("utf-8", "replace"))

    def until(text, seconds=30.0):
        nonlocal raw
        end = time.monotonic() + seconds
        while text not in "\n".join(shown()):
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} not shown:\n" + "\n".join(shown()))
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    raw += os.read(fd, 65536)
                except OSError:
                    break
    until("COWBOY GIN?")
    os.write(fd, b"s")
    until("OPEN HANDS?")
    os.write(fd, b"n")
    until("DRAW FROM UPCARD (U) OR DECK (D)?")
    screen = shown()
    assert screen[1].startswith("\u2502\u266010\u2502 \u2502\u2660 9\u2502")   # │♠10│ │♠ 9│
    assert "CARDS DRAWN: 21 OUT OF 52" in screen[23]
    os.write(fd, b"\x1b[18~")                      # F7, as xterm sends it
    until("QUIT?")
    os.write(fd, b"y")
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_play_goes_on_with_a_message_where_the_original_overflows_conf():
    """15:52:59.45, Oklahoma, sound on, demo: the hand where GINRUMMY.EXE writes past CONF and
    crashes (docs/ginrummy-internals.md, section 12).  The terminal game says so in one line
    and plays on (issue 22: the session is not lost): hand 2 is dealt, F7 Y leaves with 0."""
    with playing("15:52:59.45") as (pid, fd):
        _goes_on_with_a_message(pid, fd)


def _goes_on_with_a_message(pid: int, fd: int) -> None:
    output = b""

    def until(text: bytes, seconds=120.0) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while text not in output:
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} not shown")
            if select.select([fd], [], [], 0.2)[0]:
                output += os.read(fd, 65536)
    until(b"COWBOY GIN?")
    os.write(fd, b"\x1bOQ")                        # F2, as xterm sends it: demo mode
    os.write(fd, b"o")
    until(b"OPEN HANDS?")
    os.write(fd, b"n")
    until(b"GINRUMMY.EXE CRASHES HERE (6 SHARED CARDS). PLAYING ON BY GINRUMMY.DOC")
    until(b"HAND: 2")
    os.write(fd, b"\x1b[18~")                      # F7
    until(b"QUIT?")
    os.write(fd, b"y")
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    assert code == 0 and b"Traceback" not in output


def test_play_without_a_terminal_says_so():
    result = subprocess.run([sys.executable, "-m", "games_py.ginrummy", "play", "--time", "12:00"],
                            cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert result.returncode == 2 and "needs a terminal" in result.stderr


def test_play_in_a_terminal_too_small_says_so():
    pid, fd = spawn_play(rows=24)
    output = b""
    try:
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 2
    assert b"the screen is 80x25, this terminal is 80x24" in output
