"""F5 in Tommy's Toys' games: the program's .DOC file, read at run time from a disk image
the user has, shown 20 lines at a time under the title INSTRUCTIONS with "HIT SPACE BAR
TO SCROLL, ESC TO EXIT"; after the last page it starts again.  The text belongs to Tommy's
Toys and is never copied into this project."""
from __future__ import annotations

from games_py.tui.screen import COLUMNS, Screen

PAGE_LINES = 20
FOOTER = "HIT SPACE BAR TO SCROLL, ESC TO EXIT"


def not_found(doc: str) -> str:
    return f"CAN'T FIND INSTR. FILE {doc}"


def read_doc(disk: str, doc: str) -> list[str]:
    """``doc``'s lines from ``disk`` (a catalogue name such as 1612, or an image path);
    any failure to read it comes back as ``LookupError``."""
    from disks.catalog import find_disk
    from pcemu.storage.image import FloppyImage
    try:
        volume = FloppyImage.open(find_disk(disk), read_only=True).filesystem
        data = volume.read_file([doc])
    except Exception as exc:                      # noqa: BLE001 - any failure: not there
        raise LookupError(f"{not_found(doc)} ON DISK {disk}: {exc}") from None
    text = data.split(b"\x1a", 1)[0].decode("cp437")
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def pages(lines: list[str]) -> list[list[str]]:
    """The screens of 20 lines (the last one padded with blank lines)."""
    out = [lines[i:i + PAGE_LINES] for i in range(0, len(lines), PAGE_LINES)] or [[]]
    out[-1] = out[-1] + [""] * (PAGE_LINES - len(out[-1]))
    return out


def pages_from_disk(disk: str | None, doc: str) -> list[list[str]]:
    """``doc``'s pages from ``disk``, or, when it cannot be read (or no disk was given), one
    page that says why and where the text comes from."""
    try:
        if disk is None:
            raise LookupError(f"{not_found(doc)}: NO DISK IMAGE (--disk)")
        return pages(read_doc(disk, doc))
    except LookupError as exc:
        return pages([str(exc).upper(), "", "THE INSTRUCTIONS ARE READ FROM THE ORIGINAL'S DISK:",
                      "START WITH --disk IMAGE (PC-SIG DISK #1612)."])


def draw_page(screen: Screen, page: list[str], title: int, text: int, footer: int) -> None:
    """One page over rows 1-22 of ``screen`` in whole rows of the three attributes; the
    rows below stay as they were."""
    screen.put(0, 0, "INSTRUCTIONS".center(COLUMNS), title)
    for i, line in enumerate(page):
        screen.put(1 + i, 0, line[:COLUMNS].ljust(COLUMNS), text)
    screen.put(21, 0, FOOTER.center(COLUMNS), footer)
