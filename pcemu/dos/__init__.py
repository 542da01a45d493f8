"""A high-level DOS 3.30 kernel written in Python.

No DOS is booted.  INT 20h-2Fh point to ROM entry points whose traps reach the
services in this package, grouped by area: ``console`` (01h-0Ch),
``files`` (handles, find first/next, directories), ``fcb`` (the FCB calls),
``process`` (EXEC, terminate, PSP, memory, CALL 5), ``system`` (vectors, date
and time, version, drives) and ``critical`` (INT 24h for a drive with no
diskette, a write-protected disk or a bad medium).
Guest-visible structures (PSPs, MCBs, the DTA, environment blocks) live in guest
memory exactly where programs expect them.

The machine's diskette drives (`Machine.floppy_drives`: A: alone with one
drive, A: and B: with two) exist once anything is mounted; one without a
diskette is a `critical.EmptyDrive`, which answers "Not ready" through INT 24h.
A one-drive machine has no B: at all ("invalid drive"), as in DOSBox, unless it
is asked for as DOS 3.30 ran one (``Machine(one_drive_b=True)``): then
``single_drive`` names the one drive B: too and asks for the diskette.
"""
from pcemu.dos.core import Dos
from pcemu.dos.structures import (DOS_DATA_SEGMENT, DOS_VERSION, FIRST_MCB, SHELL_PARAGRAPHS,
                                  OpenFile, Process)

__all__ = ["Dos", "OpenFile", "Process", "DOS_DATA_SEGMENT", "DOS_VERSION", "FIRST_MCB",
           "SHELL_PARAGRAPHS"]
