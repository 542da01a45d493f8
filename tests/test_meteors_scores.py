"""Tommy's Meteors' high-score table: the Python game's screens against METEORS.EXE's,
cell for cell (characters and attributes), at the points of the table's code the
tracer can stop at: line 5910 (the table, CONGRATULATIONS), 5920 (the name prompt),
5950 (the name typed) and 1670 (the table after it, or after a score without a name).
Also the line editor's keys from the terminal and a played session's table.  About
8 s with -n 0: three runs of the original (1.5 to 1.9 s each, up to the end of their
last table) and a terminal session of ten games (1.4 s).
"""
from __future__ import annotations

import pytest

from games_py.meteors import original, scores, trace
from games_py.meteors.table_check import Shot, differences, first_difference, frames, original_screens, python_screens
from games_py.tui.terminal import ESCAPE_WAIT, EscapeReader
from pcemu.keys import parse_script
from tests.machine_helpers import DISK1612, needs_originals
from tests.terminal_fakes import CharacterKeys, TextDisplay


def _original(settings: trace.Settings, games: int, names: list[str] | None = None) -> tuple[list[dict], list[Shot]]:
    return original_screens(settings, games, names, str(DISK1612))


def _text(shot: Shot, row: int) -> str:
    return bytes(c for c, _ in shot.cells[row - 1]).decode("cp437")


CASES = {
    # two names: the second game's table has two rows, the new one second
    "colour": (trace.Settings(time=(10, 0, 3, 0), colour_switch=True, sound=False, demo=False,
                              human="simple", seconds=60), 2),
    # a score below 0 (no rows, no name), a name, then two rows; sound on: the name's
    # time comes from the music timer's ticks
    "mono": (trace.Settings(time=(17, 12, 42, 0), colour_switch=False, sound=True, demo=False,
                            human="random:17", seconds=40), 3),
}


@needs_originals
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tables_screens_are_the_originals_cell_for_cell(name: str) -> None:
    settings, games = CASES[name]
    events, originals = _original(settings, games)
    game, pythons = python_screens(settings, frames(events))
    assert first_difference(originals, pythons) is None
    last = [s for s in originals if s.line == 1670][-1]
    assert last.game == games
    assert "PLAYER" in _text(last, 3) and "PLAYER" in _text(last, 4)     # two rows
    assert len([s for s in originals if s.line == 5950]) == 2            # two names typed
    if name == "mono":
        assert [s.line for s in originals if s.game == 1] == [1640, 1670]    # no name below 0


# Key scripts for the original (pcemu.keys) and the same keys for the Python game's hook.
# The tracer types at line 5910, before line 5920 empties the BIOS's key buffer, so a
# script's first byte must not make a character (an upper-case letter starts with
# Shift's make code).  The first script is as many key bytes as PLAYER and Enter (26),
# so it is typed in the time the Python game counts for a name and its WHEN is compared
# too; the second (112 bytes) is compared where it is typed (line 5950), before its WHEN.
EDITS = ["A{HOME} B{TAB}C{BKSP}{BKSP}{ENTER}",
         "ABCDEFGHIJKL{ESC}ABCD{LEFT}{LEFT}{INS}X{LEFT}Y{END}{RIGHT}Z{HOME}{DEL}{ENTER}"]


def _keys(script: str) -> list[str]:
    """The editor's keys of a key script: {NAME}s and characters."""
    keys, rest = [], script
    while rest:
        if rest[0] == "{":
            end = rest.index("}")
            keys.append(rest[1:end])
            rest = rest[end + 1:]
        else:
            keys.append(rest[0])
            rest = rest[1:]
    return keys


