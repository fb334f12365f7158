"""Which game's command a line reaches.

The core's commands (journal/cli/index.py) serve every game. A game brings its own verbs
in its package's `commands` module (`roll` in Hildegard and in Volume 2 are two commands
with their own options and help), listed in its `index` module so `spire --help` lists
them without importing any. A verb not in the core is looked up in the games that have
it: the current campaign's game answers; a verb of other games only is refused in one
line that names them. A core group a game adds to (`card add`, Volume 2's `item use`)
answers with its own commands and the current game's.

The campaign's game is read once per command line, from the journal the command then acts
on (`common.journal` keeps it for the line), and only when a verb is a game's.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from typer.core import TyperGroup

from journal.cli.common import GAME
from journal.core import words
from journal.errors import BadInput

if TYPE_CHECKING:
    from journal.cli.complete import Commands
    from journal.cli.values import Command, Context
    from journal.games import interface



def game_of(ctx: Context) -> str | None:
    """The game of the campaign the command line acts on, read once; None when there is
    no journal or no campaign yet (the line's command says so, if it needs one)."""
    root = ctx.find_root()
    if GAME not in root.meta:
        from journal.cli.common import journal
        from journal.errors import NoJournal, NotFound

        try:
            root.meta[GAME] = journal(root, reads=True).read.game()
        except (NoJournal, NotFound):
            root.meta[GAME] = None
    found: str | None = root.meta[GAME]
    return found


def known_game(ctx: Context) -> str | None:
    """The campaign's game if this line has read it already (`spire help`, the play
    shell); None otherwise: `spire --help` opens no journal to list the commands."""
    found: str | None = ctx.find_root().meta.get(GAME)
    return found


def index(game: str) -> interface.Index:
    """The list of `game`'s commands (its package's `index`), read without importing them;
    a game with no index (a test's) is listed from its commands."""
    from journal.games import GAMES
    from journal.games.packages import package_of

    try:
        return package_of(game).index()
    except ModuleNotFoundError as e:
        if e.name != f"{GAMES[game]}.index":
            raise
    return Listing(_commands(game).PANEL, listed(game_group(game)))


@dataclass
class Listing:
    """A game's index, read from its commands."""

    PANEL: str
    COMMANDS: dict[str, str | None]


def games_with(path: str) -> tuple[str, ...]:
    """The games that have the command `path` ("roll", "card add")."""
    from journal.games import names

    return tuple(g for g in names() if path in index(g).COMMANDS)


def game_names(ctx: Context) -> list[str]:
    """The verbs of the campaign's game if this line knows it, else of every game."""
    known = known_game(ctx)
    games = [known] if known is not None else _all_games()
    return list(dict.fromkeys(path for g in games for path, text in index(g).COMMANDS.items()
                              if " " not in path and text is not None))


def extends(name: str) -> bool:
    """Whether some game adds commands to the core group `name` (`card`, `item`)."""
    from journal.games import names

    return any(path.startswith(f"{name} ") for g in names() for path in index(g).COMMANDS)


def game_command(ctx: Context, path: str) -> Command | None:
    """The command `path` of the current campaign's game; None when no game has it.
    A command of other games is refused, and so is one several games have when there is
    no campaign to say which."""
    having = games_with(path)
    if not having:
        return None
    current = game_of(ctx)
    if current in having:
        return command_in(ctx, current, path)
    titles = words.listed([index(g).PANEL for g in having])
    have = "has" if len(having) == 1 else "have"
    if current is not None:  # said within 80 columns: the play shell's line is one row
        raise BadInput(f"`{path}` is not a {index(current).PANEL} command: {titles} "
                       f"{have} it")
    if len(having) == 1:
        return command_in(ctx, having[0], path)
    if " " in path:  # a core group's (`card add`): --game says whose
        from journal.games import names

        raise BadInput(f"`{path}` is each game's own: with no campaign yet, --game says "
                       "which", f"--game {'|'.join(names())}")
    raise BadInput(f"`{path}` needs a campaign: {titles} {have} it (`spire new`)")


def command_in(ctx: Context, game: str, path: str) -> Command:
    """The command `path` of `game`, built from its commands module."""
    from journal.cli.values import text_as_given

    found: Any = game_group(game)
    for word in path.split():
        found = found.commands[word]
    text_as_given(found, ctx)
    return found  # type: ignore[no-any-return]


def game_group(game: str) -> TyperGroup:
    """All of `game`'s commands as one group, built once (each under the game's panel)."""
    from journal.games import GAMES

    return _built(game, GAMES[game])


@cache
def _built(game: str, package: str) -> TyperGroup:
    import typer.main

    from journal.cli.values import readable

    commands = _commands(game)
    group = typer.main.get_group(commands.app)
    for command in group.commands.values():
        command.rich_help_panel = commands.PANEL  # type: ignore[attr-defined]
    readable(group)
    return group


def _commands(game: str) -> Commands:
    from journal.cli.complete import commands_of

    return commands_of(game)


def listed(group: TyperGroup) -> dict[str, str | None]:
    """Each command of `group` (a game's, built) and of its subgroups, by path, with the
    first paragraph of its help (None for a hidden one): what a game's index holds."""
    found: dict[str, str | None] = {}
    for name, command in group.commands.items():
        found[name] = _first_paragraph(command)
        for sub, inner in getattr(command, "commands", {}).items():
            found[f"{name} {sub}"] = _first_paragraph(inner)
    return found


def _first_paragraph(command: Any) -> str | None:
    if command.hidden:
        return None
    return " ".join((command.help or "").split("\n\n")[0].split())


# -- a core group some games add to ------------------------------------------------------

class SharedGroup(TyperGroup):
    """A core group (`card`, `item`) with the current game's commands of the same group:
    `card list` is the core's, `card add` the game's."""

    path: str

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """`--game GAME` on the line (`card add --game volume2`, with no campaign yet or
        for another game's catalog) says whose command it is; else the campaign's game."""
        chosen = given_game(args)
        if chosen is not None:
            from journal.games.packages import package_of

            package_of(chosen)  # an unknown game is bad input, in one line
            ctx.find_root().meta[GAME] = chosen
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: Any, name: str) -> Any:
        found = super().get_command(ctx, name)
        return found if found is not None else game_command(ctx, f"{self.path} {name}")

    def list_commands(self, ctx: Any) -> list[str]:
        """The core's commands of the group, and those `get_command` answers: the
        campaign's game's, or with no campaign those only one game has."""
        current = game_of(ctx)
        added: dict[str, list[str]] = {}
        for g in _all_games():
            for path, text in index(g).COMMANDS.items():
                if path.startswith(f"{self.path} ") and text is not None:
                    added.setdefault(path.split()[1], []).append(g)
        answered = [name for name, having in added.items()
                    if current in having or (current is None and len(having) == 1)]
        return list(dict.fromkeys([*super().list_commands(ctx), *answered]))


