"""Tommy's Gin Rummy as a player meets it (issue 22): ``play`` goes on where GINRUMMY.EXE
itself crashes, ``demo`` and ``--seed``, the repaint after a resize and on Ctrl-L.  The
traces and the differential tests are untouched by these: ``trace`` still ends with the
``fault`` event (tests/test_ginrummy_fault.py)."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time

import pytest

from games_py.cards import Card
from games_py.ginrummy import computer, game, rules, trace
from games_py.ginrummy import lines as lines_
from games_py.ginrummy.terminal import NOTICE_ROW, UNMODELLED_NOTICE, Session, overflow_notice
from tests.ginrummy_helpers import empty_table, with_hand
from tests.pty_helpers import kill_and_close
from tests.test_ginrummy_fault import FAULT_CASE, SIX_SHARED, _random
from tests.test_ginrummy_terminal import REPO, Script, Shown, read_screen, run

FAULT_START = (15, 52, 59, 45)          # Oklahoma with sound: your hand 1 overflows CONF


def spawn_command(*args: str, rows: int = 25, columns: int = 80) -> tuple[int, int]:
    """``python -m games_py.ginrummy ARGS`` in a new pseudo-terminal of that size."""
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.chdir(REPO)
        os.execv(sys.executable, [sys.executable, "-m", "games_py.ginrummy", *args])
    return pid, fd


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


# -- demo and --seed ---------------------------------------------------------------------------------
def _cli(*args: str):
    from click.testing import CliRunner

    from games_py.ginrummy.cli import main
    return CliRunner().invoke(main, list(args))


def test_a_seed_is_the_start_time_in_hundredths_after_midnight():
    assert game.time_of_seed(0) == (0, 0, 0, 0)
    assert game.time_of_seed(game.SEEDS - 1) == (23, 59, 59, 99)
    assert game.time_of_seed(5717945) == FAULT_START
    for start in ((0, 0, 0, 1), (12, 0, 0, 0), (9, 30, 0, 0), (23, 59, 59, 99)):
        assert game.time_of_seed(game.seed_of_time(start)) == start
    with pytest.raises(ValueError):
        game.time_of_seed(game.SEEDS)


def test_demo_tells_in_lines_the_game_trace_demo_plays():
    """``demo --plain``: the computer plays both hands through the game's end, told move by
    move; the moves are those of ``trace --demo`` with the same settings."""
    result = _cli("demo", "--seed", "4320000", "--plain", "--variant", "cowboy")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "ginrummy: seed 4320000 (started at 12:00:00.00); replay with --seed 4320000"
    traced = game.python_trace(game.Settings(time=(12, 0, 0, 0), variant=rules.COWBOY, demo=True), 40)
    end = next(i for i, e in enumerate(traced) if e["event"] == "game_end")
    told = [line for e in traced[1:end + 1] for line in lines_.describe(e)]
    assert lines[1:] == told
    assert told[-1].startswith(("You win the game", "I win the game"))
    assert any(line.startswith(("You draw", "I draw")) for line in told)


def test_demo_seed_and_time_give_the_same_game_and_the_seed_is_printed():
    by_time = _cli("demo", "--time", "15:52:59.45", "--variant", "oklahoma").output.splitlines()
    by_seed = _cli("demo", "--seed", "5717945", "--variant", "oklahoma").output.splitlines()
    assert by_time == by_seed and by_seed[0].endswith("replay with --seed 5717945")
    # the game where the original crashes: the demo plays on past it, through the game's end
    assert overflow_notice(6) in by_seed
    assert by_seed[-1].startswith(("You win the game", "I win the game"))
    now = _cli("demo", "--games", "1").output.splitlines()
    seed = re.search(r"--seed (\d+)$", now[0])[1]
    assert _cli("demo", "--seed", seed).output.splitlines() == now
    assert _cli("demo", "--seed", "1", "--time", "12:00").exit_code == 2
    assert _cli("demo", "--seed", str(game.SEEDS)).exit_code == 2


def test_every_command_has_help():
    for command in ((), ("play",), ("demo",), ("trace",), ("deal",)):
        result = _cli(*command, "--help")
        assert result.exit_code == 0 and "Usage:" in result.output
    for command in ("play", "demo"):
        text = _cli(command, "--help").output
        assert "--seed N" in text and "--time" in text
    assert "demo" in _cli("--help").output


def test_demo_in_a_terminal_draws_the_table_in_demo_mode_and_ends_after_its_games():
    pid, fd = spawn_command("demo", "--seed", "4320000", "--pace", "0")
    output = b""
    try:
        code = None
        end = time.monotonic() + 120
        while code is None and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    output += os.read(fd, 65536)
                except OSError:
                    pass
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
        while select.select([fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.close(fd)
    text = output.decode("utf-8", "replace")
    assert code == 0
    assert "F2=PLAY" in text and "DEMO" in text and "WON THE GAME!" in text
    assert "replay with --seed 4320000" in text and "Traceback" not in text


# -- the repaint: after a resize, on Ctrl-L, and at a terminal too small ----------------------------
class Terminal:
    """The output of a game in a pseudo-terminal, read as a terminal shows it."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd, self.raw = pid, fd, b""

    def read(self, seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.raw += os.read(self.fd, 65536)
                except OSError:
                    return

    def since(self, mark: int) -> str:
        return self.raw[mark:].decode("utf-8", "replace")

    def screen(self) -> list[str]:
        return read_screen(self.raw.decode("utf-8", "replace"))

    def until(self, text: str, seconds: float = 30.0, mark: int = 0) -> None:
        end = time.monotonic() + seconds
        while text not in self.since(mark) if mark else text not in "\n".join(self.screen()):
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} not shown:\n" + "\n".join(self.screen()))
            self.read(0.1)

    def resize(self, columns: int, rows: int) -> None:
        """As a terminal window does: the size changes and the game gets SIGWINCH."""
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def close(self) -> None:
        kill_and_close(self.pid, self.fd)