@needs_originals
def test_a_name_edited_at_the_prompt_is_echoed_as_the_original_echoes_it() -> None:
    """The runtime's line editor: TAB to a multiple of 8, BKSP, ESC, the arrows, INS
    (ended by a cursor move), DEL, RIGHT past the end; and line 5980's quirk: a name
    that starts with a space is kept as one space."""
    settings = trace.Settings(time=(3, 14, 33, 6), colour_switch=False, sound=False, demo=False,
                              human="random:3", seconds=40)
    assert sum(len(a.codes) for a in parse_script(EDITS[0])) == sum(
        len(a.codes) for a in parse_script(original.NAME + "{ENTER}"))
    events, originals = _original(settings, 2, EDITS)
    game, pythons = python_screens(settings, frames(events), [_keys(s) for s in EDITS])
    wanted = [(1, 5910), (1, 5920), (1, 5950), (1, 1670), (2, 5910), (2, 5920), (2, 5950)]
    compared = [s for s in originals if (s.game, s.line) in wanted]
    assert [(s.game, s.line) for s in compared] == wanted
    python = {(s.game, s.line): s for s in pythons}
    for shot in compared:
        assert differences(shot, python[shot.game, shot.line]) == [], f"game {shot.game}, line {shot.line}"
    assert _text(compared[3], 3).startswith("  1" + " " * 48)            # the name kept as " "
    assert game.scores.slots[2].name == " "                            # (moved down by game 2)


def test_time_string_rounds_to_the_second_as_time_dollar_does() -> None:
    """TIME$ (062B:3B07) adds a second from 50 hundredths, carried, never wrapped."""
    assert scores.time_string(10, 0, 17, 49) == "10:00:17"
    assert scores.time_string(10, 0, 17, 50) == "10:00:18"
    assert scores.time_string(10, 59, 59, 68) == "11:00:00"
    assert scores.time_string(23, 59, 59, 99) == "24:00:00"


def test_a_game_over_midnight_counts_its_time_across_it() -> None:
    """Line 5710: TIME below 0 gets a day (86400 s) added."""
    table = scores.HighScores()
    table.tstart = scores.rng.timer(23, 59, 50, 0)
    table.tend = scores.rng.timer(0, 0, 5, 0)
    assert table.seconds() == 15


def test_the_terminal_hands_the_name_prompt_its_keys_as_typed() -> None:
    """terminal.Session.name_key: lower case kept, Backspace, arrows, Delete, Esc, Enter;
    the screen is shown before each key; the input's end quits."""
    from games_py.meteors import terminal
    display = TextDisplay()
    session = terminal.Session(trace.Settings(colour_switch=True, demo=False),
                               CharacterKeys("ab\x7f\x1b[D\x1b[3~\x1b\r"), display, None, clock=lambda: (12, 0, 0, 0))
    keys = [session.name_key(session.game) for _ in range(7)]
    assert keys == ["a", "b", "BKSP", "LEFT", "DEL", "ESC", "ENTER"]
    assert len(display.shown) == 7
    with pytest.raises(terminal.Quit):
        session.name_key(session.game)


class _Player(EscapeReader):
    """A terminal for a whole session: at each frame now and then a keypad arrow (8, 2,
    4, 6), at the waits for a key (PRESS ANY KEY, the name prompt) ``typed``, then the end
    of the input."""

    def __init__(self, typed: str) -> None:
        self.typed = list(typed)
        self.reads = 0

    def _read(self, timeout, wake=True):
        if timeout is None:
            return self.typed.pop(0) if self.typed else None
        self.reads += 1
        return "8246"[self.reads // 3 % 4] if self.reads % 3 == 0 and timeout != ESCAPE_WAIT else None


def test_play_asks_the_name_and_shows_it_in_the_table(monkeypatch) -> None:
    """A session in the terminal to its second name prompt (ten games, about 1.4 s): the
    first name as typed (lower case kept), in the table the prompt of the next shows
    (the input's end there quits: the farewell follows)."""
    from games_py.meteors import terminal
    monkeypatch.setattr(terminal, "FRAME_SECONDS", 0.0)
    monkeypatch.setattr(terminal, "TABLE_SECONDS", 0.0)
    display = TextDisplay()
    session = terminal.Session(trace.Settings(colour_switch=True, demo=False), _Player(" Ann\r"), display,
                               None, clock=lambda: (12, 0, 0, 0))
    session.run()
    rows = [screen for screen in display.shown if screen.startswith("HIGH SCORES")][-1].splitlines()
    assert session.game.score > 0                                # at the next name prompt
    assert rows[0].startswith("HIGH SCORES") and rows[2].startswith("  1  Ann ")
    assert rows[16] == "WHAT IS YOUR NAME?".ljust(80)
    assert any(screen.splitlines()[16].startswith("WHAT IS YOUR NAME? Ann") for screen in display.shown)
