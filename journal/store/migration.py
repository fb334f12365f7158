"""Bringing a journal to this spire's schema: Alembic, loaded only when a journal is not
at the head already; a SQLite journal is copied aside before it is upgraded. A new SQLite
journal is made at the head at once, from the tables the store describes, and stamped
with the head's revision, as Alembic stamps it (tests/test_store.py holds the two
schemas to be the same, table by table, index by index)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from journal.errors import StorageError
from journal.paths import shipped
from journal.store import watching

SCHEMA_REVISION = "0008"
"""The Alembic head this code expects; a journal at it opens without loading Alembic."""


def revision_of(conn: Connection) -> str | None:
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    revision: str | None = conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
    return revision


def migrate(engine: Engine, url: str, lazily: bool = False) -> bool:
    """Bring the journal to this spire's schema; False (nothing done) for a database
    with no journal in it yet when it is opened `lazily`."""
    with engine.connect() as conn:
        revision = revision_of(conn)
    if revision == SCHEMA_REVISION:
        return True
    if revision is None and lazily:
        return False
    if revision is not None:
        check_known(revision, engine.url.database or url)
        _copy_aside(engine, revision)
    elif engine.dialect.name == "sqlite" and made_at_head(engine):
        return True
    upgrade(engine)
    return True


VERSIONS = sa.Table(
    "alembic_version", sa.MetaData(),
    sa.Column("version_num", sa.String(32), nullable=False),
    sa.PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)
"""Alembic's own table of the revision, as Alembic makes it."""


def made_at_head(engine: Engine) -> bool:
    """A new SQLite journal's schema, at the head at once: the tables the store describes
    and Alembic's revision table stamped with the head, in one transaction (nothing half
    made); False (nothing done) if the database holds tables already. Replaying the
    migrations one by one, Alembic loaded, cost a new journal about half a second
    (issue 33). PostgreSQL's journals keep to the migrations: their partial index is the
    migration's, and one upgrader at a time."""
    from journal.store.schema import metadata

    with engine.begin() as conn:
        if sa.inspect(conn).get_table_names():  # not new after all: the migrations say
            return False
        metadata.create_all(conn)
        VERSIONS.create(conn)
        conn.execute(VERSIONS.insert().values(version_num=SCHEMA_REVISION))
    return True


def check_known(revision: str, where: str) -> None:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        ScriptDirectory(str(shipped("migrations"))).get_revision(revision)
    except CommandError:
        raise StorageError(
            f"{where} has schema revision {revision!r}, unknown to this spire; "
            f"a newer spire wrote it") from None


def _copy_aside(engine: Engine, revision: str) -> None:
    path = engine.url.database
    if engine.dialect.name == "sqlite" and path and Path(path).exists():
        # SQLite's backup API: copying the file would miss what is still in its WAL.
        source = sqlite3.connect(path)
        copy = sqlite3.connect(f"{path}.before-{SCHEMA_REVISION}-from-{revision}")
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()


def upgrade(engine: Engine) -> None:
    """Bring the schema to the Alembic head (imports Alembic only when needed)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(shipped("migrations")))
    with engine.begin() as conn:  # one transaction: nothing half-upgraded where
        if conn.dialect.name == "postgresql":  # the database's DDL is transactional
            watching.upgrading(conn)  # one upgrader at a time; the others wait
            if revision_of(conn) == SCHEMA_REVISION:
                return
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
