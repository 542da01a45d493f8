"""Running the machine in a text terminal (curses), for machines with no display.

The 80x25 text screen is drawn with the CP437 characters shown as Unicode and the
CGA colours mapped onto the terminal's eight; keys typed in the terminal are
sent to the machine as the scancodes a PC keyboard would send.  Virtual time is
paced to wall time.  Ctrl-] quits.
"""
from __future__ import annotations

import curses
import time

from pcemu import keys as keylib
from pcemu.cp437 import CP437

QUIT_KEY = 0x1D                  # Ctrl-]
# CGA colour index -> curses colour (the terminal has no brown or bright variants)
CGA_TO_CURSES = [curses.COLOR_BLACK, curses.COLOR_BLUE, curses.COLOR_GREEN, curses.COLOR_CYAN,
                 curses.COLOR_RED, curses.COLOR_MAGENTA, curses.COLOR_YELLOW, curses.COLOR_WHITE] * 2
CURSES_KEYS = {
    curses.KEY_UP: "UP", curses.KEY_DOWN: "DOWN", curses.KEY_LEFT: "LEFT", curses.KEY_RIGHT: "RIGHT",
    curses.KEY_HOME: "HOME", curses.KEY_END: "END", curses.KEY_PPAGE: "PGUP", curses.KEY_NPAGE: "PGDN",
    curses.KEY_IC: "INS", curses.KEY_DC: "DEL", curses.KEY_BACKSPACE: "BKSP", curses.KEY_ENTER: "ENTER",
    **{curses.KEY_F0 + i: f"F{i}" for i in range(1, 13)},
}


def scancodes_for_terminal_key(key: int) -> list[int] | None:
    if key in CURSES_KEYS:
        return keylib.scancodes_for_name(CURSES_KEYS[key])
    if key in (10, 13):
        return keylib.scancodes_for_name("ENTER")
    if key in (8, 127):
        return keylib.scancodes_for_name("BKSP")
    if key == 27:
        return keylib.scancodes_for_name("ESC")
    if 1 <= key <= 26 and key not in (9,):
        return keylib.scancodes_for_name("CTRL+" + chr(key + 64))
    if 0 <= key < 256:
        try:
            return keylib.scancodes_for_char(chr(key))
        except keylib.KeyScriptError:
            return None
    return None


def run_terminal(machine, frame_seconds: float = 1 / 30) -> None:
    curses.wrapper(_loop, machine, frame_seconds)


def _loop(stdscr, machine, frame_seconds: float) -> None:
    curses.curs_set(1)
    stdscr.nodelay(True)
    stdscr.keypad(True)
    pairs = {}
    if curses.has_colors():
        curses.start_color()

    def attribute(attr: int) -> int:
        if not curses.has_colors():
            return curses.A_REVERSE if attr & 0x70 == 0x70 else 0
        fg, bg = CGA_TO_CURSES[attr & 0x0F], CGA_TO_CURSES[(attr >> 4) & 0x07]
        if (fg, bg) not in pairs:
            if len(pairs) + 1 >= curses.COLOR_PAIRS:
                return 0
            curses.init_pair(len(pairs) + 1, fg, bg)
            pairs[(fg, bg)] = len(pairs) + 1
        return curses.color_pair(pairs[(fg, bg)]) | (curses.A_BOLD if attr & 0x08 else 0)

    start_wall = time.monotonic()
    start_ticks = machine.ticks
    while True:
        while True:
            key = stdscr.getch()
            if key == -1:
                break
            if key == QUIT_KEY:
                return
            codes = scancodes_for_terminal_key(key)
            if codes:
                machine.send_keys(codes)
        target = start_ticks + (time.monotonic() - start_wall) * 18.2065
        if machine.ticks < target:
            machine.run(min(target - machine.ticks, 9.0))
        rows, cols = stdscr.getmaxyx()
        for r, row in enumerate(machine.screen_cells()[:rows]):
            for c, (ch, attr) in enumerate(row[:cols - (1 if r == rows - 1 else 0)]):
                try:
                    stdscr.addstr(r, c, CP437[ch], attribute(attr))
                except curses.error:
                    pass
        cursor = machine.memory.read_word(0x450 + 2 * machine.memory[0x462])
        try:
            stdscr.move(min(cursor >> 8, rows - 1), min(cursor & 0xFF, cols - 1))
        except curses.error:
            pass
        stdscr.refresh()
        time.sleep(frame_seconds)
