"""The full-screen Cribbage table, drawn on an 80x25 ``tui.screen.Screen`` as a DOS
program draws in text mode: CP437 box characters and the PC's colour attributes.

Rows (0-based):

* 0      the title bar and the score limit;
* 1-7    the pegging board: 120 holes a player in groups of five, out along one row
         (holes 1-60) and back along the next (61-120), the start holes and the game hole
         at the left end; each player has two pegs, the front one (``■``) in the hole of
         the score and the back one (``•``) in the hole it leapt from;
* 8      names, scores and the dealer;
* 9-13   the opponent's hand (backs), the crib and the starter (the cut);
* 14-18  the play: the cards of the current series and the count;
* 19-23  your hand, its hot keys (1-6) above the cards;
* 9-23   right-hand side: the log of what happened and the prompt;
* 24     the keys.

Drawing only reads what it is given; it decides nothing.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Sequence

from games_py.cards import Card
from games_py.tui import cards
from games_py.tui.screen import COLUMNS, Screen

TITLE = 0x1F                 # bright white on blue
BOARD = 0x60                 # the wood: black on brown
HOLE = "\u00b7"              # CP437 FAh
FRONT, BACK = "\u25a0", "\u2022"          # CP437 FEh and 07h
PEG_COLOURS = (0x6C, 0x69)   # bright red and bright blue pegs on the wood
NAME_COLOURS = (0x0C, 0x09)
SELECTED = 0x1E             # a card chosen for the crib: yellow on blue
LABEL = 0x0E
LOG, PROMPT, KEYS = 0x07, 0x0F, 0x30

BOARD_TOP, BOARD_ROWS = 1, 7
LANES = {0: (2, 3), 1: (6, 5)}   # each player's (out, back) rows: mirrored across the street
STREET = 4
LOG_COLUMN, LOG_WIDTH, LOG_TOP, LOG_BOTTOM = 50, 30, 9, 21
PROMPT_ROWS = (22, 23)


def hole_column(hole: int) -> int:
    """The column of hole 1-60 (out) or 61-120 (back, under the hole 121 - ``hole``)."""
    h = hole if hole <= 60 else 121 - hole
    return 6 + (h - 1) + (h - 1) // 5


def hole_place(player: int, hole: int, limit: int) -> tuple[int, int]:
    """(row, column) of ``player``'s hole: 0 is a start hole, ``limit`` the game hole."""
    out, back = LANES[player]
    if hole <= 0:
        return out, 2
    if hole >= limit and limit == 121:
        return back, 2
    return (out if hole <= 60 else back), hole_column(hole)


def draw_board(screen: Screen, pegs: Sequence[tuple[int, int]], limit: int) -> None:
    """The board with both players' pegs; ``pegs[p]`` = (front hole, back hole)."""
    screen.put(BOARD_TOP, 0, "\u2554" + "\u2550" * 78 + "\u2557", BOARD)
    screen.put(BOARD_TOP + BOARD_ROWS - 1, 0, "\u255a" + "\u2550" * 78 + "\u255d", BOARD)
    for row in range(BOARD_TOP + 1, BOARD_TOP + BOARD_ROWS - 1):
        screen.put(row, 0, "\u2551" + " " * 78 + "\u2551", BOARD)
    for hole in range(10, 61, 10):          # the out holes numbered on the outer rails
        for row in (BOARD_TOP, BOARD_TOP + BOARD_ROWS - 1):
            screen.put(row, hole_column(hole) - len(str(hole)) + 1, str(hole), BOARD)
    for hole in range(70, 121, 10):         # the back holes along the street
        screen.put(STREET, hole_column(hole), str(hole), BOARD)
    for player in (0, 1):
        out, back = LANES[player]
        screen.put(out, 1, HOLE + HOLE, BOARD)               # the two start holes
        for hole in range(1, 121):
            row, column = hole_place(player, hole, 121)
            screen.put(row, column, HOLE, BOARD)
        game_row, game_column = hole_place(player, limit, limit)
        screen.put(game_row, game_column, "\u25cb" if limit == 121 else HOLE, BOARD)
    screen.put(STREET, 1, "GAME" if limit == 121 else "", BOARD)
    for player in (0, 1):
        front, back = pegs[player]
        colour = PEG_COLOURS[player]
        row, column = hole_place(player, back, limit)
        screen.put(row, column - (1 if back <= 0 else 0), BACK, colour)
        row, column = hole_place(player, front, limit)
        screen.put(row, column, FRONT, colour)


