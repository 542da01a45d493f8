"""A program that loops on a service pcemu lacks is counted, but its log stays bounded."""
from __future__ import annotations

from pcemu.machine import UNIMPLEMENTED_LOG_LIMIT
from tests.machine_helpers import END, com_program, run_to_exit

# INT 17h AH=55h is no printer function: pcemu reports it as unimplemented, each call
ASKS = UNIMPLEMENTED_LOG_LIMIT * 3
LOOP = f"""
    mov cx, {ASKS}
again:
    mov ah, 0x55
    xor dx, dx
    int 0x17
    loop again
""" + END


def test_a_loop_on_a_missing_service_keeps_a_bounded_log_and_counts_every_call(tmp_path):
    m = run_to_exit(com_program(tmp_path, "ASKLOOP.COM", LOOP), "ASKLOOP")
    assert m.unimplemented_calls == {(0x17, 0x55): ASKS}
    assert len(m.unimplemented_log) == UNIMPLEMENTED_LOG_LIMIT
    assert "INT 17h AH=55h" in m.unimplemented_log[0]["message"]
