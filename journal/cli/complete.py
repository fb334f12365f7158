"""What may come next on a command line: one source of candidates for the play shell's Tab
and for bash, zsh and fish (`spire completion SHELL`).

The words come from the commands themselves (names, subcommands, options) and from the
journal (item, character, checkpoint and branch names; the campaign's game adds its own:
faces, cards, effects, from its commands module). Spoiler-safe: an
entered card is offered once the campaign has met it. Only typer is imported here; the
journal is read when a value is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    import typer
    from typer.core import TyperGroup

    from journal.service.journal import Journal, View

EXIT = ("exit", "quit")
CLEAR = "clear"
"""The play shell's word for a clear screen, as in the terminal."""
NOT_IN_SHELL = ("play", "demo", "watch", "serve")
"""`play` would nest a shell; `demo` switches the journal to another campaign; `watch`
and `serve` follow the journal until stopped, and Ctrl-C would stop the shell with it (it runs
beside the shell, in a terminal of its own)."""


class Table(Protocol):
    """What completion reads: the command group, and the journal the line would act on."""

    group: TyperGroup

    def journal(self) -> Journal: ...

    def view(self) -> View | None: ...


Source = Callable[[Table], Iterable[str]]


class Commands(Protocol):
    """What the command line asks of a game: its own verbs at the table, its commands.py
    (journal/cli/dispatch.py reaches them; journal/games/interface.py says what the lower
    layers ask)."""

    PANEL: str
    """The game's panel in `spire help`, and its name where a verb is refused ("Volume 2")."""

    app: typer.Typer
    """The verbs, each a typer command; a group named as a core group (`card`, `item`)
    adds its commands to the core's (`card add`)."""

    POSITIONALS: dict[tuple[str, ...], tuple[Source, int]]
    """What Tab offers for a command's argument (as this module's table)."""

    OPTION_VALUES: dict[str, Source]
    """What Tab offers after an option of the game's commands."""


def commands_of(game: str) -> Commands:
    """The game's own verbs, imported now."""
    from journal.games.packages import package_of

    return cast("Commands", package_of(game).module("commands"))


def _items(table: Table) -> list[str]:
    view = table.view()
    return [i.name for i in view.state.items] if view is not None else []


def _characters(table: Table) -> list[str]:
    view = table.view()
    return [c.name for c in view.state.characters] if view is not None else []


def _resources(table: Table) -> list[str]:
    from journal.games import game

    view = table.view()
    return list(game(view.state.game).resources) if view is not None else []


def campaign_names(table: Table) -> list[str]:
    return [c.name for c, _, _ in table.journal().read.campaigns()]


def _checkpoints(table: Table) -> list[str]:
    """The checkpoints the current branch can rewind to, latest first."""
    j = table.journal().read
    return [c.name for c in reversed(j.checkpoints(j.view(), cards=False))]


def _branches(table: Table) -> list[str]:
    return [b.branch.name for b in table.journal().read.branches(cards=False)]


def _shells(table: Table) -> tuple[str, ...]:
    return SHELLS


SHELLS = ("bash", "zsh", "fish")


EVERY = -1
"""In POSITIONALS: every argument of the command, not only the first."""

POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {
    ("item", "lose"): (_items, 0),
    ("item", "pass"): (_items, 0),
    ("gain",): (_resources, 0),
    ("spend",): (_resources, 0),
    ("use",): (campaign_names, 0),
    ("rewind",): (_checkpoints, 0),
    ("switch",): (_branches, 0),
    ("diff",): (_branches, EVERY),
    ("branch", "rename"): (_branches, 0),
    ("completion",): (_shells, 0),
    ("item", "use"): (_items, 0),
}
"""What each core command's arguments are named from, and which argument (the game's
commands module adds its own)."""

def _games(table: Table) -> Iterable[str]:
    from journal.games import names

    return names()


OPTION_VALUES: dict[str, Source] = {
    "--to": lambda table: [*_characters(table), "aside"], "--from": _characters,
    "--branch": _branches, "-b": _branches, "--campaign": campaign_names, "-c": campaign_names,
    "--game": _games, "-g": _games,
}
"""What an option's value is named from, whatever the command (the game's commands
module adds its own, and its own win)."""

COMMAND_OPTION_VALUES: dict[tuple[tuple[str, ...], str], Source] = {
    (("replay",), "--from"): _checkpoints, (("replay",), "--to"): _checkpoints,
}
"""An option whose values depend on the command (replay's --from is a checkpoint)."""


