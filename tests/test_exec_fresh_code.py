"""Two programs run one after the other from the prompt load at the same address: each
must run its own code, not what Unicorn translated for the one before (about 2 s)."""
from __future__ import annotations

from tests.dos_harness import machine_with, run_command

FIRST = """
    mov ax, 0x3529
    int 0x21
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov ax, 0x4c03
    int 0x21
text: .ascii "first$"
"""
SECOND = """
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov ax, 0x4c00
    int 0x21
text: .ascii "second$"
"""


def test_the_second_program_runs_its_own_code(tmp_path):
    run = machine_with(tmp_path, {"A.COM": FIRST, "B.COM": SECOND})
    run.machine.type("C:{ENTER}")
    run_command(run, "A")
    run_command(run, "B")
    assert run.machine.dos.shell.exit_codes == [("C:\\A.COM", 3), ("C:\\B.COM", 0)]
    assert "second" in run.screen
