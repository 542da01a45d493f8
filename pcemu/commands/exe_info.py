"""``pcemu exe-info FILE [--unpack OUT.exe]``: what an executable is and how it was built.

Shows the MZ header, EXEPACK details, the compiler and, for QuickBASIC
programs, where the runtime's RND, RANDOMIZE, TIMER, GOSUB/RETURN, PRINT and
INT 3 handler are.  ``--unpack`` writes the EXEPACK-free program, which runs
the same and is what the disassembly addresses refer to.
"""
from __future__ import annotations

from pathlib import Path

import click

from pcemu.tools.exe import ExeError, analyse_file, describe


@click.command("exe-info")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--unpack", "unpack_to", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write the unpacked executable here (EXEPACKed files only).")
def exe_info(file: Path, unpack_to: Path | None) -> None:
    """Describe a DOS MZ executable FILE."""
    try:
        report = analyse_file(file)
    except ExeError as exc:
        raise click.ClickException(f"{file}: {exc}") from exc
    click.echo(describe(report, file.name))
    if unpack_to is not None:
        if report.unpacked is None:
            raise click.ClickException(f"{file} is not EXEPACKed: nothing to unpack")
        data = report.unpacked_bytes()
        try:
            unpack_to.write_bytes(data)
        except OSError as exc:
            raise click.ClickException(f"cannot write {unpack_to}: {exc.strerror or exc}") from exc
        click.echo(f"unpacked program written to {unpack_to} ({len(data)} bytes)")


if __name__ == "__main__":
    exe_info()
