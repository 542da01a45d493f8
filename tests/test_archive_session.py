"""Recorded sessions: a run saved with its inputs replays to the same screens, and a replay
that no longer matches (another disk, other inputs, another machine) says where."""
from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from pcemu.archive.session import Recorder, Replayer, Session, SessionError, replay
from pcemu.cli import main
from pcemu.events import MouseButton, MouseMove
from pcemu.machine import Machine
from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import assemble16
from tests.machine_helpers import DISK1612, needs_originals
from tests.xdisplay import x_display  # noqa: F401 (a fixture)

ECHO = """
top:
    mov ah, 0x08
    int 0x21
    cmp al, 0x1b
    je done
    mov dl, al
    mov ah, 0x02
    int 0x21
    jmp top
done:
    mov ax, 0x4c00
    int 0x21
"""


def echo_disk(tmp_path, name="echo.img"):
    image = FloppyImage(format_image("360K", label="ECHO"))
    handle = image.drive.create(["KEYS.COM"])
    handle.write(assemble16(ECHO))
    handle.close()
    return image.save(tmp_path / name)


def recorded_echo(tmp_path, keys="KEYS{ENTER}HELLO{TICKS:5}{ESC}"):
    disk = echo_disk(tmp_path)
    m = Machine(disks=[f"B:{disk}"])
    recorder = Recorder(m)
    m.type(keys)
    m.run(3)
    return disk, m, recorder.finish()


def test_a_replay_gives_the_same_screens_and_machine_state(tmp_path):
    _disk, m, session = recorded_echo(tmp_path)
    result = replay(session)
    assert result.matches, [d.message for d in result.divergences]
    assert result.inputs_checked == len(session.key_events) > 0
    assert result.machine.state_hash() == m.state_hash()
    assert "HELLO" in result.machine.screen_text()


def test_the_session_file_round_trips_and_names_the_disk_by_hash(tmp_path):
    disk, _m, session = recorded_echo(tmp_path)
    path = session.save(tmp_path / "run.session")
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert data["format"] == "pcemu-session"
    assert data["disks"][0]["letter"] == "B"
    import hashlib
    assert data["disks"][0]["sha256"] == hashlib.sha256(disk.read_bytes()).hexdigest()
    again = Session.load(path)
    assert again.events == session.events and again.end == session.end
    assert replay(path).matches


def test_other_keys_are_reported_at_the_first_screen_that_differs(tmp_path):
    _disk, _m, session = recorded_echo(tmp_path)
    keys = [e for e in session.events if e[0] == "keys"]
    # the E of HELLO (scancode 12h, shifted) becomes an A (1Eh)
    target = next(i for i, e in enumerate(session.events) if e[0] == "keys" and 0x12 in e[2]
                  and i > session.events.index(keys[5]))
    session.events[target][2] = [0x1E if c == 0x12 else 0x9E if c == 0x92 else c
                                 for c in session.events[target][2]]
    result = replay(session)
    first = result.first
    assert first is not None and first.what == "screen"
    assert first.event > target                       # seen before the next key, not earlier
    assert "HE" in first.expected_screen and "HA" in first.actual_screen
    assert "recorded" in first.describe(session.profile["ips"])


def test_a_changed_disk_is_refused_unless_forced(tmp_path):
    disk, _m, session = recorded_echo(tmp_path)
    data = bytearray(disk.read_bytes())
    data[-1] ^= 0xFF                                   # an unused sector: the run is unaffected
    changed = tmp_path / "changed.img"
    changed.write_bytes(bytes(data))
    result = Replayer(session, disks={"B": str(changed)}).run()
    assert result.machine is None and result.first.what == "disk"
    assert "not the recorded disk" in result.first.message
    forced = Replayer(session, disks={"B": str(changed)}, force=True).run()
    assert [d.what for d in forced.divergences] == ["disk"]    # and the screens still match


def test_a_changed_emulator_with_the_same_screens_is_a_note_not_a_failure(tmp_path):
    _disk, _m, session = recorded_echo(tmp_path)
    session.boot["state"] = "0" * 64                  # as if pcemu's memory layout had changed
    session.end["state"] = "0" * 64
    result = replay(session)
    assert result.matches
    assert [d.what for d in result.notes] == ["boot", "end state"]


