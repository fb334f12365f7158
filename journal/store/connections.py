"""A journal's engine and the connections its transactions run on: one from the pool
each time, or one kept open for many commands (the play shell); a write's takes the write
lock at its start. What the driver raises is told as storage trouble, in one line.

Part of the store (journal.store), which `Database` opens and reads and writes through.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from journal.errors import BadInput, StorageError, Unreachable
from journal.store import watching
from journal.store.engine import storage_message, unreachable


class Connections:
    """The engine of the journal at `url` (set as the journal is opened or made) and the
    connection each transaction runs on."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine
        self.kept: Connection | None = None
        """The connection every transaction goes through while the journal is kept open
        (`kept_open`), rather than one from the pool each time."""
        self.keeping = False
        """Inside `kept_open`: a journal made by its first write keeps its connection too
        (`made`)."""

    @contextmanager
    def translated(self) -> Iterator[None]:
        """What the database or its driver raises inside, as `StorageError` (a number
        past what the database holds: `BadInput`)."""
        try:
            yield
        except (sa.exc.DatabaseError, self.engine.dialect.loaded_dbapi.Error) as e:
            # (the second: from a driver's own connection or cursor)
            kind = Unreachable if unreachable(e) else StorageError
            raise kind(storage_message(self.url, e)) from None
        except OverflowError:  # the driver's: a number past what the database holds
            raise BadInput("a number too big for the journal (at most 64 bits)") from None

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Connection]:
        """A transaction on the kept connection (unless one is under way on it: a read
        still streaming), or on one from the pool; a write's takes the write lock at its
        start."""
        kept = self.kept
        if kept is None or kept.in_transaction():
            with self.engine.connect() as conn:
                if write:
                    conn.execution_options(spire_write=True)
                with conn.begin():
                    yield conn
            return
        kept.execution_options(spire_write=write)
        with kept.begin():
            yield kept

    @contextmanager
    def kept_open(self, there: bool = True) -> Iterator[None]:
        """Every transaction inside on one connection, kept open until the block ends (a
        journal kept open for many commands: a connection from the pool costs as much as
        a read). A journal not `there` yet keeps one from its first write (`made`)."""
        if self.keeping:
            yield
            return
        if there:
            with self.translated():
                self.kept = self.engine.connect()
        self.keeping = True
        try:
            yield
        finally:
            kept, self.kept, self.keeping = self.kept, None, False
            if kept is not None:
                kept.close()

    def made(self) -> None:
        """The journal was just made on a new engine: inside `kept_open`, its connection
        is kept from now on."""
        if self.keeping:
            with self.translated():
                self.kept = self.engine.connect()

    def compact(self) -> None:
        """Fold SQLite's write-ahead log back into the journal file."""
        if self.engine.dialect.name == "sqlite":
            with self.translated(), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def changes(self) -> watching.Changes:
        """A waiter on a connection of its own; what that connection meets is told as
        storage trouble too."""
        with self.translated():
            return _Translated(watching.changes(self.engine), self)


class _Translated:
    """A waiter whose driver's errors are told as `StorageError` (`Unreachable` when the
    server went away), as every read's are."""

    def __init__(self, changes: watching.Changes, connections: Connections) -> None:
        self._changes, self._connections = changes, connections

    def wait(self, seconds: float) -> bool:
        with self._connections.translated():
            return self._changes.wait(seconds)

    def close(self) -> None:
        with contextlib.suppress(Exception), self._connections.translated():
            self._changes.close()  # a connection to a server gone: nothing to close
