"""The full-screen Rummi table on an 80x25 ``tui.screen.Screen``, in text-mode DOS style.

Rows (0-based): 0 the title bar (turn, pile, the computer's tray), 1-12 the series on the
table, numbered as the commands name them (an invalid one marked ``!``), 13 the rail of
your tray, 14-16 your tray, 17-22 the log (what happened, hints, the computer's account),
23 the command line, 24 the keys.  A piece is drawn as its text (``R5``) in its colour on
a white tile.  Drawing only reads what it is given.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from games_py.rummi.tiles import Tile, is_valid_series, sort_series
from games_py.tui.screen import COLUMNS, Screen

TITLE, LABEL, BAD, RAIL_COLOUR, LOG, ENTRY, KEYS = 0x1F, 0x0E, 0x4F, 0x06, 0x07, 0x0F, 0x30
TILE_COLOURS = {0: 0x70, 1: 0x71, 2: 0x76, 3: 0x74}     # black, blue, orange (brown), red
TABLE_TOP, TABLE_BOTTOM = 1, 12
RAIL = 13
TRAY_TOP, TRAY_ROWS = 14, 3
LOG_TOP, LOG_ROWS = 17, 6
ENTRY_ROW = 23
TILE_WIDTH = 4          # "R13" and a space
KEY_LEGEND = " F1 HELP  F2 HINT  F3 BACK  F4 OK  F5 TAKE  F6 SAVE  F7 QUIT  ENTER: TYPED MOVE"


@dataclass
class RummiTable:
    table: Sequence[Sequence[Tile]]
    tray: Sequence[Tile]
    title: str = ""
    tray_label: str = ""
    log: list[str] = field(default_factory=list)
    entry: str = ""
    keys: str = KEY_LEGEND


def put_tile(screen: Screen, row: int, column: int, tile: Tile) -> None:
    screen.put(row, column, f"{tile}".ljust(3), TILE_COLOURS[tile.colour])


def layout(table: Sequence[Sequence[Tile]]) -> list[tuple[int, int, int]]:
    """(series index, row, column) of each series, left to right then down; series that do
    not fit on the rows are left out (the title says how many)."""
    places, row, column = [], TABLE_TOP, 0
    for i, series in enumerate(table):
        width = 4 + TILE_WIDTH * len(series)
        if column and column + width > COLUMNS:
            row, column = row + 1, 0
        if row > TABLE_BOTTOM:
            break
        places.append((i, row, column))
        column += width + 1
    return places


def draw_rummi(screen: Screen, t: RummiTable) -> None:
    screen.clear()
    screen.put(0, 0, " " * COLUMNS, TITLE)
    screen.put(0, 1, "RUMMI", TITLE)
    screen.put(0, 8, t.title[:COLUMNS - 9], TITLE)
    places = layout(t.table)
    if not t.table:
        screen.put(TABLE_TOP + 5, 30, "the table is empty", LABEL)
    for i, row, column in places:
        series = sort_series(t.table[i])
        valid = is_valid_series(tuple(series))
        screen.put(row, column, f"{i + 1:2d}" + (":" if valid else "!"), LABEL if valid else BAD)
        for k, tile in enumerate(series):
            put_tile(screen, row, column + 4 + TILE_WIDTH * k, tile)
    if len(places) < len(t.table):
        screen.put(TABLE_BOTTOM, 60, f"+{len(t.table) - len(places)} series not shown", BAD)
    screen.put(RAIL, 0, "\u2500" * COLUMNS, RAIL_COLOUR)
    screen.put(RAIL, 2, f" {t.tray_label} ", LABEL)
    per_row = COLUMNS // TILE_WIDTH
    for k, tile in enumerate(t.tray[:per_row * TRAY_ROWS]):
        put_tile(screen, TRAY_TOP + k // per_row, TILE_WIDTH * (k % per_row), tile)
    if len(t.tray) > per_row * TRAY_ROWS:
        screen.put(TRAY_TOP + TRAY_ROWS - 1, 70, f"+{len(t.tray) - per_row * TRAY_ROWS} more", BAD)
    for r, line in enumerate(t.log[-LOG_ROWS:]):
        screen.put(LOG_TOP + r, 0, line[:COLUMNS], LOG)
    screen.put(ENTRY_ROW, 0, t.entry[-COLUMNS:], ENTRY)
    screen.put(24, 0, t.keys[:COLUMNS - 1].ljust(COLUMNS - 1), KEYS)
