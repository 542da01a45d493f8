"""The ``pcemu`` command: boot a disk, run a program, and the tools around them.

Errors a user can cause (a missing disk, a bad key script, a program that
never shows the awaited text) are printed as one plain message with a non-zero
exit status; a Python traceback is never the answer to a user mistake.
"""
from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path

import click

EXIT_USER_ERROR = 2


def _fail(message: str) -> "click.exceptions.Exit":
    click.echo(f"pcemu: {message}", err=True)
    return click.exceptions.Exit(EXIT_USER_ERROR)


def _user_errors() -> tuple[type[BaseException], ...]:
    from disks.catalog import DiskError
    from pcemu.errors import PcemuError
    from pcemu.keys import KeyScriptError
    from pcemu.storage.errors import MountError
    return (PcemuError, DiskError, MountError, KeyScriptError)


def machine_options(function):
    """Options shared by boot and run."""
    options = [
        click.option("--headless", is_flag=True, help="No window: run the key script and ticks, then stop."),
        click.option("--keys", "keys", default="", help="Key script: text, {ENTER} {F1}.. {WAIT:text} {TICKS:n}."),
        click.option("--ticks", type=click.FloatRange(min=0), default=None,
                     help="BIOS ticks (18.2 a second) of virtual time to run after the keys."),
        click.option("--print-screen", is_flag=True, help="Print the text screen when the run ends."),
        click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Save a PNG of the screen when the run ends."),
        click.option("--date", default=None, help="Start date, YYYY-MM-DD (default 1988-01-01)."),
        click.option("--time", "time_", default=None,
                     help="Start time of day, HH:MM:SS.hh (default 12:00:00.00)."),
        click.option("--wav", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Write what the PC speaker played during the run as a WAV file."),
        click.option("--save-disk", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Write the disk, with everything the run wrote to it, to a new image."),
        click.option("--video", type=click.Choice(["cga", "mda", "hercules"]), default="cga",
                     help="Video card."),
        click.option("--mips", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Virtual speed in million instructions a second."),
        click.option("--mouse", is_flag=True, help="Install a mouse and its INT 33h driver."),
        click.option("--printer", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Capture file for what is printed (LPT1, COPY FILE PRN)."),
        click.option("--strict", is_flag=True, help="Stop at the first BIOS or DOS service pcemu lacks."),
        click.option("--host-dir", multiple=True, metavar="X:FOLDER",
                     help="Mount a host folder as a drive, e.g. C:./work (repeatable)."),
        click.option("-v", "--verbose", count=True, help="Log more (-v: warnings of unimplemented services)."),
    ]
    for option in reversed(options):
        function = option(function)
    from pcemu.archive.cli_support import trace_options     # --trace, --trace-out
    return trace_options(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """pcemu: a deterministic DOS PC that runs original PC-SIG programs."""


def _build_machine(disk: str | None, opts: dict):
    from pcemu.clock import DEFAULT_MIPS
    from pcemu.machine import Machine
    level = logging.ERROR - 10 * opts["verbose"]
    logging.basicConfig(level=max(level, logging.DEBUG), format="%(message)s")
    host_dirs = {}
    for spec in opts["host_dir"]:
        letter, sep, folder = spec.partition(":")
        if not sep or len(letter) != 1:
            raise _fail(f"--host-dir wants X:FOLDER, not {spec!r}")
        host_dirs[letter.upper()] = folder
    disks = []
    if disk is not None:
        letter, path = (disk[0].upper(), disk[2:]) if len(disk) > 2 and disk[1] == ":" else (None, disk)
        if Path(path).is_dir():                      # a host folder becomes a drive (C: unless named)
            host_dirs[letter or "C"] = path
        else:                                        # an image, or a catalogue name, goes in B:
            disks.append(f"{letter or 'B'}:{path}")
    machine = Machine(disks=disks, date=opts["date"], time=opts["time_"],
                      mips=opts["mips"] or DEFAULT_MIPS, video=opts["video"], mouse=opts["mouse"],
                      strict=opts["strict"], printer_capture=opts["printer"], host_dirs=host_dirs)
    from pcemu.archive.cli_support import attach_trace
    attach_trace(machine, opts)
    return machine


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")


def _finish(machine, opts: dict) -> None:
    from pcemu.archive.cli_support import close_trace
    close_trace(machine)
    if opts["print_screen"]:
        click.echo(machine.screen_text())
    if opts["screenshot"] is not None:
        machine.screenshot(opts["screenshot"])
    if opts["wav"] is not None:
        from pcemu.frontend.sound import write_wav
        write_wav(machine.speaker.events, machine.clock.seconds(), opts["wav"])
        click.echo(f"wrote the speaker's sound to {opts['wav']}", err=True)
    if opts["save_disk"] is not None:
        image = next(iter(machine.dos.floppies.values()), None)
        if image is None:
            raise _fail("--save-disk: no disk image is mounted")
        image.save(opts["save_disk"])
        click.echo(f"saved the disk with this run's changes to {opts['save_disk']}", err=True)


def _run(machine, opts: dict, default_ticks: float | None) -> None:
    if opts["keys"]:
        machine.type(opts["keys"])
    ticks = opts["ticks"] if opts["ticks"] is not None else default_ticks
    if ticks:
        machine.run(ticks)


def _interactive(machine, opts: dict) -> None:
    if _has_display():
        try:
            from pcemu.frontend.window import run_window
        except ImportError as exc:
            raise _fail(f"the window front end is not available: {exc}")
        run_window(machine)
    else:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise _fail("no display and no terminal to run the machine in: add --headless "
                        "(with --keys or --ticks), or start pcemu in a terminal or with a display")
        click.echo("pcemu: no display here, so the machine runs in this terminal "
                   "(Ctrl-] quits).", err=True)
        import curses
        from pcemu.frontend_terminal import run_terminal
        try:
            run_terminal(machine)
        except curses.error as err:
            raise _fail(f"this terminal cannot show the machine ({err}): add --headless, "
                        "or use a display")


@main.command()
@click.argument("disk", required=False)
@machine_options
def boot(disk: str | None, **opts) -> None:
    """Boot to the DOS prompt with DISK in B: (a catalogue name such as 1612, or an image;
    a folder is mounted as C:; prefix X: to choose the drive).

    \b
    Window controls (every other key goes to the PC, as on an AT keyboard):
      Right Ctrl+F  fullscreen          Right Ctrl+P  pause / resume
      Right Ctrl+T  turbo (unthrottled) Right Ctrl+S  screenshot (PNG)
      Right Ctrl+W  save the sound so far as WAV
      Right Ctrl+M  sound on / off      Right Ctrl+Q  quit
    Without a display the machine runs in the terminal; Ctrl-] quits.
    """
    try:
        machine = _build_machine(disk, opts)
        if opts["headless"] or opts["keys"] or opts["ticks"] is not None:
            _run(machine, opts, default_ticks=None if opts["keys"] else 1.0)
            if not opts["headless"] and not (opts["print_screen"] or opts["screenshot"]):
                _interactive(machine, opts)
        else:
            _interactive(machine, opts)
        _finish(machine, opts)
    except _user_errors() as err:
        raise _fail(str(err))


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("disk")
@click.argument("program")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@machine_options
def run(disk: str, program: str, args: tuple[str, ...], **opts) -> None:
    """Boot with DISK and run PROGRAM [ARGS...] from the prompt.

    Headless, the run ends when the program returns to the prompt (the exit
    status is the program's exit code) or when the keys and ticks are done.
    """
    try:
        machine = _build_machine(disk, opts)
        command = " ".join((program,) + args)
        shell = machine.dos.shell
        lines_before, codes_before = shell.lines_run, len(shell.exit_codes)
        machine.type(command + "{ENTER}")
        if not opts["headless"]:
            _run(machine, opts, default_ticks=None)
            _interactive(machine, opts)
            _finish(machine, opts)
            return
        _run(machine, opts, default_ticks=None)
        if opts["ticks"] is None and not opts["keys"]:
            # a program, a batch file or a built-in: done when the prompt is back
            machine.run_until(condition=lambda m: shell.back_at_prompt(lines_before),
                              max_ticks=18.2 * 600, text=f"{program} to end")
        _finish(machine, opts)
        if shell.load_error:
            raise _fail(f"{program}: {shell.load_error}")
        if len(shell.exit_codes) > codes_before:
            raise click.exceptions.Exit(shell.exit_codes[-1][1])
    except _user_errors() as err:
        raise _fail(str(err))


def _register_optional(module: str, attribute: str) -> None:
    """Subcommands that live in their own modules (disk tools, exe-info, cpu-report)."""
    try:
        command = getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError as err:
        if err.name != module:
            raise
        return
    main.add_command(command)


for _module, _attribute in (("pcemu.commands.disk", "disk"), ("pcemu.commands.disk", "import_cmd"),
                            ("pcemu.commands.exe_info", "exe_info"),
                            ("pcemu.commands.cpu_report", "cpu_report"),
                            ("pcemu.commands.trace", "trace"), ("pcemu.commands.diff", "diff"),
                            ("pcemu.commands.record", "record"), ("pcemu.commands.replay", "replay"),
                            ("pcemu.commands.report", "report"), ("pcemu.commands.debug", "debug"),
                            ("pcemu.commands.debug", "disasm"), ("pcemu.commands.filmstrip", "filmstrip")):
    _register_optional(_module, _attribute)


if __name__ == "__main__":
    main()
