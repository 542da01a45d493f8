"""The startup show's last picture (game 1): the title in falling meteors, PRESS ANY KEY
TO START, the keys and the copyright line, as the original leaves them on the screen
while it waits for the key.  Measured on METEORS.EXE in pcemu (tests/test_meteors_screens.py):
the title's eight rows take a colour each from RND (INT(RND * 5 + 2)) on a colour
display, grey on a monochrome one; the prompt blinks (8Fh)."""
from __future__ import annotations

from games_py.meteors.screen import Screen

TITLE = ("MM      MM  EEEEEEE  TTTTTTTTTT  EEEEEEE  OOOOOOO  RRRRRRR  SSSSSSS",
         "MMM    MMM  EE       TT  TT  TT  EE       OO   OO  RR   RR  SS",
         "MM M  M MM  EE           TT      EE       OO   OO  RR   RR  SS",
         "MM  MM  MM  EEEEEEE      TT      EEEEEEE  OO   OO  RRRRRRR  SSSSSSS",
         "MM      MM  EE           TT      EE       OO   OO  RRRR          SS",
         "MM      MM  EE           TT      EE       OO   OO  RR  RR        SS",
         "MM      MM  EE           TT      EE       OO   OO  RR   RR       SS",
         "MM      MM  EEEEEEE      TT      EEEEEEE  OOOOOOO  RR    RR  SSSSSS")
METEOR = 0x19                       # the title's letters are CHR$(25), a falling meteor
PRESS_ANY_KEY = b"PRESS ANY KEY TO START"
LEGEND = b"F1=SOUND F2=DEMO F5=INSTRS F7=QUIT F9=PITCH\x19 F10=PITCH\x18"
COPYRIGHT = b"TOMMY'S METEORS (C) COPYRIGHT 1986 BY TOMMY'S TOYS, BOX 11261, DENVER, CO 80211 "
# (foreground, background) on a colour display, on a monochrome one
PROMPT = (15 + 16, 0)               # COLOR 31: bright white, blinking
LEGEND_COLOURS = {True: (7, 4), False: (0, 7)}
COPYRIGHT_COLOURS = {True: (3, 1), False: (0, 7)}


def draw(screen: Screen, row_colours: list[int] | None) -> None:
    """The picture on a cleared screen; ``row_colours``: the title rows' foregrounds
    (None: grey, as on a monochrome display)."""
    colour = row_colours is not None
    screen.color(7, 0)
    screen.clear()
    for i, row in enumerate(TITLE):
        screen.color(row_colours[i] if colour else 7, 0)
        screen.write(5 + i, 5, bytes(32 if ch == " " else METEOR for ch in row))
    screen.color(*PROMPT)
    screen.write(15, 29, PRESS_ANY_KEY)
    screen.color(*LEGEND_COLOURS[colour])
    screen.write(21, 13, LEGEND)
    screen.color(*COPYRIGHT_COLOURS[colour])
    screen.write(25, 1, COPYRIGHT)
    screen.color(7, 0)
