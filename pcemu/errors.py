"""Errors a user of pcemu can meet, each with a message that says what to do."""


class PcemuError(Exception):
    """Base class: printed to the user as a plain message, never a traceback."""


class MachineError(PcemuError):
    """The machine cannot go on (bad configuration, CPU halted, internal fault)."""


class ScriptTimeout(PcemuError):
    """A key script's wait or run_until did not come true in time."""


class UnimplementedService(PcemuError):
    """Strict mode: a program called a BIOS or DOS service pcemu does not implement."""


class ProgramLoadError(PcemuError):
    """A program file could not be loaded (truncated or corrupt executable)."""
