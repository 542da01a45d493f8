"""Moved to games_py.tui.screen (shared by the full-screen games); kept for old imports."""
from games_py.tui.screen import COLUMNS, GREY, ROWS, Screen, ansi_frame, sgr  # noqa: F401
