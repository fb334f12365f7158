"""The CLI reference, docs/cli.md, generated from each command's `--help`.

    python -m journal.cli.reference > docs/cli.md

The help is rendered at a fixed width, whatever the terminal, so the page is the same on
every machine and a test can tell when it is out of date.
"""

from __future__ import annotations

from collections.abc import Iterator

import typer.main
from typer import _click as click
from typer.core import TyperGroup

from journal.cli import app

WIDTH = 88
"""The app's max_content_width; the reference is rendered as if the terminal were this wide."""

REGENERATE = "python -m journal.cli.reference > docs/cli.md"

HEADER = f"""\
# spire command reference

Generated from each command's `--help`; do not edit it by hand. Regenerate it with

    {REGENERATE}

The ideas behind the commands are in [concepts.md](concepts.md).
"""


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return click.Context(command, parent=parent, info_name=name, **settings)


def _subcommands(command: click.Command, ctx: click.Context) -> list[tuple[str, click.Command]]:
    if not isinstance(command, TyperGroup):
        return []
    found = ((name, command.get_command(ctx, name)) for name in command.list_commands(ctx))
    return [(name, sub) for name, sub in found if sub is not None and not sub.hidden]


def walk(
    command: click.Command, name: str = "spire", parent: click.Context | None = None,
) -> Iterator[tuple[click.Context, click.Command]]:
    """Every command under `command` (itself first), each with the context it runs in."""
    ctx = _context(command, name, parent)
    yield ctx, command
    for sub_name, sub in _subcommands(command, ctx):
        yield from walk(sub, sub_name, ctx)


def commands() -> list[tuple[str, str]]:
    """Each command's full name (`spire item gain`) and its `--help` text."""
    root = typer.main.get_command(app)
    return [(ctx.command_path, command.get_help(ctx)) for ctx, command in walk(root)]


def page() -> str:
    """The whole reference as Markdown."""
    sections = [f"## {path}\n\n```text\n{text.rstrip()}\n```\n" for path, text in commands()]
    return "\n".join([HEADER, *sections])


if __name__ == "__main__":
    print(page(), end="")
