"""Tests drive the real `spire` app against a real journal file in tmp_path."""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.testing
from typer.main import get_command

from journal.cli import app
from journal.errors import WIDTH

_APP = app
_COMMAND = get_command(app)


class CliRunner(typer.testing.CliRunner):
    """typer's runner, but spire's click command is built once for the whole run: typer's
    runner builds it again on every invoke, which is most of the cost of a CLI test. The
    command is the same object `spire` runs; only its construction is shared. It runs as
    typer's runner runs it: in `isolation`, the exit code read from its SystemExit."""

    def invoke(
        self, app: typer.Typer, args: str | Sequence[str] | None = None,
        input: str | bytes | None = None, env: Mapping[str, str | None] | None = None,
        catch_exceptions: bool = True, color: bool = False, **extra: Any,
    ) -> typer.testing.Result:
        if app is not _APP:
            return super().invoke(app, args, input=input, env=env,
                                  catch_exceptions=catch_exceptions, color=color, **extra)
        given = shlex.split(args) if isinstance(args, str) else list(args or ())
        prog_name = extra.pop("prog_name", _COMMAND.name or "root")
        code: Any = 0
        value: Any = None
        error: BaseException | None = None
        info: Any = None
        with self.isolation(input=input, env=env, color=color) as (out, err, both):
            try:
                value = _COMMAND.main(args=given, prog_name=prog_name, **extra)
            except SystemExit as e:
                code, info = (0 if e.code is None else e.code), sys.exc_info()
                error = e if code != 0 else None
                if not isinstance(code, int):
                    sys.stdout.write(f"{code}\n")
                    code = 1
            except Exception as e:
                if not catch_exceptions:
                    raise
                code, error, info = 1, e, sys.exc_info()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                shown = out.getvalue(), err.getvalue(), both.getvalue()
        if code != 0:
            fits(shown[1].decode(errors="replace"), given)
        return typer.testing.Result(
            runner=self, stdout_bytes=shown[0], stderr_bytes=shown[1], output_bytes=shown[2],
            return_value=value, exit_code=code, exception=error,
            exc_info=info)


def fits(err: str, typed: Sequence[str] = ()) -> None:
    """Each refusal spire prints on stderr (`spire: ...`, or the play shell's `line N: ...`)
    has a first line of at most 80 columns; what follows it (a citation, a hint) is indented
    under it. A path counts as its last part, and a word the player `typed` (a name of 200
    characters, say: spire shows it whole) as at most `TYPED` columns."""
    for line in err.splitlines():
        if line.startswith("spire: ") or re.match(r"line \d+: ", line):
            shown = PLACES.sub(lambda found: "…/" + found[0].rstrip("/").rsplit("/")[-1], line)
            shown = ESCAPED.sub("?", shown)
            for word in sorted((w for w in typed if len(w) > TYPED), key=len, reverse=True):
                seen = "".join(c if c.isprintable() else "?" for c in word)  # as escaped
                shown = shown.replace(word, "…" * TYPED).replace(seen, "…" * TYPED)
            assert len(shown) <= WIDTH, f"{len(shown)} columns: {line}"


PLACES = re.compile(r"postgresql://[^\s;]*[^\s;:,)]|(?<![\w/])/[^\s,;:()']*/[^\s,;:()']*")
"""A path or a database URL in a line, counted as its last part (…/journal.sqlite): the
tests' are 60 columns of /tmp/pytest-of-.../test_.../, a player's ~/games/journal.sqlite."""

TYPED = 20
"""The columns a long word the player typed counts for, in a line that shows it again."""

ESCAPED = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")
"""A character the player typed that a line shows escaped (`\\u202e`, a control or
a bidirectional mark; journal.terminal.visible), counted as the one character it is."""


# What spire caches (the report's compiled template) goes to a directory of this run's
# own, never the user's: platformdirs reads XDG_CACHE_HOME, in-process and in the
# processes the tests start.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="spire-tests-cache-")


def _rulebooks() -> Path | None:
    """The rulebooks sit in shared/ beside the repository (as in CI), or SPIRE_RULEBOOKS
    names their directory (one that is not there: no rulebooks, as on a fresh clone)."""
    if os.environ.get("SPIRE_RULEBOOKS"):
        given = Path(os.environ["SPIRE_RULEBOOKS"])
        return given if given.is_dir() else None
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "rulebooks").is_dir():
            return parent / "shared" / "rulebooks"
    return None


