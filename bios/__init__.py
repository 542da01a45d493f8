"""The machine's firmware, written in Python: ROM stubs, BIOS services and the BIOS data area.

No real BIOS is run.  ``bios.rom`` lays out a small ROM at F0000h whose
interrupt entry points are real 8086 code around *trap* instructions; when the
CPU reaches a trap, the machine calls the Python service registered for that
ROM address.  Services are grouped by area, one module each (video, keyboard,
timer, disk, printer, system), and within an area keyed by function number.
"""
