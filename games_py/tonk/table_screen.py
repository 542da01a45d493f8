"""Tonk's table on an 80x25 ``Screen``, in the style of Tommy's Toys' full-screen games
(Tommy's Gin Rummy: cards as boxes in rows, the upcard pile and the deck under them, a
centred message line, a legend of function keys and the copyright line at the bottom).

TONK.DOC does not show its screen, so the places are ours; what is shown is what the
human may see: the computer's cards face down (face up only at the showdown), both
players' melds on the table, the upcard and the pile's size, the deck's size, the count
(PV) of your hand, the bet and the pot.  Rendering only: no rules here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games_py.cards import Card
from games_py.melds import best_arrangement
from games_py.tonk.players import Observation
from games_py.tui.cards import STEP, draw_card, short
from games_py.tui.screen import COLUMNS, GREY, Screen

YOU, ME = 0, 1
ME_ROW, ME_MELDS_ROW = 0, 5          # the computer's hand (rows 0-3) and its melds
PILE_ROW = 6                         # the upcard pile, the deck and a plucked card (rows 6-9)
YOUR_MELDS_ROW, YOU_ROW = 11, 12     # your melds, your hand (rows 12-15) and its numbers (16)
MESSAGE_ROWS = (17, 18, 19)          # the last messages, newest at the bottom
PROMPT_ROWS = (20, 21)               # the question (the last line ends in what you type)
BORDER_ROW, LEGEND_ROW, COPYRIGHT_ROW = 22, 23, 24
COPYRIGHT = "\u2588\u2588 TONK \u2588\u2588 TOMMY'S TONK (C) COPYRIGHT 1990 BY TOMMY'S TOYS -- REBUILT FROM TONK.DOC"

# colours (CGA): the border's F10 cycle, and the labels
BORDER_COLOURS = (0x01, 0x02, 0x03, 0x05, 0x0E, 0x0F)   # blue green cyan magenta yellow white
UP_LABEL, ME_UP_LABEL, DEMO_LABEL = 0x04, 0x05, 0x1E
PV_LABEL, COUNT_LABEL, BREAK_LABEL = 0x0C, 0x02, 0x0E
KEY_LABEL, QUIT_LABEL, COPYRIGHT_COLOUR = 0x47, 0x47, 0x1F
MELD_LABEL, MONEY_LABEL, PROMPT_COLOUR = 0x0B, 0x0A, 0x0F


@dataclass
class TableView:
    """Everything the table screen shows besides the observation."""
    obs: Observation | None = None
    shown_hand: list[Card] | None = None        # the computer's hand at the showdown
    messages: list[str] = field(default_factory=list)
    prompt: str = ""
    typed: str = ""
    bet: int = 0
    stake: int = 0
    pot: int = 0
    hand_number: int = 0
    seed: int = 0
    sound: bool = True
    demo: bool = False
    autosort: bool = False
    border: int = 0
    colour: bool = True


def pick(attribute: int, view: TableView) -> int:
    return attribute if view.colour else (0x70 if attribute & 0xF0 else GREY)


def melds_text(table) -> str:
    if not table:
        return "(NONE)"
    return "  ".join(f"[{i}] " + " ".join(short(c) for c in meld) for i, meld in enumerate(table, 1))


def draw(view: TableView) -> Screen:
    screen = Screen()
    mono = not view.colour
    o = view.obs
    if o is not None:
        _draw_hands(screen, o, view, mono)
        _draw_pile(screen, o, view, mono)
    messages = view.messages[-len(MESSAGE_ROWS):]
    for row, text in zip(MESSAGE_ROWS[len(MESSAGE_ROWS) - len(messages):], messages):
        screen.put(row, 0, text[:COLUMNS])
    lines = view.prompt.split("\n")[-len(PROMPT_ROWS):] if view.prompt else []
    if lines:
        lines[-1] = f"{lines[-1]} {view.typed}\u2581"      # the field, its end marked
    for row, text in zip(PROMPT_ROWS[len(PROMPT_ROWS) - len(lines):], lines):
        screen.put(row, 0, text[:COLUMNS], pick(PROMPT_COLOUR, view))
    _draw_frame(screen, view)
    return screen


def _draw_hands(screen: Screen, o: Observation, view: TableView, mono: bool) -> None:
    shown = view.shown_hand
    count = len(shown) if shown is not None else o.opponent_hand_size
    for k in range(count):
        draw_card(screen, ME_ROW, STEP * k, shown[k] if shown is not None else None,
                  face_up=shown is not None, mono=mono)
    screen.put(ME_ROW + 1, 52, f"ME: {count} CARD{'S' if count != 1 else ''}")
    if o.dealer == ME:
        screen.put(ME_ROW + 2, 52, "DEALER")
    screen.put(ME_MELDS_ROW, 0, "MY MELDS: ", pick(MELD_LABEL, view))
    screen.put(ME_MELDS_ROW, 10, melds_text(o.tables[ME])[:COLUMNS - 10])
    screen.put(YOUR_MELDS_ROW, 0, "YOUR MELDS: ", pick(MELD_LABEL, view))
    screen.put(YOUR_MELDS_ROW, 12, melds_text(o.tables[YOU])[:COLUMNS - 12])
    for k, c in enumerate(o.hand):
        draw_card(screen, YOU_ROW, STEP * k, c, mono=mono)
        screen.put(YOU_ROW + 4, STEP * k + 1, f"{k + 1:2d}")
    screen.put(YOU_ROW + 1, 52, f"YOU: {len(o.hand)} CARDS")
    screen.put(YOU_ROW + 2, 52, f"PV: {best_arrangement(list(o.hand)).points:3d}", pick(PV_LABEL, view))
    if o.dealer == YOU:
        screen.put(YOU_ROW + 3, 52, "DEALER")


def _draw_pile(screen: Screen, o: Observation, view: TableView, mono: bool) -> None:
    if o.pile:
        draw_card(screen, PILE_ROW, 0, o.pile[-1], mono=mono)
    screen.put(PILE_ROW + 3, 6, f"{len(o.pile):2d}", pick(COUNT_LABEL, view))
    screen.put(PILE_ROW + 4, 0, "UPCARD")
    if o.stock_size:
        draw_card(screen, PILE_ROW, 12, None, face_up=False, mono=mono)
    screen.put(PILE_ROW + 3, 18, f"{o.stock_size:2d}", pick(COUNT_LABEL, view))
    screen.put(PILE_ROW + 4, 12, "DECK")
    if o.plucked is not None:
        draw_card(screen, PILE_ROW, 24, o.plucked, mono=mono)
        screen.put(PILE_ROW + 4, 24, "PLUCKED")
    if o.phase.value != "over":
        up = o.current == YOU
        screen.put(PILE_ROW, 36, "YOU'RE UP" if up else "I'M UP   ", pick(UP_LABEL if up else ME_UP_LABEL, view))
    if o.stock_size == 2 and o.breaker is None:
        screen.put(PILE_ROW + 1, 36, "AT THE BREAK", pick(BREAK_LABEL, view))
    elif o.breaker is not None:
        screen.put(PILE_ROW + 1, 36, f"AFTER THE BREAK (BREAKER: {'YOU' if o.breaker == YOU else 'ME'})",
                   pick(BREAK_LABEL, view))
    if view.demo:
        screen.put(PILE_ROW + 2, 36, "DEMO", pick(DEMO_LABEL, view))


def _draw_frame(screen: Screen, view: TableView) -> None:
    border = pick(BORDER_COLOURS[view.border % len(BORDER_COLOURS)], view)
    money = f" HAND: {view.hand_number}  BET: ${view.bet}  STAKE: ${view.stake}  POT: ${view.pot}  SEED: {view.seed} "
    line = "\u2550" * 3 + money + "\u2550" * (COLUMNS - 3 - len(money))
    screen.put(BORDER_ROW, 0, line[:COLUMNS], border)
    screen.put(BORDER_ROW, 3, money[:COLUMNS - 3], pick(MONEY_LABEL, view))
    # 'THE LEGEND FOR A TOGGLE SWITCH INDICATES THE MODE THAT WILL BE ENTERED'
    keys = (f"F1=SOUND {'OFF' if view.sound else 'ON'}", f"F2=DEMO {'OFF' if view.demo else 'ON'}",
            f"F3=AUTOSORT {'OFF' if view.autosort else 'ON'}", "F5=HELP", "F7=QUIT", "F10=BORDER")
    column = 0
    for text in keys:
        screen.put(LEGEND_ROW, column, text, pick(KEY_LABEL, view))
        column += len(text) + 2
    screen.put(COPYRIGHT_ROW, 0, COPYRIGHT[:COLUMNS - 1], pick(COPYRIGHT_COLOUR, view))
