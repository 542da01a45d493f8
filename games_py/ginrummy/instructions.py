"""F5: the instructions, GINRUMMY.DOC, read at run time from a disk image the user has
(games_py/tui/instructions.py: the pages as all of Tommy's Toys' games show them)."""
from __future__ import annotations

from games_py.tui import instructions as shared
from games_py.tui.instructions import PAGE_LINES, pages  # noqa: F401 - this game's API

DOC = "GINRUMMY.DOC"


def read_doc(disk: str) -> list[str]:
    """GINRUMMY.DOC's lines from ``disk``; failures come back as ``LookupError``."""
    return shared.read_doc(disk, DOC)