def _table_rows(screen: list[str]) -> list[str]:
    """The screen without the clock (rows 0-2 from column 70), which goes on."""
    return [row[:70] if r < 3 else row for r, row in enumerate(screen)]


def _repainted(term: Terminal, act, seconds: float = 0.5) -> list[str]:
    """The table rows drawn after ``act()`` (a resize, Ctrl-L) up to its F7=QUIT line."""
    mark = len(term.raw)
    act()
    term.until("F7=QUIT", mark=mark)
    term.read(seconds)
    return _table_rows(read_screen(term.since(mark)))


def _play_a_few_moves(term: Terminal) -> None:
    term.until("COWBOY GIN?")
    os.write(term.fd, b"s")
    term.until("OPEN HANDS?")
    os.write(term.fd, b"n")
    for _ in range(3):                                  # three turns: draw, discard
        term.until("DRAW FROM UPCARD (U) OR DECK (D)?")
        mark = len(term.raw)
        os.write(term.fd, b"d")
        term.until("DISCARD WHICH CARD", mark=mark)
        mark = len(term.raw)
        os.write(term.fd, b"b")
        term.until("DRAW FROM", mark=mark)
    term.read(0.5)


def test_a_resize_to_60x20_says_it_needs_80x25_and_back_at_100x32_the_table_is_whole():
    term = Terminal(*spawn_command("play", "--seed", "4320000", "--pace", "0", columns=100, rows=32))
    try:
        _play_a_few_moves(term)
        before = term.screen()
        assert "DRAW FROM UPCARD (U) OR DECK (D)?" in before[17] and "TURN:" in before[19]
        mark = len(term.raw)
        term.resize(60, 20)
        term.until("needs a terminal of at least 80x25", mark=mark)
        small = term.since(mark)
        assert "is 60x20." in small and "\x1b[2J" in small
        assert "GIN RUMMY" not in small.split("80x25")[-1]  # no table drawn over it
        mark = len(term.raw)
        term.resize(100, 32)
        term.until("F7=QUIT", mark=mark)
        term.read(0.5)
        again = term.since(mark)
        assert again.startswith("\x1b[0m\x1b[2J") or "\x1b[2J" in again   # cleared, then all rows
        assert _table_rows(read_screen(again)) == _table_rows(before)
        assert _table_rows(term.screen()) == _table_rows(before)
        os.write(term.fd, b"d")                         # and the game goes on
        term.until("DISCARD WHICH CARD", mark=len(term.raw))
    finally:
        term.close()


