"""The chips and cards of the AT, one module each, each with a small port interface.

Every device exposes ``ports`` (the I/O addresses it decodes) and
``read(port) -> int`` / ``write(port, value)``; ``pcemu.bus.IoBus`` routes
the CPU's IN and OUT instructions to them.
"""
