"""Starting DOS: its memory, its vectors, the services behind its ROM traps, its drives.

Every service DOS provides is installed here, in one place: the INT 21h table
(``int21.py``, composed of the areas' tables), the other interrupts DOS owns
(20h, 23h-27h, 2Fh, the CP/M entry, INT 1Bh's break flag), the fault handlers,
and, when the machine has them, the EMS manager and the mouse driver.  The
command interpreter is started by the machine once DOS is up (it sits above DOS).
"""
from __future__ import annotations

from bios import mouse
from bios.rom import Installer
from pcemu.dos import critical, ems, faults, int21, process
from pcemu.dos.core import Dos
from pcemu.dos.memory import MemoryArena
from pcemu.dos.structures import DOS_DATA_SEGMENT, FIRST_MCB, OpenFile


def boot(dos: Dos) -> None:
    ctx = dos.ctx
    mem = ctx.memory
    mem.fill(DOS_DATA_SEGMENT << 4, 0x100, 0)
    dos.arena = MemoryArena(mem, FIRST_MCB)
    ctx.vectors.point_installed_by(Installer.DOS)
    ctx.vectors.set(0x28, *ctx.vectors.rom.address("dummy_iret"))
    ctx.vectors.set(0x2A, *ctx.vectors.rom.address("dummy_iret"))
    _install_services(ctx)
    if ctx.options["ems_kilobytes"]:
        dos.ems = ems.install(ctx, ctx.options["ems_kilobytes"])
    if ctx.options["mouse"]:
        mouse.install(ctx, DOS_DATA_SEGMENT)
    dos.files = [OpenFile("AUX", device="AUX"), OpenFile("CON", device="CON", references=3),
                 OpenFile("PRN", device="PRN")]
    dos.add_empty_floppies()
    with_media = [letter for letter in dos.drives if dos.has_media(letter)]
    dos.current_drive = min(with_media) if with_media else "A"


def _install_services(ctx) -> None:
    register = ctx.vectors.register_service
    register("int21", int21.dos_entry)
    register("int20", lambda ctx: process.terminate(ctx, 0, 0))
    register("int27", process.tsr_int27)
    register("int2f", process.multiplex)
    register("int23_default", lambda ctx: process.terminate(ctx, 0, 1))
    register("int24_default", lambda ctx: ctx.dos.shell.critical_error_prompt())
    register("int25", lambda ctx: process.absolute_disk(ctx, write=False))
    register("int26", lambda ctx: process.absolute_disk(ctx, write=True))
    register("int23_returned", process.ctrl_c_returned)
    register("int1b", lambda ctx: ctx.dos.control_break_seen())    # DOS's Ctrl-Break flag
    critical.install(ctx)
    faults.install(ctx)
    process.install_cpm_entry(ctx)
