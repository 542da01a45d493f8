"""The ``pcemu`` command: boot a disk, run a program, and the tools around them.

Errors a user can cause (a missing disk, a bad key script, a program that
never shows the awaited text) are printed as one plain message with a non-zero
exit status; a Python traceback is never the answer to a user mistake.
"""
from __future__ import annotations

if __name__ == "__main__":
    # `python -m pcemu.cli`: run the module the subcommands import, not a second copy of it
    # (they import pcemu.cli while this copy would still be registering them)
    from pcemu.cli import main as _main
    _main()

import importlib
import logging
import os
import sys
from pathlib import Path

import click

from pcemu.clock import MAX_MIPS, MIN_MIPS, MAX_RUN_TICKS as MAX_TICKS

EXIT_USER_ERROR = 2


def _fail(message: str) -> "click.exceptions.Exit":
    click.echo(f"pcemu: {message}", err=True)
    return click.exceptions.Exit(EXIT_USER_ERROR)


def _user_errors() -> tuple[type[BaseException], ...]:
    from unicorn import UcError

    from disks.catalog import DiskError
    from pcemu.errors import PcemuError
    from pcemu.keys import KeyScriptError
    from pcemu.storage.errors import MountError
    return (PcemuError, DiskError, MountError, KeyScriptError, UcError)


def _describe(err: BaseException, machine=None) -> str:
    """One line for an error that stopped a run (a CPU fault Unicorn could not go on from
    says where the program was)."""
    from unicorn import UcError
    if isinstance(err, UcError):
        from unicorn import UC_ERR_FETCH_UNMAPPED
        where, cs = "", None
        if machine is not None:
            try:
                cs, ip = machine.cpu.cs, machine.cpu.ip
                where = f" at CS:IP {cs:04X}:{ip:04X}"
            except Exception:                 # the CPU may be in no state to tell
                pass
        if err.errno == UC_ERR_FETCH_UNMAPPED and cs == 0xFFFF:
            return (f"the CPU stopped{where}: the program ran off the top of segment FFFF "
                    "(on an AT, IP wraps to FFFF:0000, the reset vector, and the machine "
                    "restarts; pcemu stops here)")
        return (f"the CPU stopped{where}: {err} - the program ran where the machine has no "
                "memory or code it can execute")
    return str(err)


