"""What became of a program: the outcome a survey reports, decided from the machine's state.

Outcomes, in the order they take precedence:
- ``bad input``: the disk or the corpus line could not be used (nothing ran);
- ``cannot load``: DOS could not load the program (a corrupt or truncated executable);
- ``machine error``: the run stopped (a CPU fault Unicorn cannot go on from, a halt with
  interrupts off, a reboot request, an internal error), with the reason;
- ``memory limit``: the run's process went over the survey's memory limit and was stopped;
- ``unimplemented service``: the program asked for a BIOS or DOS service pcemu lacks (the
  run went on with the documented error return; what followed may differ from a PC);
- ``exited``: the program ended and DOS's prompt is back, with its exit code;
- ``waits for input``: at the end of the span the program is asking for a key (it polled
  the keyboard through the BIOS or DOS during the last second);
- ``timed out``: at the end of the span it is still running without asking for a key (a
  busy loop, an animation, a wait on its own keyboard handler), or the host's time limit
  for one program ran out.
"""
from __future__ import annotations

OUTCOMES = ("bad input", "cannot load", "machine error", "memory limit", "unimplemented service",
            "exited", "waits for input", "timed out")


def end_state(*, ended: bool, polled_at_end: bool) -> str:
    """Where the program was when the span ended (no error, no unimplemented service)."""
    if ended:
        return "exited"
    return "waits for input" if polled_at_end else "timed out"


def describe(outcome: str, record: dict) -> str:
    """One line for the outcome, as reports print it."""
    if outcome == "exited":
        code = record.get("exit_code")
        return "exited" if code is None else f"exited with code {code}"
    reason = record.get("reason")
    return f"{outcome}: {reason}" if reason else outcome
