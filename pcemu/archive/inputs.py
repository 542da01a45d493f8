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


MOUSE_METHODS = ("move", "move_by", "button")


def watch_mouse(machine: "Machine", listener: Callable[[int, str, tuple], None]) -> bool:
    """Call ``listener(clock.now, method, args)`` for every host call that moves the mouse
    or presses its buttons (``move``, ``move_by``, ``button``); False if there is no mouse."""
    mouse = getattr(machine, "mouse", None)
    if mouse is None:
        return False
    if not getattr(mouse, _MARK, False):
        for method in MOUSE_METHODS:
            original = getattr(mouse, method, None)
            if original is None:
                continue

            def call(*args, _original=original, _method=method, _m=machine):
                for watch in list(_m.listeners.get("mouse_input", ())):
                    watch(_m.clock.now, _method, args)
                return _original(*args)

            setattr(mouse, method, call)
        setattr(mouse, _MARK, True)
    machine.listeners.setdefault("mouse_input", []).append(listener)
    return True