def draw_card(screen: Screen, row: int, column: int, card: Card | None,
              selected: bool = False) -> None:
    """A card 5 columns by 4 rows as the shared ``tui.cards`` draws it (None: face down);
    a card chosen for the crib is drawn yellow on blue."""
    if card is None:
        cards.draw_card(screen, row, column, None, face_up=False)
        return
    cards.draw_card(screen, row, column, card)
    if selected:
        for r in range(cards.HEIGHT):
            for c in range(cards.WIDTH):
                screen.put(row + r, column + c, screen.cells[row + r][column + c][0], SELECTED)


@dataclass
class Table:
    """Everything the table shows, gathered by the game from the state and the log."""

    names: tuple[str, str]
    limit: int
    scores: tuple[int, int] = (0, 0)
    pegs: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    dealer: int | None = None
    hand: tuple[Card, ...] = ()           # yours, in the order of the hot keys
    selected: frozenset = frozenset()     # cards chosen for the crib so far
    opponent_cards: int = 0
    crib_cards: int = 0
    starter: Card | None = None
    pile: tuple[Card, ...] = ()
    count: int | None = None
    opponent_shown: tuple[Card, ...] = ()   # at the show: the other hand face up
    crib_shown: tuple[Card, ...] = ()       # and the crib
    log: list[str] = field(default_factory=list)
    prompt: tuple[str, str] = ("", "")
    keys: str = " 1-6 CARD   H HINT   Q QUIT   CTRL-L REDRAW "


def draw_table(screen: Screen, t: Table) -> None:
    screen.clear()
    screen.put(0, 0, " " * COLUMNS, TITLE)
    screen.put(0, 1, "\u2663\u2666 CRIBBAGE \u2665\u2660", TITLE)
    screen.put(0, 56, f"GAME TO {t.limit:3d} HOLES", TITLE)
    draw_board(screen, t.pegs, t.limit)
    for p, column in ((0, 0), (1, 28)):
        front, back = t.pegs[p]
        screen.put(8, column, f"{FRONT} {t.names[p]}: {t.scores[p]:3d}", NAME_COLOURS[p])
        if front != back:
            screen.put(8, column + len(t.names[p]) + 9, f"(+{front - back})", NAME_COLOURS[p])
    if t.dealer is not None:
        screen.put(8, 56, f"DEALER: {t.names[t.dealer]}", LABEL)

    screen.put(9, 0, f"{t.names[1]}'S HAND", LABEL)
    for k in range(t.opponent_cards):
        draw_card(screen, 10, 6 * k, None)
    for k, card in enumerate(t.opponent_shown):
        draw_card(screen, 10, 6 * k, card)
    if t.dealer is not None:
        screen.put(9, 37, "CRIB", LABEL)
    if t.crib_cards:
        draw_card(screen, 10, 37, None)
        screen.put(13, 42, f"x{t.crib_cards}", LABEL)
    if t.starter is not None:
        draw_card(screen, 10, 44, t.starter)
        screen.put(14, 44, "CUT", LABEL)

    if t.crib_shown:
        screen.put(14, 0, "THE CRIB", LABEL)
        for k, card in enumerate(t.crib_shown):
            draw_card(screen, 15, 6 * k, card)
    if t.count is not None:
        screen.put(14, 0, f"THE PLAY   COUNT: {t.count:2d}", LABEL)
    for k, card in enumerate(t.pile):
        draw_card(screen, 15, 6 * k, card)

    screen.put(19, 38, "YOUR HAND"[:11], LABEL)
    for k, card in enumerate(t.hand):
        screen.put(19, 6 * k + 2, str(k + 1), PROMPT)
        draw_card(screen, 20, 6 * k, card, card in t.selected)

    lines = []
    for entry in t.log:
        lines += textwrap.wrap(entry, LOG_WIDTH, subsequent_indent=" ") or [""]
    shown = lines[-(LOG_BOTTOM - LOG_TOP + 1):]
    for r, line in enumerate(shown):
        screen.put(LOG_TOP + r, LOG_COLUMN, line, LOG)
    for row, text in zip(PROMPT_ROWS, t.prompt):
        screen.put(row, LOG_COLUMN, text[:LOG_WIDTH], PROMPT)
    screen.put(24, 0, t.keys.ljust(COLUMNS - 1), KEYS)
