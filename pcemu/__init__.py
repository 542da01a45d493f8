"""pcemu: a deterministic DOS PC on Unicorn that runs original PC-SIG software.

    from pcemu import Machine
    m = Machine(disks=["1612"], date="1988-03-01", time="12:00:00")
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}")
    print(m.screen_text())
"""
from pcemu.errors import MachineError, PcemuError, ScriptTimeout, UnimplementedService

__all__ = ["Machine", "MachineError", "PcemuError", "ScriptTimeout", "UnimplementedService"]


def __getattr__(name: str):
    if name == "Machine":                     # imported lazily: unicorn loads only when needed
        from pcemu.machine import Machine
        return Machine
    raise AttributeError(name)
