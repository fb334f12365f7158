"""The play shell: `spire play`, the commands without `spire`, for the table.

Each line runs through the same click command as `spire ...` would, in this process, so a
command costs what it does and not a Python start-up; the journal is opened once and kept
(journal.cli.common.journals_kept). A refused line prints its one line, as `spire` would.
Only typer is imported here: readline, shlex and the rest load when the shell starts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer

from journal.cli import _fail, app

if TYPE_CHECKING:
    from typer import _click as click
    from typer.core import TyperGroup

    from journal.service import Journal, View

EXIT = ("exit", "quit")
NOT_IN_SHELL = ("play", "demo")
"""`play` would nest a shell; `demo` switches the journal to another campaign."""

HISTORY_LENGTH = 1000
INTRO = "spire play: the commands without `spire`. help lists them, Tab completes, exit leaves."


@app.command()
def play(
    ctx: typer.Context,
    keep_going: bool = typer.Option(
        False, "--keep-going", help="Reading from a file: run the lines after a refused one too."),
) -> None:
    """A shell inside the current campaign: the same commands, without `spire`.

    The prompt shows the campaign, branch, card and the encounter under way. Tab completes
    commands, faces, wild shots, card and item names; `help` lists the commands and
    `help CMD` shows one; `exit`, `quit` or Ctrl-D leaves. A refused command prints its
    line and the shell goes on. The history is kept beside the journal file, as
    JOURNAL.history (for a database URL: play.history in spire's data directory).

    When standard input is not a terminal, it runs one command a line (blank lines and
    lines starting with # are skipped) and stops at the first refused line, saying
    `line N: why` on stderr, with that command's exit code; what came before it is in the
    journal, nothing after it. With --keep-going it runs every line and exits with the
    first failure's code (0 if none failed).

    \b
    Examples:
      spire play
      spire play < session.txt
    """
    from journal.cli.common import journals_kept

    with journals_kept():
        shell = Shell(ctx)
        code = shell.interactive() if sys.stdin.isatty() \
            else shell.batch(_lines(sys.stdin), keep_going)
    raise typer.Exit(code)


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
            return _fail(f"cannot read the line: {e}", 2)
        if not words:
            return 0
        name = words[0]
        if name in EXIT:
            return None
        if name in ("help", "-h", "--help"):
            return self.help(words[1:])
        if name in NOT_IN_SHELL:
            return _fail(f"`{name}` does not run inside the play shell", 2)
        if name.startswith("-") and name != "--version":
            return _fail(f"{name} belongs on `spire play` itself; here, give a command", 2)
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
        for name, text in self.commands():
            print(f"  {name.ljust(12)} {text}")
        print("  help [CMD]   This list, or a command's own help.")
        print("  exit         Leave the shell (also quit, Ctrl-D).")
        return 0

    def commands(self) -> list[tuple[str, str]]:
        """The commands the shell runs, each with its one-line help."""
        ctx = self.context()
        found = ((name, self.group.get_command(ctx, name)) for name in self.names(self.group))
        return [(name, cmd.get_short_help_str(limit=64)) for name, cmd in found
                if cmd is not None]

    def names(self, group: TyperGroup) -> list[str]:
        ctx = self.context()
        return [name for name in group.list_commands(ctx) if name not in NOT_IN_SHELL]

    def context(self) -> click.Context:
        from typer import _click as click

        return click.Context(self.group, info_name="spire")

    # -- what the shell knows of the journal ---------------------------------------------

    def journal(self) -> Journal:
        from journal.cli.common import journal

        return journal(self.ctx)

    def view(self) -> View | None:
        """The current campaign's view, or None when there is none to show."""
        from journal.errors import SpireError

        try:
            return self.journal().view()
        except SpireError:
            return None

    def prompt(self) -> str:
        from journal.terminal import visible

        view = self.view()
        return f"{visible(status_line(view))}> " if view is not None else "spire> "

    # -- standard input not a terminal ---------------------------------------------------

    def batch(self, lines: Iterable[str], keep_going: bool) -> int:
        """Run each line; stop at the first refused one unless `keep_going`. The exit code
        is the first failure's, or 0."""
        first = 0
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            code, reason = self.quietly(line)
            if code is None:
                break
            if code:
                print(f"line {number}: {reason}", file=sys.stderr)
                first = first or code
                if not keep_going:
                    break
        return first

    def quietly(self, line: str) -> tuple[int | None, str]:
        """Run `line` holding back its error line: the exit code and the reason."""
        import contextlib
        import io

        caught = io.StringIO()
        with contextlib.redirect_stderr(caught):
            code = self.execute(line)
        said = caught.getvalue().splitlines()
        if not code:
            _echo(said, sys.stderr)
            return code, ""
        _echo(said[:-1], sys.stderr)
        last = said[-1].removeprefix("spire: ") if said else f"failed with exit code {code}"
        return code, last

    # -- standard input a terminal -------------------------------------------------------

    def interactive(self) -> int:
        import readline

        history = history_file(self.ctx.find_root().obj.db)
        _load_history(readline, history)
        completer = Completer(self)
        readline.set_completer(completer.complete)
        readline.set_completer_delims(" \t\n")
        binding = "bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete"
        readline.parse_and_bind(binding)
        print(INTRO)
        try:
            self.loop(readline)
        finally:
            _save_history(readline, history)
        return 0

    def loop(self, readline: Any) -> None:
        while True:
            try:
                line = input(self.prompt())
            except UnicodeDecodeError as e:  # a terminal that sent bytes that are not UTF-8
                _fail(f"cannot read the line: not UTF-8 text ({e.reason})", 2)
                continue
            except EOFError:
                print()
                return
            except KeyboardInterrupt:
                print()
                continue
            if self.execute(line) is None:
                _forget_last(readline, line)
                return


def _echo(lines: list[str], stream: TextIO) -> None:
    for line in lines:
        print(line, file=stream)


# -- the prompt --------------------------------------------------------------------------

def status_line(view: View) -> str:
    """One line: campaign, branch, card, hit points, and the encounter under way; with no
    encounter, the resources instead (render.summary)."""
    from journal import render

    state = view.state
    summary = render.summary(state)
    encounter = render.encounter_lines(state)[:1]
    # summary() is "card ... | chapter ... | resources..."; with an encounter under way its
    # head line is what matters now, so only the card part is kept.
    parts = [summary.partition(" | ")[0] if encounter else summary]
    parts += [f"{c.name} HP {c.hp}/{c.hp_max}" for c in state.characters if c.hp_max is not None]
    return " | ".join([f"{view.campaign.name} {view.branch.name} {parts[0]}", *parts[1:],
                       *encounter])


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


def _load_history(readline: Any, path: Path) -> None:
    readline.set_history_length(HISTORY_LENGTH)
    try:
        readline.read_history_file(path)
    except OSError:  # none yet, or unreadable: the shell works without it
        pass


def _save_history(readline: Any, path: Path) -> None:
    try:
        readline.write_history_file(path)
    except OSError:  # a read-only place: the session is not lost, only its recall
        pass


def _forget_last(readline: Any, line: str) -> None:
    """Leave `exit` out of the history, so the up arrow recalls the last command."""
    last = readline.get_current_history_length()
    if last and readline.get_history_item(last) == line:
        readline.remove_history_item(last - 1)


# -- completion --------------------------------------------------------------------------

Source = Callable[["Shell"], Iterable[str]]


def _faces(shell: Shell) -> tuple[str, ...]:
    """The faces of the dice the next roll uses: Hildegard's shot die, or in Volume 2 the
    dice of the ally whose turn it is (hive or shot)."""
    if _game(shell) == "volume2":
        return _volume2_faces(shell)
    from journal.games.hildegard.dice import FACES

    return FACES


def _game(shell: Shell) -> str | None:
    view = shell.view()
    return view.state.game if view is not None else None


def _encounter(shell: Shell) -> Any:
    from journal.games.volume2.state import volume2

    view = shell.view()
    return volume2(view.state).encounter if view is not None else None


def _volume2_faces(shell: Shell) -> tuple[str, ...]:
    from journal.games.volume2.dice import faces_of

    enc = _encounter(shell)
    turn = enc.turn if enc is not None and enc.under_way else None
    ally = enc.ally(turn.ally) if turn is not None else next(
        (a for a in enc.allies if not a.acted and not a.ko), None) if enc is not None else None
    if ally is not None and ally.card.dice is not None:
        return faces_of(ally.card.dice)
    return tuple(dict.fromkeys((*faces_of("hive"), *faces_of("shot"))))


def _fighters(side: str) -> Source:
    """Volume 2: the encounter's allies or enemies (the party's allies between fights)."""
    def names(shell: Shell) -> list[str]:
        enc = _encounter(shell)
        if enc is None or not enc.under_way:
            return _characters(shell) if side == "allies" else []
        return [f.name for f in getattr(enc, side)]

    return names


def _actions(shell: Shell) -> list[str]:
    """Volume 2: the actions of the ally whose turn it is."""
    enc = _encounter(shell)
    ally = enc.ally(enc.turn.ally) if enc is not None and enc.turn is not None else None
    return [c.name for c in ally.card.actions()] if ally is not None else []


def _volume2_cards(kind: str) -> Source:
    def names(shell: Shell) -> list[str]:
        """The rulebook's examples and the entered cards this campaign has met."""
        from journal.games.volume2.catalog import rulebook_cards

        if _game(shell) != "volume2":
            return []
        met = shell.journal().met_cards("volume2")
        cards = [*rulebook_cards().values(), *met.values()]
        return sorted({c.name for c in cards if c.kind == kind})

    return names


def _wild_effects(shell: Shell) -> tuple[str, ...]:
    from journal.games.hildegard.dice import WILD_EFFECTS

    return WILD_EFFECTS


def _wild_dice(shell: Shell) -> tuple[str, ...]:
    from journal.games.hildegard.dice import WILD_DICE

    return WILD_DICE


def _feats(shell: Shell) -> tuple[str, ...]:
    from journal.games.hildegard.rules import FEAT_COSTS

    return tuple(FEAT_COSTS)


def _statuses(shell: Shell) -> tuple[str, ...]:
    from journal.games.hildegard.cards import STATUSES

    return STATUSES


def _cards(kind: str) -> Source:
    def names(shell: Shell) -> list[str]:
        """The rulebook's example cards and the entered cards this campaign has met: an
        entered card it has not met is not offered (PRODUCT.md, Spoiler-safe)."""
        from journal.games.hildegard.catalog import rulebook_cards

        met = shell.journal().met_cards("hildegard")
        cards = [*rulebook_cards().values(), *met.values()]
        return sorted({c.name for c in cards if c.kind == kind})

    return names


def _items(shell: Shell) -> list[str]:
    view = shell.view()
    return [i.name for i in view.state.items] if view is not None else []


def _characters(shell: Shell) -> list[str]:
    view = shell.view()
    return [c.name for c in view.state.characters] if view is not None else []


def _resources(shell: Shell) -> list[str]:
    from journal.games import game

    view = shell.view()
    return list(game(view.state.game).resources) if view is not None else []


def _campaigns(shell: Shell) -> list[str]:
    return [c.name for c, _, _ in shell.journal().campaigns()]


EVERY = -1
"""In POSITIONALS: every argument of the command, not only the first."""

POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {
    ("roll",): (_faces, EVERY),
    ("wild",): (_wild_effects, 0),
    ("feat",): (_feats, 0),
    ("effect",): (_statuses, 0),
    ("target",): (_cards("target"), 0),
    ("faceoff",): (_cards("enemy"), EVERY),
    ("item", "lose"): (_items, 0),
    ("item", "pass"): (_items, 0),
    ("gain",): (_resources, 0),
    ("spend",): (_resources, 0),
    ("use",): (_campaigns, 0),
    ("fight",): (_volume2_cards("enemy"), EVERY),
    ("draw",): (_volume2_cards("ally"), 0),
    ("deploy",): (lambda shell: ("bee", "pollen"), 0),
    ("action",): (_actions, 0),
}
"""What each command's arguments are named from, and which argument."""

OPTION_VALUES: dict[str, Source] = {
    "--face": _faces, "--die": _wild_dice, "--meter": _cards("meter"),
    "--to": lambda shell: [*_characters(shell), "aside"], "--from": _characters,
    "--with": _volume2_cards("ally"), "--ally": _fighters("allies"),
    "--choose": _fighters("allies"), "--name": _fighters("enemies"),
    "--on": lambda shell: [*_fighters("enemies")(shell), *_fighters("allies")(shell)],
}


class Completer:
    """Readline's completer: the words that may come next on the line."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.matches: list[str] = []

    def complete(self, text: str, state: int) -> str | None:
        """readline's protocol: called with state 0, 1, 2... until it returns None."""
        if state == 0:
            import readline

            before = readline.get_line_buffer()[:readline.get_begidx()]
            # Python's readline appends nothing to a completed word; the space is ours.
            self.matches = [f"{word} " for word in self.candidates(before, text)]
        return self.matches[state] if state < len(self.matches) else None

    def candidates(self, before: str, text: str) -> list[str]:
        """The completions of `text`, the word being typed after `before`."""
        import shlex

        try:
            words = shlex.split(before)
        except ValueError:  # inside an open quote: the name typed so far spans words
            return self._inside_quote(before, text)
        return [_quoted(word) for word in _starting(self.words_after(words), text.lstrip("\"'"))]

    def _inside_quote(self, before: str, text: str) -> list[str]:
        import shlex

        opened = max(before.rfind('"'), before.rfind("'"))
        quote, typed = before[opened], before[opened + 1:]
        try:
            words = shlex.split(before[:opened])
        except ValueError:
            return []
        names = _starting(self.words_after(words), typed + text)
        return [name[len(typed):] + quote for name in names]

    def words_after(self, words: list[str]) -> list[str]:
        """The words that may follow `words` (the line so far, split)."""
        from journal.errors import SpireError

        helping = words[:1] == ["help"]
        words = words[1:] if helping else words
        if not words:
            return self.shell.names(self.shell.group) + ([] if helping else ["help", *EXIT])
        path, command, args = self._command(words)
        if _is_group(command):
            return self.shell.names(command) if not args else []
        if command is None or helping:
            return []
        try:
            return list(self._values(path, command, args))
        except SpireError:  # no campaign yet, or not a Hildegard one: nothing to offer
            return []

    def _command(self, words: list[str]) -> tuple[tuple[str, ...], Any, list[str]]:
        """The command `words` name (`item gain` is two words), its path and arguments."""
        ctx = self.shell.context()
        command: Any = self.shell.group
        path: list[str] = []
        while _is_group(command) and len(path) < len(words):
            name = words[len(path)]
            command = command.get_command(ctx, name)
            path.append(name)
        return tuple(path), command, words[len(path):]

    def _values(self, path: tuple[str, ...], command: Any, args: list[str]) -> list[str]:
        """An option's values after the option; else the command's argument values where
        the argument goes, and its options."""
        if args and args[-1] in OPTION_VALUES and _takes_value(command, args[-1]):
            return list(OPTION_VALUES[args[-1]](self.shell))
        source, which = POSITIONALS.get(path, (None, 0))
        named = source is not None and which in (EVERY, _positional_count(command, args))
        values = list(source(self.shell)) if named and source is not None else []
        return values + _option_names(command)


def _is_group(command: Any) -> bool:
    return command is not None and hasattr(command, "list_commands")


def _starting(words: Iterable[str], typed: str) -> list[str]:
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
    return [p for p in command.params if getattr(p, "opts", None) and p.param_type_name == "option"]


def _option_names(command: Any) -> list[str]:
    return [name for p in _options(command) for name in p.opts if name.startswith("--")]


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