def check_output_path(path, *, force: bool, what: str = "output", replace: bool = False) -> Path:
    """Refuse, before anything runs, an output path that cannot be written.

    ``force`` allows replacing an existing regular file; with ``replace`` (the file is
    written beside and renamed over the target) anything but a regular file is refused
    even then, so a device node or a folder is never replaced.
    """
    if not str(path) or str(path) == ".":
        raise _fail(f"{what}: the path is empty")
    path = Path(path)
    if path.exists() or path.is_symlink():
        if path.is_dir():
            raise _fail(f"{what}: {path} is a folder")
        regular = path.is_file()
        if not regular and (replace or not os.access(path, os.W_OK)):
            raise _fail(f"{what}: {path} is not a regular file (a device or special file): "
                        "pcemu will not replace it")
        if regular and not force:
            raise _fail(f"{what}: {path} already exists (use --force to replace it)")
        if regular and not os.access(path, os.W_OK):
            raise _fail(f"{what}: {path} cannot be written (permission denied)")
        if not replace or regular:
            parent = path.parent
            if replace and not os.access(parent, os.W_OK | os.X_OK):
                raise _fail(f"{what}: cannot write into the folder {parent}")
            return path
    folder = path.parent
    while not folder.exists():
        if folder == folder.parent:
            break
        folder = folder.parent
    if not folder.is_dir():
        raise _fail(f"{what}: {path} cannot be made: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _fail(f"{what}: cannot write into the folder {folder} (permission denied)")
    return path


def _check_outputs(opts: dict) -> None:
    """Every file the run will write, checked before it starts."""
    if opts.get("save_disk") is not None:
        check_output_path(opts["save_disk"], force=opts.get("force", False), what="--save-disk",
                          replace=True)
    for key, option in (("screenshot", "--screenshot"), ("wav", "--wav"), ("printer", "--printer"),
                        ("trace_out", "--trace-out")):
        if opts.get(key) is not None:
            check_output_path(opts[key], force=True, what=option)
    if opts.get("trace") and opts.get("trace_out") is None:
        from pcemu.archive.cli_support import DEFAULT_TRACE_FILE
        check_output_path(DEFAULT_TRACE_FILE, force=True, what="--trace")


def machine_options(function):
    """Options shared by boot and run."""
    options = [
        click.option("--headless", is_flag=True, help="No window: run the key script and ticks, then stop."),
        click.option("--keys", "keys", default="", help="Key script: text, {ENTER} {F1}.. {WAIT:text} {TICKS:n}."),
        click.option("--ticks", type=click.FloatRange(min=0, max=MAX_TICKS), default=None,
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
                     help="Write the disk, with everything the run wrote to it, to a new image "
                          "(also when the run fails)."),
        click.option("--force", is_flag=True, help="Let --save-disk replace an existing file."),
        click.option("--video", type=click.Choice(["cga", "mda", "hercules"]), default="cga",
                     help="Video card."),
        click.option("--mips", type=click.FloatRange(min=MIN_MIPS, max=MAX_MIPS), default=None,
                     help="Virtual speed in million instructions a second."),
        click.option("--mouse", is_flag=True, help="Install a mouse and its INT 33h driver."),
        click.option("--ems", type=click.IntRange(16, 32 * 1024), default=None, metavar="KB",
                     help="Install a LIM 4.0 expanded-memory manager (EMMXXXX0, INT 67h, "
                          "page frame at E000h) with KB of expanded memory (16-32768)."),
        click.option("--floppy-drives", type=click.IntRange(1, 2), default=None,
                     help="Diskette drives, 1 or 2 (default: two, or one when the only "
                          "diskette is in A:; a one-drive machine has no B:, as in DOSBox)."),
        click.option("--one-drive-b", is_flag=True,
                     help="A one-drive PC as DOS 3.30 runs it: B: is the one drive's second "
                          "name, and a program's B: (or A: after B:) asks \"Insert diskette "
                          "for drive B:\" and a key."),
        click.option("--printer", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Capture file for what is printed (LPT1, COPY FILE PRN)."),
        click.option("--strict", is_flag=True, help="Stop at the first BIOS or DOS service pcemu lacks."),
        click.option("--host-dir", multiple=True, metavar="X:FOLDER",
                     help="Mount a host folder as a drive, e.g. C:./work (repeatable); "
                          "programs change a private copy, not the folder."),
        click.option("--host-dir-writes", is_flag=True,
                     help="Let programs write the host folders (--host-dir, or a folder given "
                          "as the disk) themselves."),
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
    from pcemu.storage.mount import HostFolder
    writes = bool(opts.get("host_dir_writes"))
    host_dirs = {}
    for spec in opts["host_dir"]:
        letter, sep, folder = spec.partition(":")
        if not sep or len(letter) != 1 or not letter.isalpha() or not folder:
            raise _fail(f"--host-dir wants X:FOLDER (a drive letter and a folder), not {spec!r}")
        if not Path(folder).is_dir():
            raise _fail(f"--host-dir {spec}: {folder} is not an existing folder")
        host_dirs[letter.upper()] = HostFolder(folder, writes=writes)
    disks = []
    if disk is not None:
        letter, path = (disk[0].upper(), disk[2:]) if len(disk) > 2 and disk[1] == ":" else (None, disk)
        if Path(path).is_dir():                      # a host folder becomes a drive (C: unless named)
            host_dirs[letter or "C"] = HostFolder(path, writes=writes)
        else:                                        # an image, or a catalogue name, goes in B:
            disks.append(f"{letter or 'B'}:{path}")
    machine = Machine(disks=disks, date=opts["date"], time=opts["time_"],
                      mips=opts["mips"] or DEFAULT_MIPS, video=opts["video"], mouse=opts["mouse"],
                      strict=opts["strict"], printer_capture=opts["printer"], host_dirs=host_dirs,
                      ems=opts.get("ems") or False, floppy_drives=opts.get("floppy_drives"),
                      one_drive_b=bool(opts.get("one_drive_b")))
    if opts.get("wav") is not None:
        machine.speaker.keep_all = True       # the WAV is of the whole run
    from pcemu.archive.cli_support import attach_trace
    attach_trace(machine, opts)
    return machine


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")


def _save_disk(machine, opts: dict) -> None:
    """--save-disk: the disk with the run's changes, written first of everything at the end."""
    if opts["save_disk"] is None or getattr(machine, "_pcemu_disk_saved", False):
        return
    image = next(iter(machine.dos.floppies.values()), None)
    if image is None:
        raise _fail("--save-disk: no disk image is mounted")
    from pcemu.storage.errors import ImageError
    try:
        image.save(opts["save_disk"])
    except ImageError as err:
        raise _fail(f"--save-disk: {err}")
    except OSError as err:
        raise _fail(f"--save-disk: cannot write {opts['save_disk']}: {err.strerror or err}")
    machine._pcemu_disk_saved = True
    click.echo(f"saved the disk with this run's changes to {opts['save_disk']}", err=True)


def overlay_notice(machine) -> str | None:
    """One line when the program changed a host folder mounted copy-on-write: the folder
    itself was not changed, and how to let programs write it."""
    from pcemu.storage.overlay import HostDirOverlay
    drives = getattr(getattr(machine, "dos", None), "drives", {}) or {}
    changed = [f"{letter}: ({drive.root})" for letter, drive in sorted(drives.items())
               if isinstance(drive, HostDirOverlay) and drive.changed]
    if not changed:
        return None
    return (f"the program's changes to {', '.join(changed)} were made in a temporary copy and "
            f"are gone: the folder{'s were' if len(changed) > 1 else ' was'} not changed "
            "(--host-dir-writes lets programs write host folders)")


def _overlay_notice(machine, opts: dict) -> None:
    line = overlay_notice(machine)
    if line:
        click.echo(f"pcemu: {line}", err=True)


def _finish(machine, opts: dict) -> None:
    """What the run leaves behind: the disk first (it is the user's work), then the rest;
    a failure in one is reported after the others are done."""
    problems = []
    for step in (_save_disk, _close_trace, _print_screen, _screenshot, _wav, _printer_check,
                 _overlay_notice):
        try:
            step(machine, opts)
        except click.exceptions.Exit as exit_:
            problems.append(exit_)
        except _user_errors() as err:
            problems.append(_fail(_describe(err, machine)))
        except OSError as err:
            problems.append(_fail(f"cannot write {err.filename or 'an output file'}: "
                                  f"{err.strerror or err}"))
    if problems:
        raise problems[0]


def _close_trace(machine, opts: dict) -> None:
    from pcemu.archive.cli_support import close_trace
    close_trace(machine)


def _print_screen(machine, opts: dict) -> None:
    if opts["print_screen"]:
        click.echo(machine.screen_text())


def _screenshot(machine, opts: dict) -> None:
    if opts["screenshot"] is not None:
        from pcemu.frontend.display import save_screenshot   # (pygame: only when asked)
        save_screenshot(machine, Path(opts["screenshot"]))


def _wav(machine, opts: dict) -> None:
    if opts["wav"] is not None:
        from pcemu.frontend.sound import write_wav
        write_wav(machine.speaker.events, machine.clock.seconds(), opts["wav"])
        click.echo(f"wrote the speaker's sound to {opts['wav']}", err=True)


def _printer_check(machine, opts: dict) -> None:
    error = getattr(machine.printer, "capture_error", None)
    if error:
        raise _fail(f"--printer: {error}")


def _after_failure(machine, opts: dict, err: BaseException) -> "click.exceptions.Exit":
    """The run stopped with an error: keep its disk changes, then say what happened."""
    from pcemu.errors import MachineError
    message = _describe(err, machine)
    if machine is not None and isinstance(err, MachineError):
        # the machine stopped (a HLT with interrupts off, a reset ...): what the program
        # drew is still there, and asked for
        for show in (_print_screen, _screenshot):
            try:
                show(machine, opts)
            except Exception:
                pass
    if machine is not None:
        try:
            _save_disk(machine, opts)
        except click.exceptions.Exit:
            message += " (and the disk's changes could not be saved: see above)"
        else:
            if opts.get("save_disk") is not None:
                first, newline, rest = message.partition("\n")
                message = (f"{first} (the disk with the run's changes is saved in "
                           f"{opts['save_disk']}){newline}{rest}")
        try:
            _close_trace(machine, opts)
        except Exception:
            pass
        try:
            notice = overlay_notice(machine)
        except Exception:
            notice = None
        if notice:
            first, newline, rest = message.partition("\n")
            message = f"{first} ({notice}){newline}{rest}"
    return _fail(message)


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
    def session(machine) -> None:
        if opts["headless"] or opts["keys"] or opts["ticks"] is not None:
            _run(machine, opts, default_ticks=None if opts["keys"] else 1.0)
            if not opts["headless"] and not (opts["print_screen"] or opts["screenshot"]):
                _interactive(machine, opts)
        else:
            _interactive(machine, opts)

    _keeping_the_disk(disk, opts, session)


def _keeping_the_disk(disk: str | None, opts: dict, session) -> None:
    """Build the machine and run ``session(machine)`` on it; whatever happens, the disk's
    changes are kept (--save-disk) before anything is reported."""
    _check_outputs(opts)
    machine = None
    try:
        machine = _build_machine(disk, opts)
        session(machine)
    except _user_errors() as err:
        raise _after_failure(machine, opts, err)
    except BaseException:
        # Ctrl-C, a window's quit, a bug of ours: the disk's changes are kept all the same
        if machine is not None:
            try:
                _save_disk(machine, opts)
            except click.exceptions.Exit:
                pass
        raise
    _finish(machine, opts)


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
    seen: dict = {}

    def session(machine) -> None:
        command = " ".join((program,) + args)
        shell = seen["shell"] = machine.dos.shell
        lines_before = shell.lines_run
        seen["codes_before"] = len(shell.exit_codes)
        machine.type(command + "{ENTER}")
        _run(machine, opts, default_ticks=None)
        if not opts["headless"]:
            _interactive(machine, opts)
        elif opts["ticks"] is None and not opts["keys"]:
            # a program, a batch file or a built-in: done when the prompt is back
            machine.run_until(condition=lambda m: shell.back_at_prompt(lines_before),
                              max_ticks=18.2 * 600, text=f"{program} to end")

    _keeping_the_disk(disk, opts, session)
    shell, codes_before = seen["shell"], seen["codes_before"]
    if not opts["headless"]:
        return
    if shell.load_error:
        raise _fail(f"{program}: {shell.load_error}")
    if len(shell.exit_codes) > codes_before:
        raise click.exceptions.Exit(shell.exit_codes[-1][1])


def _register_optional(module: str, attribute: str) -> None:
    """Subcommands that live in their own modules (disk tools, exe-info, cpu-report)."""
    try:
        command = getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError as err:
        if err.name != module:
            raise
        return
    main.add_command(command)


# Only the module the subcommands import registers them: a worker process started by
# `python -m pcemu.cli` imports this file again as __mp_main__, where registering would
# import subcommands that import pcemu.cli while it is still half made.
for _module, _attribute in () if __name__ != "pcemu.cli" else (("pcemu.commands.disk", "disk"), ("pcemu.commands.disk", "import_cmd"),
                            ("pcemu.commands.exe_info", "exe_info"),
                            ("pcemu.commands.cpu_report", "cpu_report"),
                            ("pcemu.commands.trace", "trace"), ("pcemu.commands.diff", "diff"),
                            ("pcemu.commands.record", "record"), ("pcemu.commands.replay", "replay"),
                            ("pcemu.commands.report", "report"), ("pcemu.commands.debug", "debug"),
                            ("pcemu.commands.debug", "disasm"), ("pcemu.commands.filmstrip", "filmstrip"),
                            ("pcemu.commands.survey", "survey")):
    _register_optional(_module, _attribute)