RULEBOOKS = _rulebooks()
NO_RULEBOOKS = (f"the rulebooks are not in {os.environ['SPIRE_RULEBOOKS']} (SPIRE_RULEBOOKS)"
                if os.environ.get("SPIRE_RULEBOOKS") else
                "the rulebooks (shared/rulebooks beside the repository) are not here")
UNCHECKED: list[str] = []
"""The quotes `quoted` could not check, without the rulebooks: said at the end of the run."""


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


class Spire:
    """`spire --db <file or URL> ...` run in-process, plus a direct look into the journal
    (a SQLite file, or a PostgreSQL database by its URL)."""

    def __init__(self, db: Path | str) -> None:
        self.db = db
        self.runner = CliRunner()

    @property
    def url(self) -> str:
        """What `--db` is given."""
        return str(self.db)

    def __call__(self, *args: str, input: str | None = None) -> Run:
        result = self.runner.invoke(
            app, ["--db", str(self.db), *args], input=input, env={"COLUMNS": "100"})
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Run(result.exit_code, result.stdout, result.stderr)

    def ok(self, *args: str) -> str:
        run = self(*args)
        assert run.code == 0, f"spire {' '.join(args)} -> {run.code}: {run.err}"
        return run.out

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def journal_rows(self) -> tuple[Any, ...]:
        """Everything appended so far, read with plain sqlite3: events and branch heads."""
        empty: tuple[Any, ...] = ((), (), ())
        if isinstance(self.db, str):
            return server_rows(self.db)
        if not self.db.is_file():
            return empty
        try:
            with sqlite3.connect(self.db) as conn:
                events = conn.execute("SELECT branch_id, position, hash FROM events ORDER BY id")
                heads = conn.execute("SELECT id, head_position, head_hash FROM branches")
                names = conn.execute("SELECT name FROM campaigns")
                return tuple(events), tuple(heads), tuple(names)
        except sqlite3.DatabaseError:  # not a journal (yet): nothing appended to it
            return (self.db.read_bytes(),)

    @property
    def sealed(self) -> bool:
        """A journal file keeps a seal beside it; a database on a server has none."""
        return isinstance(self.db, Path)

    def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run `statement` (with ? for each of `params`) behind spire's back, as a forger or
        an older spire would, on the file or on the server; the rows it returns."""
        if isinstance(self.db, Path):
            with sqlite3.connect(self.db) as conn:
                return conn.execute(statement, params).fetchall()
        import psycopg

        with psycopg.connect(self.db) as conn:
            cursor = conn.execute(statement.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []

    def refused(self, *args: str, code: int) -> str:
        """Run a command that must be refused: exit `code`, no traceback, nothing appended
        to the journal, and on stderr its reason in one line of 80 columns (`spire: ...`),
        maybe with one more line indented under it (the rulebook's section and `--force`,
        or a hint). Returns the lines as the player reads them, the second unindented."""
        before = self.journal_rows()
        run = self(*args)
        assert run.code == code, f"spire {' '.join(args)} -> {run.code}: {run.err}{run.out}"
        lines = refusal(run.err, typed=args)
        assert "Traceback" not in run.err + run.out
        assert self.journal_rows() == before, "a refused command changed the journal"
        return "\n".join(lines)


def refusal(err: str, starts: str = "spire: ", typed: Sequence[str] = ()) -> list[str]:
    """The lines of a refusal on stderr, checked: its reason in one line of 80 columns
    (`spire: ...`, or the play shell's `line N: ...`), maybe with one more line indented
    under it (the rulebook's section and `--force`, or a hint); the second unindented."""
    lines = err.strip("\n").splitlines()
    assert len(lines) in (1, 2), err
    assert lines[0].startswith(starts), err
    fits(lines[0], typed)
    assert lines[1:] == [] or lines[1].startswith("  ") and lines[1].strip(), err
    return [line.strip() for line in lines]


def server_rows(url: str) -> tuple[Any, ...]:
    """`Spire.journal_rows` of a journal on a PostgreSQL server, read with plain psycopg."""
    import psycopg

    try:
        connection = psycopg.connect(url)
    except psycopg.OperationalError as e:  # a role or server spire cannot reach either
        return ("unreachable", str(e))
    with connection as conn:
        if conn.execute("SELECT to_regclass('events')").fetchone() == (None,):
            return ((), (), ())
        events = conn.execute("SELECT branch_id, position, hash FROM events ORDER BY id")
        rows = tuple(events.fetchall())
        heads = tuple(conn.execute(
            "SELECT id, head_position, head_hash FROM branches ORDER BY id").fetchall())
        names = tuple(conn.execute("SELECT name FROM campaigns ORDER BY id").fetchall())
        return rows, heads, names


# -- which database: SQLite, or a throwaway PostgreSQL server ------------------------------
#
# A test module that sets BACKENDS = ("sqlite", "postgresql") runs each of its tests that
# use a journal (`spire`, `journal_url`, `new_journal`) once on each; the others run on
# SQLite alone. The PostgreSQL runs skip, saying why, where no server can be started.

BOTH = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql))
"""For one test: @pytest.mark.parametrize("backend", BOTH)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    backends = getattr(metafunc.module, "BACKENDS", None)
    if backends and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", [
            pytest.param(b, marks=pytest.mark.postgresql) if b == "postgresql" else b
            for b in backends])


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the whole run (tests/pgserver.py)."""
    import pgserver

    with pgserver.running() as server:
        if isinstance(server, str):
            pytest.skip(server)
        yield server


