"""INT 21h: the DOS function dispatcher, and its table composed from the areas' tables.

Each area module (``console``, ``files``, ``fcb``, ``ioctl``, ``process``,
``system``) fills a ``FunctionTable`` of its own; INT 21h's table is made of
them here, explicitly, and a number claimed by two areas is an error at import.
The dispatcher counts the call, lets tracers see it, and turns a ``DosError``
into AX and CF, or a critical error into INT 24h; on a one-drive machine a call by
the drive's other name asks for the diskette first (``single_drive``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios.services import ServiceTable
from pcemu.dos import console, critical, fcb, files, ioctl, process, single_drive, system
from pcemu.dos.process import SAVED
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

DOS_FUNCTIONS = ServiceTable.composed(0x21, "DOS", console.functions, files.functions,
                                      fcb.functions, ioctl.functions, process.functions,
                                      system.functions)


# INT 21h functions that reach a drive, and so may end in a critical error (INT 24h)
DRIVE_FUNCTIONS = frozenset([*range(0x0F, 0x18), 0x1B, 0x1C, 0x21, 0x22, 0x23, 0x27, 0x28, 0x36,
                             *range(0x39, 0x44), 0x47, 0x4B, 0x4E, 0x4F, 0x56, 0x57, 0x5A, 0x5B, 0x68])


def dos_entry(ctx: "ServiceContext"):
    cpu = ctx.cpu
    dos = ctx.dos
    ah = cpu.ah
    ctx.call.count_service(f"INT 21h AH={ah:02X}h")
    for watch in ctx.events.dos.listeners:
        watch(ah)
    if dos.critical is not None:
        ctx.call.impure()                        # a critical error's bookkeeping is state
    if dos.critical is not None and dos.critical.handler_left(cpu, ah):
        dos.critical = None               # the INT 24h handler went back to the program itself
    # a critical error needs the registers as the caller passed them (only calls
    # that reach a drive can meet one; the polling calls stay cheap)
    entry = _registers(cpu) if ah in DRIVE_FUNCTIONS else None
    try:
        calls = DOS_FUNCTIONS.dispatch(ctx)
    except single_drive.DisketteSwap as swap:
        return _after_the_swap(ctx, swap, ah, entry or _registers(cpu))
    except (critical.CriticalError, DosError) as err:
        _dos_error(ctx, err, ah, entry)
        return None
    if calls is not None:                 # it calls guest interrupts (console I/O)
        return _guarded(ctx, calls, ah, entry)
    return None


def _guarded(ctx: "ServiceContext", calls, ah: int, entry):
    """A DOS function that calls guest interrupts, with its errors answered as above."""
    try:
        yield from calls
    except single_drive.DisketteSwap as swap:
        yield from _after_the_swap(ctx, swap, ah, entry or _registers(ctx.cpu))
    except (critical.CriticalError, DosError) as err:
        _dos_error(ctx, err, ah, entry)


def _after_the_swap(ctx: "ServiceContext", swap, ah: int, entry):
    """The diskette asked for and a key struck: the call runs again from its registers
    (passing the swaps already answered, if it reaches both names)."""
    unit = ctx.dos.shared_unit
    attempts = single_drive.Attempts(unit.answering)
    while True:
        yield from single_drive.prompt(ctx, swap)
        attempts.asked.append(swap.letter)
        ctx.cpu.set_registers(**entry)
        unit.begin(attempts)
        try:
            calls = DOS_FUNCTIONS.dispatch(ctx)
            if calls is not None:
                yield from calls
            return
        except single_drive.DisketteSwap as again:
            swap = again
        except (critical.CriticalError, DosError) as err:
            _dos_error(ctx, err, ah, entry)
            return
        finally:
            unit.end()


def _dos_error(ctx: "ServiceContext", err: Exception, ah: int, entry) -> None:
    if isinstance(err, critical.CriticalError):
        critical.interrupt_dos_call(ctx, err, entry or _registers(ctx.cpu))
        return
    device = critical.from_dos_error(ctx, err.code, ah)
    if device is None:
        ctx.dos.fail(err.code)
    else:
        critical.interrupt_dos_call(ctx, device, entry or _registers(ctx.cpu))


def _registers(cpu) -> dict[str, int]:
    return {name: getattr(cpu, name) for name in SAVED}




