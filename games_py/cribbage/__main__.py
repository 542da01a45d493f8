"""``python -m games_py.cribbage play|demo [--seed N]``."""
from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
from pathlib import Path

from games_py.cribbage import config as cfg
from games_py.cribbage.terminal import Console, CribbageApp, run_demo


def _limit(text: str) -> int:
    if text not in ("121", "61"):
        raise argparse.ArgumentTypeError("the score limit is 121 or 61")
    return int(text)


def _name(text: str) -> str:
    if not cfg.valid_name(text):
        raise argparse.ArgumentTypeError(
            f"a name is 1-{cfg.NAME_MAX} letters, digits, spaces or !.,\"-:/?")
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games_py.cribbage",
        description="David Teach's Cribbage (1993), two players: you and the computer.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play against the computer",
                          description="play against the computer")
    demo = sub.add_parser("demo", help="watch the computer play both sides",
                          description="watch the computer play both sides")
    for p in (play, demo):
        p.add_argument("--seed", type=int, help="seed for the shuffles (default: random, printed)")
        p.add_argument("--limit", type=_limit, help="score limit, 121 or 61")
    play.add_argument("--dir", type=Path, default=Path("."),
                      help=f"folder of {cfg.CONFIG_FILE} and CRIBBAGE.STA (default: here)")
    play.add_argument("--name", type=_name, help="player name for this session only")
    play.add_argument("--plain", action="store_true",
                      help="line by line, for screen readers and pipes (the default "
                           "when stdin or stdout is not a terminal)")
    demo.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    demo.add_argument("--skunking", action="store_true", help="count skunks as 2 wins")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    console = Console(sys.stdin, sys.stdout)
    rng = random.Random(seed)
    if args.command == "play" and not args.plain and sys.stdin.isatty() \
            and sys.stdout.isatty():
        if not args.dir.is_dir():
            console.say(f"{args.dir} is not a folder: cannot keep {cfg.CONFIG_FILE} there.")
            return 2
        from games_py.cribbage.fullscreen import run_fullscreen
        code = run_fullscreen(args.dir, rng, args.name, args.limit)
        console.say(f"Seed {seed} (replay with --seed {seed}).")
        return code
    console.say(f"Seed {seed} (replay with --seed {seed}).")
    if args.command == "demo":
        if args.games < 1:
            console.say("--games must be at least 1.")
            return 2
        return run_demo(console, rng, args.games, args.limit or 121, args.skunking)
    if not args.dir.is_dir():
        console.say(f"{args.dir} is not a folder: cannot keep {cfg.CONFIG_FILE} there.")
        return 2
    try:
        return CribbageApp(console, args.dir, rng, args.name, args.limit).run()
    except KeyboardInterrupt:
        console.say("\nInterrupted: goodbye.")
        return 130


def run() -> int:
    try:
        return main()
    except BrokenPipeError:
        # the reader went away (e.g. "| head"): stop quietly, as tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(run())
