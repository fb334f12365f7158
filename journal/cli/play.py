"""The play shell: `spire play`, the commands without `spire`, for the table.

Each line runs through the same click command as `spire ...` would, in this process, so a
command costs what it does and not a Python start-up; the journal is opened once and kept
(journal.cli.common.journals_kept). A refused line prints its one line, as `spire` would.
On a terminal the line is read by prompt_toolkit (history, Tab completion, the encounter in
a bottom toolbar, on Windows too); from a pipe or a file, line by line. Only typer is
imported here: prompt_toolkit, shlex and the rest load when the shell starts.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer

from journal.cli import _fail, app, short_help
from journal.cli.complete import CLEAR, EXIT, NOT_IN_SHELL, Completer
from journal.cli.prompting import prompt, toolbar_line

if TYPE_CHECKING:
    from typer.core import TyperGroup

    from journal.service.journal import Journal, View

__all__ = ["EXIT", "NOT_IN_SHELL", "Completer", "Shell", "history_file"]

INTRO = "spire play: commands without `spire`. Tab completes, help lists, exit leaves."
"""The shell's first line, in 80 columns."""


@app.command()
def play(
    ctx: typer.Context,
    keep_going: bool = typer.Option(
        False, "--keep-going", help="Reading from a file: run the lines after a refused one too."),
    again: bool = typer.Option(
        False, "--again", help="Reading from a file: play it even if it was played into this "
        "campaign already."),
    start: int = typer.Option(
        1, "--from", min=1, metavar="LINE",
        help="Reading from a file: begin at this line (the lines before it were played)."),
) -> None:
    """A shell inside the current campaign.

    It takes the same commands, without `spire`. The prompt shows the campaign, the card
    and whose turn it is; the line at the bottom, the encounter under way. Tab completes
    commands, faces, wild shots, card, item, checkpoint and branch names; `help` lists
    this game's commands and `help CMD` shows one; a line may start with `spire`, as the
    docs' examples do; `exit`, `quit` or Ctrl-D leaves. A refused command prints its
    line and the shell goes on. The history is kept beside the journal file, as
    JOURNAL.history (for a database URL: play.history in spire's data directory).

    When standard input is not a terminal, it runs one command a line (blank lines and
    lines starting with # are skipped) and stops at the first refused line, saying
    `line N: why` on stderr, with that command's exit code; what came before it is in the
    journal, nothing after it. With --keep-going it runs every line and exits with the
    first failure's code (0 if none failed). A file played into the campaign already is
    refused, saying when, unless --again plays it again; so is one whose first lines were
    (it stopped at a refused line that was mended, or it grew by a session), saying where
    --from plays on.

    \b
    Examples:
      spire play
      spire play < session.txt
      spire play --from 12 < session.txt
    """
    from journal.cli.common import journals_kept
    from journal.service import collector

    with journals_kept():
        shell = Shell(ctx)
        collector.resumed()  # a shell stays: its cycles are freed as it goes
        if sys.stdin.isatty():
            code = shell.interactive()
        elif _a_file(sys.stdin):
            from journal.cli.session_file import played_once

            code = played_once(shell, list(_lines(sys.stdin)), keep_going, again, start)
        else:  # a pipe: its lines as they come
            code = shell.batch(_lines(sys.stdin), keep_going, start)[0]
    raise typer.Exit(code)


def _a_file(stream: TextIO) -> bool:
    """Whether `stream` is a file (`spire play < session.txt`), read whole, not a pipe."""
    import os
    import stat

    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return False


def _lines(stream: TextIO) -> Iterable[str]:
    """The lines of `stream` as text, a line whose bytes are not UTF-8 included: its bytes
    that do not decode are kept as Python keeps such arguments (lone surrogates), so that
    line alone is refused, as `spire` refuses such an argument, and the next one runs."""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        yield from stream
        return
    for line in raw:
        yield line.decode("utf-8", "surrogateescape")


