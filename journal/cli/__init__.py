"""The `spire` command line. Commands parse, call the service, render; nothing more.

Only typer is imported here. Each command's module is imported, and its click command
built, the first time the command is asked for: `spire --help` lists them from
journal/cli/index.py (and each game's index), and `spire status` loads the module that
defines `status` and no other. A game's own verbs (`roll`, `fight`...) are its package's
(journal/cli/dispatch.py finds the campaign's game's). SQLAlchemy, pydantic and Rich load
when a command needs them.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import typer
from typer.core import TyperCommand, TyperGroup

from journal import __version__
from journal.cli.values import (
    Command,
    Context,
    _text_as_given,
    is_text,
    readable,
    text_as_given,
    undecoded,
)
from journal.errors import BadInput, SpireError
from journal.games import names


class HelpFormatter(Protocol):
    """What a group's command list is written with (click's formatter, which typer does not
    name)."""

    width: int

    def section(self, name: str) -> AbstractContextManager[None]: ...

    def write_dl(self, rows: Sequence[tuple[str, str]]) -> None: ...


MODULES = ("audit", "campaigns", "cards", "deck", "insight", "looking", "play", "report",
           "things", "time", "transfer", "helping", "serving")
"""The modules under journal.cli that define the core's commands (every game's).
A new command (or module) appears once it is here and the index is regenerated:
`python -m journal.cli.reference --index` (tests say when)."""


class SpireGroup(TyperGroup):
    """The root command: it builds a subcommand when it is first asked for, and it is the
    one place an error becomes a line on stderr and an exit code."""

    commands: Commands

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = Commands(self.commands)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        _text_as_given([*self.params, self.get_help_option(ctx)])
        return super().parse_args(ctx, hoisted(args))

    def resolve_command(
        self, ctx: Context, args: list[str],
    ) -> tuple[str | None, Command | None, list[str]]:
        name, found, rest = super().resolve_command(ctx, args)
        command = None if found is None else built_command(found)
        if command is not None:
            text_as_given(command, ctx)
        return name, command, rest

    def invoke(self, ctx: Context) -> Any:
        """The command, with its output's reader allowed to go away (`spire replay |
        head`): what the command did stands, and it ends as done (0), quietly, where click
        would end it as 1 (which spire's exit codes read as a refusal, for a write that
        was recorded). In `spire play` the next lines still run, their output dropped."""
        from journal.cli.common import spoken

        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a reader gone shows here, not at the interpreter's exit
        except BrokenPipeError:
            _reader_gone()
            return None
        finally:
            for line in spoken(ctx.find_root()):
                print(f"spire: {line}", file=sys.stderr)
        return result

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        """The core's command `cmd_name`, else the campaign's game's (a core group a game
        adds to, `card`, answers with both); a verb of other games only is refused."""
        from journal.cli import dispatch

        core = super().get_command(ctx, cmd_name)
        if core is None:
            return dispatch.game_command(ctx, cmd_name)
        if isinstance(core, TyperGroup) and dispatch.extends(cmd_name):
            return dispatch.shared(core, cmd_name)
        return core

    def list_commands(self, ctx: Context) -> list[str]:
        """The commands' names, without building them (typer's own builds each): the
        core's, then the campaign's game's (every game's when it is not known)."""
        from journal.cli import dispatch

        return list(dict.fromkeys([*self.commands, *dispatch.game_names(ctx)]))

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The command list of `spire --help`, panel by panel, from the indexes: no
        command is built for it. The campaign's game's panel only if its game is known
        (`spire help`); `spire --help` opens no journal and lists every game's."""
        from journal.cli import dispatch

        panels = dispatch.panels(dispatch.known_game(ctx))
        from journal.cli.index import COMMANDS

        extra = {name: command.get_short_help_str(10**6)
                 for name, command in self.commands.built().items()
                 if name not in COMMANDS and not command.hidden}
        if extra:  # added to the group in the usual way (a test's)
            others = dict(panels).get("Other commands")
            if others is None:
                panels.append(("Other commands", others := {}))
            others.update(extra)
        width = max((len(name) for _, rows in panels for name in rows), default=0)
        limit = formatter.width - 6 - width
        for panel, rows in panels:
            with formatter.section(panel):
                formatter.write_dl([(name.ljust(width), short_help(text, limit))
                                    for name, text in rows.items()])

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        given = list(sys.argv[1:] if args is None else args)
        if os.environ.get(complete_var or "_SPIRE_COMPLETE"):  # a shell asks what comes next
            from journal.cli.shells import shell_completion

            shell_completion(self)
        try:
            _all_text(given)
            code = super().main(
                args=given, prog_name=prog_name or "spire", complete_var=complete_var,
                standalone_mode=False, **extra)
        except typer.TyperException as e:  # click's errors: typer names only their base
            if _is_help(e):  # a group given no command (no_args_is_help): its help, done
                print(e.format_message())
                code = 0
            else:
                from journal.cli.said import in_spires_words

                asked = {"--install-completion", "--show-completion"} & set(given)
                said = in_spires_words(e)
                code = _fail(f"{said.partition(';')[0]}; `spire completion bash|zsh|fish` "
                             "prints the script to load" if asked else said, code=e.exit_code)
        except typer.Abort:
            code = _fail("stopped", code=130)
        except SpireError as e:
            code = _fail(*e.lines, code=e.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


GLOBAL_OPTIONS = ("--db", "--campaign", "-c")
"""The root's options that take a value: accepted after the command too."""


def hoisted(args: list[str]) -> list[str]:
    """`args` with the global options given after the command moved before it, so
    `spire status -c thornfield` is `spire -c thornfield status`. No command takes an
    option of these names; after `--` every word is the command's."""
    from itertools import islice

    front: list[str] = []
    rest: list[str] = []
    command = False
    words = iter(args)
    for arg in words:
        if arg == "--":
            rest += [arg, *words]
            break
        attached = arg.startswith("-c") and not arg.startswith("--") and len(arg) > 2
        if arg.partition("=")[0] in GLOBAL_OPTIONS or attached:
            taken = [arg] if "=" in arg or attached else [arg, *islice(words, 1)]
            (front if command and len(taken) == 2 or attached or "=" in arg else rest).extend(
                taken)
            continue
        command = command or not arg.startswith("-")
        rest.append(arg)
    return [*front, *rest]


def _is_help(error: typer.TyperException) -> bool:
    """True if `error` is click's way to show a group's help when no command was given."""
    ctx = getattr(error, "ctx", None)
    return error.exit_code == 2 and ctx is not None and error.format_message() == ctx.get_help()


def short_help(text: str, limit: int) -> str:
    """A command's help in at most `limit` characters, as a list of commands shows it: its
    first paragraph to the first sentence's end, or cut at a word with "..."."""
    words = text.partition("\n\n")[0].split()
    if words[:1] == ["\b"]:  # click's mark for a paragraph kept as written
        words = words[1:]
    taken: list[str] = []
    for word in words:
        if len(" ".join([*taken, word])) > limit:
            break
        taken.append(word)
        if word.endswith("."):
            return " ".join(taken)
    else:
        return " ".join(taken)
    while taken and len(" ".join(taken)) + 3 > limit:
        taken.pop()
    return " ".join(taken) + "..."

def _reader_gone() -> None:
    """Send the rest of the output nowhere: its reader closed the pipe."""
    try:
        dropped = os.open(os.devnull, os.O_WRONLY)
        os.dup2(dropped, sys.stdout.fileno())
        os.close(dropped)
    except (OSError, ValueError):  # an output with no file under it (a test's): nothing to do
        pass


def _fail(message: str, more: str = "", *, code: int) -> int:
    """A refusal on stderr: `spire: ` and its reason, in 80 columns (journal.errors.WIDTH),
    then what may follow it (`more`, or the hint `journal.errors.parted` finds in a long
    `message`) on a second line, indented, dimmed on a terminal. The exit code."""
    from journal.terminal import tell

    tell(message, more)
    return code


def _all_text(args: list[str]) -> None:
    """Refuse an argument that is not UTF-8 text. Python hands bytes that do not decode
    to a program as lone surrogates (\\udcff for 0xff); spire keeps text as UTF-8, and
    such an argument would fail wherever it went, so it is refused before it goes anywhere."""
    for arg in args:
        if not is_text(arg):
            raise BadInput(f"'{undecoded(arg)}' is not UTF-8 text; spire keeps only text")


app = typer.Typer(
    cls=SpireGroup,
    name="spire",
    epilog=f"Example: spire new gray-oaks --game {names()[0]}, then spire reveal 1",
    rich_markup_mode=None,
    add_completion=False,
    no_args_is_help=False,  # bare `spire` is a screen of the first commands: `options`
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 88},
)


def _version(value: bool) -> None:
    if value:
        print(f"spire {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def options(
    ctx: typer.Context,
    db: str = typer.Option(
        None, "--db", envvar="SPIRE_DB", metavar="PATH|URL",
        help="Journal file or SQLAlchemy URL [default: spire's data directory]"),
    campaign: str = typer.Option(
        None, "--campaign", "-c", envvar="SPIRE_CAMPAIGN", metavar="NAME",
        help="Campaign to act on [default: the current one]"),
    version: bool = typer.Option(
        False, "--version", "-V", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """The campaign journal for the Spire's End tabletop games.

    Tell spire what happens at the table, command by command; it keeps the score.
    Exit codes: 0 done, 1 refused by a rule, 2 bad input, 3 storage trouble.
    """
    from journal.cli.common import checked

    ctx.obj = checked(db, campaign)
    if ctx.invoked_subcommand is None:  # bare `spire`: what a session starts with, as git
        from journal.cli.panels import first_screen

        print(first_screen())


class Commands(MutableMapping[str, Any]):  # Any: typer's base names its commands' private type
    """The root's subcommands by name: the index's, each imported and built when first
    looked up, and any added in the usual way."""

    def __init__(self, built: Mapping[str, object]) -> None:
        self._built = {name: readable(built_command(command)) for name, command in built.items()}

    def built(self) -> dict[str, Command]:
        return dict(self._built)

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            from journal.cli.index import COMMANDS

            if name not in COMMANDS:
                raise KeyError(name)
            self._built[name] = build(name, COMMANDS[name][0])
        return self._built[name]

    def __setitem__(self, name: str, command: object) -> None:
        self._built[name] = readable(built_command(command))

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        from journal.cli.index import COMMANDS

        yield from COMMANDS
        yield from (name for name in self._built if name not in COMMANDS)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def build(name: str, module: str) -> Command:
    """The click command `name`, which journal.cli.`module` registers on `app`."""
    import typer.main

    from journal.cli.panels import panel_of

    load(module)
    for info in app.registered_commands:
        assert info.callback is not None
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            info.rich_help_panel = panel_of(name)
            return readable(built_command(typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)))
    for group in app.registered_groups:
        if group.name == name:
            group.rich_help_panel = panel_of(name)
            return readable(typer.main.get_group_from_info(
                group, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode, suggest_commands=app.suggest_commands))
    raise LookupError(f"journal.cli.{module} has no command {name!r}: journal/cli/index.py "
                      f"is out of date; regenerate it with `python -m journal.cli.reference "
                      f"--index`")


def built_command(command: object) -> Command:
    """`command` as the command typer built: typer says only that it built a command."""
    assert isinstance(command, TyperCommand | TyperGroup), command
    return command


def load(*modules: str) -> None:
    """Import the command modules named (all of them if none), registering their commands."""
    for module in modules or MODULES:
        importlib.import_module(f"journal.cli.{module}")


def main() -> None:
    """`spire`: one command in a process of its own (started by journal/process.py, which
    pauses the cyclic collector first). Its journals are closed as it ends; then what is
    left is frozen (`gc.freeze`), so the interpreter's last collections do not walk
    everything the command loaded only to find it alive: they took a sixth of a
    `spire status` (about 50 ms of 300; tests/bench/flat.py holds it to the floor)."""
    import gc

    from journal.cli.common import closed_at_end

    try:
        with closed_at_end():
            app()
    finally:
        gc.freeze()
