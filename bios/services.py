"""Service tables: interrupt functions keyed by function number, as a BIOS listing groups them.

A table dispatches on a register (AH for almost everything).  Functions the
table does not know are reported once through ``ctx.call.unimplemented``,
which logs the caller's CS:IP, the interrupt and AH/AL, and either carries on
with the documented error return or, in strict mode, stops the run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from bios.context import ServiceContext

Handler = Callable[["ServiceContext"], object]


class FunctionTable(dict):
    """One area's handlers keyed by function number, filled by the decorator in the
    area's own module (``@functions.function(0x3D)``).  A table serving one
    interrupt (a ``ServiceTable``) is composed from such tables explicitly."""

    def __init__(self, area: str) -> None:
        super().__init__()
        self.area = area

    def function(self, *numbers: int) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            for number in numbers:
                if number in self:
                    raise ValueError(f"{self.area}: function {number:02X}h registered twice")
                self[number] = handler
            return handler
        return register


class ServiceTable:
    def __init__(self, interrupt: int, area: str, selector: str = "ah",
                 on_unknown: Handler | None = None) -> None:
        self.interrupt = interrupt
        self.area = area
        self.selector = selector
        self.functions = FunctionTable(area)
        self.on_unknown = on_unknown

    @classmethod
    def composed(cls, interrupt: int, area: str, *tables: FunctionTable,
                 selector: str = "ah") -> "ServiceTable":
        """One interrupt's table made of several areas' tables, none claiming a number twice."""
        table = cls(interrupt, area, selector)
        for part in tables:
            for number, handler in part.items():
                if number in table.functions:
                    raise ValueError(f"INT {interrupt:02X}h function {number:02X}h is in two "
                                     f"areas ({table.functions[number].__module__}, {part.area})")
                table.functions[number] = handler
        return table

    def function(self, *numbers: int) -> Callable[[Handler], Handler]:
        return self.functions.function(*numbers)
    def dispatch(self, ctx: "ServiceContext") -> object:
        number = getattr(ctx.cpu, self.selector)
        handler = self.functions.get(number)
        if handler is None:
            if self.on_unknown is not None:
                return self.on_unknown(ctx)
            ctx.call.unimplemented(self.interrupt, f"{self.area} function {number:02X}h")
            return None
        return handler(ctx)

    def __contains__(self, number: int) -> bool:
        return number in self.functions
