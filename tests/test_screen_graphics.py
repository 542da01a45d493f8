"""Reading the characters the BIOS draws in CGA graphics modes (pcemu.screen.graphics_text)."""
from __future__ import annotations

from pcemu import screen
from tests.dos_harness import END_OF_PROGRAM, run_program


def bios_text_in_mode(mode: int, text: str) -> str:
    chars = "".join(f"""
    mov ax, 0x0e{ord(ch):02x}
    mov bx, 0x0003
    int 0x10
""" for ch in text)
    return f"""
    mov ax, {mode:#x}
    int 0x10
    {chars}
    {END_OF_PROGRAM}
"""


def test_text_drawn_by_the_bios_in_320x200_and_640x200_reads_back(tmp_path):
    for mode, columns in ((0x04, 40), (0x06, 80)):
        folder = tmp_path / f"m{mode}"
        folder.mkdir()
        run = run_program(folder, bios_text_in_mode(mode, "HELLO \x03 CGA"))
        lines = screen.graphics_text(run.machine).split("\n")
        assert len(lines) == 25 and all(len(line) == columns for line in lines)
        assert "HELLO ♥ CGA" in "\n".join(lines)
        assert "HELLO" not in run.machine.screen_text()        # not text-mode cells


def test_graphics_text_is_none_in_a_text_mode(tmp_path):
    run = run_program(tmp_path, f"mov ax, 3\n    int 0x10\n    {END_OF_PROGRAM}")
    assert screen.graphics_text(run.machine) is None
