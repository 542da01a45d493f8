"""``python -m games_py.teach_gin [play|demo] [DOS parameters] [--seed N]``.

The DOS parameters are read exactly as GINRUMMY.EXE reads its command line
(see ``commandline``); ``--seed`` and the demo's flags are ours.
"""
from __future__ import annotations

import random
import sys
from datetime import date
from pathlib import Path
from typing import Sequence, TextIO

from games_py.teach_gin.about import COMMAND_HELP, RULES_SUMMARY
from games_py.teach_gin.commandline import parse_params, resolve_path
from games_py.teach_gin.console import Console, blank_seconds
from games_py.teach_gin.demo import run_demo
from games_py.teach_gin.files import STA_FILE, DataStore
from games_py.teach_gin.render import Style
from games_py.teach_gin.screens import App

DEMO_FLAGS = ("--oklahoma", "--easy", "--no-knock")
PLAIN = "--plain"       # lines, not the whole screen (the default off a terminal)


class UsageError(ValueError):
    pass


def _take_seed(args: list[str]) -> tuple[int | None, list[str]]:
    seed, rest, i = None, [], 0
    while i < len(args):
        a = args[i]
        if a == "--seed" or a.startswith("--seed="):
            value = a.partition("=")[2] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")
            i += 1 if "=" in a else 2
            try:
                seed = int(value)
            except ValueError:
                raise UsageError(f"--seed needs a whole number, not {value!r}") from None
            continue
        rest.append(a)
        i += 1
    return seed, rest


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, cwd: Path | None = None, today: str | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    cwd = Path.cwd() if cwd is None else cwd
    try:
        seed, args = _take_seed(args)
    except UsageError as e:
        out.write(f"error: {e}\n")
        return 2
    mode = "play"
    if args and args[0].lower() in ("play", "demo"):
        mode, args = args[0].lower(), args[1:]
    if args and args[0] in ("-h", "--help"):
        args[0] = "help"
    plain = PLAIN in args
    args = [a for a in args if a != PLAIN]
    flags = {a for a in args if a in DEMO_FLAGS}
    if flags and mode != "demo":
        out.write(f"error: {', '.join(sorted(flags))} only go with demo\n")
        return 2
    args = [a for a in args if a not in DEMO_FLAGS]
    unknown = [a for a in args if a.startswith("--")]
    if unknown:
        out.write(f"error: unknown option {unknown[0]} (try: help)\n")
        return 2
    launch = parse_params(args)
    if launch.command == "help":
        out.write(COMMAND_HELP)
        return 0
    directory, path_message = resolve_path(launch.path, cwd)
    store = DataStore(directory, disk=not launch.has("NODISK"))
    if path_message:
        out.write(path_message + "\n")
    if launch.command == "list":
        book = store.load_stats()
        for m in store.messages:
            out.write(m + "\n")
        out.write(f"{STA_FILE} in {directory}:\n")
        for e in book.entries:
            out.write(f"  {e.name:8}  average {e.average:6.2f}  won {e.won:4}  lost {e.lost:4}"
                      f"  drawn {e.drawn:3}  hands {e.hands:5}\n")
        if not book.entries:
            out.write("  (no names)\n")
        return 0
    if launch.command == "view":
        doc = store.read_document()
        out.write(doc if doc is not None else RULES_SUMMARY)
        return 0
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    options = store.load_config()
    # command-line name and limit override the configuration without overwriting it
    if launch.name is not None:
        options = options.with_(name=launch.name)
    if launch.score_limit is not None:
        options = options.with_(score_limit=launch.score_limit)
    if mode == "demo":
        options = options.with_(oklahoma=options.oklahoma or "--oklahoma" in flags,
                                knocking=options.knocking and "--no-knock" not in flags)
        run_demo(options, seed, out, easy=("--easy" in flags, False))
        return 0
    colour = not launch.has("LAPTOP") and hasattr(out, "isatty") and out.isatty()
    style = Style(colour=colour, big_pips=options.big_pips)
    app: App
    blank = None if launch.has("NOBLANK") else (lambda: blank_seconds(app.options.score_limit))
    today = today or date.today().isoformat()
    if not plain and inp is sys.stdin and out is sys.stdout and inp.isatty() and out.isatty():
        from games_py.teach_gin.screen_console import ScreenConsole
        from games_py.tui.terminal import AnsiDisplay, TerminalKeyboard
        try:
            with TerminalKeyboard() as keyboard, \
                    AnsiDisplay(mono=not colour, title="GinRummy", quit_hint="") as display:
                app = App(ScreenConsole(keyboard, display, style, blank), store, options,
                          random.Random(seed), today, go=launch.has("GO"))
                return app.run()
        except KeyboardInterrupt:          # Ctrl-C: the terminal is restored, no traceback
            return 130
    app = App(Console(inp, out, style, blank), store, options, random.Random(seed),
              today, go=launch.has("GO"))
    return app.run()
