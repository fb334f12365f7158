"""What the commands share: the global options, `--force`, `--json`, and `act`."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

GAME = "spire.game"
"""The key of `ctx.meta` (the root context's) that holds the campaign's game once read:
None when there is no journal or campaign yet (journal/cli/dispatch.py)."""

if TYPE_CHECKING:
    from pathlib import Path

    from journal.service.journal import Command, Journal, Recorder
    from journal.service.reading import Reading


@dataclass(frozen=True)
class Options:
    db: str | None
    campaign: str | None


def default_db() -> str:
    from platformdirs import user_data_path

    return str(user_data_path("spire", appauthor=False) / "journal.sqlite")


Force = Annotated[bool, typer.Option(
    "--force", help="Record it even if a rule forbids it; the override is kept and shown.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON, for scripts.")]
Branch = Annotated[str | None, typer.Option(
    "--branch", "-b", metavar="NAME", help="A branch other than the current.")]


_kept: dict[tuple[str, str | None], Journal] | None = None
"""The journals `spire play` keeps open, by (db, campaign); None: one per command."""
_open: ExitStack | None = None
"""Closes the connections of the journals kept open when `journals_kept` ends."""
_opened: list[Journal] | None = None
"""The journals a command opened inside `closed_at_end` (the `spire` process's one)."""


@contextmanager
def closed_at_end() -> Iterator[None]:
    """Close the connections of every journal the commands inside open (`remembered`),
    once they end: the process that runs one command (`journal.cli.main`) closes its
    journal itself rather than leaving it to the interpreter's last collection."""
    global _opened
    _opened = []
    try:
        yield
    finally:
        opened, _opened = _opened, None
        with ExitStack() as closing:  # each closed, whatever another raises
            for found in opened:
                closing.callback(found.store.close)


def remembered(found: Journal) -> Journal:
    """`found`, closed when `closed_at_end` ends (inside it; else as before, by the
    interpreter)."""
    if _opened is not None:
        _opened.append(found)
    return found


@contextmanager
def journals_kept() -> Iterator[None]:
    """Open each journal once and reuse it until the block ends (the play shell), so a
    command costs what it does and not what opening the journal costs."""
    global _kept, _open
    _kept = {}
    try:
        with ExitStack() as _open:
            yield
    finally:
        _kept = _open = None


def as_typed(words: str) -> str:
    """A command as the player would type it here: `spire` and `words`, or `words` alone
    inside the play shell (which keeps its journals: `journals_kept`)."""
    return words if _kept is not None else f"spire {words}"


JOURNALS = "spire.journals"
"""The key of the root context's `meta` that keeps the journals a command line opened."""


def given(root: Any) -> Options:
    """The root's options (`--db`, `--campaign`; `root` is click's context, which typer
    names only as a subclass), checked, as the root's callback keeps
    them; read from its parameters when asked before the callback has run (the root looks
    up a game's command, and the campaign's game, before it calls back)."""
    if root.obj is None:
        root.obj = checked(root.params.get("db"), root.params.get("campaign"))
    found: Options = root.obj
    return found


def checked(db: str | None, campaign: str | None) -> Options:
    """`--db` and `--campaign` as given, refused in one line if they cannot name one."""
    from journal.cli.values import is_text, undecoded
    from journal.errors import BadInput

    if db is not None and not db.strip():  # `--db "$JOURNAL"` with the variable unset
        raise BadInput("--db is empty: name a journal file, or leave --db out for the default")
    if campaign is not None and not is_text(campaign):  # from SPIRE_CAMPAIGN
        raise BadInput(f"campaign '{undecoded(campaign)}' is not UTF-8 text; spire keeps only "
                       "text")
    return Options(db=db, campaign=campaign)


def journal(ctx: typer.Context, reads: bool = False) -> Journal:
    """The journal the command acts on. With `reads` (a command that only reads), one that
    is not there is said so in one line, and nothing is made: no file, no directory."""
    from journal.service.journal import Journal

    root = ctx.find_root()
    options = given(root)
    key = (options.db or default_db(), options.campaign)
    if _kept is None:  # one per command line: the game's look-up and the command share it
        line: dict[tuple[str, str | None], Journal] = root.meta.setdefault(JOURNALS, {})
        if not line:  # let go of them as the line ends, whoever keeps its context after
            root.call_on_close(line.clear)
        if key not in line:
            line[key] = remembered(Journal(*key))
        found = line[key]
    elif key in _kept:
        found = _kept[key]
    else:
        found = _kept[key] = remembered(Journal(*key))
        if _open is not None:  # its transactions on one connection, kept open too
            _open.enter_context(found.store.kept_open())
    if reads and not found.store.there:
        from journal.errors import NoJournal
        from journal.store.opening import shown

        raise NoJournal(f"no journal at {shown(key[0])}",
                        "`spire new NAME --game GAME` starts one; --db or SPIRE_DB names another")
    return found



def spoken(root: Any) -> list[str]:
    """What the journals the command line (`root`, click's root context) used have to say
    beside what the command did (the seal mended), once."""
    found = [*root.meta.get(JOURNALS, {}).values(), *(_kept or {}).values()]
    return [line for journal in dict.fromkeys(found) for line in journal.store.keeper.spoken()]


def reading(ctx: typer.Context) -> Reading:
    """The journal the command reads (`journal(ctx, reads=True)`'s `read`): its campaigns,
    views, statuses and replays; one that is not there is said so, and nothing is made."""
    return journal(ctx, reads=True).read


def act(
    ctx: typer.Context, command: Command, force: bool = False, player: Recorder = None,
    done: str = "",
) -> None:
    """Decide `command` on the current branch, append it, and show what it recorded (each
    event after `done`, what the command did: "Redone")."""
    from journal.render import lines as render

    render.written(journal(ctx).execute(command, force=force, player=player), done)


def written_whole(output: Path, text: Iterable[str]) -> int:
    """Write the pieces to `output`, whole or not at all (journal.paths.write_whole); the
    bytes written, for the line that says so. A file that cannot be written is bad input,
    and is as it was."""
    from journal.errors import BadInput
    from journal.paths import write_whole

    written = 0

    def counted() -> Iterator[str]:
        nonlocal written
        for piece in text:
            written += len(piece.encode())
            yield piece

    try:
        write_whole(output, counted())
    except OSError as e:
        raise BadInput(f"cannot write {output}: {e.strerror}; it is as it was") from None
    return written


def key(prompt: str) -> str | None:
    """The answer to `prompt`, casefolded: one key on a terminal (typer's getchar reads it
    without Enter, as `less` does), else one line; None for Ctrl-C or the end of input,
    which leave the cursor on a line of its own."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    try:
        if sys.stdin.isatty():
            pressed = typer.getchar()
            sys.stdout.write("\n")
            return pressed.casefold()
        return input().strip().casefold()
    except (EOFError, KeyboardInterrupt):
        sys.stdout.write("\n")
        return None
