"""The game port, 201h, with no joystick attached: every bit reads 1."""
from __future__ import annotations


class GamePort:
    ports = (0x201,)

    def read(self, port: int) -> int:
        return 0xFF

    def write(self, port: int, value: int) -> None:
        pass        # a write starts the one-shots; with no stick they never end
