"""``python -m games_py.ginrummy``: trace the Python game, or show a deal.

``trace`` takes the same options as ``pcemu trace ginrummy`` (the options are
defined once, here, and used by both) and writes the same format.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import click

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
    """Tommy's Gin Rummy in Python (games_py.ginrummy)."""


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
    _match, state, _random = game.first_hand(settings)
    event = state.events[0]
    click.echo(f"seed {game.seed_state(time_):06X}; {event['dealer']} deal(s); "
               f"knock on {event['knock'] or 'gin'}{' (doubled)' if event['double'] else ''}")
    for player in (trace.YOU, trace.COMPUTER):
        hand = rules.arrange(state.hands[player])
        melds = "  ".join(" ".join(str(c) for c in m) for m in hand.melds)
        click.echo(f"{player:>8}: {' '.join(event['hands'][player])}   "
                   f"[melds: {melds or '-'}; PV {hand.pv}]")
    click.echo(f"  upcard: {event['upcard']}   stock: {event['stock']} cards")


@main.command("play")
@click.option("--time", "time_", callback=lambda c, p, v: None if v is None else _time(c, p, v),
              default=None, metavar="HH:MM:SS.hh",
              help="The time of day RANDOMIZE TIMER reads (default: now, as the original).")
@click.option("--display", type=click.Choice(["colour", "mono"]), default="colour", show_default=True,
              help="Colour (CGA) or mono (MDA): the original spends random numbers on colours.")
@click.option("--disk", default="1612", show_default=True, metavar="IMAGE",
              help="The disk #1612 image (or catalogue name) whose GINRUMMY.DOC F5 shows.")
@click.option("--pace", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="The original's pauses times this (0: no pauses).")
def play_command(time_, display: str, disk: str, pace: float) -> None:
    """Play Tommy's Gin Rummy in this terminal, as the original plays: the variant
    (S, O or C), OPEN HANDS?, then U/D to draw, 1-9, A, B to discard, Y/N to knock;
    F1 sound, F2 demo, F5 instructions, F7 quit."""
    from games_py.ginrummy.terminal import play_in_terminal, time_now
    sys.exit(play_in_terminal(time_ or time_now(), colour=display == "colour", disk=disk, pace=pace))
