"""The machine's typed events and its one input port (no boot: a few milliseconds)."""
from __future__ import annotations

import pytest

from pcemu.events import KeyCodes, MachineEvents, MouseButton, MouseMove, mouse_event
from pcemu.errors import MachineError
from pcemu.machine import Machine


def test_a_misspelt_channel_is_an_error_at_once():
    events = MachineEvents()
    with pytest.raises(AttributeError):
        events.inptu.connect(print)
    with pytest.raises(AttributeError):
        events.inptu = None                      # no new channels either
    with pytest.raises(KeyError, match="no machine event called 'inptu'"):
        events.channel("inptu")


def test_every_input_is_heard_before_its_device_gets_it():
    m = Machine(boot=False, mouse=True)
    heard = []
    m.events.input.connect(lambda t, event: heard.append((t, event, m.kbc.idle())))
    m.send_keys([0x1E, 0x9E])
    m.input(MouseMove(10, 20))
    m.input(MouseButton(1, True))
    assert [event for _t, event, _idle in heard] == [KeyCodes((0x1E, 0x9E)), MouseMove(10, 20),
                                                    MouseButton(1, True)]
    assert heard[0][2] and not m.kbc.idle()      # heard before the controller queued the keys
    assert m.mouse.buttons == 0b10
    with pytest.raises(TypeError):
        m.input((0x1E,))


def test_mouse_input_without_a_mouse_is_one_clear_error():
    m = Machine(boot=False)
    with pytest.raises(MachineError, match="no mouse"):
        m.input(MouseMove(1, 1))


def test_mouse_events_round_trip_through_their_recorded_form():
    for event in (MouseMove(3, 4), MouseButton(2, False), MouseButton(0, True)):
        assert mouse_event(event.method, list(event.args())) == event
    with pytest.raises(ValueError):
        mouse_event("wheel", [1])


def test_services_attach_only_to_traps_the_rom_declares():
    from bios.rom import ENTRIES, ServiceKind, Stub
    m = Machine(boot=False)
    with pytest.raises(MachineError, match="no ROM trap called 'int99'"):
        m.register_service("int99", lambda _m: None)
    by_label = {e.label: e for e in ENTRIES}
    assert by_label["int16"].stub is Stub.WAITING and by_label["int16"].kind is ServiceKind.WAIT
    assert by_label["int25"].kind is ServiceKind.LIVE          # RETF: the caller's flags live
    for entry in ENTRIES:                                       # each vector leads to its entry
        if entry.vector is not None and entry.installer.name == "POST":
            assert m.get_vector(entry.vector) == m.rom.address(entry.label)
