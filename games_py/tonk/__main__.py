"""python -m games_py.tonk play [SWITCHES] | demo [SWITCHES]   (see --help)"""
from __future__ import annotations

import argparse
import os
import random
import sys

from games_py.tonk.options import SwitchError, parse_switches
from games_py.tonk.pot import MAX_BET, MIN_BET, POT_FILE_NAME
from games_py.tonk.terminal import TerminalGame


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m games_py.tonk",
                                description="Tommy's Tonk, rebuilt from TONK.DOC.")
    sub = p.add_subparsers(dest="mode", required=True)
    for name, text in (("play", "play against the computer"),
                       ("demo", "watch the computer play both hands")):
        s = sub.add_parser(name, help=text, description=text)
        s.add_argument("switches", nargs="*", metavar="SWITCHES",
                       help="S sound off, M mono, C color, P no passing; e.g. MS")
        s.add_argument("--seed", type=int, help="seed for the shuffle and the computer (default: random, printed)")
        s.add_argument("--delay", type=float, default=None, help="seconds to pause after each computer move")
        s.add_argument("--plain", action="store_true",
                       help="line by line, for screen readers and pipes (the default when "
                            "stdin or stdout is not a terminal)")
        if name == "play":
            s.add_argument("--pot-file", default=POT_FILE_NAME, help=f"where the pot is kept (default {POT_FILE_NAME})")
        else:
            s.add_argument("--hands", type=int, default=5, help="hands to play (default 5)")
            s.add_argument("--bet", type=int, default=10, help="bet for each hand (default $10)")
            s.add_argument("--pot-file", default=None, help="keep the demo's pot in this file (default: none)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        options = parse_switches(args.switches)
    except SwitchError as e:
        print(f"tonk: {e}", file=sys.stderr)
        return 2
    if args.delay is not None and args.delay < 0:
        print("tonk: --delay cannot be negative", file=sys.stderr)
        return 2
    if args.mode == "demo":
        if not MIN_BET <= args.bet <= MAX_BET:
            print(f"tonk: --bet must be ${MIN_BET} to ${MAX_BET}", file=sys.stderr)
            return 2
        if args.hands < 1:
            print("tonk: --hands must be at least 1", file=sys.stderr)
            return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    full_screen = not args.plain and sys.stdin.isatty() and sys.stdout.isatty()
    tty = sys.stdout.isatty()
    delay = args.delay if args.delay is not None else (0.6 if tty and args.mode == "demo" else 0.0)
    common = dict(pot_path=args.pot_file, demo=args.mode == "demo", demo_bet=getattr(args, "bet", 10),
                  hands=getattr(args, "hands", None), delay=delay)
    if full_screen:
        return play_full_screen(options, seed, common)
    color = options.display == "color" or (options.display == "auto" and tty
                                           and os.environ.get("TERM", "dumb") != "dumb"
                                           and "NO_COLOR" not in os.environ)
    game = TerminalGame(sys.stdin, sys.stdout, options, seed, color=color, **common)
    try:
        return game.run()
    except BrokenPipeError:          # e.g. piped into `head`
        sys.stderr.close()
        return 0


def play_full_screen(options, seed: int, common: dict) -> int:
    """The table on the whole terminal, keys one at a time (games_py.tui)."""
    from games_py.tonk.screen_game import ScreenGame
    from games_py.tui.terminal import AnsiDisplay, TerminalKeyboard
    if options.display == "auto" and "NO_COLOR" in os.environ:
        options.display = "mono"
    try:
        with TerminalKeyboard() as keyboard, \
                AnsiDisplay(mono=options.display == "mono", title="Tommy's Tonk",
                            quit_hint="(F7 quits.)") as display:
            game = ScreenGame(keyboard, display, options, seed, **common)
            code = game.run()
    except KeyboardInterrupt:        # Ctrl-C: the terminal is restored, no traceback
        return 130
    print(game.farewell)
    return code

if __name__ == "__main__":
    sys.exit(main())