def given_game(args: list[str]) -> str | None:
    """The value of `--game` among `args` (before a `--`), if given."""
    for at, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--game="):
            return arg.partition("=")[2]
        if arg == "--game" and at + 1 < len(args):
            return args[at + 1]
    return None


def shared(core: TyperGroup, name: str) -> TyperGroup:
    """`core` (a built core group) answering the current game's commands too."""
    merged = copy.copy(core)
    merged.__class__ = SharedGroup
    merged.path = name  # type: ignore[attr-defined]
    return merged


def _all_games() -> tuple[str, ...]:
    from journal.games import names

    return names()


# -- the lists of `spire --help`, `spire help` and the play shell ------------------------

def panels(game: str | None) -> list[tuple[str, dict[str, str]]]:
    """The commands panel by panel, each with its first paragraph of help: the core's,
    then `game`'s (every game's, by panel, when None)."""
    from journal.cli.index import COMMANDS
    from journal.cli.panels import PANELS

    out: list[tuple[str, dict[str, str]]] = []
    core = {n: text for n, (_, text) in COMMANDS.items() if text is not None}
    for panel, names in PANELS.items():
        out.append((panel, {n: core[n] for n in names if n in core}))
    panelled = {n for names in PANELS.values() for n in names}
    out.append(("Other commands", {n: t for n, t in core.items() if n not in panelled}))
    for g in [game] if game is not None else _all_games():
        listing = index(g)
        out.append((listing.PANEL, {n: t for n, t in listing.COMMANDS.items()
                                    if t is not None and " " not in n and n not in COMMANDS}))
    return [(panel, rows) for panel, rows in out if rows]

