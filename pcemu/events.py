"""What the machine tells its observers, and what the host feeds into it.

``MachineEvents`` is a fixed set of ``Signal``s, one per kind of event, each
documented with the arguments its listeners receive.  It has slots and no
``__dict__``, so ``machine.events.inptu`` fails at once instead of making a
channel nobody emits (bare string channels dropped misspelt events silently).

Host input comes in as typed ``InputEvent``s through ``Machine.input``: the key
scripts, the window, the terminal front end and session replay all use it, and
the ``input`` signal hears every one before the device sees it, so recording,
film strips and traces observe input without patching a device's methods.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar, Union


class Signal:
    """Listeners of one kind of event, called in the order they connected."""

    __slots__ = ("name", "doc", "listeners")

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.doc = doc
        # a plain list: hot paths test it for emptiness and iterate it directly
        self.listeners: list[Callable] = []

    def connect(self, listener: Callable) -> None:
        self.listeners.append(listener)

    def disconnect(self, listener: Callable) -> None:
        """Remove one listener (no error if it is not connected)."""
        if listener in self.listeners:
            self.listeners.remove(listener)

    def emit(self, *args) -> None:
        if self.listeners:                   # (a copy: a listener may disconnect itself)
            for listener in list(self.listeners):
                listener(*args)

    def __bool__(self) -> bool:
        return bool(self.listeners)

    def __iter__(self):
        return iter(self.listeners)

    def __len__(self) -> int:
        return len(self.listeners)

    def __repr__(self) -> str:
        return f"<Signal {self.name}: {len(self.listeners)} listener(s)>"


# name -> what a listener is called with
CHANNELS: dict[str, str] = {
    "service": "(trap name, ServiceKind, after: bool) around every Python service",
    "dos": "(AH) at every INT 21h call",
    "time_read": "(datetime) when a program reads DOS's time (INT 21h AH=2Ch)",
    "interrupt": "(vector) before a software interrupt is delivered (see Machine.watch_interrupts)",
    "irq": "(vector, virtual time) before a hardware interrupt enters its handler",
    "unimplemented": "(record dict) when a program asks for a service pcemu lacks",
    "beep": "() when DOS or the BIOS beeps",
    "scancode": "(scancode) as INT 09h's service takes it from port 60h",
    "tick": "() at every BIOS timer tick",
    "video_mode": "(mode) after INT 10h sets a video mode",
    "run_to": "(instruction) when the host runs the machine to a chosen time",
    "critical": "(message) when DOS raises a critical error (INT 24h)",
    "exec": "(path, PSP segment) when a program is loaded",
    "exit": "(program name, return code, how it ended) when a program ends",
    "file": "(operation, path, detail) for what a program does to files",
    "input": "(virtual time, InputEvent) for every host input, before the device sees it",
}


class MachineEvents:
    """One ``Signal`` per channel in ``CHANNELS``; no others can be made or asked for."""

    __slots__ = tuple(CHANNELS)

    def __init__(self) -> None:
        for name, doc in CHANNELS.items():
            setattr(self, name, Signal(name, doc))

    def channel(self, name: str) -> Signal:
        """The signal called ``name``: a clear error for a name that is none."""
        if name not in CHANNELS:
            raise KeyError(f"no machine event called {name!r}: there are {', '.join(CHANNELS)}")
        return getattr(self, name)

    def signals(self) -> list[Signal]:
        return [getattr(self, name) for name in CHANNELS]


# -- host input -------------------------------------------------------------------------------
@dataclass(frozen=True)
class KeyCodes:
    """Set-1 scancodes for the keyboard's serial line (make and break codes)."""
    codes: tuple[int, ...]


@dataclass(frozen=True)
class MouseMove:
    """The mouse to (x, y) in the driver's 640x200 virtual screen."""
    method: ClassVar[str] = "move"         # the Mouse device's method, and sessions' name
    x: int
    y: int

    def args(self) -> tuple[int, ...]:
        return (self.x, self.y)


@dataclass(frozen=True)
class MouseMoveBy:
    """The mouse moved by (dx, dy) mickeys."""
    method: ClassVar[str] = "move_by"
    dx: int
    dy: int

    def args(self) -> tuple[int, ...]:
        return (self.dx, self.dy)


@dataclass(frozen=True)
class MouseButton:
    """A mouse button (0 left, 1 right, 2 middle) pressed or released."""
    method: ClassVar[str] = "button"
    number: int
    down: bool

    def args(self) -> tuple[int, ...]:
        return (self.number, int(self.down))


InputEvent = Union[KeyCodes, MouseMove, MouseMoveBy, MouseButton]
MOUSE_EVENTS = {kind.method: kind for kind in (MouseMove, MouseMoveBy, MouseButton)}


def mouse_event(method: str, args) -> InputEvent:
    """A mouse event from its method name and arguments (as sessions record them)."""
    kind = MOUSE_EVENTS.get(method)
    if kind is None:
        raise ValueError(f"no mouse event called {method!r}")
    if kind is MouseButton:
        number, down = args
        return MouseButton(int(number), bool(down))
    return kind(*(int(a) for a in args))
