"""The Python Meteors' screens against the original's in pcemu, cell for cell (character
and attribute): every frame of sessions in colour and on a monochrome display, and what
``python -m games_py.meteors play`` shows around the game: the startup show's last picture
at PRESS ANY KEY, QUIT? and the row put back, F5's pages, and the farewell.  About 10 s."""
from __future__ import annotations

import pytest

from games_py.meteors import original, terminal, trace
from games_py.meteors.game import Meteors
from games_py.tui.terminal import EscapeReader
from pcemu.cp437 import CP437
from tests.machine_helpers import DISK1612, needs_originals

F5, F7 = "\x1b[15~", "\x1b[18~"


def cells_of(machine) -> list[list[tuple[str, int]]]:
    return [[(CP437[c], a) for c, a in row] for row in machine.screen_cells()]


def game_cells(game: Meteors) -> list[list[tuple[str, int]]]:
    return terminal.picture(game).cells


def differences(a, b) -> list[tuple]:
    return [(r, c, a[r][c], b[r][c]) for r in range(25) for c in range(80) if a[r][c] != b[r][c]]


@needs_originals
@pytest.mark.parametrize("settings", [
    trace.Settings(time=(12, 0, 0, 0), colour_switch=True, sound=True, demo=True, seconds=40),
    trace.Settings(time=(22, 10, 0, 50), colour_switch=False, sound=False, human="random:4", seconds=40),
    trace.Settings(time=(7, 30, 0, 0), colour_switch=False, sound=True, demo=True, seconds=40),
], ids=["colour-demo", "mono-human", "mono-demo"])
def test_every_frame_looks_as_the_originals(settings) -> None:
    """At each frame's first statement (line 1110) both screens are the same: the blocks,
    the meteors' trails, the player, the status line with its colours (on a monochrome
    display the countdown's last 20 bright on black), level screens included."""
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    shots = {}
    tracer.process.at_line(original.LINE_STEP,
                           lambda: None if tracer.done else shots.setdefault(tracer.total_frames, cells_of(tracer.machine)))
    events = tracer.run()
    assert any(e["event"] == "level" for e in events)
    python = Meteors(settings)
    python.random.randomize_timer(*settings.time)
    seen = {}

    def stop(game: Meteors) -> bool:
        seen[game.total_frames] = game_cells(game)
        return game.total_frames > max(shots)
    python.start()
    python.play(stop)
    assert len(shots) > 400
    for n in sorted(shots):
        assert differences(shots[n], seen[n]) == [], f"frame {n}"


class Keys(EscapeReader):
    """Raw terminal input: each key when the session waits for one (timeout None), none
    while it paces the frames."""

    def __init__(self, *keys: str) -> None:
        self.keys = list(keys)

    def _read(self, timeout, wake=True):
        if timeout is not None:
            return None
        if not self.keys:
            raise AssertionError("the session waited for a key the test did not give")
        return self.keys.pop(0)


class Shown:
    def __init__(self) -> None:
        self.screens = []

    def show(self, screen) -> None:
        self.screens.append([list(row) for row in screen.cells])


def session_screens(settings: trace.Settings, *keys: str) -> list:
    """What ``play`` shows for ``keys``, typed at the title: every screen it drew."""
    shown = Shown()
    session = terminal.Session(settings, Keys(*keys), shown, str(DISK1612), clock=lambda: settings.time)
    session.run()
    return shown.screens


def original_at_title(settings: trace.Settings):
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    switch = {True: " /C", False: " /M"}[settings.colour_switch]
    tracer.machine.type(f"B:{{ENTER}}METEORS{switch}{{ENTER}}{{WAIT:PRESS ANY KEY}}{{TICKS:5}}")
    return tracer.machine