def test_ctrl_l_repaints_the_whole_table():
    term = Terminal(*spawn_command("play", "--seed", "4320000", "--pace", "0"))
    try:
        _play_a_few_moves(term)
        before = term.screen()
        assert _repainted(term, lambda: os.write(term.fd, b"\x0c"), 0.3) == _table_rows(before)
    finally:
        term.close()


def test_the_session_repaints_on_resize_and_ctrl_l_and_waits_while_too_small():
    """Without a terminal: the keys RESIZE and CTRL-L make the display repaint; while it is
    too small the game waits for it to grow (other keys are not taken)."""
    from games_py.ginrummy.screen import Screen
    sizes = [(80, 25)]

    class Display:
        def __init__(self) -> None:
            self.repaints, self.shown = 0, 0

        def show(self, screen: Screen) -> None:
            self.shown += 1

        def repaint(self, screen: Screen) -> None:
            self.repaints += 1

        def fits(self) -> bool:
            return sizes[-1] >= (80, 25)

    class Keys(Script):
        def key(self, timeout):
            if self.keys and self.keys[0] == "GROW" and timeout is None:
                self.keys.pop(0)
                sizes.append((100, 32))
                return "RESIZE"
            if self.keys and self.keys[0] == "SHRINK" and timeout is None:
                self.keys.pop(0)
                sizes.append((60, 20))
                return "RESIZE"
            return super().key(timeout)

    keys = Keys("S", "N", "WAIT:DRAW FROM", "CTRL-L", "SHRINK", "U", "GROW", "D", "WAIT:DISCARD")
    display = Display()
    s = Session(keys, display, (12, 0, 0, 0), pace=0, clock=lambda: 0.0, wall=lambda: "00:00:00")
    keys.session = s
    s.run()
    assert display.repaints == 3          # Ctrl-L, the shrink, the growth
    draws = [e for e in s.events if e["event"] == "draw"]
    assert len(draws) == 1 and draws[0]["from"] == "deck"     # U, typed while small, was not taken


# -- the document: quirks copied on purpose, and no file of cumulative points -----------------------
def test_the_game_document_lists_the_quirks_copied_and_where_the_points_are_kept():
    text = (REPO / "docs" / "games" / "ginrummy.md").read_text(encoding="utf-8")
    quirks = text.split("## The original's quirks, copied on purpose", 1)[1].split("\n## ", 1)[0]
    for quirk in ("Oklahoma doubling on **clubs**", "**the coin toss**", "**card left out**",
                  "**Phantom straights**", "**CONF overflow**", "A tie after the lay-offs"):
        assert quirk in quirks
    points = text.split("## Cumulative game points", 1)[1].split("\n## ", 1)[0]
    assert "in no file" in text and "pcemu report 1612 GINRUMMY" in points
    assert "--only services,files,changes" in points and "OPEN" in points


def test_like_the_original_a_session_writes_no_file(tmp_path, monkeypatch):
    """The original keeps the cumulative game points on the screen only (docs/games/
    ginrummy.md): a whole game of the Python one leaves the folder as it was."""
    monkeypatch.chdir(tmp_path)
    result = _cli("demo", "--seed", "4320000", "--plain")
    assert result.exit_code == 0 and "win the game" in result.output
    assert list(tmp_path.iterdir()) == []


# -- lay-offs the Python game cannot follow: play on by the document ---------------------------------
def _unmodelled_table() -> computer.Table:
    """As in tests/test_ginrummy_arrays.py: a stale card number (60) as a phantom row's size
    makes the program's lay-off scan read FL()'s words, which are not modelled."""
    from tests.test_ginrummy_arrays import _table
    t = _table(["6H", "5H", "4H", "3H", "2H", "AH", "AC", "2S", "3S", "4C"],
               ["QS", "QD", "QC", "3D", "9D", "JC", "7S", "10D", "4S", "7H"])
    t.arrays.s[computer.cell(2, 1)] = 60
    return t


