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
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer

from journal.cli import _fail, app, short_help
from journal.cli.complete import CLEAR, EXIT, NOT_IN_SHELL, Completer

if TYPE_CHECKING:
    from typer.core import TyperGroup

    from journal.core.state import State
    from journal.service.journal import Journal, View

__all__ = ["EXIT", "NOT_IN_SHELL", "Completer", "Shell", "history_file", "prompt", "status_line"]

PROMPT_WIDTH = 39
"""The prompt's longest: campaign, card and whose turn, never wrapping an 80-column line."""
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
    """A shell inside the current campaign: the same commands, without `spire`.

    The prompt shows the campaign, the card and whose turn it is; the line at the bottom,
    the encounter under way. Tab completes commands, faces, wild shots, card, item,
    checkpoint and branch names; `help` lists this game's commands and `help CMD` shows
    one; a line may start with `spire`, as the docs' examples do; `exit`, `quit` or Ctrl-D
    leaves. A refused command prints its
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
            code = shell.session_file(list(_lines(sys.stdin)), keep_going, again, start)
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

    def session_file(self, lines: list[str], keep_going: bool, again: bool, start: int,
                     ) -> int:
        """`batch` over a file's lines, once for a campaign: a file whose lines from
        `start` on were played into the campaign already (all of them, or the first of
        them) is refused, nothing run, unless `again`; what a file recorded is kept as
        played, the whole file or its lines before the one it stopped at."""
        from datetime import datetime

        from journal.errors import BadInput, Refused
        from journal.service.journal import keep_played, played

        if start > len(lines):
            raise BadInput(f"the file has {len(lines)} lines: --from {start} is past its end",
                           "`spire play --from LINE < FILE` begins at a line of the file")
        view = self.view()
        if view is None:  # no campaign yet: the file makes its own (`new`), refused if twice
            return self.batch(lines, keep_going, start)[0]
        journal = self.journal()
        name, before = view.campaign.name, view.branch.head
        found = played(journal, name, lines)
        if found is not None and found.through >= start and not again:
            if found.whole:
                raise Refused(f"this file was played already: {found.what}",
                              "`spire play --again < FILE` plays it again")
            on = found.through + 1
            raise Refused(f"lines 1 to {found.through} were played already: "
                          f"{found.what}", f"`spire play --from {on} < FILE` plays on from "
                          f"line {on}; --again plays it all")
        code, stopped = self.batch(lines, keep_going, start)
        after = self.view()
        if after is not None and after.campaign.name == name and after.branch.head != before:
            keep_played(journal, name, lines if stopped is None else lines[:stopped - 1],
                        f"#{before + 1} to #{after.branch.head} on {after.branch.name}, "
                        f"{datetime.now():%Y-%m-%d %H:%M}")
        return code

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


# -- the prompt --------------------------------------------------------------------------

def status_line(view: View) -> str:
    """One line: campaign, branch, card, hit points, and the encounter under way; with no
    encounter, the resources instead (render.summary)."""
    from journal.render import lines as render

    state = view.state
    summary = render.summary(state)
    encounter = render.encounter_lines(state)[:1]
    # summary() is "card ... | chapter ... | resources..."; with an encounter under way its
    # head line is what matters now, so only the card part is kept.
    parts = [summary.partition(" | ")[0] if encounter else summary]
    parts += [f"{c.name} HP {c.hp}/{c.hp_max}" for c in state.characters if c.hp_max is not None]
    return " | ".join([f"{view.campaign.name} {view.branch.name} {parts[0]}", *parts[1:],
                       *encounter])


def prompt(view: View) -> str:
    """The prompt, without its "> ": campaign (and branch, off main), card, whose turn;
    at most PROMPT_WIDTH - 2 characters, so it never wraps."""
    state = view.state
    where = view.campaign.name if view.branch.name == "main" \
        else f"{view.campaign.name}/{_cut(view.branch.name, 12)}"
    card = f"card {state.card}" if state.card is not None else "no card"
    from journal.core.words import possessive

    who = whose_turn(state)
    room = PROMPT_WIDTH - 2
    for turn in ([f", {possessive(who)} turn", f", {who}"] if who else [""]):
        line = f"{where} {card}{turn}"
        if len(line) <= room:
            return line
    turn = f", {_cut(who, 14)}" if who else ""
    return f"{_cut(where, room - len(card) - len(turn) - 1)} {card}{turn}"


def toolbar_line(view: View, width: int | None = None) -> str:
    """The bottom line: branch and card, then the encounter under way, whose turn first
    (its lines carry the fighters' hit points); between encounters, the resources and the
    characters' hit points. Fitted to `width`, it keeps what matters most and drops the
    rest, part by part (`fitted`)."""
    from journal.render import lines as render

    state = view.state
    heads = [line for line in render.encounter_lines(state) if line and not line[0].isspace()]
    if not heads:
        line = status_line(view).removeprefix(f"{view.campaign.name} ")
        return line if width is None else fitted(line.split(" | "), width)
    card = render.summary(state).partition(" | ")[0]
    turns = [line for line in heads if line.startswith(("Round ", "Fight ", "Encounter "))]
    rest = [line for line in heads if line not in turns]
    parts = [f"{view.branch.name} {card}", *turns, *rest]
    if width is None:
        return " | ".join(parts)
    where = [] if view.branch.name == "main" else [view.branch.name]
    short = "no card" if state.card is None else f"card {state.card}"
    return fitted([" ".join([*where, short]), *turns, *rest], width)


LEAST = ("no effects", "rest 0/", "boost 0/", "no feats")
"""Parts of the bottom line that say nothing is there: dropped first."""


def fitted(lines: Sequence[str], width: int) -> str:
    """`lines`' parts (each line's " | "-separated pieces), joined by " | " in their order,
    as many as fit in `width`: the turn and the encounter's head first, then hit points,
    then the rest in order; the parts that say nothing is there last. A part that fits
    nowhere is cut with "..."."""
    parts = [_compact(part) for line in lines for part in line.split(" | ")]
    parts = [part for part in parts if part]

    def rank(index: int) -> tuple[int, int]:
        part = parts[index]
        if part.startswith(LEAST):
            return (4, index)
        if index == 1 or part.startswith(("Round ", "Fight ", "Encounter ", "Face-off")):
            return (0, index)
        if "HP" in part or "bullseye" in part or "left" in part:
            return (1, index)
        return (2 if index == 0 else 3, index)

    order = sorted(range(len(parts)), key=rank)
    if not parts or len(parts[order[0]]) > width:  # what matters most does not fit: it, cut
        return _cut(parts[order[0]], width) if parts else ""
    kept: list[int] = []
    for index in order:
        trial = sorted([*kept, index])
        if len(" | ".join(parts[i] for i in trial)) <= width:
            kept = trial
    return " | ".join(parts[i] for i in kept)


def _compact(part: str) -> str:
    """A part of the bottom line in fewer columns: "Ally 1 Millicent: HP 5/5, AP 2/2" as
    "Millicent HP 5/5 AP 2/2", "Round 1: " as "R1 ", and no run of spaces."""
    import re

    part = " ".join(part.split())
    part = re.sub(r"^(?:Ally(?: \d+)?|Enemy) (.+?): HP ", r"\1 HP ", part)
    part = re.sub(r"^Round (\d+): ", r"R\1 ", part)
    return part.replace(", AP ", " AP ")


def whose_turn(state: State) -> str | None:
    """Who acts next in the encounter under way (an ally, a player or an enemy); None
    between encounters."""
    from journal.games.packages import package_of

    return package_of(state.game).rules_module().whose_turn(state)


def _cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, cut with "..." when longer."""
    if len(text) <= width:
        return text
    return text[:max(width - 3, 0)] + "..." if width > 3 else text[:width]


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
