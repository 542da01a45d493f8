"""Cards drawn on a ``Screen`` as Tommy's Toys drew them: a 5x4 box, the suit and the
rank twice inside ("♣ K" over "K ♣"), red pips on hearts and diamonds; a face-down card
shows the back pattern.  Attributes are the PC's (background << 4 | foreground)."""
from __future__ import annotations

from games_py.cards import SUIT_SYMBOLS, Card
from games_py.tui.screen import Screen

CARD_FACE, RED_PIPS, MONO_FACE = 0x70, 0x74, 0x70
BACK, BACK_MONO = 0x71, 0x70
BACK_PATTERN = "\u2592"             # CP437 B1h, the usual back
WIDTH, HEIGHT, STEP = 5, 4, 6       # a card, and one every 6 columns


def card_lines(card: Card) -> tuple[str, str]:
    rank = card.rank_name
    suit = SUIT_SYMBOLS[card.suit]
    return f"{suit}{rank:>2}", f"{rank:<2}{suit}"


def draw_card(screen: Screen, row: int, column: int, card: Card | None, face_up: bool = True,
              mono: bool = False) -> None:
    """A card whose top-left corner is at (row, column); ``card`` None clears the place."""
    if card is None and face_up:
        for r in range(HEIGHT):
            screen.put(row + r, column, " " * WIDTH)
        return
    if face_up:
        top, bottom = card_lines(card)
        border = MONO_FACE if mono else CARD_FACE
        inside = border if mono or card.suit in "CS" else RED_PIPS
    else:
        top = bottom = f"{BACK_PATTERN}T{BACK_PATTERN}"
        border = inside = BACK_MONO if mono else BACK
    draw_card_box(screen, row, column, top, bottom, border, inside)


def draw_card_box(screen: Screen, row: int, column: int, top: str, bottom: str, border: int,
                  inside: int) -> None:
    """The 5x4 box of a card at (row, column): a frame in ``border`` around the two
    three-cell lines ``top`` and ``bottom`` in ``inside``."""
    screen.put(row, column, "\u250c\u2500\u2500\u2500\u2510", border)
    for r, text in ((1, top), (2, bottom)):
        screen.put(row + r, column, "\u2502", border)
        screen.put(row + r, column + 1, text, inside)
        screen.put(row + r, column + 4, "\u2502", border)
    screen.put(row + 3, column, "\u2514\u2500\u2500\u2500\u2518", border)


def short(card: Card) -> str:
    """A card in one cell pair or three: '9♠', '10♥'."""
    return card.pretty()
