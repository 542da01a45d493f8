"""``pcemu trace GAME``: run an original program in the machine and write what it does.

The machine knows no game.  Tracers live with their games and register as entry
points of the group ``pcemu.tracers`` (pyproject.toml,
``[project.entry-points."pcemu.tracers"]``): each value names a ``click.Command``
whose name is the subcommand (``ginrummy``, ``ginrummy-sweep``: Gin Rummy's).  They are loaded only when asked
for (``pcemu trace --help`` loads each to show its first line of help), and a
tracer that cannot be loaded costs one line of error, never a traceback.
"""
from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import click

GROUP = "pcemu.tracers"


def registered() -> dict[str, EntryPoint]:
    """The installed tracers by subcommand name (the first of a name wins)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


def load(point: EntryPoint) -> click.Command:
    """The tracer's command, or a ClickException saying in one line why it cannot be had."""
    try:
        command = point.load()
    except Exception as exc:              # noqa: BLE001 - a plugin may fail in any way; say which
        raise click.ClickException(
            f"the tracer {point.name!r} ({point.value}) cannot be loaded: "
            f"{type(exc).__name__}: {exc}") from None
    if not isinstance(command, click.Command):
        raise click.ClickException(f"the tracer {point.name!r} ({point.value}) is not a click command")
    return command


class TracerGroup(click.Group):
    """A click group whose subcommands are the ``pcemu.tracers`` entry points."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(registered()))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        point = registered().get(name)
        return None if point is None else load(point)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Every tracer with its first line of help; one that cannot be loaded is
        listed with why, so --help still shows the others."""
        rows = []
        names = self.list_commands(ctx)
        width = max(map(len, names), default=0)
        for name in names:
            try:
                command = self.get_command(ctx, name)
            except click.ClickException as exc:
                rows.append((name, f"(broken) {exc.message}"))
                continue
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=max(45, formatter.width - 6 - width))))
        with formatter.section("Tracers"):
            if rows:
                formatter.write_dl(rows)
            else:
                formatter.write_text(f"none installed (entry point group {GROUP})")


@click.group("trace", cls=TracerGroup, context_settings={"help_option_names": ["-h", "--help"]})
def trace() -> None:
    """Trace an original program running in the machine: pcemu trace GAME --help
    shows a tracer's options.  Tracers come from the games (entry points
    pcemu.tracers)."""