class Completer:
    """The words that may come next on a line; `in_shell`: the play shell's line (no
    `spire`, `help` and `exit` offered, `play` and `demo` not)."""

    def __init__(self, table: Table, in_shell: bool = True) -> None:
        self.table = table
        self.in_shell = in_shell

    def candidates(self, before: str, text: str) -> list[str]:
        """The completions of `text`, the word being typed after `before`, as they would
        be typed (a name with spaces quoted)."""
        import shlex

        try:
            words = shlex.split(before)
        except ValueError:  # inside an open quote: the name typed so far spans words
            return self._inside_quote(before, text)
        return [_quoted(word) for word in starting(self.words_after(words), text.lstrip("\"'"))]

    def _inside_quote(self, before: str, text: str) -> list[str]:
        import shlex

        opened = max(before.rfind('"'), before.rfind("'"))
        quote, typed = before[opened], before[opened + 1:]
        try:
            words = shlex.split(before[:opened])
        except ValueError:
            return []
        names = starting(self.words_after(words), typed + text)
        return [name[len(typed):] + quote for name in names]

    def words_after(self, words: list[str]) -> list[str]:
        """The words that may follow `words` (the line so far, split)."""
        from journal.errors import SpireError

        if self.in_shell and words[:1] == ["spire"]:
            words = words[1:]
        helping = words[:1] == ["help"]
        words = words[1:] if helping else words
        if not words:
            extra = [] if helping or not self.in_shell else ["help", CLEAR, *EXIT]
            return self.names(self.table.group) + extra
        path, command, args = self._command(words)
        if _is_group(command):
            return self.names(command) if not args else []
        if command is None or helping:
            return []
        try:
            return list(self._values(path, command, args))
        except SpireError:  # no campaign yet, or not one of this game: nothing to offer
            return []

    def names(self, group: TyperGroup) -> list[str]:
        """The commands of `group`: the core's and the campaign's game's (every game's
        with no campaign); in the shell, not `play`."""
        names = list(group.list_commands(self.context()))
        return [n for n in names if n not in NOT_IN_SHELL] if self.in_shell else names

    def context(self) -> typer.Context:
        """The root's context, knowing the campaign's game from the table's view."""
        import typer

        from journal.cli.common import GAME

        ctx = typer.Context(self.table.group, info_name="spire")
        ctx.meta[GAME] = self.game()
        return ctx

    def game(self) -> str | None:
        view = self.table.view()
        return view.state.game if view is not None else None

    def tables(self) -> tuple[dict[tuple[str, ...], tuple[Source, int]], dict[str, Source]]:
        """What arguments and options are named from: the core's, and the game's."""
        game = self.game()
        if game is None:
            return POSITIONALS, OPTION_VALUES
        commands = commands_of(game)
        return {**POSITIONALS, **commands.POSITIONALS}, {**OPTION_VALUES, **commands.OPTION_VALUES}

    def _command(self, words: list[str]) -> tuple[tuple[str, ...], Any, list[str]]:
        """The command `words` name (`item gain` is two words), its path and arguments."""
        from journal.errors import SpireError

        ctx = self.context()
        command: Any = self.table.group
        path: list[str] = []
        while _is_group(command) and len(path) < len(words):
            name = words[len(path)]
            try:
                command = command.get_command(ctx, name)
            except SpireError:  # a verb of another game: nothing to offer after it
                command = None
            path.append(name)
        return tuple(path), command, words[len(path):]

    def _values(self, path: tuple[str, ...], command: Any, args: list[str]) -> list[str]:
        """An option's values after the option; else the command's argument values where
        the argument goes, and its options."""
        positionals, option_values = self.tables()
        if args and _takes_value(command, args[-1]):
            source = COMMAND_OPTION_VALUES.get((path, args[-1])) or option_values.get(args[-1])
            return self._named(source) if source else _choices(command, args[-1])
        source, which = positionals.get(path, (None, 0))
        named = which in (EVERY, _positional_count(command, args))
        return (self._named(source) if named else []) + _option_names(command)

    def _named(self, source: Source | None) -> list[str]:
        """The names `source` gives: none without a journal or a campaign of its game."""
        from journal.errors import SpireError

        try:
            return list(source(self.table)) if source is not None else []
        except SpireError:
            return []


def _choices(command: Any, option: str) -> list[str]:
    """The values an option's metavar lists as its only choices (`md|html|json`)."""
    import re

    for param in _options(command):
        if option in param.opts and param.metavar and \
                re.fullmatch(r"[a-z0-9-]+(\|[a-z0-9-]+)+", param.metavar):
            return str(param.metavar).split("|")
    return []


def _is_group(command: Any) -> bool:
    return command is not None and hasattr(command, "list_commands")


def starting(words: Iterable[str], typed: str) -> list[str]:
    """The words that begin with `typed`, ignoring case, each once, in order."""
    folded = typed.casefold()
    return list(dict.fromkeys(w for w in words if w.casefold().startswith(folded)))


def _quoted(word: str) -> str:
    """A word as typed on the line: a name with spaces in double quotes."""
    import shlex

    if shlex.quote(word) == word:
        return word
    return f'"{word}"' if '"' not in word and "\\" not in word else shlex.quote(word)


def _options(command: Any) -> list[Any]:
    return [p for p in command.params if getattr(p, "opts", None) and p.param_type_name == "option"
            and not p.hidden]


def _option_names(command: Any) -> list[str]:
    return list(dict.fromkeys(
        name for p in _options(command) for name in p.opts if name.startswith("--")))


def _takes_value(command: Any, name: str) -> bool:
    return any(name in p.opts and not p.is_flag for p in _options(command))


def _positional_count(command: Any, args: list[str]) -> int:
    """How many arguments (not options, nor option values) `args` holds."""
    count, skip = 0, False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = _takes_value(command, arg)
        else:
            count += 1
    return count