@needs_originals
@pytest.mark.parametrize("settings", [
    trace.Settings(time=(12, 0, 0, 0), colour_switch=True, sound=False),
    trace.Settings(time=(3, 17, 44, 12), colour_switch=True, sound=False),
    trace.Settings(time=(23, 0, 0, 0), colour_switch=False, sound=False),
], ids=["colour-noon", "colour-night", "mono"])
def test_the_title_quit_and_instructions_look_as_the_originals(settings) -> None:
    """The title (its rows' colours from RND), F7's QUIT? and N putting the row back, F5's
    two pages and Esc back to the title, F7 Y and the farewell: each screen as the
    original's."""
    m = original_at_title(settings)
    expected = [cells_of(m)]
    for keys in ("{F7}{TICKS:5}", "N{TICKS:5}", "{F5}{TICKS:20}", " {TICKS:10}", "{ESC}{TICKS:10}",
                 "{F7}{TICKS:5}", "Y{TICKS:40}"):
        m.type(keys)
        expected.append(cells_of(m))
    shown = session_screens(settings, F7, "N", F5, " ", "\x1b", F7, "Y")
    assert len(shown) == len(expected)
    for n, (original_screen, python_screen) in enumerate(zip(expected, shown)):
        if n == len(expected) - 1:          # the farewell, and DOS's prompt under it
            original_screen[19] = python_screen[19]
        assert differences(original_screen, python_screen) == [], f"screen {n}"


@needs_originals
def test_f2_at_the_title_changes_nothing_on_the_screen() -> None:
    """F2 (demo on, the score to 0) at PRESS ANY KEY: the title stays as it was."""
    settings = trace.Settings(time=(12, 0, 0, 0), colour_switch=True, sound=False)
    m = original_at_title(settings)
    before = cells_of(m)
    m.type("{F2}{TICKS:10}")
    assert differences(before, cells_of(m)) == []
    shown = session_screens(settings, "\x1bOQ", F7, "Y")
    assert shown[1][1:] == shown[0][1:]          # QUIT? over row 1 of the same title


class KeysAtFrame(Keys):
    """SPACE at the title, ``first`` at frame ``frame``'s tick (the wait before the next
    frame), the rest when the session waits for a key; ``session`` set before it runs."""

    def __init__(self, frame: int, first: str, *rest: str) -> None:
        super().__init__(" ", *rest)
        self.frame, self.first, self.session = frame, first, None

    def _read(self, timeout, wake=True):
        if timeout is None:
            return super()._read(None) if self.keys else "Y"     # QUIT? Y: the end
        if self.first is not None and self.session.game.total_frames == self.frame:
            key, self.first = self.first, None
            return key
        if self.first is None and not self.keys and self.session.game.total_frames > self.frame + 1:
            self.first = ""
            return F7                                            # the last answer given: F7
        return None


@needs_originals
@pytest.mark.parametrize("key, answers, colour", [
    ("F7", ("N",), True), ("F5", (" ", "{ESC}"), False)])
def test_quit_and_instructions_in_a_game_look_as_the_originals(key, answers, colour, monkeypatch) -> None:
    """F7 or F5 pressed at a frame's first statement (line 1110) of a demo game: QUIT? over
    the game's top row, or the instructions' pages over its rows 1-22, as the original."""
    monkeypatch.setattr(terminal, "FRAME_SECONDS", 0.0)
    settings = trace.Settings(time=(9, 15, 0, 0), colour_switch=colour, sound=True, demo=True, seconds=60)
    frame = 150
    tracer = original.MeteorsTracer(settings, str(DISK1612))
    m, pressed = tracer.machine, []

    def press() -> None:
        if tracer.total_frames == frame + 1 and not pressed:
            pressed.append(True)
            tracer._keys_now("{%s}" % key)
    tracer.process.at_line(original.LINE_STEP, press)
    m.type("B:{ENTER}METEORS" + (" /C" if colour else " /M") + "{ENTER}{WAIT:PRESS ANY KEY}{F2}{TICKS:20} ")
    m.run_until(condition=lambda _: bool(pressed), max_ticks=18.2 * 60)
    m.run(3.0)                       # the page is read from the disk line by line
    expected = [cells_of(m)]
    for answer in answers[:-1]:
        m.type(answer + "{TICKS:10}")
        expected.append(cells_of(m))
    keys = KeysAtFrame(frame, {"F7": F7, "F5": F5}[key],
                       *({"{ESC}": "\x1b", " ": " ", "N": "N"}[a] for a in answers))
    shown = Shown()
    session = terminal.Session(settings, keys, shown, str(DISK1612), clock=lambda: settings.time)
    keys.session = session
    session.run()
    screens = shown.screens
    start = next(i for i, s in enumerate(screens) if s[0][0][0] == ("Q" if key == "F7" else " ")
                 and "".join(ch for ch, _ in s[0]).strip() in ("QUIT?", "INSTRUCTIONS"))
    for n, original_screen in enumerate(expected):
        assert differences(original_screen, screens[start + n]) == [], f"screen {n}"
