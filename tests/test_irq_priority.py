"""A request behind one in service is taken soon after its EOI, as the 8259A presents it.

The program runs the BASIC music runtime's kind of timer (channel 0 at 582 Hz) with a long
handler that ends its interrupt only at its end, so nearly every moment falls inside it.
A key pressed then raises IRQ 1 while IRQ 0 is in service.  On an AT the keyboard
interrupt is taken right after the timer handler's EOI and IRET; a machine that looked
for interrupts only at its next device event (the next timer tick, which wins by
priority) would keep the key waiting for as long as the timer runs.
"""
from __future__ import annotations

import pytest

from tests.machine_helpers import (END, PRINT_HEX, TIMER_582HZ_OFF, TIMER_582HZ_ON, TIMER_582HZ_WORDS,
                                   com_program)

# Counts timer interrupts; after each, polls INT 16h AH=01h. Stops at a key or after 3000
# interrupts and prints how many interrupts came between the first and the key's arrival.
STARVE = TIMER_582HZ_ON + """
wait:
    mov ah, 1
    int 0x16
    jnz key
    cmp word ptr cs:[ticks], 3000
    jb wait
key:
""" + TIMER_582HZ_OFF + """
    mov ax, word ptr cs:[ticks]
    call print_hex
""" + END + PRINT_HEX + """
handler:
    push ax
    push cx
    mov cx, 600
long:
    loop long
    inc word ptr cs:[ticks]
    mov al, 0x20
    out 0x20, al
    pop cx
    pop ax
    iret
""" + TIMER_582HZ_WORDS


def ticks_until_the_key(folder, accelerate: bool) -> tuple[int, int]:
    from pcemu import Machine
    m = Machine(host_dirs={"C": folder}, accelerate=accelerate)
    m.type("C:{ENTER}STARVE{ENTER}")
    m.run(5)                     # the program runs its fast timer...
    m.type("K")                  # ...when the key comes
    m.run_until("C:\\>", max_ticks=18.2 * 30)
    lines = [line.strip() for line in m.screen_text().splitlines() if line.strip()]
    printed = lines[lines.index("C:\\>STARVE") + 1][:4]
    return int(printed, 16), m.clock.now


@pytest.mark.parametrize("accelerate", [True, False], ids=["accelerated", "reference"])
def test_a_key_behind_a_long_timer_handler_is_taken_after_its_eoi(tmp_path, accelerate):
    folder = com_program(tmp_path, "STARVE.COM", STARVE)
    ticks, _ = ticks_until_the_key(folder, accelerate)
    # 5 BIOS ticks of 582 Hz before the key, then the key within a handler or two
    assert 100 < ticks < 200, f"the key arrived after {ticks} timer interrupts"


def test_the_accelerated_machine_takes_it_at_the_same_instruction(tmp_path):
    folder = com_program(tmp_path, "STARVE.COM", STARVE)
    assert ticks_until_the_key(folder, True) == ticks_until_the_key(folder, False)
