"""INT 16h as the BASIC runtime of disk #1612 uses it, driven by tiny programs in the machine.

The runtime (BCOM30, "Runtime Version 5.60") decides at start-up between the
standard and the enhanced keyboard functions: on an AT (model byte FCh at
F000:FFFE) it takes bit 4 of 0040:0096, and INKEY$ then polls AH=11h and reads
with AH=10h.  These tests pin what those calls return, next to AH=00h/01h, for
keys stored with AH=05h and for keys typed through the 8042 and INT 09h.

Each program prints what it got between brackets: a key code as four hex
digits, or ``Z`` when a status call found the buffer empty (ZF=1).
"""
from __future__ import annotations

import re

from pcemu import Machine
from tests.machine_helpers import com_program

# report_status: after AH=01h/11h, "Z" or AX; report_ax: AX; both then a space.
HELPERS = """
report_status:
    jz empty
report_ax:
    mov bx, ax
    mov cx, 4
digit:
    rol bx, 4
    mov dl, bl
    and dl, 0x0f
    add dl, 0x30
    cmp dl, 0x39
    jbe show
    add dl, 7
show:
    mov ah, 2
    int 0x21
    loop digit
    jmp space
empty:
    mov dl, 0x5a
    mov ah, 2
    int 0x21
space:
    mov dl, 0x20
    mov ah, 2
    int 0x21
    ret
"""


def run_program(tmp_path, body: str, keys: str = "") -> str:
    """Run PROG.COM (``body`` between ``[`` and ``]``), type ``keys``, return what it printed."""
    source = ("mov dl, 0x5b\nmov ah, 2\nint 0x21\n" + body +
              "\nmov dl, 0x5d\nmov ah, 2\nint 0x21\nmov ax, 0x4c00\nint 0x21\n" + HELPERS)
    folder = com_program(tmp_path, "PROG.COM", source)
    m = Machine(host_dirs={"C": folder}, strict=True)
    m.type("C:{ENTER}PROG{ENTER}" + keys)
    m.run_until(max_ticks=18.2 * 5, condition=lambda mm: bool(mm.dos.shell.exit_codes)
                and mm.dos.shell.at_prompt)
    found = re.search(r"\[([^\]]*)\]", m.screen_text_flat())
    assert found, m.screen_text()
    return found.group(1).strip()


def store(code: int) -> str:
    return f"mov ah, 5\nmov cx, {code:#06x}\nint 0x16\n"


def call(ah: int, report: str) -> str:
    return f"mov ah, {ah:#04x}\nint 0x16\ncall {report}\n"


def test_the_machine_advertises_the_enhanced_keyboard_it_implements():
    m = Machine(boot=False)
    assert m.memory[0xFFFFE] == 0xFC                  # model byte: AT
    assert m.memory[0x496] & 0x10                     # 0040:0096 bit 4: enhanced keyboard


def test_enhanced_status_reports_f11_that_the_standard_status_discards(tmp_path):
    body = (store(0x8500) + store(0x1E61)             # F11, then "a"
            + call(0x11, "report_status")             # F11 is visible to AH=11h...
            + call(0x01, "report_status")             # ...AH=01h drops it and shows "a"
            + call(0x11, "report_status")             # so F11 is gone for AH=11h too
            + call(0x10, "report_ax")                 # AH=10h takes "a"
            + call(0x11, "report_status"))            # empty: ZF=1
    assert run_program(tmp_path, body) == "8500 1E61 1E61 1E61 Z"


def test_status_calls_leave_the_key_and_reads_take_it(tmp_path):
    body = (store(0x1579) + store(0x3B00)             # "y", F1
            + call(0x11, "report_status") + call(0x01, "report_status")
            + call(0x00, "report_ax")
            + call(0x11, "report_status") + call(0x10, "report_ax")
            + call(0x01, "report_status"))
    assert run_program(tmp_path, body) == "1579 1579 1579 3B00 3B00 Z"


def test_grey_keys_keep_e0_for_the_enhanced_read_only(tmp_path):
    body = (store(0xE00D) + store(0x47E0)             # keypad Enter, grey Home
            + call(0x11, "report_status") + call(0x10, "report_ax")
            + call(0x10, "report_ax")
            + store(0xE00D) + store(0x47E0)
            + call(0x01, "report_status") + call(0x00, "report_ax")
            + call(0x00, "report_ax"))
    assert run_program(tmp_path, body) == "E00D E00D 47E0 1C0D 1C0D 4700"


def test_typed_keys_reach_the_enhanced_read_through_int09(tmp_path):
    # The program waits in AH=10h (the ROM halts until IRQ 1 brings a key).
    body = call(0x10, "report_ax") + call(0x10, "report_ax") + call(0x10, "report_ax")
    assert run_program(tmp_path, body, "{F11}{UP}Y") == "8500 48E0 1559"


def test_the_standard_read_waits_past_keys_it_cannot_report(tmp_path):
    body = call(0x00, "report_ax") + call(0x01, "report_status")
    assert run_program(tmp_path, body, "{F12}{UP}") == "4800 Z"


# -- Pause ---------------------------------------------------------------------------------
PAUSE_KEY = [0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5]          # what the 101-key board sends
CTRL_NUM_LOCK = [0x1D, 0x45, 0xC5, 0x9D]                    # the 84-key board's Pause


def _paused_machine(tmp_path, codes: list[int]) -> Machine:
    m = Machine(host_dirs={"C": tmp_path})
    m.run(2)
    m.send_keys(codes)
    m.run(3)
    return m


def _in_pause_loop(m: Machine) -> bool:
    start = m.rom.address("int09.pause")
    return m.cpu.cs == start[0] and start[1] <= m.cpu.ip < start[1] + 24


def test_pause_holds_the_program_until_the_next_key_which_is_dropped(tmp_path):
    for codes in (PAUSE_KEY, CTRL_NUM_LOCK):
        m = _paused_machine(tmp_path, codes)
        ticks = m.memory.read_word(0x46C)
        m.run(5)
        assert _in_pause_loop(m)                           # the program does not run ...
        assert m.memory[0x418] & 0x08                      # ... the BIOS holds (0040:0018 bit 3)
        assert m.memory.read_word(0x46C) > ticks           # ... and the clock goes on
        assert not m.memory[0x417] & 0x24                  # no Ctrl left down, Num Lock unchanged
        m.type("XVER{ENTER}")                              # X ends the pause and is lost
        m.run(2)
        assert not m.memory[0x418] & 0x08 and not _in_pause_loop(m)
        text = m.screen_text()
        assert "DOS Version 3.30" in text and "XVER" not in text
