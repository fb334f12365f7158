"""The store (PRODUCT.md, Storage): upcasting old payloads, the schema Alembic makes, the
SQLite settings, migrations on open, storage trouble, and where the journal lives."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from conftest import BOTH, CliRunner, Spire, refusal

from journal import store
from journal.cli import app
from journal.core import chain
from journal.core.chain import RawEvent
from journal.paths import shipped
from journal.store import engine, migration

V1_ITEM = {"item": "Cursed Key", "holder": "Hildegard"}  # item-gained before it had a kind


def append_by_hand(spire: Spire, type_: str, version: int, payload: dict[str, Any]) -> RawEvent:
    """Append a row to the main branch as an older spire wrote it: its own version, its
    payload as stored then, and a correct hash over exactly those bytes."""
    [(position, prev)] = spire.sql("SELECT head_position, head_hash FROM branches WHERE id = 1")
    unsigned = RawEvent(
        position + 1, type_, version, payload, "2026-01-02T03:04:05+00:00", None, None,
        prev, "")
    raw = RawEvent(**{**unsigned.__dict__, "hash": chain.link(prev, unsigned.encoded())})
    row = raw.to_row()
    spire.sql(f"INSERT INTO events (branch_id, {', '.join(row)}) VALUES "
              f"(1, {', '.join('?' * len(row))})", *row.values())
    spire.sql("UPDATE branches SET head_position = ?, head_hash = ? WHERE id = 1",
              raw.position, raw.hash)
    return raw


def stored_row(spire: Spire, position: int) -> tuple[Any, ...]:
    [row] = spire.sql("SELECT type, version, payload, prev_hash, hash FROM events "
                      "WHERE branch_id = 1 AND position = ?", position)
    return row


# -- upcasting --------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BOTH)
def test_a_v1_item_is_read_as_a_story_item_and_never_rewritten(hildegard: Spire) -> None:
    raw = append_by_hand(hildegard, "item-gained", 1, V1_ITEM)
    row = stored_row(hildegard, raw.position)
    assert row == ("item-gained", 1, chain.canonical_json(V1_ITEM), raw.prev_hash, raw.hash)

    status = hildegard.json("status")
    assert status["items"] == [{"name": "Cursed Key", "kind": "story", "holder": "Hildegard"}]
    assert hildegard.json("log")[-1]["payload"] == {**V1_ITEM, "kind": "story"}
    hildegard.ok("item", "pass", "Cursed Key", "--to", "aside")  # appends on top of it
    assert hildegard.json("status")["items"][0]["holder"] is None

    assert stored_row(hildegard, raw.position) == row
    after = hildegard.sql("SELECT prev_hash FROM events WHERE position = ?", raw.position + 1)
    assert after == [(raw.hash,)], "the next event links to the v1 row's own hash"


@pytest.mark.parametrize("backend", BOTH)
def test_a_v1_row_exports_as_stored_and_imports_with_its_hash(
    hildegard: Spire, tmp_path: Path, new_journal: Callable[[str], Spire],
) -> None:
    raw = append_by_hand(hildegard, "item-gained", 1, V1_ITEM)
    exported = tmp_path / "gray-oaks.jsonl"
    hildegard.ok("export", "-o", str(exported))
    line = json.loads(exported.read_text(encoding="utf-8").splitlines()[raw.position - 1])
    assert (line["v"], line["payload"], line["hash"]) == (1, V1_ITEM, raw.hash)
    copy = new_journal("copy")
    copy.ok("import", str(exported))
    assert copy.json("status")["items"] == hildegard.json("status")["items"]
    assert stored_row(copy, raw.position) == stored_row(hildegard, raw.position)


@pytest.mark.parametrize("backend", BOTH)
def test_a_payload_newer_than_this_spire_is_refused(hildegard: Spire) -> None:
    append_by_hand(hildegard, "item-gained", 3, {**V1_ITEM, "kind": "story"})
    line = hildegard.refused("status", code=2)
    assert "item-gained version 3 is newer than this spire knows (2)" in line


# -- the schema -------------------------------------------------------------------------

def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(shipped("migrations")))
    return config


@pytest.mark.parametrize("backend", BOTH)
def test_the_migrations_make_the_tables_the_store_describes(journal_url: str) -> None:
    if journal_url.startswith("sqlite"):  # a new file is made from the tables: migrate one
        migration.upgrade(sa.create_engine(journal_url))
    journal = store.Store(store.url_for(journal_url))
    with journal.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), store.metadata)
        revision = conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
    assert differences == []
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert store.SCHEMA_REVISION == head == revision


def sqlite_schema(db: Path) -> list[tuple[Any, ...]]:
    """Every table, index and trigger of a SQLite file as SQLite keeps it (its SQL text
    included), and its user version."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        found = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        return [*found, conn.execute("PRAGMA user_version").fetchone()]


