"""Scripted players for your side (no F2): a policy looks at the frame, as the
trace shows it, and may press one of the four arrow keys.

The key is pressed at the frame's first statement (line 1110) and its ON KEY
handler runs at the next statement, before the frame's move, as the Python game
applies it.  Each press costs an RND (line 4940: IF RND < .1 THEN RANDOMIZE
TIMER); the reseed reads the time of day at the tick the Python game's clock says
(docs/meteors-internals.md, section 6).

``simple``: step sideways away from a meteor close above, else keep still.
``random:SEED``: a seeded generator presses a random arrow in about one frame of four.
Neither presses keys in two frames running (``Rested``).
"""
from __future__ import annotations

import random
from typing import Protocol

ARROWS = ("UP", "LEFT", "RIGHT", "DOWN")
# the arrows of the numeric keypad, as METEORS.DOC says (no E0 prefix: an 83-key keyboard's)
KEY_NAMES = {"UP": "{KP8}", "LEFT": "{KP4}", "RIGHT": "{KP6}", "DOWN": "{KP2}"}


class Policy(Protocol):
    def choose(self, frame: dict) -> str | None:
        """An arrow (UP, LEFT, RIGHT, DOWN) to press after this frame, or None."""


class Rested:
    """No key two frames running: the keyboard controller offers a byte 2 ms after the
    last was read, and two frames can come closer than that (a level's first frame),
    so a key pressed at once after another would reach the program a frame late."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.last: tuple[int, int] | None = None     # (game, frame) of the last press

    def choose(self, frame: dict) -> str | None:
        if self.last == (frame["game"], frame["n"] - 1):
            self.policy.choose(frame)                 # the policy still sees every frame
            return None
        key = self.policy.choose(frame)
        if key is not None:
            self.last = (frame["game"], frame["n"])
        return key


class Simple:
    def choose(self, frame: dict) -> str | None:
        (px, py), (mx, my) = frame["player"], frame["meteor"]
        if my < py and abs(mx - px) <= 2 and py - my <= 6:
            wanted = "LEFT" if mx >= px else "RIGHT"
            return None if frame["dir"] == wanted else wanted
        return None


class Random:
    def __init__(self, seed: int) -> None:
        self.generator = random.Random(seed)

    def choose(self, frame: dict) -> str | None:
        if self.generator.random() < 0.25:
            return self.generator.choice(ARROWS)
        return None


def policy_from(spec: str) -> Policy:
    if spec == "simple":
        return Rested(Simple())
    name, _, seed = spec.partition(":")
    if name == "random" and seed.lstrip("-").isdigit():
        return Rested(Random(int(seed)))
    raise ValueError(f"the human policies are simple and random:SEED, not {spec!r}")
