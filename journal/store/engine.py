"""Opening a journal's database: its URL, its engine (SQLite tuned for one writer at a
time and durable commits), and a driver's error as one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine

from journal.errors import BadInput, StorageError
from journal.store import opening

BUSY_TIMEOUT_MS = 5000

def url_for(db: str) -> str:
    """A SQLAlchemy URL for `--db`: a URL as given, or a path to a SQLite file."""
    if "://" in db:
        if db.partition("://")[0].partition("+")[0] == "sqlite" and \
                db.partition("://")[2].strip("/") in ("", ":memory:"):
            raise BadInput(f"{db!r} names no file (a journal in memory keeps nothing)")
        return db
    path = Path(db).expanduser()
    if path.is_dir():
        raise BadInput(f"{db} is a directory; --db wants a journal file")
    return f"sqlite:///{path.resolve()}"


def engine_for(url: str) -> Engine:
    try:
        engine = sa.create_engine(_with_driver(url))
    except sa.exc.NoSuchModuleError:
        database, plus, driver = url.partition(":")[0].partition("+")
        raise BadInput(f"cannot use {opening.shown(url)!r} as a journal: "
                       + (f"no driver {driver!r} for {database}" if plus
                          else f"no database {database!r}"),
                       "a journal is a file or a postgresql:// URL") from None
    except sa.exc.ArgumentError as e:  # SQLAlchemy's words on the line under spire's
        raise BadInput(f"cannot use {opening.shown(url)!r} as a journal; {e}") from None
    except ImportError as e:  # the URL's database driver is not installed
        raise StorageError(opening.no_driver(url, e)) from None
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine)
    return engine


def _with_driver(url: str) -> str | sa.URL:
    """`url` with psycopg 3 as PostgreSQL's driver when it names none (SQLAlchemy 2.0
    would take psycopg2, which spire does not ship)."""
    if not url.startswith("postgresql:") and not url.startswith("postgres:"):
        return url
    try:
        parsed = sa.make_url(url.replace("postgres:", "postgresql:", 1)
                             if url.startswith("postgres:") else url)
    except sa.exc.ArgumentError:
        return url
    return parsed.set(drivername="postgresql+psycopg") if "+" not in parsed.drivername \
        else parsed


def _tune_sqlite(engine: Engine) -> None:
    @sa_event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        # Let spire, not the driver, say when a transaction begins (SQLAlchemy's recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")  # durable commits, even in WAL
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def begin(conn: Connection) -> None:
        # A writer takes the write lock at BEGIN, so it waits on busy_timeout instead of
        # failing when it upgrades a read lock another writer holds.
        immediate = conn.get_execution_options().get("spire_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")



def unreachable(error: Exception) -> bool:
    """Whether `error` says the server went away or cannot be reached: a dropped
    connection, or a PostgreSQL error of class 08 (connection exception) or 57P (the
    server shutting down), or one with no SQLSTATE at all (the client's own)."""
    if getattr(error, "connection_invalidated", False):
        return True
    orig = getattr(error, "orig", error)
    if type(orig).__module__.partition(".")[0] != "psycopg":
        return False
    state: str | None = getattr(orig, "sqlstate", None)
    if state is None:
        return type(orig).__name__ == "OperationalError"
    return state.startswith(("08", "57P"))


def storage_message(url: str, error: Exception) -> str:
    orig = getattr(error, "orig", None)
    text = opening.without_password(url, str(orig) if orig is not None else str(error))
    if getattr(orig if orig is not None else error, "sqlstate", None) == "42501":
        return (f"this role may only read the journal; nothing was written "
                f"({' '.join(text.split())})")
    if "locked" in text or "busy" in text:
        return f"the journal is locked by another writer; try again ({text})"
    if "not a database" in text:
        return f"{sa.make_url(url).database or url} is not a spire journal ({text})"
    return f"storage trouble with the journal; {text}"
