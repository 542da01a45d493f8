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


class ServiceTable:
    def __init__(self, interrupt: int, area: str, selector: str = "ah",
                 on_unknown: Handler | None = None) -> None:
        self.interrupt = interrupt
        self.area = area
        self.selector = selector
        self.functions: dict[int, Handler] = {}
        self.on_unknown = on_unknown

    def function(self, *numbers: int) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            for number in numbers:
                self.functions[number] = handler
            return handler
        return register

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
