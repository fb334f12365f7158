"""One error hierarchy; the CLI turns it into a line on stderr and an exit code.

The line fits 80 columns with its `spire: `: it is the reason, and stands alone. What may
follow it (a rule's citation and `--force`, a hint of what to type) is a second line,
indented, dimmed on a terminal (`SpireError.lines`). A message names its hint (`hint=`),
or ends with it after "; " and `parted` finds it. Words spire does not write are kept
whole: a path, or a name the player typed, makes its line as long as it is; the words of a
library or a server (SQLAlchemy's, PostgreSQL's) go under spire's, on the second line.

Exit codes are the product's contract: 0 done, 1 refused by a rule (or a failed audit),
2 bad input, 3 storage trouble.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of `choices` a mistyped `word` most likely meant, if one is close enough
    (difflib's measure, as click finds a mistyped command's), else None."""
    import difflib

    named = {choice.casefold(): choice for choice in choices}
    found = difflib.get_close_matches(word.casefold(), list(named), n=1, cutoff=0.6)
    return named[found[0]] if found else None


def meant(word: str, choices: Iterable[str], otherwise: str) -> str:
    """"did you mean 'main'?" if one of `choices` is close to `word`, else `otherwise`."""
    near = closest(word, choices)
    return otherwise if near is None else f"did you mean {near!r}?"


_NOT_WHAT = {"int_parsing": "a whole number", "int_type": "a whole number",
             "int_from_float": "a whole number", "float_parsing": "a number",
             "float_type": "a number", "bool_parsing": "true or false"}
"""What a value pydantic could not read is not, by the kind of its error."""
_BOUNDS = {"greater_than_equal": ("ge", "below"), "less_than_equal": ("le", "above"),
           "greater_than": ("gt", "not above"), "less_than": ("lt", "not below")}
"""A value out of its range, by the kind of pydantic's error: the bound, and how it errs."""


def value_words(error: Mapping[str, Any]) -> str:
    """One of pydantic's errors (an item of `ValidationError.errors()`) as spire says it:
    what the value is not ("'two' is not a whole number", "0 is below 1"), else
    pydantic's own words, lower case ("field required")."""
    kind, given = error.get("type", ""), error.get("input")
    if kind in _NOT_WHAT:
        return f"{given!r} is not {_NOT_WHAT[kind]}"
    if kind in _BOUNDS:
        bound, erring = _BOUNDS[kind]
        return f"{given} is {erring} {error.get('ctx', {}).get(bound)}"
    said = str(error.get("msg", "")).removeprefix("Value error, ")
    return said[:1].lower() + said[1:] if said[1:2].islower() else said


def invalid(error: Mapping[str, Any]) -> str:
    """A pydantic error with where it is: "bullseyes: 0 is below 1" (its words alone
    where it has no place)."""
    where = ".".join(str(part) for part in error.get("loc", ()))
    return f"{where}: {value_words(error)}" if where else value_words(error)


WIDTH = 80
"""The columns a refusal's first line fits, `spire: ` included."""


CUTS = {"; ": 2, ": `": 2, " (`": 1}
"""Where a message's reason ends and its hint begins: "reason; hint", "reason: `spire X`
does Y", "reason (`spire X`)"; each with the characters the hint drops."""


def parted(message: str, room: int = WIDTH - len("spire: ")) -> tuple[str, str]:
    """`message` as a first line of at most `room` characters and what follows it: whole
    if it fits, else cut before its last hint (`CUTS`, never inside brackets) that leaves a
    first line that fits; if none does, before its first (a reason long for the path or
    name it holds)."""
    message = " ".join(message.split())
    if len(message) <= room:
        return message, ""
    cuts = sorted((at, at + skip) for cut, skip in CUTS.items() for at in _all(message, cut)
                  if _outside_brackets(message, at))
    if not cuts:
        return message, ""
    fitting = [(at, rest) for at, rest in cuts if at <= room]
    at, rest = fitting[-1] if fitting else cuts[0]
    return message[:at], message[rest:]


def _all(text: str, part: str) -> list[int]:
    """Where `part` is in `text`, past its first character (a cut there leaves nothing)."""
    found, at = [], text.find(part, 1)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def _outside_brackets(text: str, at: int) -> bool:
    """Whether every bracket opened before `at` is closed before it."""
    before = text[:at]
    return before.count("(") <= before.count(")")


class SpireError(Exception):
    """Base of every error spire reports to the player: its message, and what to type
    about it (`hint`, its second line), if the message does not end with it already."""

    exit_code = 1

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(f"{message}; {hint}" if hint else message)
        self.hint = hint

    @property
    def lines(self) -> tuple[str, str]:
        """The message as spire prints it: the reason, then what may follow it ("" if
        nothing does)."""
        if self.hint:
            return str(self).removesuffix(f"; {self.hint}"), self.hint
        return parted(str(self))


class RuleViolation(SpireError):
    """A command the rulebook forbids; `--force` records it anyway as an override."""

    exit_code = 1

    def __init__(self, reason: str, section: str, forced: str = "records it anyway") -> None:
        super().__init__(f"{reason} (rulebook: {section}); --force {forced}")
        self.reason = reason
        self.section = section
        self.forced = forced
        """What `--force` does: records the command (a card entered in the catalog,
        which is no event, "enters it anyway")."""

    @property
    def lines(self) -> tuple[str, str]:
        """The reason alone, then its hint if it has one, the rulebook's section and
        `--force`."""
        reason, hint = parted(self.reason)
        return reason, "; ".join(filter(None, (hint, f"rulebook: {self.section}",
                                               f"--force {self.forced}")))

    @property
    def citation(self) -> str:
        """The reason with its rulebook section, as kept on a forced event."""
        return f"{self.reason} (rulebook: {self.section})"


class Refused(SpireError):
    """A command that has nothing to act on (undo with nothing left to undo)."""

    exit_code = 1


class AuditFailed(SpireError):
    """A check of the journal found problems (replay --verify, audit)."""

    exit_code = 1


class BadInput(SpireError):
    """A value spire cannot read: a malformed number, face, file or option."""

    exit_code = 2


class TooNew(BadInput):
    """Something a newer spire wrote (a payload version, a schema): refused, not guessed at."""


class NotFound(BadInput):
    """An unknown campaign, branch, item, character or event."""


class StorageError(SpireError):
    """The journal file cannot be read or written: locked, corrupt, not a journal."""

    exit_code = 3


class Unreachable(StorageError):
    """The journal's server cannot be reached (stopped, restarting, the network down): a
    writer reports it; a view that follows the journal waits for the server to be back."""


class Conflict(StorageError):
    """Another writer appended at the same position, twice in a row."""


class NoJournal(StorageError):
    """A command that only reads, pointed at a journal that is not there: it makes none."""

    exit_code = 3
