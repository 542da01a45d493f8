"""Tracing the original Tommy's Meteors (METEORS.EXE on PC-SIG disk #1612).

The unmodified program runs in pcemu's exact machine; the tracer only watches it
at BASIC statements (pcemu.trace.qbasic: the compiler's INT 3 before every
statement) and reads the program's own variables in DGROUP.  Addresses, lines
and what they mean: docs/meteors-internals.md.

* the seed: just before DOS answers the INT 21h AH=2Ch of ``RANDOMIZE TIMER``
  (line 120) the clock is set to --time, so that is what the program reads;
* a frame is one call of the meteor's step (GOSUB 1100, first statement line
  1110): the meteor has its new place, the player has not moved yet;
* the other events: a new meteor (line 720, its path chosen), a game's start
  (line 510), a level change (line 3330), the player hit (line 1420) or caught
  by new blocks (line 720 with FLAG set and no hit), and the game's end (1610).
"""
from __future__ import annotations

import functools

from games_py import tracing
from games_py.meteors import timing, trace
from games_py.qbasic.mbf import MBF
from games_py.tracing import TraceFailure
from pcemu.keys import parse_script
from pcemu.trace.qbasic import QuickBasicProcess

PROGRAM = "METEORS.EXE"
PROGRAM_MD5 = "0844b2feecda6dc60909a4262b086a3c"      # Tommy's Meteors, disk #1612

# BASIC lines (from the program's statement table)
LINE_GAME_START = 510          # after GAME = GAME + 1, the level and the meteor's character
LINE_METEOR = 720              # GOSUB 780: the meteor's path is chosen
LINE_STEP = 1110               # first statement of the step (GOSUB 1100)
LINE_HIT = 1430                # the player is hit (line 1210 jumped to 1420)
LINE_LEVEL = 3330              # after LEVEL = LEVEL - 1 (the countdown ran out)
LINE_GAME_OVER = 1620          # after HIGH = score
LINE_ATE_BLOCK, LINE_ATE_METEOR = 3010, 3060
LINE_BLOCKS_DRAWN = 4000       # COLOR 7,0 after the blocks' rows were printed
LINE_NAME = 5910               # PRINT "WHAT IS YOUR NAME? ": a top-10 score, not in demo mode
LINE_ANY_KEY = 3560            # the loop that waits for a key at PRESS ANY KEY TO START (game 1)
LINE_SHOW_PAUSE = 4410         # the show's 1.5 s wait (T = TIMER: WHILE ABS(TIMER - T) < 1.5)
NAME = "PLAYER"
KEY_LINES = {4950: "UP", 4990: "LEFT", 5030: "RIGHT", 5070: "DOWN"}   # D$ = ... in ON KEY(11-14)
RESEED_LINES = (4940, 4980, 5020, 5060)  # IF RND < .1 THEN RANDOMIZE TIMER (2nd statement)
SOUND_LINES = {5110: "fall", 5150: "hit", 5180: "absorbed", 5220: "ate_block",
               5250: "ate_meteor", 5280: "level"}

# DGROUP offsets (docs/meteors-internals.md, section 4)
RND_STATE = 0x0850
LEVEL, GAME, HIGH, METEOR_CHAR = 0x0F9E, 0x0FA4, 0x0FA6, 0x0FA8
SCORE, PX, PY, FLAG = 0x0FAE, 0x0FB2, 0x0FB4, 0x0FB6
Y1, X1, X2, Y2 = 0x0FBC, 0x0FC0, 0x0FC4, 0x0FC8
MX, MY, ABSORBED = 0x0F1E, 0x0FE2, 0x0FE0

DEMO, DIRECTION = 0x0FF2, 0x0FF6
SOUND_ON, COLOUR, FAST = 0x0F2E, 0x0F28, 0x0F26
COUNTDOWN, BLOCK = 0x101C, 0x0F92
TOP_ROW, BOTTOM_ROW = 0x1022, 0x1020
FREQUENCY, PITCH = 0x108E, 0x107C
BIOS_TICKS = 0x046C

TICK_HZ = 1_193_182 / 65536


