"""Keys on a full-screen table: a resize (SIGWINCH) or Ctrl-L draws the whole screen
again, and on a terminal smaller than 80x25 the game waits until it grows back.  The
games' screen sessions share these; each says which exception ends its game."""
from __future__ import annotations

from typing import Callable

from games_py.tui.terminal import RESIZE

REPAINT_KEYS = (RESIZE, "CTRL-L")


def next_key(keyboard, timeout: float | None, end: type[Exception]) -> str | None:
    """The keyboard's next key (None after ``timeout``); the input's end raises ``end``."""
    try:
        return keyboard.key(timeout)
    except EOFError:
        raise end from None


def key_after_repaints(keyboard, repaint: Callable[[], None]) -> str:
    """The next key that is not a resize or Ctrl-L; each of those calls ``repaint``."""
    while True:
        name = keyboard.key(None)
        if name not in REPAINT_KEYS:
            return name
        repaint()


def key_repainting(keyboard, display, screen, timeout: float | None, end: type[Exception],
                   quit_key: str | None = None) -> str | None:
    """The next key; a resize or Ctrl-L repaints ``screen`` whole first (and waits while
    the terminal is too small) and comes back as its name, which no question takes."""
    key = next_key(keyboard, timeout, end)
    if key in REPAINT_KEYS:
        display.repaint(screen)
        wait_until_it_fits(keyboard, display, screen, end, quit_key)
    return key


def wait_until_it_fits(keyboard, display, screen, end: type[Exception],
                       quit_key: str | None = None) -> None:
    """On a terminal smaller than 80x25 the display shows a notice instead of ``screen``;
    wait for the terminal to grow (``quit_key`` raises ``end``), then draw it all."""
    if display.fits():
        return
    while not display.fits():
        key = next_key(keyboard, None, end)
        if quit_key is not None and key == quit_key:
            raise end
        if key in REPAINT_KEYS:
            display.repaint(screen)
    display.repaint(screen)
