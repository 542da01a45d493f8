"""After POST the whole text buffer is blank as the BIOS mode set leaves it: 0720h words,
past the visible 80x25 too (a program may read or show other pages)."""
from __future__ import annotations

import pytest

from pcemu import Machine


@pytest.mark.parametrize("video, base, size", [("cga", 0xB8000, 0x4000), ("mda", 0xB0000, 0x1000),
                                               ("hercules", 0xB0000, 0x1000)])
def test_the_text_buffer_is_blank_after_post(video, base, size):
    m = Machine(video=video)                   # (the shell's prompt is on the first row)
    visible = 80 * 25 * 2
    assert m.memory.read(base + visible, size - visible) == b"\x20\x07" * ((size - visible) // 2)
