"""``pcemu debug`` (a debugger on a running program) and ``pcemu disasm`` (a listing of a file).

    pcemu debug 1612 GINRUMMY --break RND --break int:21/2C
    pcemu debug 1612 GINRUMMY --break line:10650 --do "regs; mem dgroup:0850 3; c" --max-stops 3
    pcemu disasm 1612 GINRUMMY.EXE --lines 10610-10750      # the shuffle, runtime calls named
    pcemu disasm GINRUMMY.EXE --routine RND --count 30

``debug`` boots DISK, runs PROGRAM and stops at the breakpoints; at each stop
it takes commands (``help`` lists them) from ``--do``, then from the terminal.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from pcemu.cli import _build_machine, _fail, _overlay_notice, _user_errors, machine_options


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("disk")
@click.argument("program", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("--break", "breaks", multiple=True, metavar="SPEC",
              help="ADDRESS | RND (a runtime routine) | line:N | module:SEG:OFF | int:NN[/AH[/AL]] | "
                   "port:NNN[/in|/out] | write:ADDRESS[+LEN]  (repeatable)")
@click.option("--do", "commands", default="", metavar="COMMANDS",
              help="Commands for the first stops, separated by ';' (e.g. \"regs; c\").")
@click.option("--max-stops", type=int, default=None, help="Quit after this many stops.")
@click.option("--step-first", is_flag=True, help="Stop at the program's first instruction.")
@machine_options
def debug(disk: str, program: str | None, args: tuple[str, ...], breaks: tuple[str, ...],
          commands: str, max_stops: int | None, step_first: bool, **opts) -> None:
    """Run PROGRAM from DISK under the debugger: breakpoints, steps, registers, memory, disassembly."""
    from pcemu.archive.cli_support import RUN_LIMIT_TICKS, run_script, start_program
    from pcemu.errors import ScriptTimeout
    from pcemu.archive.console import DebugConsole
    from pcemu.archive.debugger import DebuggerError, DebuggerQuit
    read_line = _terminal_reader() if sys.stdin.isatty() else _pipe_reader()
    try:
        machine = _build_machine(disk, opts)
        console = DebugConsole(machine, [c for c in commands.split(";")], read_line=read_line,
                               write=click.echo, max_stops=max_stops)
        dbg = console.debugger
        for spec in breaks:
            click.echo("breakpoint " + dbg.add(spec).describe())
        if step_first:
            machine.events.exec.connect(lambda path, psp: dbg.step(1))
        try:
            start_program(machine, program, args)
            run_script(machine, opts["keys"], opts["ticks"], None)
            if opts["ticks"] is None and program:       # then on, until the program ends
                run_script(machine, "", None, program)
        except DebuggerQuit:
            click.echo("quit")
            _overlay_notice(machine, opts)
            return
        except ScriptTimeout:
            click.echo(f"{program} was still running after {RUN_LIMIT_TICKS / 18.2065:.0f} s of "
                       "virtual time: stopped")
        click.echo(f"the run ended after {machine.clock.seconds():.2f} s of virtual time, "
                   f"{dbg.stops} stops")
        if opts["print_screen"]:
            click.echo(machine.screen_text())
        _overlay_notice(machine, opts)
    except (DebuggerError,) + _user_errors() as err:
        raise _fail(str(err))


def _terminal_reader():
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None
    return read


def _pipe_reader():
    def read(prompt: str) -> str | None:
        line = sys.stdin.readline()
        return line if line else None
    return read


@click.command()
@click.argument("source")
@click.argument("file", required=False)
@click.option("--lines", "line_range", default=None, metavar="FIRST[-LAST][,...]",
              help="BASIC lines (from the program's statement table), e.g. 10610-10750, "
                   "or several ranges: 110,270,10610-10750.")
@click.option("--routine", default=None, help="A runtime routine found by signature: RND, TIMER ...")
@click.option("--at", "at", default=None, metavar="SEG:OFF", help="An address in the load module.")
@click.option("--count", type=int, default=40, help="Instructions to list with --routine or --at.")
@click.option("--names", is_flag=True, help="List the runtime routines recognised, and where.")
def disasm(source: str, file: str | None, line_range: str | None, routine: str | None,
           at: str | None, count: int, names: bool) -> None:
    """Disassemble a DOS program: SOURCE is the .EXE, or a disk (image or catalogue name) and
    the FILE on it.  Calls into the BASIC runtime and GOSUB targets are named, statements
    carry their BASIC line numbers, and operands that point at strings show them."""
    from pcemu.archive.program_map import MapError, ProgramMap
    from pcemu.archive.debugger import DebuggerError, parse_number
    from pcemu.storage.errors import DosError
    from pcemu.tools.mz import ExeError
    try:
        data, name = _program_bytes(source, file)
        pm = ProgramMap.from_exe(data, 0, name)
        if names:
            for routine_name, linear in sorted(pm.routines.items(), key=lambda kv: kv[1]):
                seg = pm.runtime_segment or 0
                click.echo(f"{routine_name:<28} {seg:04X}:{linear - seg * 16:04X}")
            if not pm.routines:
                kind = "program" if pm.report is not None else ".COM program (not an MZ executable)"
                click.echo(f"no runtime routines recognised in this {kind}")
            return
        chosen = [x for x in (line_range, routine, at) if x]
        if len(chosen) != 1:
            raise _fail("say what to list: one of --lines, --routine, --at (or --names)")
        if line_range:
            lines = []
            for part in line_range.split(","):
                first, _, last = part.partition("-")
                if not first.strip().isdigit() or (last and not last.strip().isdigit()):
                    raise _fail(f"--lines wants FIRST[-LAST][,...] in decimal, not {line_range!r}")
                start, end = pm.line_range(int(first), int(last) if last else None)
                if lines:
                    lines.append("...")                   # a gap between the ranges
                lines.extend(pm.static_listing(start, end))
        elif routine:
            lines = pm.listing_from(pm.routine(routine), count)
        else:
            seg, sep, off = at.partition(":")
            if not sep:
                raise _fail(f"--at wants SEG:OFF, not {at!r}")
            lines = pm.listing_from(parse_number(seg) * 16 + parse_number(off), count)
        for line in lines:
            click.echo(str(line))
    except (MapError, ExeError, DosError, DebuggerError) + _user_errors() as err:
        raise _fail(f"{source}: {err}" if isinstance(err, ExeError) else str(err))


MAX_PROGRAM = 16 * 1024 * 1024     # bytes: more than any DOS program (the EXE format stops at 1 MB)


def _program_bytes(source: str, file: str | None) -> tuple[bytes, str]:
    """The program file: a host file, or FILE inside the disk SOURCE."""
    if file is None:
        path = Path(source)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_PROGRAM + 1)
            if len(data) > MAX_PROGRAM:
                raise _fail(f"{path} is larger than {MAX_PROGRAM // 2**20} MB: not a DOS program")
            return data, path.name
        except OSError as exc:
            raise _fail(f"cannot read {path}: {exc.strerror or exc}") from None
    from disks.catalog import find_disk
    from pcemu.storage.image import FloppyImage
    from pcemu.storage.names import normalize_name
    image = FloppyImage.open(find_disk(source), read_only=True)
    parts = [normalize_name(p) for p in file.replace("/", "\\").split("\\") if p]
    entry = image.drive.stat(parts)
    if entry is None or entry.is_dir:
        raise _fail(f"there is no file {file} on {source}")
    return image.drive.read_file(parts), parts[-1]
