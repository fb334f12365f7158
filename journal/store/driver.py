"""Rows straight through the database driver's cursor, inside a SQLAlchemy transaction:
a replay reads, and an import writes, every row, and SQLAlchemy's handling of each row
cost as much as the row."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection


def rows_of(
    conn: Connection, query: sa.Select[Any], chunk: int = 2000,
) -> Iterator[list[Any]]:
    """The rows of `query` in chunks, straight from the driver's cursor, inside `conn`'s
    transaction: a replay reads every row, and SQLAlchemy's handling of each cost as much
    as reading it."""
    compiled: Any = query.compile(dialect=conn.dialect)
    cursor = _driver_cursor(conn)
    try:
        cursor.execute(compiled.string, _bound(compiled, compiled.construct_params()))
        while rows := cursor.fetchmany(chunk):
            yield rows
    finally:
        cursor.close()


@contextmanager
def inserts(
    conn: Connection, table: sa.Table, keys: Sequence[str],
) -> Iterator[Callable[[list[tuple[Any, ...]]], None]]:
    """Insert rows of `keys` into `table` through the driver's cursor's executemany, inside
    `conn`'s transaction: an import writes every row, and SQLAlchemy's handling of each
    cost more than the insert."""
    compiled: Any = sa.insert(table).compile(dialect=conn.dialect, column_keys=list(keys))
    in_order = compiled.positional and list(compiled.positiontup) == list(keys)
    cursor = _driver_cursor(conn)

    def insert(rows: list[tuple[Any, ...]]) -> None:
        if in_order:
            cursor.executemany(compiled.string, rows)
        else:
            cursor.executemany(compiled.string, [
                _bound(compiled, dict(zip(keys, row, strict=True))) for row in rows])

    try:
        yield insert
    finally:
        cursor.close()


def _driver_cursor(conn: Connection) -> Any:
    dbapi = conn.connection.dbapi_connection
    assert dbapi is not None, "a connection in use has its driver's connection"
    return dbapi.cursor()


def _bound(compiled: Any, params: Mapping[str, Any]) -> Any:
    """`params` as the driver takes them: in order, for a positional paramstyle."""
    if compiled.positional:
        return tuple(params[name] for name in compiled.positiontup)
    return params

