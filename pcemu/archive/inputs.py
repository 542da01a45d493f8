"""One place where every key reaching the machine can be seen: ``listeners["input"]``.

Front ends (key scripts, the window, the terminal) all hand scancodes to
``machine.kbc.send_scancodes``.  ``watch_inputs`` wraps that method once per
machine so each batch is announced to ``machine.listeners["input"]`` as
``(instruction time, codes)`` before the keyboard controller queues it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from pcemu.machine import Machine

_MARK = "_pcemu_inputs_watched"


def watch_inputs(machine: "Machine", listener: Callable[[int, list[int]], None]) -> None:
    """Call ``listener(clock.now, codes)`` for every scancode batch sent from now on."""
    kbc = machine.kbc
    if not getattr(kbc, _MARK, False):
        send = kbc.send_scancodes

        def send_scancodes(codes, _send=send, _m=machine):
            codes = list(codes)
            for watch in list(_m.listeners.get("input", ())):
                watch(_m.clock.now, codes)
            _send(codes)

        kbc.send_scancodes = send_scancodes
        setattr(kbc, _MARK, True)
    machine.listeners.setdefault("input", []).append(listener)


def unwatch_inputs(machine: "Machine", listener: Callable) -> None:
    remove_listener(machine, "input", listener)


def add_listener(machine: "Machine", event: str, listener: Callable) -> None:
    machine.listeners.setdefault(event, []).append(listener)


def remove_listener(machine: "Machine", event: str, listener: Callable) -> None:
    """Remove one listener; the list is left empty (not deleted) so the hot path stays a lookup."""
    watchers = machine.listeners.get(event)
    if watchers and listener in watchers:
        watchers.remove(listener)