class Shell:
    """Runs command lines through the `spire` command group, with the global options of
    the `spire play` that started it."""

    def __init__(self, ctx: typer.Context) -> None:
        root = ctx.find_root()
        self.ctx = ctx
        self.group: TyperGroup = root.command  # type: ignore[assignment]
        options = root.obj
        self.options = [*(["--db", options.db] if options.db else []),
                        *(["--campaign", options.campaign] if options.campaign else [])]

    # -- one line ------------------------------------------------------------------------

    def execute(self, line: str) -> int | None:
        """Run one line; its exit code, or None for `exit` and `quit`."""
        import shlex

        try:
            words = shlex.split(line)
        except ValueError as e:
            return _fail(f"cannot read the line: {e}", code=2)
        if words[:1] == ["spire"]:  # pasted from the docs, or out of habit
            words = words[1:]
        if not words:
            return 0
        name = words[0]
        if name in EXIT:
            return None
        if name in ("help", "-h", "--help"):
            return self.help(words[1:])
        if name == CLEAR:
            return _clear()
        if name in NOT_IN_SHELL:
            return _fail(f"`{name}` does not run inside the play shell", code=2)
        if name.startswith("-") and name != "--version":
            return _fail(f"{name} belongs on `spire play` itself; here, give a command", code=2)
        given = words[:words.index("--")] if "--" in words else words
        if any(w == "--db" or w.startswith("--db=") for w in given):  # (after the command too)
            return _fail("--db belongs on `spire play` itself: the shell keeps one journal", code=2)
        return self.run(words)

    def run(self, words: list[str]) -> int:
        """`spire WORDS...` in this process: its exit code, its error line on stderr."""
        try:
            self.group.main(args=[*self.options, *words], prog_name="spire")
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        return 0

    def help(self, words: list[str]) -> int:
        if words:
            return self.run([*words, "--help"])
        for panel, listed in self.commands():
            print(f"{panel}:")
            for name, text in listed:
                print(f"  {name.ljust(12)} {text}")
        print("In the shell:")
        print("  help [CMD]   This list, or a command's own help.")
        print("  clear        A clear screen (also Ctrl-L).")
        print("  exit         Leave the shell (also quit, Ctrl-D).")
        return 0

    def commands(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The commands the shell runs for this campaign's game, panel by panel, each with
        its one-line help (from the indexes: no command is built for it)."""
        from journal.cli.dispatch import panels

        view = self.view()
        out = []
        for panel, rows in panels(view.state.game if view is not None else None):
            listed = [(n, short_help(text, 64)) for n, text in rows.items()
                      if n not in NOT_IN_SHELL]
            if listed:
                out.append((panel, listed))
        return out

    def names(self, group: TyperGroup) -> list[str]:
        """The commands the shell offers: the core's and this campaign's game's."""
        return Completer(self).names(group)

    def context(self) -> typer.Context:
        return typer.Context(self.group, info_name="spire")

    # -- what the shell knows of the journal ---------------------------------------------

    def journal(self) -> Journal:
        from journal.cli.common import journal

        return journal(self.ctx)

    def view(self) -> View | None:
        """The current campaign's view, or None when there is none to show."""
        from journal.errors import SpireError

        try:
            return self.journal().read.view()
        except SpireError:
            return None

    def prompt(self) -> str:
        view = self.view()
        return f"{prompt(view)}> " if view is not None else "spire> "

    def toolbar(self, width: int) -> str:
        """The bottom line: the encounter under way (or the resources), fitted to `width`
        (`toolbar_line`)."""
        view = self.view()
        return toolbar_line(view, width) if view is not None else "no campaign yet"

    # -- standard input not a terminal ---------------------------------------------------

    def batch(self, lines: Iterable[str], keep_going: bool, start: int = 1,
              ) -> tuple[int, int | None]:
        """Run each line from line `start` on; stop at the first refused one unless
        `keep_going`. The exit code (the first failure's, or 0) and the number of the line
        it stopped at (None: it ran to the end)."""
        first = 0
        for number, line in enumerate(lines, 1):
            if number < start or not line.strip() or line.lstrip().startswith("#"):
                continue
            code, reason = self.quietly(line)
            if code is None:
                break
            if code:
                _told_at(number, reason)
                first = first or code
                if not keep_going:
                    return first, number
        return first, None

    def quietly(self, line: str) -> tuple[int | None, str]:
        """Run `line` holding back its refusal: the exit code and the reason (its first
        line, then the indented one under it if it has one)."""
        import contextlib
        import io

        caught = io.StringIO()
        with contextlib.redirect_stderr(caught):
            code = self.execute(line)
        said = caught.getvalue().splitlines()
        if not code:
            _echo(said, sys.stderr)
            return code, ""
        first = max((n for n, text in enumerate(said) if text.startswith("spire: ")),
                    default=len(said))  # the refusal: its line, and the one under it if any
        _echo(said[:first], sys.stderr)
        reason = said[first:] or [f"failed with exit code {code}"]
        return code, "\n".join([reason[0].removeprefix("spire: "), *reason[1:]])

    # -- standard input a terminal -------------------------------------------------------

    def interactive(self) -> int:
        from prompt_toolkit import PromptSession

        session: PromptSession[str] = PromptSession(
            history=_history(history_file(self.ctx.find_root().obj.db)),
            completer=_tab(self), complete_while_typing=False,
            bottom_toolbar=self._toolbar, reserve_space_for_menu=4)
        print(INTRO)
        while True:
            try:
                line = session.prompt(self.prompt())
            except UnicodeDecodeError as e:  # a terminal that sent bytes that are not UTF-8
                _fail(f"cannot read the line: not UTF-8 text ({e.reason})", code=2)
                continue
            except EOFError:
                return 0
            except KeyboardInterrupt:
                continue
            if self.execute(line) is None:
                return 0

    def _toolbar(self) -> str:
        from prompt_toolkit.application import get_app

        return self.toolbar(get_app().output.get_size().columns)


def _told_at(number: int, reason: str) -> None:
    """A refused line of a session file: `line N: ` and its reason (as `quietly` held it
    back: its line, and the one under it) in 80 columns, what follows indented under it."""
    from journal.terminal import tell

    first, _, under = reason.partition("\n")
    tell(first, under, lead=f"line {number}: ")


def _echo(lines: list[str], stream: TextIO) -> None:
    for line in lines:
        print(line, file=stream)


# -- history -----------------------------------------------------------------------------

def history_file(db: str | None) -> Path:
    """JOURNAL.history beside the journal file (the default journal's is in spire's data
    directory); for a database URL other than a SQLite file, play.history there."""
    from platformdirs import user_data_path

    from journal.cli.common import default_db

    db = db or default_db()
    if db.startswith("sqlite:///") and len(db) > len("sqlite:///"):
        db = db.removeprefix("sqlite:///")
    elif "://" in db:
        return user_data_path("spire", appauthor=False) / "play.history"
    return Path(f"{Path(db).expanduser()}.history")


def _history(path: Path) -> Any:
    """prompt_toolkit's history kept in `path`, without `exit` (so the up arrow recalls
    the last command)."""
    from prompt_toolkit.history import FileHistory

    class History(FileHistory):
        def store_string(self, string: str) -> None:
            if string.strip() in EXIT:
                return
            try:
                super().store_string(string)
            except OSError:  # a read-only place: the session is not lost, only its recall
                pass

    return History(str(path))


def _tab(shell: Shell) -> Any:
    """prompt_toolkit's completer, from the shared candidates (journal.cli.complete)."""
    from prompt_toolkit.completion import Completer as Base
    from prompt_toolkit.completion import Completion

    class Tab(Base):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            line = document.text_before_cursor
            text = line.split()[-1] if line and not line[-1].isspace() else ""
            before = line[:len(line) - len(text)]
            for word in Completer(shell).candidates(before, text):
                yield Completion(f"{word} ", start_position=-len(text), display=word)

    return Tab()


def _clear() -> int:
    """`clear`, as in the terminal the shell runs in: the screen cleared, the prompt at
    its top. A session file's `clear` does nothing (there is no screen to clear)."""
    if sys.stdout.isatty():
        sys.stdout.write("\x1b[H\x1b[2J")  # home, clear: as `watch` draws its screen
        sys.stdout.flush()
    return 0