def test_a_new_journal_is_made_at_the_head_as_the_migrations_make_it(tmp_path: Path) -> None:
    """A new file is made from the tables the store describes and stamped (no migration
    replayed one by one, issue 33): its schema is the one the migrations make, byte for
    byte in SQLite's own text of each table and index."""
    made, migrated = tmp_path / "made.sqlite", tmp_path / "migrated.sqlite"
    store.Store(store.url_for(str(made)))  # a new journal, as `spire new` opens it
    migration.upgrade(sa.create_engine(f"sqlite:///{migrated}"))
    assert sorted(row[1] for row in sqlite_schema(made)[:-1]) == sorted(
        ["alembic_version", "sqlite_autoindex_alembic_version_1", *_TABLES_AND_INDEXES])
    assert sqlite_schema(made) == sqlite_schema(migrated)
    with sqlite3.connect(made) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (store.SCHEMA_REVISION,)]


_TABLES_AND_INDEXES = (
    "branches", "campaigns", "cards", "checkpoints", "current_campaigns", "events", "glances",
    "settings", "snapshots", "undone", "ix_events_retractions", "sqlite_autoindex_branches_1",
    "sqlite_autoindex_campaigns_1", "sqlite_autoindex_cards_1",
    "sqlite_autoindex_checkpoints_1", "sqlite_autoindex_current_campaigns_1",
    "sqlite_autoindex_events_1", "sqlite_autoindex_settings_1",
    "sqlite_autoindex_snapshots_1", "sqlite_autoindex_undone_1")
"""What a journal holds besides Alembic's table: a new one made otherwise must too."""


def test_sqlite_is_opened_with_wal_durable_commits_and_a_busy_timeout(tmp_path: Path) -> None:
    journal = store.Store(store.url_for(str(tmp_path / "journal.sqlite")))
    with journal.engine.connect() as conn:

        def pragma(name: str) -> Any:
            return conn.exec_driver_sql(f"PRAGMA {name}").scalar()

        assert pragma("journal_mode") == "wal"
        assert pragma("synchronous") == 2  # FULL
        assert pragma("busy_timeout") == store.BUSY_TIMEOUT_MS > 0
        assert pragma("foreign_keys") == 1


# -- opening a journal -------------------------------------------------------------------

HEAD = store.SCHEMA_REVISION
NEXT = f"{int(HEAD) + 1:04d}"
"""A revision after the head, so the test holds whatever the head is."""

NEXT_MIGRATION = f'''
    """A later schema: one more table.

    Revision ID: {NEXT}
    Revises: {HEAD}
    """

    import sqlalchemy as sa
    from alembic import op

    revision = "{NEXT}"
    down_revision = "{HEAD}"
    branch_labels = None
    depends_on = None


    def upgrade() -> None:
        op.create_table("later", sa.Column("id", sa.Integer, primary_key=True))


    def downgrade() -> None:
        op.drop_table("later")
'''


