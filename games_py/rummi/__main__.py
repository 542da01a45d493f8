"""python -m games_py.rummi play|demo [--seed N] ..."""
from __future__ import annotations

import argparse
import sys

from pathlib import Path

from games_py.rummi import savefile
from games_py.rummi.players import LEVELS
from games_py.rummi.terminal import DEFAULT_SAVE, TerminalGame, run_demo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games_py.rummi",
        description="Rummi: Rummikub for two (no jokers), after the 1995 Amiga game.")
    sub = parser.add_subparsers(dest="mode", required=True)
    play = sub.add_parser("play", help="play against the computer",
                          description="play against the computer")
    play.add_argument("--seed", type=int, default=None,
                      help="seed for the deals (default: random, printed)")
    play.add_argument("--level", choices=sorted(LEVELS), default="beginner",
                      help="the computer's level (default beginner)")
    play.add_argument("--single", action="store_true",
                      help="single play: the computer does not play")
    play.add_argument("--colour", "--color", dest="colour", action="store_true",
                      default=None, help="coloured pieces (default: when a terminal)")
    play.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    play.add_argument("--resume", type=Path, metavar="FILE",
                      help="go on with a game saved with 'save' (F6)")
    play.add_argument("--save-file", type=Path, metavar="FILE", default=DEFAULT_SAVE,
                      help=f"where 'save' (F6) writes (default {DEFAULT_SAVE})")
    play.add_argument("--plain", action="store_true",
                      help="line by line, for screen readers and pipes (the default when "
                           "stdin or stdout is not a terminal)")
    demo = sub.add_parser("demo", help="watch the computer play itself",
                          description="watch the computer play itself")
    demo.add_argument("--seed", type=int, default=None,
                      help="seed for the deal (default: random, printed)")
    demo.add_argument("--levels", nargs=2, choices=sorted(LEVELS),
                      default=["expert", "beginner"], metavar=("LEVEL0", "LEVEL1"),
                      help="levels of the two computer players (default: expert beginner)")
    demo.add_argument("--quiet", action="store_true", help="only the result")
    demo.add_argument("--colour", "--color", dest="colour", action="store_true", default=None)
    demo.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    args = parser.parse_args(argv)

    seed = args.seed
    if seed is None:
        import random
        seed = random.SystemRandom().randrange(2 ** 31)   # the only unseeded randomness
        print(f"(seed {seed})")
    colour = sys.stdout.isatty() if args.colour is None else args.colour
    if args.mode == "demo":
        run_demo(sys.stdout, seed, tuple(args.levels), colour=colour, quiet=args.quiet)
        return 0
    resume = None
    if args.resume is not None:
        try:
            resume = savefile.load(args.resume)
        except savefile.SaveError as error:
            print(f"rummi: {args.resume}: {error}", file=sys.stderr)
            return 2
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        from games_py.rummi.fullscreen import run_fullscreen
        code = run_fullscreen(seed, args.level, args.single, resume,
                              save_path=args.save_file)
        print(f"(seed {seed})")
        return code
    game = TerminalGame(input, sys.stdout, seed=seed, level=args.level,
                        single=args.single, colour=colour, save_path=args.save_file)
    if resume is not None:
        game.resume(*resume)
    game.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
