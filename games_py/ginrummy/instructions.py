"""F5: the instructions, GINRUMMY.DOC, read at run time from a disk image the user has.

The original reads GINRUMMY.DOC from its disk and shows it 20 lines at a time
under the title INSTRUCTIONS, with "HIT SPACE BAR TO SCROLL, ESC TO EXIT"; after
the last page it starts again.  The text belongs to Tommy's Toys and is never
copied into this project: without a disk the screen says where to get it.
"""
from __future__ import annotations

DOC = "GINRUMMY.DOC"
PAGE_LINES = 20
NOT_FOUND = f"CAN'T FIND INSTR. FILE {DOC}"


def read_doc(disk: str) -> list[str]:
    """GINRUMMY.DOC's lines from ``disk`` (a catalogue name such as 1612, or an image
    path); OSError/ValueError-like failures come back as ``LookupError``."""
    from disks.catalog import find_disk
    from pcemu.storage.image import FloppyImage
    try:
        volume = FloppyImage.open(find_disk(disk), read_only=True).filesystem
        data = volume.read_file([DOC])
    except Exception as exc:                      # noqa: BLE001 - any failure: not there
        raise LookupError(f"{NOT_FOUND} ON DISK {disk}: {exc}") from None
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
