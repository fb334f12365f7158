"""Never change a file that is not yours (issue 15): another application's SQLite file, a
journal a newer spire wrote, a path whose directories do not exist; and a journal that
can only be read can still be read."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest
from conftest import Run, Spire

from journal.cli import app

COMMANDS = [["status"], ["campaigns"], ["log"], ["note", "hello"],
            ["new", "x", "--game", "hildegard"], ["audit"], ["export"]]


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


@pytest.fixture
def other_app(tmp_path: Path) -> Path:
    """Another application's SQLite file, in rollback-journal mode as most are."""
    path = tmp_path / "other-app.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users (name) VALUES ('ada')")
    conn.close()
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_another_applications_database_is_left_as_it_was(
    other_app: Path, command: list[str],
) -> None:
    before = files(other_app.parent)
    spire = Spire(other_app)
    line = spire.refused(*command, code=3)
    assert "is not a spire journal\nit is another application's database" in line
    assert files(other_app.parent) == before
    with sqlite3.connect(other_app) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["users"]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    conn.close()


def test_a_journal_from_a_newer_spire_is_refused_before_anything_is_switched(
    hildegard: Spire,
) -> None:
    gc.collect()  # the connections the commands left in their pools, closed
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099'")
    conn.close()
    with sqlite3.connect(hildegard.db, isolation_level=None) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # as a newer spire might keep it
    conn.close()
    before = files(hildegard.db.parent)
    for command in COMMANDS:
        line = hildegard.refused(*command, code=3)
        assert "'0099'" in line and "newer spire" in line
    assert files(hildegard.db.parent) == before
    with sqlite3.connect(hildegard.db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    conn.close()


@pytest.mark.parametrize("command", [["status"], ["campaigns"], ["log"], ["audit"],
                                     ["export"], ["use", "x"], ["report", "--format", "md"]],
                         ids=lambda c: c[0])
def test_a_command_that_reads_makes_no_journal_and_no_directory(
    tmp_path: Path, command: list[str],
) -> None:
    spire = Spire(tmp_path / "no" / "such" / "dir" / "journal.sqlite")
    run = spire(*command)
    # A read says there is no journal there (storage, 3); `use` names no campaign (2).
    assert run.code == (2 if command[0] == "use" else 3), run
    assert "Traceback" not in run.err
    assert list(tmp_path.iterdir()) == []


def test_campaigns_on_no_journal_yet_says_so(tmp_path: Path) -> None:
    spire = Spire(tmp_path / "nowhere" / "journal.sqlite")
    assert "no journal at" in spire.refused("campaigns", code=3)
    assert not (tmp_path / "nowhere").exists()


def test_a_command_that_writes_makes_the_directories_and_the_journal(tmp_path: Path) -> None:
    spire = Spire(tmp_path / "no" / "such" / "dir" / "journal.sqlite")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    assert spire.db.is_file()
    assert spire.json("status")["campaign"] == "gray-oaks"


def test_an_empty_file_becomes_a_journal_only_when_written(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    spire = Spire(empty)
    assert "no journal at" in spire.refused("status", code=3)      # nothing in it yet
    assert empty.read_bytes() == b""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    assert spire.json("status")["campaign"] == "gray-oaks"


class ReadOnly(Spire):
    """The journal opened read-only, as a file the player may not write is (the tests run
    as any user, root too, whom file permissions would not stop)."""

    def __call__(self, *args: str, input: str | None = None) -> Run:
        result = self.runner.invoke(
            app, ["--db", f"sqlite:///file:{self.db}?mode=ro&uri=true", *args],
            input=input, env={"COLUMNS": "100"})
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Run(result.exit_code, result.stdout, result.stderr)


def read_only(spire: Spire) -> Spire:
    return ReadOnly(spire.db)


@pytest.mark.parametrize("command", [
    ["status"], ["status", "--json"], ["log"], ["report", "--format", "md"],
    ["report", "--format", "json"], ["audit"], ["export"], ["campaigns"], ["branches"],
], ids=lambda c: " ".join(c))
def test_a_read_only_journal_can_be_read(hildegard: Spire, command: list[str]) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("note", "kept")
    gc.collect()
    with sqlite3.connect(hildegard.db) as conn:  # nothing cached: a read would want to keep it
        conn.execute("DELETE FROM glances")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = hildegard.db.read_bytes()
    reader = read_only(hildegard)
    assert reader(*command).code == 0
    assert hildegard.db.read_bytes() == before
    line = reader.refused("note", "not here", code=3)
    assert "readonly" in line or "read-only" in line
