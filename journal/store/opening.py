"""What is at a `--db` before spire opens it: the SQLite file a URL names, looked at with
a read-only connection, so another application's database or a newer spire's journal is
refused with every byte as it was; and what to install when a database's driver is
missing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa

from journal.errors import StorageError

SPIRE_TABLES = frozenset({"alembic_version", "campaigns", "branches", "events"})
"""The tables that make a SQLite file spire's (a journal has a few more)."""


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None for another database, memory or a URI)."""
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        return None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:") or parsed.query.get("uri"):
        return None
    return Path(database)


def sqlite_uri_file(url: str) -> Path | None:
    """The file a SQLite URI names (sqlite:///file:PATH?mode=ro&uri=true), if it is one."""
    parsed = sa.make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or not database.startswith("file:"):
        return None
    path = database.removeprefix("file:").partition("?")[0]
    return Path(path) if path and path != ":memory:" else None


def read_only(path: Path) -> str | None:
    """Why spire may only read the journal file at `path` (None: it may write): a
    read-only mount, or a file or directory this user may not write (a journal in WAL mode
    writes its -wal and -shm files beside it)."""
    place = path.parent
    try:
        if os.statvfs(place).f_flag & os.ST_RDONLY:
            return f"{place} is on a read-only disk"
    except OSError:
        return None
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path.name} may not be written"
    if not os.access(place, os.W_OK):
        return f"its directory {place} may not be written"
    return None


def only_readable(path: Path) -> tuple[str, str]:
    """For a journal file spire may only read: the URL that reads it, and what a write
    is told. One that is not there yet cannot be made."""
    why = read_only(path)
    if not path.exists():
        raise StorageError(f"{path} cannot be made: {why}; nothing was written")
    return read_only_url(path), f"{path} is read-only here ({why}); nothing was written"


def read_only_url(path: Path) -> str:
    """A URL that reads the journal at `path` and writes nothing: through its write-ahead
    log where one was left beside it (a copy taken while spire had it open), else as the
    file stands (immutable: no -shm is made, where none may be)."""
    return f"sqlite:///file:{_read_only(path)}&uri=true"


def _read_only(path: Path) -> str:
    wal = path.with_name(path.name + "-wal")
    logged = wal.exists() and wal.stat().st_size > 0
    return f"{quote(str(path.resolve()))}?mode=ro" + ("" if logged else "&immutable=1")


def found(path: Path) -> str | None:
    """What is at `path`, read without changing a byte: None for nothing yet (no file, an
    empty one, a SQLite file with no tables), else spire's schema revision. Another
    application's database, or a file that is not SQLite, is refused; a file another
    program has locked is said to be locked."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return None
    where = _read_only(path) if read_only(path) else f"{quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(f"file:{where}", uri=True)
        try:
            tables = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone() \
                if "alembic_version" in tables else None
        finally:
            conn.close()
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise StorageError(f"{path} is locked by another program ({e}); try again when "
                               "it lets go") from None
        raise StorageError(f"{path} cannot be read ({e}); spire leaves it as it is") from None
    except sqlite3.DatabaseError as e:
        raise StorageError(f"{path} is not a spire journal ({e}); spire leaves it as it is") \
            from None
    if not tables:
        return None
    if not SPIRE_TABLES <= tables or revision is None:
        raise StorageError(f"{path} is not a spire journal; it is another application's "
                           f"database (its tables: {', '.join(sorted(tables)[:5])}), and spire "
                           "leaves it as it is")
    return str(revision[0])


EXTRAS = {"psycopg": ("spire-journal[postgres]", "psycopg[binary]")}
"""The extra (and the package in it) that brings a driver spire's URLs use by default
(postgresql:// means psycopg 3 to SQLAlchemy 2)."""


def no_driver(url: str, error: ImportError) -> str:
    module = (error.name or "").partition(".")[0] or "its driver"
    if module in EXTRAS:
        extra, package = EXTRAS[module]
        how = f"install it with pip install '{extra}' (or pip install '{package}')"
    else:
        how = f"install the Python package that provides {module}"
    return f"the database driver {module} is not installed; {how}, to use {shown(url)}"


def without_password(url: str, text: str) -> str:
    """`text` (a driver's message) with the password `url` holds, if any, hidden."""
    try:
        password = sa.make_url(url).password
    except sa.exc.ArgumentError:
        return text
    return text.replace(str(password), "***") if password else text


def shown(url: str) -> str:
    """`url` without its password."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url