def test_damaged_and_missing_sessions_are_clear_errors(tmp_path):
    with pytest.raises(SessionError, match="does not exist"):
        Session.load(tmp_path / "none.session")
    bad = tmp_path / "bad.session"
    bad.write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(SessionError, match="not a pcemu session"):
        Session.load(bad)
    bad.write_text(json.dumps({"format": "pcemu-session", "version": 99}))
    with pytest.raises(SessionError, match="version 99"):
        Session.load(bad)
    bad.write_text(json.dumps({"format": "pcemu-session", "version": 1, "profile": {}, "disks": [],
                               "boot": {"t": 0}, "events": [["keys", 1, [300], "x"]], "end": {"t": 1}}))
    with pytest.raises(SessionError, match="damaged"):
        Session.load(bad)


def test_record_and_replay_commands(tmp_path):
    disk = echo_disk(tmp_path)
    out = tmp_path / "run.session"
    runner = CliRunner()
    result = runner.invoke(main, ["record", str(disk), "KEYS", "--headless", "--keys", "HI{ESC}",
                                  "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists()
    good = runner.invoke(main, ["replay", str(out), "--print-screen"])
    assert good.exit_code == 0, good.output
    assert "every screen matches" in good.output and "HI" in good.output
    session = Session.load(out)
    session.events = [e if e[0] != "keys" or 0x17 not in e[2] else
                      ["keys", e[1], [0x2A, 0x18, 0x98, 0xAA], e[3]] for e in session.events]
    session.save(out)                                  # the I typed is now an O
    bad = runner.invoke(main, ["replay", str(out)])
    assert bad.exit_code == 1 and "divergence (screen)" in bad.output
    missing = runner.invoke(main, ["replay", str(tmp_path / "nothing.session")])
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_a_session_recorded_in_the_window_replays(tmp_path, x_display):
    """Keys typed into the pygame window (on Xvfb), with the window's own wall-clock pacing."""
    pygame = pytest.importorskip("pygame")
    from pcemu.frontend.window import run_window
    disk = echo_disk(tmp_path)
    m = Machine(disks=[f"B:{disk}"])
    recorder = Recorder(m)

    def press(scancode):
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, scancode=scancode, key=0, mod=0, unicode=""))

    def script(window):
        if window.frames == 2:
            for key in (pygame.KSCAN_K, pygame.KSCAN_E, pygame.KSCAN_Y, pygame.KSCAN_S,
                        pygame.KSCAN_RETURN):
                press(key)
        elif window.frames in (20, 27, 33):
            press(pygame.KSCAN_Z)

    run_window(m, frames=45, on_frame=script, sound=False)
    session = recorder.finish()
    assert "zzz" in m.screen_text()
    assert any(e[0] == "run" for e in session.events)          # the window's paced runs
    result = replay(session)
    assert result.matches, [d.describe(m.clock.ips) for d in result.divergences]


@needs_originals
def test_a_human_game_of_gin_rummy_replays_to_identical_screens(tmp_path):
    m = Machine(disks=[f"B:{DISK1612}"])
    recorder = Recorder(m)
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}N{WAIT:YOU'RE UP}"
           "D{WAIT:DISCARD WHICH CARD}1{TICKS:30}")
    session = recorder.finish()
    path = session.save(tmp_path / "gin.session")
    result = replay(path)
    assert result.matches, [d.describe(m.clock.ips) for d in result.divergences]
    assert result.inputs_checked == len(session.key_events)
    assert result.machine.screen_text() == m.screen_text()


