"""``python -m games_py.ginrummy``: play the Python game, watch its demo, trace it, or show a deal.

``trace`` takes the same options as ``pcemu trace ginrummy`` (the options are
defined once, here, and used by both) and writes the same format.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import click

from games_py.cards import Card
from games_py.ginrummy import computer, game, human, rules, trace


def _time(_ctx, _param, value: str) -> tuple[int, int, int, int]:
    try:
        return game.parse_time(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _policy(ctx, _param, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        human.policy_from(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value.strip()


def trace_options(function: Callable) -> Callable:
    """The settings of a traced session, shared with ``pcemu trace ginrummy``."""
    options = [
        click.option("--time", "time_", required=True, callback=_time, metavar="HH:MM:SS.hh",
                     help="The time of day the program reads at RANDOMIZE TIMER (its seed)."),
        click.option("--variant", type=click.Choice(rules.VARIANTS), default=rules.STANDARD,
                     show_default=True, help="Standard, Oklahoma or Space Cowboy gin."),
        click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True,
                     help="Sound effects (F1); they spend random numbers, so they change the deal."),
        click.option("--display", type=click.Choice(["colour", "mono"]), default="colour",
                     show_default=True,
                     help="The display adapter (CGA or MDA); in colour the program spends "
                          "random numbers on colours, so it changes the deal."),
        click.option("--open-hands", is_flag=True, help="Answer Y to OPEN HANDS?"),
        click.option("--demo", is_flag=True, help="Demo mode (F2): the computer plays both hands."),
        click.option("--human", metavar="POLICY", callback=_policy, default=None,
                     help=f"A scripted player for your hand: {human.POLICY_HELP} "
                          "(games_py/ginrummy/human.py). Not with --demo."),
        click.option("--hands", type=click.IntRange(min=0), default=1, show_default=True,
                     help="How many hands to trace (0: only the first deal)."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Write the trace here (default: standard output)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def settings_from(opts: dict) -> game.Settings:
    if opts["demo"] and opts["human"] is not None:
        raise click.UsageError("--demo (the computer plays your hand) and --human exclude each other")
    return game.Settings(time=opts["time_"], variant=opts["variant"], sound=opts["sound"] == "on",
                         open_hands=opts["open_hands"], demo=opts["demo"],
                         colour=opts["display"] == "colour", human=opts["human"])


def check_output(output: Path | None) -> None:
    """Fail before the (slow) run, not after it, when the trace cannot be written."""
    if output is None:
        return
    existed = output.exists()
    try:
        with open(output, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
    if not existed:
        output.unlink()


def write_events(events, output: Path | None) -> None:
    if output is None:
        trace.write(events, sys.stdout)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            trace.write(events, handle)
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Tommy's Gin Rummy in Python (games_py.ginrummy): play it (``play``), watch the
    computer play both hands (``demo``), or trace a session as the original's tracer does
    (``trace``, ``deal``).  ``--seed`` (or ``--time``) starts a game where another began."""


@main.command("trace")
@trace_options
def trace_command(**opts) -> None:
    """Write the trace of a session of the Python game (JSON Lines, docs/trace-format.md).

    With --demo the original's computer player plays both hands for --hands hands,
    game after game; with --human POLICY the policy plays your hand against it; with
    neither the trace ends after the deal."""
    settings = settings_from(opts)
    check_output(opts["output"])
    try:
        events = game.python_trace(settings, opts["hands"])
    except computer.UnshownMeld as exc:
        raise click.ClickException(str(exc)) from None
    if opts["hands"] > 0 and not settings.played:
        click.echo("ginrummy: without --demo or --human nobody plays your hand; the trace stops "
                   "after the first deal", err=True)
    write_events(events, opts["output"])


@main.command("deal")
@click.option("--time", "time_", required=True, callback=_time, metavar="HH:MM:SS.hh",
              help="The time of day read at RANDOMIZE TIMER.")
@click.option("--variant", type=click.Choice(rules.VARIANTS), default=rules.STANDARD, show_default=True)
@click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True)
@click.option("--display", type=click.Choice(["colour", "mono"]), default="colour", show_default=True)
def deal_command(time_, variant: str, sound: str, display: str) -> None:
    """Show the first hand the original deals when started at --time."""
    settings = game.Settings(time=time_, variant=variant, sound=sound == "on", colour=display == "colour")
    _hand, event, _random = game.first_hand(settings)
    click.echo(f"seed {game.seed_state(time_):06X}; {event['dealer']} deal(s); "
               f"knock on {event['knock'] or 'gin'}{' (doubled)' if event['double'] else ''}")
    for player in (trace.YOU, trace.COMPUTER):
        hand = rules.arrange([Card.parse(c) for c in event["hands"][player]])
        melds = "  ".join(" ".join(str(c) for c in m) for m in hand.melds)
        click.echo(f"{player:>8}: {' '.join(event['hands'][player])}   "
                   f"[melds: {melds or '-'}; PV {hand.pv}]")
    click.echo(f"  upcard: {event['upcard']}   stock: {event['stock']} cards")


