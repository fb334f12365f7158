"""The CLI reference, docs/cli.md, generated from each command's `--help`; and the indexes
of commands, journal/cli/index.py and each game's `index.py`, that let `spire --help` list
them without loading them.

    python -m journal.cli.reference > docs/cli.md
    python -m journal.cli.reference --index

The help is rendered at a fixed width, whatever the terminal, so the page is the same on
every machine and a test can tell when it is out of date.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import typer
import typer.main
from typer.core import TyperGroup

from journal.cli import MODULES, SpireGroup, app, built_command, load
from journal.cli.values import Command

WIDTH = 88
"""The app's max_content_width; the reference is rendered as if the terminal were this wide."""

REGENERATE = "python -m journal.cli.reference > docs/cli.md"
REGENERATE_INDEX = "python -m journal.cli.reference --index"

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
    found: Iterator[tuple[str, object | None]]
    if isinstance(command, SpireGroup):  # the core's: each game's are walked on their own
        found = ((name, command.commands[name]) for name in command.commands)
    elif isinstance(command, TyperGroup):
        found = ((name, command.get_command(ctx, name)) for name in command.list_commands(ctx))
    else:
        return []
    built = ((name, built_command(sub)) for name, sub in found if sub is not None)
    return [(name, sub) for name, sub in built if not sub.hidden]


def walk(
    command: Command, name: str = "spire", parent: typer.Context | None = None,
) -> Iterator[tuple[typer.Context, Command]]:
    """Every command under `command` (itself first), each with the context it runs in."""
    ctx = _context(command, name, parent)
    yield ctx, command
    for sub_name, sub in _subcommands(command, ctx):
        yield from walk(sub, sub_name, ctx)


def commands() -> list[tuple[str, str]]:
    """Each command's full name (`spire item gain`, `spire roll (Volume 2)`) and its
    `--help` text: the core's, then each game's."""
    from journal.cli.common import GAME
    from journal.cli.dispatch import game_group, index
    from journal.cli.index import COMMANDS
    from journal.games import GAMES

    load()
    root = built_command(typer.main.get_command(app))
    found = [(ctx.command_path, command.get_help(ctx)) for ctx, command in walk(root)]
    for game, package in GAMES.items():
        if not package.startswith("journal.games."):  # a test's game is not the reference's
            continue
        top = _context(root, "spire", None)
        top.meta[GAME] = game
        panel = index(game).PANEL
        for name, command in _subcommands(game_group(game), top):
            pages = [(f"{ctx.command_path} ({panel})", sub.get_help(ctx))
                     for ctx, sub in walk(command, name, top)]
            core = name in COMMANDS  # `card`: the core's group, the game's `card add`
            found += pages[1:] if core else pages
    return found


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


def game_index(game: str) -> str:
    """A game's index.py: its panel, and each of its commands with the first paragraph of
    its help."""
    from journal.cli.complete import commands_of
    from journal.cli.dispatch import game_group, listed

    commands = commands_of(game)
    lines = [f"    {path!r}: {text!r}," for path, text in listed(game_group(game)).items()]
    return (GAME_INDEX_HEADER.format(panel=commands.PANEL) + "\n".join(lines) + "\n}\n")


def index_files() -> dict[Path, str]:
    """Each index file spire ships, and what it should hold."""
    from journal.games import GAMES

    here = Path(__file__).parent
    found = {here / "index.py": index()}
    for game, package in GAMES.items():
        if package.startswith("journal.games."):
            where = importlib.import_module(package).__file__
            assert where is not None
            found[Path(where).parent / "index.py"] = game_index(game)
    return found


GAME_INDEX_HEADER = f'''\
"""{{panel}}'s commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    {REGENERATE_INDEX}
"""

PANEL = {{panel!r}}

COMMANDS: dict[str, str | None] = {{{{
'''


INDEX_HEADER = f'''\
"""Every command of the core (a game's own are in its package's index.py): the module under
journal.cli that defines it, and the first paragraph of its help (None for a hidden one),
so `spire --help` lists the commands without importing them and `spire NAME` imports only
NAME's module.

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
    if sys.argv[1:] == ["--index"]:
        for path, text in index_files().items():
            path.write_text(text, encoding="utf-8")
    else:
        print(page(), end="")
