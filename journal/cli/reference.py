"""The CLI reference, docs/cli.md, generated from each command's `--help`; and the index
of commands, journal/cli/index.py, that lets `spire --help` list them without loading them.

    python -m journal.cli.reference > docs/cli.md
    python -m journal.cli.reference --index > journal/cli/index.py

The help is rendered at a fixed width, whatever the terminal, so the page is the same on
every machine and a test can tell when it is out of date.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import typer
import typer.main
from typer.core import TyperGroup

from journal.cli import MODULES, Command, SpireGroup, app, built_command, load

WIDTH = 88
"""The app's max_content_width; the reference is rendered as if the terminal were this wide."""

REGENERATE = "python -m journal.cli.reference > docs/cli.md"
REGENERATE_INDEX = "python -m journal.cli.reference --index > journal/cli/index.py"

HEADER = f"""\
# spire command reference

Generated from each command's `--help`; do not edit it by hand. Regenerate it with

    {REGENERATE}

The ideas behind the commands are in [concepts.md](concepts.md).
"""


def _context(command: Command, name: str, parent: typer.Context | None) -> typer.Context:
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return typer.Context(command, parent=parent, info_name=name, **settings)


def _subcommands(command: Command, ctx: typer.Context) -> list[tuple[str, Command]]:
    if not isinstance(command, TyperGroup):
        return []
    found = ((name, command.get_command(ctx, name)) for name in command.list_commands(ctx))
    return [(name, built_command(sub)) for name, sub in found if sub is not None and not sub.hidden]


def walk(
    command: Command, name: str = "spire", parent: typer.Context | None = None,
) -> Iterator[tuple[typer.Context, Command]]:
    """Every command under `command` (itself first), each with the context it runs in."""
    ctx = _context(command, name, parent)
    yield ctx, command
    for sub_name, sub in _subcommands(command, ctx):
        yield from walk(sub, sub_name, ctx)


def commands() -> list[tuple[str, str]]:
    """Each command's full name (`spire item gain`) and its `--help` text."""
    load()
    root = built_command(typer.main.get_command(app))
    return [(ctx.command_path, command.get_help(ctx)) for ctx, command in walk(root)]


def page() -> str:
    """The whole reference as Markdown."""
    sections = [f"## {path}\n\n```text\n{text.rstrip()}\n```\n" for path, text in commands()]
    return "\n".join([HEADER, *sections])


def index() -> str:
    """journal/cli/index.py: each command's module and the first paragraph of its help."""
    load()
    root = typer.main.get_command(app)
    assert isinstance(root, SpireGroup)
    lines = []
    # In the order of MODULES, as a first `spire --help` would list them whichever module
    # this process happened to import first; groups last, as typer lists them.
    built = sorted(root.commands.built().items(), key=lambda item: (
        isinstance(item[1], TyperGroup), MODULES.index(_module(item[1]))))
    for name, command in built:
        if command.short_help or command.deprecated:
            raise ValueError(f"{name}: the index keeps a command's help, not short_help or "
                             f"deprecated; say it in the help's first line")
        text = None if command.hidden else " ".join((command.help or "").split("\n\n")[0].split())
        lines.append(f"    {name!r}: ({_module(command)!r}, {text!r}),")
    return INDEX_HEADER + "\n".join(lines) + "\n}\n"


INDEX_HEADER = f'''\
"""Every command of `spire`: the module under journal.cli that defines it, and the first
paragraph of its help (None for a hidden one), so `spire --help` lists the commands without
importing them and `spire NAME` imports only NAME's module.

Generated; do not edit it by hand. Regenerate it with

    {REGENERATE_INDEX}
"""

COMMANDS: dict[str, tuple[str, str | None]] = {{
'''


def _module(command: Command) -> str:
    """The journal.cli module whose function `command` calls (a group: its first command's)."""
    while isinstance(command, TyperGroup):
        command = built_command(next(iter(command.commands.values())))
    callback = getattr(command.callback, "__wrapped__", command.callback)
    return str(callback.__module__).rpartition(".")[2]


if __name__ == "__main__":
    print(index() if sys.argv[1:] == ["--index"] else page(), end="")
