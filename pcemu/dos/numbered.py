"""Tables of services by number (AL or AH values), filled by a decorator at import."""
from __future__ import annotations

from typing import Callable, TypeVar

Handler = TypeVar("Handler", bound=Callable)


def registrar(table: dict[int, Handler]) -> Callable[..., Callable[[Handler], Handler]]:
    """A decorator factory: ``@by_number(0x40, 0x41)`` files the handler in ``table``
    under each number and returns it unchanged."""
    def by_number(*numbers: int) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            for number in numbers:
                table[number] = handler
            return handler
        return register
    return by_number
