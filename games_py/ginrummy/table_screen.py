"""GINRUMMY.EXE's screen, drawn on a ``Screen`` as the original draws it.

Rows and columns (0-based) and attributes are the ones read from the original's
video memory in pcemu (NOTES-originals: "the screen"): your hand in rows 0-4, the
computer's in rows 6-10 (each card 5 columns wide every 6 columns, its place number
under it), the upcard pile and the deck in rows 12-15, "YOU'RE UP" / "I'M UP" and
"DEMO" at column 29, the message line (18 in BASIC's LOCATE) in row 17, the score
boxes in rows 18-22, the legend in row 23 and the copyright line in row 24.
Cards are the program's numbers (1-52, ``deal.card_of``); 0 is an empty place.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games_py.ginrummy import rules
from games_py.ginrummy.deal import card_of
from games_py.ginrummy.screen import COLUMNS, GREY, Screen
from games_py.tui.cards import draw_card_box

SUIT_CHARS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}   # CP437 03h-06h
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
CP437_BACKS = {0xB1: "\u2592", 0xD8: "\u256a", 0xD7: "\u256b", 0xC5: "\u253c"}
TICK = "\u221a"                      # CP437 FBh: marks a card laid off

HAND_ROW = {1: 0, 2: 6}              # the top row of each player's hand
MESSAGE_ROW = 17
COPYRIGHT = "\u2588\u2588 GIN RUMMY \u2588\u2588 (C) COPYRIGHT 1987 BY TOMMY'S TOYS, BOX 11261, DENVER, CO 80211 "
LOGO = "\u2588\u2588 GIN RUMMY \u2588\u2588"
VARIANT_NAMES = {rules.STANDARD: "", rules.OKLAHOMA: "OKLAHOMA", rules.COWBOY: "SPACE COWBOY"}

# attributes (background << 4 | foreground), colour and mono: on a monochrome display the
# program picks other COLORs (read from its screen on an MDA: reverse 70h, normal 07h,
# underlined 01h)
CARD_FACE, RED_PIPS = (0x70, 0x70), (0x74, 0x70)
LEFT_BOX, RIGHT_BOX = (0x05, 0x07), (0x02, 0x07)
MATCHED_COLOUR, PV_COLOUR = (0x0E, 0x07), (0x0C, 0x07)
PILE_COUNT, DECK_COUNT = (0x04, 0x07), (0x02, 0x07)
UP_COLOUR, ME_UP_COLOUR, DEMO_COLOUR = (0x04, 0x01), (0x05, 0x01), (0x1E, 0x70)
CLOCK_BOX, CLOCK_TIME = (0x14, 0x07), (0x47, 0x70)
HANDS_LABEL, SCORES_LABEL, ME_LEFT = (0x09, 0x07), (0x0E, 0x07), (0x0D, 0x07)
RIGHT_LABEL, ME_RIGHT, VARIANT_LABEL = (0x02, 0x07), (0x05, 0x07), (0x17, 0x07)
HAND_LABEL, TURN_LABEL, KNOCK_LABEL = (0x1C, 0x70), (0x75, 0x07), (0x03, 0x07)
DRAWN_LABEL, MUTE_KEY, DEMO_KEY = (0x1E, 0x70), (0x57, 0x70), (0x47, 0x70)
HELP_KEY, QUIT_KEY, COPYRIGHT_LINE = (0x17, 0x70), (0x47, 0x70), (0x1F, 0x07)


def pick(attribute: tuple[int, int], mono: bool) -> int:
    return attribute[1] if mono else attribute[0]


@dataclass
class Frame:
    """What the boxes and the legend show (the per-player lists are indexed 1 = you, 2 = me)."""

    colours: tuple[int, int, int, int] = (7, 7, 7, 0)      # C1..C4 (lines 630-670)
    back: int = 0xB1                                       # the card back (lines 490-520)
    sound: bool = True
    demo: bool = False
    variant: str = rules.STANDARD
    game: int = 1
    hand: int | None = None            # None: before the first deal (the boxes are empty)
    turn: int | None = None
    knock: int | None = None
    drawn: int | None = None           # CARDS DRAWN (TOP)
    hands_won: list[int] = field(default_factory=lambda: [0, 0, 0])
    scores: list[int] = field(default_factory=lambda: [0, 0, 0])
    games: list[int] = field(default_factory=lambda: [0, 0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0, 0])
    logo_phase: int = 3                # the logo's colours turn with the clock
    mono: bool = False                 # a monochrome display (C.OK false, line 100)


def card_faces(number: int) -> tuple[str, str, bool]:
    """The two middle rows of a face-up card ("♣ K" over "K ♣") and whether it is red."""
    card = card_of(number)
    rank = RANKS.get(card.rank, str(card.rank))
    suit = SUIT_CHARS[card.suit]
    return f"{suit}{rank:>2}", f"{rank:<2}{suit}", card.suit in "HD"


def draw_card(screen: Screen, row: int, column: int, number: int, face_up: bool,
              frame: Frame) -> None:
    if number <= 0:
        for r in range(4):
            screen.put(row + r, column, "     ")
        return
    if face_up:
        top, bottom, red = card_faces(number)
        border = pick(CARD_FACE, frame.mono)
        inside = pick(RED_PIPS if red else CARD_FACE, frame.mono)
    else:
        back = CP437_BACKS.get(frame.back, "\u2592")
        top = bottom = f"{back}T{back}"
        border, inside = 0x70 | frame.colours[1], 0x70 | frame.colours[3]
        if frame.mono:
            border = inside = 0x70
    draw_card_box(screen, row, column, top, bottom, border, inside)


def draw_hand(screen: Screen, player: int, places: list[int], face_up: bool, frame: Frame,
              matched: int | None = None, pv: int | None = None, ticks: set[int] = frozenset()) -> None:
    """A hand: ``places`` = H(P, 1..H(P, 0)), its place numbers, and MATCHED / PV
    (None: hidden, the computer's without open hands); ``ticks`` are places marked as
    laid off."""
    top = HAND_ROW[player]
    screen.clear(top, top + 4)
    for k, number in enumerate(places, 1):
        draw_card(screen, top, 6 * (k - 1), number, face_up, frame)
        screen.put(top + 4, 6 * (k - 1) + 1, f"{k:2d}")
        if k in ticks:
            screen.put(top + 4, 6 * (k - 1), TICK)
    shown = matched is not None
    screen.put(top + 3, 66, f"MATCHED:{matched:2d}" if shown else " " * 10, pick(MATCHED_COLOUR, frame.mono))
    screen.put(top + 4, 66, f"    PV:{pv:3d}" if shown else " " * 10, pick(PV_COLOUR, frame.mono))


def draw_pile_and_deck(screen: Screen, pile_top: int | None, pile_count: int, left: int,
                       frame: Frame) -> None:
    """The upcard pile (its top card and how many) and the deck (a back and how many left)."""
    for r in range(12, 16):
        screen.put(r, 0, " " * 29)
    if pile_top:
        draw_card(screen, 12, 0, pile_top, True, frame)
        screen.put(15, 6, f"{pile_count:2d}", pick(PILE_COUNT, frame.mono))
    if left > 0:
        draw_card(screen, 12, 12, 1, False, frame)
        screen.put(15, 18, f"{left:2d}", pick(DECK_COUNT, frame.mono))


def draw_up(screen: Screen, player: int | None, demo: bool, mono: bool = False) -> None:
    screen.put(12, 29, " " * 9)
    if player is not None:
        screen.put(12, 29, "YOU'RE UP" if player == 1 else "I'M UP",
                   pick(UP_COLOUR if player == 1 else ME_UP_COLOUR, mono))
    screen.put(13, 29, "DEMO" if demo else "    ", pick(DEMO_COLOUR, mono) if demo else GREY)


def message_column(text: str) -> int:
    """``LOCATE 18, 40 - LEN(M$) * .5``: the runtime rounds the half up (0-based here)."""
    return int(40 - len(text) * 0.5 + 0.5) - 1


def draw_message(screen: Screen, text: str, colour: int | None) -> None:
    """Line 12640: the message line cleared in the message's colour and ``text`` centred."""
    attribute = GREY if colour is None else colour & 0x0F
    screen.put(MESSAGE_ROW, 0, " " * COLUMNS, attribute)
    if text:
        screen.put(MESSAGE_ROW, message_column(text), text, attribute)


def draw_clock(screen: Screen, hhmmss: str, mono: bool = False) -> None:
    box = pick(CLOCK_BOX, mono)
    screen.put(0, 70, "\u250c" + "\u2500" * 8 + "\u2510", box)
    screen.put(1, 70, "\u2502", box)
    screen.put(1, 71, hhmmss[:8].ljust(8), pick(CLOCK_TIME, mono))
    screen.put(1, 79, "\u2502", box)
    screen.put(2, 70, "\u2514" + "\u2500" * 8 + "\u2518", box)


def draw_logo(screen: Screen, phase: int, colour: bool = True) -> None:
    for i, ch in enumerate(LOGO):
        screen.put(21, 32 + i, ch, (phase - 1 + i) % 15 + 1 if colour else GREY)


def draw_frame(screen: Screen, f: Frame) -> None:
    """The score boxes (rows 18-22), the legend (23) and the copyright line (24)."""
    screen.clear(18, 24)
    m = f.mono
    left_box, right_box = pick(LEFT_BOX, m), pick(RIGHT_BOX, m)
    for row, left, right in ((18, "\u2554", "\u2557"), (22, "\u255a", "\u255d")):
        screen.put(row, 0, left + "\u2550" * 28 + right, left_box)
        screen.put(row, 49, left + "\u2550" * 29 + right, right_box)
    for row in (19, 20, 21):
        screen.put(row, 0, "\u2551", left_box)
        screen.put(row, 29, "\u2551", left_box)
        screen.put(row, 49, "\u2551", right_box)
        screen.put(row, 79, "\u2551", right_box)
    screen.put(20, 36, f"GAME: {f.game}")
    draw_logo(screen, f.logo_phase, not m)
    if f.hand is not None:
        screen.put(19, 2, "HANDS: ", pick(HANDS_LABEL, m))
        screen.put(19, 9, f"YOU:{f.hands_won[1]:2d}")
        screen.put(19, 15, f"    ME:{f.hands_won[2]:2d}", pick(ME_LEFT, m))
        screen.put(20, 2, "SCORES: ", pick(SCORES_LABEL, m))
        screen.put(21, 2, f"YOU:{f.scores[1]:4d}")
        screen.put(21, 10, f" ME:{f.scores[2]:4d}", pick(ME_LEFT, m))
        screen.put(20, 51, "GAMES:", pick(RIGHT_LABEL, m))
        # printed one after the other with STR$ (seen: "POINTS: YOU: 202 ME: 0")
        you = f" YOU: {f.games[1]}"
        screen.put(20, 57, you)
        screen.put(20, 57 + len(you), f" ME: {f.games[2]} ", pick(ME_RIGHT, m))
        screen.put(21, 51, "POINTS: ", pick(RIGHT_LABEL, m))
        you = f"YOU: {f.points[1]}"
        screen.put(21, 59, you)
        screen.put(21, 59 + len(you), f" ME: {f.points[2]}".ljust(20 - len(you)), pick(ME_RIGHT, m))
        screen.put(22, 35, f"HAND: {f.hand}  ", pick(HAND_LABEL, m))
        if VARIANT_NAMES[f.variant]:
            screen.put(19, 51, VARIANT_NAMES[f.variant], pick(VARIANT_LABEL, m))
    if f.turn is not None:
        screen.put(19, 36, f"TURN: {f.turn} ", pick(TURN_LABEL, m))           # "TURN:" + STR$(TURN) + " "
    if f.knock is not None:
        screen.put(19, 67, f"KNOCK ON {f.knock}", pick(KNOCK_LABEL, m))
    if f.drawn is not None:
        screen.put(23, 0, f"CARDS DRAWN:{f.drawn:3d} OUT OF 52", pick(DRAWN_LABEL, m))
    screen.put(23, 31, "F1=MUTE " if f.sound else "F1=SOUND", pick(MUTE_KEY, m))
    screen.put(23, 41, "F2=PLAY" if f.demo else "F2=DEMO", pick(DEMO_KEY, m))
    screen.put(23, 53, "1.0")
    screen.put(23, 62, "F5=INSTRS", pick(HELP_KEY, m))
    screen.put(23, 72, "F7=QUIT", pick(QUIT_KEY, m))
    screen.put(24, 0, COPYRIGHT, pick(COPYRIGHT_LINE, m))
