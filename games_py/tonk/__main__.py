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
    tty = sys.stdout.isatty()
    color = options.display == "color" or (options.display == "auto" and tty
                                           and os.environ.get("TERM", "dumb") != "dumb"
                                           and "NO_COLOR" not in os.environ)
    delay = args.delay if args.delay is not None else (0.6 if tty and args.mode == "demo" else 0.0)
    game = TerminalGame(sys.stdin, sys.stdout, options, seed, pot_path=args.pot_file,
                        demo=args.mode == "demo", demo_bet=getattr(args, "bet", 10),
                        hands=getattr(args, "hands", None), color=color, delay=delay)
    try:
        return game.run()
    except BrokenPipeError:          # e.g. piped into `head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