def test_an_older_journal_is_copied_aside_before_it_is_upgraded(
    hildegard: Spire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    hildegard.ok("note", f"written at revision {HEAD}")
    before = hildegard.journal_rows()
    migrations = tmp_path / "migrations"
    shutil.copytree(shipped("migrations"), migrations, ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / f"{NEXT}_later.py").write_text(textwrap.dedent(NEXT_MIGRATION))
    monkeypatch.setattr(migration, "shipped", lambda name: migrations)
    monkeypatch.setattr(migration, "SCHEMA_REVISION", NEXT)

    assert hildegard.json("status")["notes"] == [f"written at revision {HEAD}"]

    copy = Spire(hildegard.db.with_name(f"journal.sqlite.before-{NEXT}-from-{HEAD}"))
    assert copy.journal_rows() == before == hildegard.journal_rows()
    for db, revision, tables in ((copy.db, HEAD, []), (hildegard.db, NEXT, [("later",)])):
        with sqlite3.connect(db) as conn:
            versions = conn.execute("SELECT version_num FROM alembic_version").fetchall()
            assert versions == [(revision,)]
            assert conn.execute(
                "SELECT name FROM sqlite_master WHERE name = 'later'").fetchall() == tables


def test_a_journal_from_a_newer_spire_is_refused_untouched(hildegard: Spire) -> None:
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099'")
    data = hildegard.db.read_bytes()
    line = hildegard.refused("status", code=3)
    assert "0099" in line and "newer spire" in line
    assert hildegard.db.read_bytes() == data
    assert not list(hildegard.db.parent.glob("*.before-*")), "nothing to copy aside"


def one_line(err: str) -> str:
    """A refusal's reason (`refusal`), and no traceback."""
    assert "Traceback" not in err
    return refusal(err)[0]


def test_a_file_that_is_not_a_journal_is_refused_untouched(spire: Spire) -> None:
    spire.db.write_bytes(b"shopping list: eggs, flour\n" * 100)
    for command in (["status"], ["note", "hello"], ["new", "x", "--game", "hildegard"]):
        run = spire(*command)
        assert run.code == 3, run
        assert "is not a spire journal" in one_line(run.err)
        assert spire.db.read_bytes() == b"shopping list: eggs, flour\n" * 100


def test_a_locked_journal_is_refused_and_nothing_is_written(
    hildegard: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "BUSY_TIMEOUT_MS", 50)
    before = hildegard.journal_rows()
    holder = sqlite3.connect(hildegard.db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        run = hildegard("note", "while someone else writes")
        assert run.code == 3, run
        assert "locked" in one_line(run.err)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert hildegard.journal_rows() == before
    hildegard.ok("note", "after the lock is gone")


# -- where the journal lives -------------------------------------------------------------

def test_db_takes_a_sqlalchemy_url(spire: Spire, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["--db", f"sqlite:///{spire.db}", "new", "by-url", "--game", "volume2"])
    assert result.exit_code == 0, result.stderr
    assert spire.json("status")["campaign"] == "by-url"


@pytest.mark.parametrize("value", ["path", "url"])
def test_spire_db_chooses_the_journal(spire: Spire, tmp_path: Path, value: str) -> None:
    data_home = tmp_path / "data-home"
    env = {
        "SPIRE_DB": str(spire.db) if value == "path" else f"sqlite:///{spire.db}",
        "XDG_DATA_HOME": str(data_home), "HOME": str(tmp_path / "home"),
    }
    runner = CliRunner()
    result = runner.invoke(app, ["new", "by-env", "--game", "spires-end"], env=env)
    assert result.exit_code == 0, result.stderr
    assert runner.invoke(app, ["note", "kept"], env=env).exit_code == 0
    assert spire.json("status")["notes"] == ["kept"]
    assert not data_home.exists() and not (tmp_path / "home").exists()
    elsewhere = tmp_path / "other.sqlite"  # --db wins over SPIRE_DB
    result = runner.invoke(app, ["--db", str(elsewhere), "new", "flag", "--game", "hildegard"],
                           env=env)
    assert result.exit_code == 0, result.stderr
    assert [c[0] for c in Spire(elsewhere).journal_rows()[2]] == ["flag"]
    assert [c[0] for c in spire.journal_rows()[2]] == ["by-env"]


def test_undos_are_found_through_the_index_of_retractions(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("undo")
    journal = store.Store(store.url_for(str(hildegard.db)))
    executed: list[tuple[str, Any]] = []
    sa.event.listen(journal.engine, "before_cursor_execute",
                    lambda _c, _k, statement, params, *_: executed.append((statement, params)))
    assert journal.log.retracted(journal.tree.branch(journal.tree.campaign("gray-oaks"))) == {2}
    statement, params = next((s, p) for s, p in executed if "retracted" in s)
    with sqlite3.connect(hildegard.db) as conn:
        plan = conn.execute(f"EXPLAIN QUERY PLAN {statement}", params).fetchall()
    assert "USING INDEX ix_events_retractions" in str(plan), plan