def _start(time_, seed: int | None) -> tuple[int, int, int, int]:
    """The start time from --time or --seed (default: now, as the original)."""
    if time_ is not None and seed is not None:
        raise click.UsageError("--time and --seed both give the start time; use one")
    if seed is not None:
        return game.time_of_seed(seed)
    if time_ is not None:
        return time_
    from games_py.ginrummy.terminal import time_now
    return time_now()


def _say_seed(start: tuple[int, int, int, int], err: bool = False) -> None:
    seed = game.seed_of_time(start)
    click.echo(f"ginrummy: seed {seed} (started at {game.format_time(start)}); "
               f"replay with --seed {seed}", err=err)


def start_options(function: Callable) -> Callable:
    """--time and --seed, shared by ``play`` and ``demo``."""
    options = [
        click.option("--time", "time_", callback=lambda c, p, v: None if v is None else _time(c, p, v),
                     default=None, metavar="HH:MM:SS.hh",
                     help="The time of day RANDOMIZE TIMER reads, the original's only seed "
                          "(default: now, as the original)."),
        click.option("--seed", type=click.IntRange(0, game.SEEDS - 1), default=None, metavar="N",
                     help="The same as --time, as a number: the time N hundredths of a second "
                          "after midnight (0-8639999). The seed is printed."),
        click.option("--display", type=click.Choice(["colour", "mono"]), default="colour",
                     show_default=True,
                     help="Colour (CGA) or mono (MDA): the original spends random numbers on colours."),
        click.option("--pace", type=click.FloatRange(min=0), default=None,
                     help="The original's pauses times this (0: no pauses; default 1, "
                          "0 for demo --plain)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@main.command("play")
@start_options
@click.option("--disk", default="1612", show_default=True, metavar="IMAGE",
              help="The disk #1612 image (or catalogue name) whose GINRUMMY.DOC F5 shows.")
def play_command(time_, seed, display: str, pace: float | None, disk: str) -> None:
    """Play Tommy's Gin Rummy in this terminal, as the original plays: the variant
    (S, O or C), OPEN HANDS?, then U/D to draw, 1-9, A, B to discard, Y/N to knock;
    F1 sound, F2 demo, F5 instructions, F7 quit, Ctrl-L repaints.  Needs a terminal of
    80x25 or more."""
    from games_py.ginrummy.terminal import play_in_terminal
    start = _start(time_, seed)
    code = play_in_terminal(start, colour=display == "colour", disk=disk,
                            pace=1.0 if pace is None else pace)
    if code != 2:
        _say_seed(start)
    sys.exit(code)


@main.command("demo")
@start_options
@click.option("--variant", type=click.Choice(rules.VARIANTS), default=rules.STANDARD,
              show_default=True, help="The answer to S, O or C: standard, Oklahoma or Space Cowboy gin.")
@click.option("--open-hands", is_flag=True, help="Answer Y to OPEN HANDS?")
@click.option("--sound", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="Sound (F1); it spends random numbers, so it changes the deal.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games the computer plays before the demo ends.")
@click.option("--plain", is_flag=True,
              help="Tell the game in lines of text (for pipes and screen readers); the "
                   "default when standard output is not a terminal.")
@click.option("--disk", default="1612", show_default=True, metavar="IMAGE",
              help="The disk #1612 image (or catalogue name) whose GINRUMMY.DOC F5 shows.")
def demo_command(time_, seed, display: str, pace: float | None, variant: str, open_hands: bool,
                 sound: str, games: int, plain: bool, disk: str) -> None:
    """Watch the computer play both hands (the original's demo mode, F2), --games games.

    On a terminal the original's table is drawn and its keys work (F2 there lets you take
    over your hand, F7 quits); with --plain, or into a pipe, each move is written as a line
    of text.  The same --seed (or --time) and settings give the same game both ways."""
    from games_py.ginrummy.terminal import demo_in_lines, play_in_terminal
    start = _start(time_, seed)
    answers = (variant, open_hands)
    colour, loud = display == "colour", sound == "on"
    if plain or not sys.stdout.isatty():
        _say_seed(start)
        try:
            code = demo_in_lines(start, sys.stdout, colour=colour, pace=pace or 0.0, sound=loud,
                                 answers=answers, games=games)
        except BrokenPipeError:                    # e.g. piped into `head`
            sys.stderr.close()
            code = 0
        sys.exit(code)
    code = play_in_terminal(start, colour=colour, disk=disk, pace=1.0 if pace is None else pace,
                            demo=True, sound=loud, answers=answers, games=games, command="demo")
    if code != 2:
        _say_seed(start)
    sys.exit(code)