@needs_originals
def test_a_game_of_gin_rummy_played_in_the_window_replays_headless_and_in_the_window(
        tmp_path, x_display, monkeypatch):
    """`pcemu record 1612 GINRUMMY -o FILE` in a real window (Xvfb): a person's keys typed as
    each prompt appears, at wall-clock moments; the session replays to identical screens
    headless and in the replay window.  The "person" is a frame hook posting key events."""
    pygame = pytest.importorskip("pygame")
    from pcemu.frontend import window as window_module
    K = pygame
    answers = [("COWBOY GIN?", [K.KSCAN_S]), ("OPEN HANDS?", [K.KSCAN_N]),
               ("(U) OR DECK (D)?", [K.KSCAN_D]), ("DISCARD WHICH CARD", [K.KSCAN_1])]
    seen = {}

    def person(window):
        machine = window.machine
        if answers and answers[0][0] in machine.screen_text():
            for key in answers.pop(0)[1]:
                for kind in (K.KEYDOWN, K.KEYUP):
                    pygame.event.post(pygame.event.Event(kind, scancode=key, key=0, mod=0, unicode=""))
        elif not answers:
            seen.setdefault("done", window.frames)
            if window.frames > seen["done"] + 20:
                window.running = False

    real_run_window = window_module.run_window
    def played(machine, **_options):
        window = real_run_window(machine, on_frame=person, sound=False, turbo=True, frames=3000)
        seen["screen"] = machine.screen_text()           # what the person saw at the end
        return window
    monkeypatch.setattr(window_module, "run_window", played)
    path = tmp_path / "gin-window.session"
    runner = CliRunner()
    recorded = runner.invoke(main, ["record", str(DISK1612), "GINRUMMY", "-o", str(path)])
    assert recorded.exit_code == 0, recorded.output
    assert not answers, f"the game stopped before {answers[0][0]!r}"
    session = Session.load(path)
    headless = replay(path)
    assert headless.matches, [d.describe(headless.machine.clock.ips) for d in headless.divergences]
    assert headless.inputs_checked == len(session.key_events) >= 4
    assert headless.machine.screen_text() == seen["screen"]
    monkeypatch.setattr(window_module, "run_window", real_run_window)
    shown = runner.invoke(main, ["replay", str(path), "--window", "--speed", "100"])
    assert shown.exit_code == 0 and "every screen matches" in shown.output, shown.output


@needs_originals
def test_gin_rummy_started_at_another_time_deals_other_cards_and_the_replay_says_so(tmp_path):
    """RANDOMIZE TIMER: the start time is part of the session."""
    m = Machine(disks=[f"B:{DISK1612}"])
    recorder = Recorder(m)
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}")
    session = recorder.finish()
    session.profile["time"] = "12:34:56.78"
    result = Replayer(session, keep_going=True).run()
    screens = [d for d in result.divergences if d.what == "screen"]
    assert screens, [d.what for d in result.divergences]
    last = screens[-1]
    differing = [row for row, (a, b) in enumerate(zip(last.expected_screen.splitlines(),
                                                      last.actual_screen.splitlines())) if a != b]
    assert set(differing) & {1, 2, 7, 8}              # the rows of the two hands' card faces


def test_the_replay_window_shows_the_run_and_it_still_matches(tmp_path, x_display):
    pytest.importorskip("pygame")
    _disk, _m, session = recorded_echo(tmp_path)
    path = session.save(tmp_path / "run.session")
    result = CliRunner().invoke(main, ["replay", str(path), "--window", "--speed", "50"])
    assert result.exit_code == 0, result.output
    assert "every screen matches" in result.output


def test_mouse_moves_and_buttons_are_recorded_and_replayed(tmp_path):
    disk = echo_disk(tmp_path)
    m = Machine(disks=[f"B:{disk}"], mouse=True)
    recorder = Recorder(m)
    m.run(2)
    m.input(MouseMove(320, 100))
    m.run(1)
    m.input(MouseButton(0, True))
    m.input(MouseButton(0, False))
    m.run(1)
    session = recorder.finish()
    mouse = [e[2:] for e in session.events if e[0] == "mouse"]
    assert mouse == [["move", [320, 100]], ["button", [0, 1]], ["button", [0, 0]]]
    calls = []

    def spy(machine):
        for method in ("move", "button"):
            original = getattr(machine.mouse, method)
            setattr(machine.mouse, method,
                    lambda *args, _o=original, _n=method: calls.append([_n, list(args)]) or _o(*args))

    result = Replayer(Session.from_json(session.to_json()), attach=spy).run()
    assert result.matches and calls == mouse


def test_a_one_drive_session_replays_on_one_drive_and_a_bad_count_is_refused(tmp_path):
    from pcemu.archive.session_checks import SessionCheckError, check_session
    disk = echo_disk(tmp_path)
    m = Machine(disks=[f"A:{disk}"])
    recorder = Recorder(m)
    m.type("KEYS{ENTER}HI{TICKS:5}{ESC}")
    m.run(3)
    session = recorder.finish()
    assert session.profile["floppy_drives"] == 1
    result = replay(session)
    assert result.matches and result.machine.floppy_drives == 1
    session.profile.pop("floppy_drives")          # as saved before the count was kept
    assert session.machine_arguments({"A": str(disk)})["floppy_drives"] == 2
    session.profile["floppy_drives"] = 3
    with pytest.raises(SessionCheckError, match="diskette drives"):
        check_session(session)