def test_lay_offs_past_the_model_follow_the_document_when_playing_on():
    t = _unmodelled_table()
    with pytest.raises(computer.UnmodelledMemory):
        computer.program_lay_offs(t, 1, 2)
    laid, pv = computer.document_lay_offs(_unmodelled_table(), 1, 2)
    assert [(str(computer.card_of(x.card)), x.flat, x.row) for x in laid] == [("7H", False, 1)]
    assert pv == t.pv[2] - 7


def test_a_hand_whose_lay_offs_cannot_be_followed_ends_with_a_notice_when_playing_on(monkeypatch):
    """Hand._settle with ``on_unmodelled`` set (``play``): the lay-offs follow the document
    and the hand is scored; without it (``trace``) the error stops the game as before.  (The
    arrangement at line 2540 rewrites S(), so the unmodelled read is made to happen here.)"""
    from games_py.qbasic import rng
    from games_py.ginrummy.deal import OriginalRandom

    def unmodelled(*_args):
        raise computer.UnmodelledMemory("the lay-offs read SL(6, 60), past the end of the "
                                        "array and its heap header, in FL()'s data")
    monkeypatch.setattr(computer, "program_lay_offs", unmodelled)

    def settled(on_unmodelled):
        t = _unmodelled_table()
        t.on_unmodelled = on_unmodelled
        hand = computer.Hand(t, OriginalRandom(rng.QuickBasicRandom(5)), 2, rules.STANDARD)
        hand.knocker = 1
        hand._settle()
        return hand
    with pytest.raises(computer.UnmodelledMemory):
        settled(None)
    said = []
    hand = settled(said.append)
    assert len(said) == 1 and "FL()" in said[0]
    assert [e["card"] for e in hand.events if e["event"] == "layoff"] == ["7H"]
    assert hand.outcome is not None and hand.outcome[3] == hand.t.pv[2] - 7


def test_the_session_tells_the_player_when_it_lays_off_by_the_document():
    s = Session(lines_.NoKeys(sleep=lambda _s: None), Shown(), (12, 0, 0, 0), pace=0,
                clock=lambda: 0.0, wall=lambda: "00:00:00")
    s.unmodelled("the lay-offs read SL(6, 60) ...")
    assert s.notices == [UNMODELLED_NOTICE] and UNMODELLED_NOTICE in s.screen.row_text(NOTICE_ROW)
    assert len(UNMODELLED_NOTICE) <= 80


def test_a_whole_hand_played_at_the_terminal_repaints_whole_after_a_resize_and_ctrl_l():
    """Hands played to their end by keys (deck, discard B, never knock; at pace 0 the
    result shows only for a moment), then the table waiting for the next key survives a
    resize to 60x20 and back, and Ctrl-L."""
    term = Terminal(*spawn_command("play", "--seed", "4320000", "--pace", "0"))
    try:
        term.until("COWBOY GIN?")
        os.write(term.fd, b"s")
        term.until("OPEN HANDS?")
        os.write(term.fd, b"n")
        answers = {"DRAW FROM UPCARD (U) OR DECK (D)?": b"d", "DISCARD WHICH CARD": b"b",
                   "KNOCK?": b"n"}
        mark, end = len(term.raw), time.monotonic() + 120
        while "GAME POINTS" not in term.since(0) and "DEAD HAND" not in term.since(0):
            assert time.monotonic() < end, "\n".join(term.screen())
            term.read(0.1)
            shown = term.since(mark)
            asked = [(shown.rfind(q), q) for q in answers if q in shown]
            if asked:
                mark = len(term.raw)
                os.write(term.fd, answers[max(asked)[1]])
        term.read(0.5)
        before = term.screen()         # the hand is over; the next one waits for a key of ours
        assert any(q in row for row in before for q in answers), "\n".join(before)
        mark = len(term.raw)
        term.resize(60, 20)
        term.until("needs a terminal of at least 80x25", mark=mark)
        assert _repainted(term, lambda: term.resize(80, 25)) == _table_rows(before)
        assert _repainted(term, lambda: os.write(term.fd, b"\x0c")) == _table_rows(before)
    finally:
        term.close()
