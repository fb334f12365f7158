"""click's and pydantic's refusals said as spire says its own: lower case, no closing full
stop, a mistyped name followed by its closest match ("no such command 'rol'; did you
mean 'roll'?"), a value that is not a number named with what it is not."""

from __future__ import annotations

import re
from typing import Any

from journal.errors import closest, value_words

_NO_COMMAND = re.compile(r"No such command '(?P<name>.+?)'\.(?: Did you mean (?P<meant>.+)\?)?")
_NO_OPTION = re.compile(r"No such option: (?P<name>\S+)(?: \(Possible options: (?P<meant>.+)\))?")
_MISSING = re.compile(r"Missing (?:argument|option) .+")
_NEGATIVE = re.compile(r"-\d+")


def in_spires_words(error: Any) -> str:
    """The line of click's `error` (a UsageError: typer names only its base), as spire's."""
    message: str = error.format_message()
    if found := _NO_COMMAND.fullmatch(message):
        return _no_command(found["name"], found["meant"], getattr(error, "ctx", None))
    if found := _NO_OPTION.fullmatch(message):
        return _no_option(found["name"], found["meant"], getattr(error, "ctx", None))
    if _MISSING.fullmatch(message):  # what it takes is in its help's example
        command = _path(getattr(error, "ctx", None))
        return f"{_lowered(message)}; `{command} --help` shows an example"
    return _lowered(_not_read(message, error.__cause__))


def _no_command(name: str, meant: str | None, ctx: Any) -> str:
    """No command `name`: the closest of the group's, the campaign's game's among them
    (typer's own `meant` knows only the core's: 'recop' meant 'redo' in Spire's End)."""
    if ctx is not None and hasattr(ctx.command, "list_commands"):
        near = closest(name, ctx.command.list_commands(ctx))
        meant = None if near is None else repr(near)
    said = ("`spire help` lists them" if meant is None
            else f"did you mean {' or '.join(meant.split(', '))}?")
    return f"no such command '{name}'; {said}"


def _no_option(name: str, meant: str | None, ctx: Any) -> str:
    """No option `name` on the command: the closest, if click found one, else its help."""
    if meant is not None:
        return f"no such option: {name}; did you mean {' or '.join(meant.split(', '))}?"
    if _NEGATIVE.fullmatch(name):  # `reveal -3`, `gain gold -2`: a number, not an option
        return f"{name} reads as an option: no number below zero is taken here"
    return f"no such option: {name}; `{_path(ctx)} --help` lists them"


def _path(ctx: Any) -> str:
    """The command as typed (`spire card add`), from click's context if there is one."""
    return getattr(ctx, "command_path", None) or "spire"


def _not_read(message: str, cause: BaseException | None) -> str:
    """`message` with pydantic's words for a value it could not read ("Input should be a
    valid integer, unable to parse string as an integer") as "'two' is not a whole
    number"."""
    errors = getattr(cause, "errors", None)
    head, cut, _ = message.partition(": Input should be")
    if not callable(errors) or not cut:
        return message
    return f"{head}: {value_words(errors()[0])}"


def _lowered(message: str) -> str:
    """click's sentence as spire's line: its first word lower case (a name or option
    keeps its case), no closing full stop."""
    first, _, rest = message.partition(" ")
    if first[:1].isupper() and first[1:].islower():
        message = f"{first.lower()} {rest}" if rest else first.lower()
    return message.removesuffix(".")