def read_program(disk: str) -> bytes:
    """METEORS.EXE from the disk image (a catalogue name such as 1612, or a path)."""
    return tracing.read_program(disk, PROGRAM, PROGRAM_MD5, "Tommy's Meteors as on PC-SIG #1612")


class MeteorsTracer:
    """Run the original with ``settings`` and collect its events for ``seconds`` of
    virtual time after the first game starts (or ``games`` games, if that comes first)."""

    def __init__(self, settings: trace.Settings, disk: str = "1612") -> None:
        from pcemu.machine import Machine
        self.settings = settings
        self.machine = Machine(disks=[f"B:{disk}"], video="cga")
        self.process = QuickBasicProcess(self.machine, tracing.program_image(read_program(disk)))
        self.events: list[dict] = []
        self.frame: dict | None = None
        self.frames = 0
        self.total_frames = 0
        self.games_done = 0
        self.done = False
        self.seed_read: tuple[int, int, int, int] | None = None
        self.game_tick = 0
        self.stop_tick: float | None = None
        self.keys: list[str] = []
        self.space_pressed = False
        p = self.process
        tracing.watch_seed(p, settings.time, self._seed_read, self._seeded)
        p.at_line(LINE_GAME_START, self._game_start)
        p.at_line(LINE_STEP, self._step)
        p.at_line(LINE_HIT, self._hit)
        p.at_line(LINE_LEVEL, self._level)
        p.at_line(LINE_GAME_OVER, self._game_over)
        p.at_line(LINE_BLOCKS_DRAWN, self._blocks)
        p.at_line(LINE_ATE_BLOCK, lambda: self._ate("block"))
        p.at_line(LINE_ATE_METEOR, lambda: self._ate("meteor"))
        offsets = sorted(o for o, line in p.image.line_offsets.items() if line == LINE_METEOR)
        p.at_offset(offsets[0], self._new_meteor)   # GOSUB 780: the path is chosen
        self.policy = None
        if settings.human is not None:
            from games_py.meteors.human import policy_from
            self.policy = policy_from(settings.human)
            p.at_line(LINE_NAME, self._type_name)
            for line, name in KEY_LINES.items():
                p.at_line(line, functools.partial(self._key_handled, name))
            for line in RESEED_LINES:
                statements = sorted(o for o, number in p.image.line_offsets.items() if number == line)
                p.at_offset(statements[1], self._reseeded)
        for line, name in SOUND_LINES.items():
            p.at_line(line, functools.partial(self._sound, name))
        # a human player: the space goes in at line 3560 (_press_any_key), with sound off F1
        # behind it (the demo's F2 and F1, and F1 after a show midnight cut short, are typed
        # by the run loop: timing.keys_at_key_loop)
        self.space_at_key_loop = timing.keys_at_key_loop(settings)
        if self.space_at_key_loop:
            p.at_line(LINE_ANY_KEY, self._press_any_key)
        self.hooked_in_show = False
        if self.space_at_key_loop and not settings.sound:
            p.at_line(LINE_SHOW_PAUSE, self._hook_in_show)

    # -- running ----------------------------------------------------------------------
    def run(self) -> list[dict]:
        m, s = self.machine, self.settings
        command = "B:{ENTER}METEORS" + {None: "", True: " /C", False: " /M"}[s.colour_switch] + "{ENTER}"
        if self.space_at_key_loop:
            m.type(command)
            m.run_until(condition=lambda _: self.space_pressed, max_ticks=18.2065 * 120)
        else:
            m.type(command + "{WAIT:PRESS ANY KEY}")
        if self.seed_read != s.time:
            raise TraceFailure(f"the program read {self.seed_read} at RANDOMIZE TIMER, not {s.time}")
        if not self.space_at_key_loop:
            m.type(("{F1}{TICKS:20}" if not s.sound else "") + ("{F2}{TICKS:20}" if s.demo else "") + " ")
        if s.keys:
            m.type(s.keys)
        limit = None
        while not self.done:
            m.run(1.0)
            while self.keys:
                m.type(self.keys.pop(0))
            if self.stop_tick is None and s.frames is None and len(self.events) > 1:
                self.stop_tick = self._bios_ticks() + s.seconds * TICK_HZ
            if limit is None:
                limit = m.ticks + TICK_HZ * (s.seconds + (s.frames or 0) + 600)
            if m.ticks > limit:
                raise TraceFailure("the run went on far longer than asked; screen:\n" + m.screen_text())
        self.process.detach()
        return self.events

    def _bios_ticks(self) -> int:
        return self.machine.memory.rw(0, BIOS_TICKS) | self.machine.memory.rw(0, BIOS_TICKS + 2) << 16

    # -- reading ----------------------------------------------------------------------
    def _int(self, offset: int) -> int:
        return self.process.integer(offset)

    def _single(self, offset: int) -> MBF:
        return MBF(self.process.bytes_at(offset, 4))

    def _single_int(self, offset: int) -> int:
        return int(self._single(offset).to_float())

    def _rnd(self) -> int:
        return int.from_bytes(self.process.bytes_at(RND_STATE, 3), "little")

    # -- the seed ---------------------------------------------------------------------
    def _seed_read(self, time: tuple[int, int, int, int]) -> None:
        self.seed_read = time

    def _seeded(self) -> None:
        s = self.settings
        self.events.append(trace.start_event(s, self._rnd(), "original",
                                              fast=None))

    # -- events -----------------------------------------------------------------------
    def _game_start(self) -> None:
        if self.done:
            return
        self.game_tick = self._bios_ticks()
        self.frames = 0
        if self.events and self.events[0]["event"] == "start":
            fast = self.events[0]["fast"] = self._int(FAST) != 0
            self.events[0]["metadata_keys"] = trace.metadata_keys(self.settings, fast)
        self.events.append({"event": "game_start", "game": self._int(GAME), "level": self._int(LEVEL),
                            "char": self._int(METEOR_CHAR), "rnd": self._rnd(),
                            "bios_tick": self.game_tick})

    def _step(self) -> None:
        if self.stop_tick is not None and self._bios_ticks() >= self.stop_tick:
            self._stop()                  # the time asked for is over: at a frame's start
            return
        if self.done:
            return
        if self.settings.frames is not None and self.total_frames >= self.settings.frames:
            self._stop()
            return
        self.total_frames += 1
        self.frames += 1
        self.frame = {
            "event": "frame", "n": self.frames, "tick": self._bios_ticks() - self.game_tick,
            "player": [self._int(PX), self._int(PY)], "dir": self.process.string(DIRECTION),
            "meteor": [self._single_int(MX), self._single_int(MY)],
            "score": self._int(SCORE), "countdown": self._int(COUNTDOWN),
            "level": self._int(LEVEL), "game": self._int(GAME), "rnd": self._rnd()}
        self.events.append(self.frame)
        if self.policy is not None:
            self._press(self.policy.choose(self.frame))

    def _press(self, name: str | None) -> None:
        """The policy's key goes to the keyboard at once, at the frame's first statement:
        IRQ 1 comes before the next statement, whose INT 3 runs the ON KEY handler."""
        if name is not None:
            self._keys_now(human_key(name))

    def _keys_now(self, script: str) -> None:
        """``script``'s scancodes to the keyboard at once, at the statement running now."""
        codes = [c for action in parse_script(script) for c in action.codes]
        self.machine.send_keys(codes)
        # end the slice here, so the machine offers the scancode and takes IRQ 1 before
        # the program's next instruction, instead of whenever the slice would have ended
        self.machine.cpu.request_stop()

    def _press_any_key(self) -> None:
        """A human player's space that ends PRESS ANY KEY TO START goes to the keyboard at
        the key loop's first pass, a point of the program, so the first game's start
        depends on the program alone and not on where the tracer's run loop saw the text
        (up to half a tick later).  With sound off F1 follows it at once: the keyboard
        offers its make code 2 ms after the space's break, and its ON KEY(1) handler
        (lines 4600-4620: SOUND.ON = NOT SOUND.ON) runs during the first level screen,
        before its T0 (docs/meteors-internals.md, section 6)."""
        if not self.space_pressed:
            self.space_pressed = True
            self._keys_now(" " if self.settings.sound else " {F1}")

    def _hook_in_show(self) -> None:
        """With sound off (a human player), F1 twice at the show's 1.5 s wait: sound off and
        on again, so nothing else changes, but the runtime hooks INT 1Ch at its first ON KEY
        handler, and the BIOS tick's INT 1Ch then reads the joystick's buttons (062B:7061,
        ON STRIG) at every tick (timing.TICK_HOOK).  The keys were put here while pcemu's BIOS
        had no INT 15h AH=84h, whose reads then saw the interrupted instruction's AL as
        presses, each with an event poll at the next statement: typed here those were over
        during the wait (28 ticks).  The BIOS now reads the game port, no button is pressed,
        and the keys stay so that the hook begins where the model has it
        (docs/meteors-internals.md, section 6)."""
        if not self.hooked_in_show:
            self.hooked_in_show = True
            self._keys_now("{F1}{F1}")

    def _type_name(self) -> None:
        """The name for the high-score table goes to the keyboard at once, at the prompt's
        statement, so that how long the prompt lasts depends on the program alone, not on
        where the tracer's run loop happens to be (a tick either way)."""
        self._keys_now(NAME + "{ENTER}")

    def _key_handled(self, name: str) -> None:
        if self.done or self.frame is None:
            return
        self.frame["key"] = name
        self.frame["rnd_after_key"] = self._rnd()

    def _reseeded(self) -> None:
        if not self.done and self.frame is not None:
            self.frame["reseed"] = True

    def _ate(self, what: str) -> None:
        if self.done:
            return
        if self.frame is not None:
            self.frame["ate"] = what

    def _sound(self, name: str) -> None:
        if self.done:
            return
        if self.frame is not None:
            self.frame.setdefault("sound", []).append(name)

    def _new_meteor(self) -> None:
        if self.done:
            return
        self.events.append({"event": "meteor", "from": [self._single_int(X1), self._single_int(Y1)],
                            "to": [self._single_int(X2), self._single_int(Y2)], "rnd": self._rnd()})

    def _blocks(self) -> None:
        if self.done:
            return
        self.events.append({"event": "blocks", "char": self._int(BLOCK),
                            "rows": [self._int(TOP_ROW), self._int(BOTTOM_ROW)]})

    def _hit(self) -> None:
        if self.done:
            return
        self.events.append({"event": "hit", "player": [self._int(PX), self._int(PY)],
                            "meteor": [self._single_int(MX), self._single_int(MY)]})

    def _level(self) -> None:
        if self.done:
            return
        self.events.append({"event": "level", "level": self._int(LEVEL), "score": self._int(SCORE),
                            "tick": self._bios_ticks() - self.game_tick})

    def _game_over(self) -> None:
        if self.done:
            return
        self.events.append({"event": "game_over", "game": self._int(GAME), "score": self._int(SCORE),
                            "high": self._int(HIGH), "frames": self.frames,
                            "tick": self._bios_ticks() - self.game_tick})
        self.games_done += 1


    def _stop(self) -> None:
        self.done = True
        self.machine.cpu.request_stop()


def human_key(name: str) -> str:
    from games_py.meteors.human import KEY_NAMES
    return KEY_NAMES[name]


def trace_original(settings: trace.Settings, disk: str = "1612") -> list[dict]:
    return MeteorsTracer(settings, disk).run()


def snapshot_at(settings: trace.Settings, offset: int, missing: str,
                disk: str = "1612") -> tuple[bytes, dict[str, int], int, int]:
    """Memory, registers, load segment and DGROUP where the session first reaches the INT 3
    at ``offset`` - 1 (a statement's start), for the probes that run one statement of the
    original's runtime in a bare Unicorn; ``missing`` says what was not met."""
    tracer = MeteorsTracer(settings, disk)
    taken: list = []

    def at_statement() -> None:
        if not taken:
            process = tracer.process
            taken.append((bytes(tracer.machine.memory.read(0, 0x100000)), tracer.machine.cpu.registers(),
                          process.load_segment, process.dgroup))
            tracer._stop()

    tracer.process.at_offset(offset - 1, at_statement)
    tracer.run()
    if not taken:
        raise TraceFailure(missing)
    return taken[0]