@pytest.fixture
def backend() -> str:
    return "sqlite"


@pytest.fixture
def new_journal(tmp_path: Path, backend: str, request: pytest.FixtureRequest,
                ) -> Callable[[str], Spire]:
    """Makes a new, empty journal on the test's database: a file in tmp_path, or a
    database of its own on the PostgreSQL server."""

    def made(name: str) -> Spire:
        if backend == "sqlite":
            return Spire(tmp_path / f"{name}.sqlite")
        server = request.getfixturevalue("pg_server")
        return Spire(server.fresh_journal())

    return made


@pytest.fixture
def journal_url(new_journal: Callable[[str], Spire]) -> str:
    """A new journal's `--db`: a SQLite file's path or a PostgreSQL URL."""
    return new_journal("journal").url


@pytest.fixture
def spire(new_journal: Callable[[str], Spire]) -> Spire:
    return new_journal("journal")


@pytest.fixture
def hildegard(spire: Spire) -> Spire:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    return spire


def play(spire: Spire, *commands: str) -> str:
    """Run each command (shell words) and check it succeeds; the last one's output."""
    out = ""
    for command in commands:
        out = spire.ok(*shlex.split(command))
    return out


def refused(spire: Spire, command: str, code: int = 1) -> str:
    """`spire.refused` of a command typed as one line of shell words."""
    return spire.refused(*shlex.split(command), code=code)


def rulebook(name: str) -> str:
    """A rulebook's text, for a test that checks nothing but quotes (its name says
    `quote`; tests/test_fresh_clone.py keeps it so). Without the rulebooks it is skipped,
    saying why. A test of behaviour quotes through `quoted`, and is never skipped."""
    if RULEBOOKS is None:
        pytest.skip(NO_RULEBOOKS)
    return (RULEBOOKS / f"{name}.txt").read_text(encoding="utf-8")


def quoted(book: str, *sentences: str) -> None:
    """The rulebook `book` prints each sentence, line breaks aside (the tests quote the
    rule they check). Without the rulebooks the quote is not checked, and said so at the
    end of the run; the test goes on to check the behaviour."""
    if RULEBOOKS is None:
        UNCHECKED.extend(f"{book}: {sentence}" for sentence in sentences)
        return
    text = " ".join(rulebook(book).split())
    for sentence in sentences:
        assert " ".join(sentence.split()) in text, sentence


def pytest_sessionfinish(session: Any) -> None:
    """A pytest-xdist worker hands the quotes it did not check to the controller, which
    says how many at the end of the run (`-n auto`, the README's command)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["unchecked"] = list(UNCHECKED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist's hook, on the controller: a worker has finished."""
    UNCHECKED.extend(getattr(node, "workeroutput", {}).get("unchecked", ()))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if UNCHECKED:
        named = ("" if os.environ.get("SPIRE_RULEBOOKS")
                 else " (SPIRE_RULEBOOKS names their directory)")
        terminalreporter.write_line(
            f"{len(UNCHECKED)} rulebook quotes not checked: {NO_RULEBOOKS}{named}")
