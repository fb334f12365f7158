"""The values a command takes from its command line: text, flags, whole numbers and lists of
them as they come, without typer's pydantic check (a tenth of a second at each start), and
every whole number held to LARGEST. Only typer is imported here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

Command = TyperCommand | TyperGroup
"""A command as typer builds it: one of its own, or a group of them."""

Context = Any
"""What click hands a command's methods: click's context, which typer names only as its
subclass `typer.Context` (a method taking that would not override click's)."""


def text_as_given(command: TyperCommand | TyperGroup, ctx: typer.Context) -> None:
    """Take the text, flag and whole-number values of `command` (and its subcommands) as
    they come, and hold its numbers to LARGEST.

    Typer (0.29) checks every value through a pydantic TypeAdapter, so parsing `--db`, or
    even finding `--help` not given, imports pydantic and builds an adapter: a tenth of a
    second at each start, and a few hundredths more for each list or number a one-shot
    write takes (`roll c c r`, `lock 1`, `reveal 5`). A value that is already of its
    parameter's type (text for a text option, True or False for a flag, None when not
    given), a whole number written in plain digits within the parameter's range, or a list
    of such texts or numbers, needs no check: typer's would make it the same value, and it
    is made so here. Any other value still goes through typer's check, which says what is
    wrong. Each parameter is given a class of its own class and `_Checked`, which does this
    in click's `process_value`. With a typer whose parameters differ (no
    `type_descriptor`), nothing changes but the start-up time (tests/test_startup.py would
    say so) and the range."""
    _text_as_given([*command.params, command.get_help_option(ctx)])
    _bounded(command.params)
    for sub in getattr(command, "commands", {}).values():
        text_as_given(sub, ctx)


def _text_as_given(params: Iterable[object]) -> None:
    for param in params:
        described = getattr(param, "type_descriptor", None)
        if not isinstance(param, TyperOption | TyperArgument) or described is None \
                or described.parameter_info.parser is not None or param.multiple:
            continue
        annotation = described.annotation
        if annotation in (str, bool) and param.nargs == 1:
            _checked(param, as_given=annotation)
        elif annotation is int and param.nargs == 1 and not described.parameter_info.clamp:
            _checked(param, as_given=int)
        elif annotation in (list[str], list[int]) and param.nargs == -1:
            _checked(param, as_given=annotation)


LARGEST = 10**9
"""No number spire takes from the command line is further from 0 than this: a card, a
position (a million-event journal included), an amount or a count. A journal keeps
numbers SQLite can hold (64 bits), and a billion dice is no game."""


def _bounded(params: Iterable[object]) -> None:
    """Give every whole-number parameter a sane range, whatever range its command gave it."""
    for param in params:
        described = getattr(param, "type_descriptor", None)
        if isinstance(param, TyperOption | TyperArgument) and described is not None \
                and _whole(described.annotation):
            _checked(param, bounded=True)


def _whole(annotation: Any) -> bool:
    from typing import get_args

    return annotation is int or int in get_args(annotation)


_CHECK = object()
"""What `_as_given` answers for a value typer's own check is to take."""


def _as_given(as_given: Any, param: Any, value: Any) -> Any:
    """`value` as typer's check would make it, if that needs no check; else _CHECK."""
    if as_given is None:
        return _CHECK
    if value is None:  # not given: typer's check keeps it None, or () for a list
        if param.required:
            return _CHECK  # typer says it is missing
        return () if param.nargs == -1 else None
    if as_given is str or as_given is bool:
        return value if type(value) is as_given else _CHECK
    if as_given is int:
        return _number(value, param)
    if type(value) not in (tuple, list) or not value and param.required:
        return _CHECK
    if as_given == list[str]:
        return list(value) if all(type(v) is str for v in value) else _CHECK
    numbers = [_number(v, param) for v in value]
    return _CHECK if _CHECK in numbers else numbers


def _number(value: Any, param: Any) -> Any:
    """A whole number in plain digits (`5`, `-2`) within `param`'s range, as int; else
    _CHECK (typer's check takes the rest: `+5`, `1_000`, `٥`, or out of range)."""
    if type(value) is str and value.isascii() and value.lstrip("-").isdigit() \
            and value.count("-") <= 1 and len(value) <= 20:
        value = int(value)
    elif type(value) is not int:
        return _CHECK
    info = param.type_descriptor.parameter_info
    if info.min is not None and value < info.min or info.max is not None and value > info.max:
        return _CHECK
    return value


class _Checked:
    """A parameter checked as spire checks it, then as typer does (mixed into its class;
    typer's parameters have slots, so what is checked is said by the class)."""

    __slots__ = ()

    as_given: Any = None
    """str, bool, int, list[str] or list[int]: a value that needs no check is taken as
    it comes (no pydantic, `_as_given`)."""
    bounded = False
    """A whole number, or numbers: each within LARGEST of 0."""

    def checked(self, ctx: Any, value: Any, typers: Callable[[Any, Any], Any]) -> Any:
        """click's step from the value given to the value the command takes (`typers`:
        typer's own step)."""
        param: Any = self
        kept = _as_given(self.as_given, param, value)
        if kept is _CHECK:
            value = typers(ctx, value)
        else:
            value = kept if param.callback is None else param.callback(ctx, param, kept)
        for number in value if self.bounded and isinstance(value, (list, tuple)) else (value,):
            if self.bounded and isinstance(number, int) and abs(number) > LARGEST:
                raise typer.BadParameter(
                    f"{_short(number)} is out of range; spire takes numbers up to "
                    f"{LARGEST:,}", ctx=ctx, param=param)
        return value


_CHECKED: dict[tuple[type, Any, bool], type] = {}
"""Each parameter class met, mixed with _Checked, by what it checks."""


def _checked(param: TyperOption | TyperArgument, *, as_given: Any = None,
             bounded: bool = False) -> None:
    """`param`, its class now its own mixed with _Checked (click calls `process_value` on a
    parameter, and typer gives no other way in)."""
    given = type(param)
    if isinstance(param, _Checked):
        as_given, bounded = as_given or param.as_given, bounded or param.bounded
        given = given.__mro__[1]
    key = (given, as_given, bounded)
    if key not in _CHECKED:  # `given` first: a class of the same layout as the parameter's

        def process_value(self: Any, ctx: Any, value: Any) -> Any:
            return self.checked(ctx, value, partial(given.process_value, self))

        mixed = type(given.__name__, (given, _Checked), {
            "__doc__": given.__doc__, "as_given": as_given, "bounded": bounded,
            "process_value": process_value})
        _CHECKED[key] = mixed
    param.__class__ = _CHECKED[key]


def _short(number: int) -> str:
    """A huge number said briefly: 1000000000000000000000000000000 is 10^30-ish."""
    digits = str(abs(number)) if number.bit_length() < 10_000 else ""
    if digits and len(digits) <= 15:
        return str(number)
    return f"{'-' if number < 0 else ''}a {len(digits) or 'many'}-digit number"


# -- text as spire keeps it, and usage lines as a player reads them -----------------------

def is_text(value: str) -> bool:
    """True if `value` can be kept as UTF-8 (it holds no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def undecoded(value: str) -> str:
    """`value` as the bytes it came as, escaped: b'bad\\xff' shows as bad\\xff."""
    raw = value.encode("utf-8", "surrogateescape") if _escapes_only(value) \
        else value.encode("utf-8", "backslashreplace")
    return repr(raw)[2:-1]


def _escapes_only(value: str) -> bool:
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in value)


def readable(command: Command) -> Command:
    """`command` (and its subcommands) with usage lines as a player reads them: `roll
    [FACES]...`, `lock POSITIONS...`, not `[[FACES]...]...`, `{POSITIONS}...` and
    `<list[int]>`."""
    from typer.core import TyperArgument

    for param in command.params:
        if isinstance(param, TyperArgument) and not isinstance(param, ReadableArgument):
            bare = (param.metavar or param.name or "").strip("[].")
            param.metavar = bare + ("..." if param.nargs != 1 else "")
            param.__class__ = ReadableArgument
    for sub in getattr(command, "commands", {}).values():
        readable(sub)
    return command


def _readable_argument() -> type:
    from typer.core import TyperArgument

    class Readable(TyperArgument):
        """An argument named by its metavar alone: [NAME] when it may be left out, NAME...
        when it takes several; its type is the help's to say."""

        def get_usage_pieces(self, ctx: Context) -> list[str]:
            name = self.metavar or ""
            return [name if self.required else f"[{name}]"]

        def display_type_rich(self, ctx: Context) -> str | None:
            return None

    return Readable


ReadableArgument = _readable_argument()
