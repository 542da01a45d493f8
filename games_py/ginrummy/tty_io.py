"""Moved to games_py.tui.terminal (shared by the full-screen games); kept for old imports."""
from games_py.tui.terminal import (ESCAPE_WAIT, RESIZE, SEQUENCES, AnsiDisplay,  # noqa: F401
                                   TerminalKeyboard, key_name, too_small_text)
