"""How a reader learns that someone appended, without reading the journal again and again:
PostgreSQL's LISTEN/NOTIFY (each write that moves a head notifies at its commit), and on
SQLite `PRAGMA data_version`, which changes when another connection commits.

Part of the store (journal.store: the only package that speaks SQL); `Store.changes()`
hands out the waiter that fits the journal's database.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

CHANNEL = "spire_journal"
"""The PostgreSQL channel a write that moves a branch's head notifies on."""

UPGRADE_LOCK = 0x5_9_1_2_E  # pg_advisory_xact_lock's key: one schema upgrade at a time

POLL_SECONDS = 0.1
"""How often a SQLite watcher looks at data_version: cheap (no read of the journal)."""


def notify(conn: Connection, branch_ids: Iterable[int]) -> None:
    """Tell the journal's listeners, when `conn`'s transaction commits, which branches moved."""
    payload = ",".join(str(i) for i in sorted(branch_ids))
    conn.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))


def upgrading(conn: Connection) -> None:
    """Wait for any other upgrader of this PostgreSQL database, then hold the turn until
    `conn`'s transaction ends."""
    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(UPGRADE_LOCK)))


class Changes(Protocol):
    def wait(self, seconds: float) -> bool:
        """Block until the journal may have changed (True) or `seconds` passed (False)."""

    def close(self) -> None: ...


def changes(engine: Engine) -> Changes:
    """A waiter for the journal at `engine`, on a connection of its own."""
    raw = engine.raw_connection()
    if engine.dialect.name == "postgresql":
        return _Notified(raw)
    if engine.dialect.name == "sqlite":
        return _Polled(raw)
    raw.close()
    return _Sleeping()


class _Notified:
    """LISTEN on a connection in autocommit, kept out of the pool."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.conn = raw.driver_connection
        raw.detach()  # its own from now on: closed with the watcher, never pooled again
        self.conn.autocommit = True
        self.conn.execute(f"LISTEN {CHANNEL}")

    def wait(self, seconds: float) -> bool:
        return any(True for _ in self.conn.notifies(timeout=seconds, stop_after=1))

    def close(self) -> None:
        # The driver's connection itself: detached, it has no pool to be reset for (a
        # reset would roll back on a connection to a server that may be gone).
        self.conn.close()


class _Polled:
    """SQLite's data_version: the same connection sees it change when another commits."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.seen = self._version()

    def _version(self) -> int:
        cursor = self.raw.cursor()
        try:
            cursor.execute("PRAGMA data_version")
            version: int = cursor.fetchone()[0]
        finally:
            cursor.close()
        return version

    def wait(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while True:
            version = self._version()
            if version != self.seen:
                self.seen = version
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL_SECONDS, left))

    def close(self) -> None:
        self.raw.close()


class _Sleeping:
    """Another database: no signal, so the watcher simply looks again after a while."""

    def wait(self, seconds: float) -> bool:
        time.sleep(seconds)
        return True

    def close(self) -> None:
        pass
