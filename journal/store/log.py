"""Reading a branch's events: whole, a chunk at a time, newest first, as a replay folds
them, or as stored (for export and the audit); and what its undos took back.

Each read counts its rows in `Log.rows_read`: a command's cost (the tests check that an
undo reads a bounded number however long the branch).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from journal.core.chain import RawEvent
from journal.errors import NotFound, TooNew
from journal.store.codec import UNREADABLE, recorded_from, unreadable
from journal.store.database import Database
from journal.store.driver import rows_of
from journal.store.records import Branch
from journal.store.schema import AUDITED, FOLDED, STREAMED, TOLD, branches, events, undone

if TYPE_CHECKING:
    from journal.core import events as ev

T = TypeVar("T")


class Log:
    """The events of the journal's branches, read."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.rows_read = 0
        """Event rows read through this log: a command's cost, counted."""

    def read(self, branch: Branch, after: int = 0) -> list[ev.Recorded]:
        """The events of `branch` (its ancestors' up to each fork) past position `after`."""
        with self.db.reading() as conn:
            rows = [row for chunk in rows_of(conn, _stream(conn, branch, after))
                    for row in chunk]
        self.rows_read += len(rows)
        return recorded_from(rows, branch)

    def events(self, branch: Branch, after: int = 0) -> Iterator[ev.Recorded]:
        """The events of `branch` past `after`, as `read` gives them, but read a chunk at a
        time as they are asked for: a replay of a million events holds a chunk, not all."""
        with self.db.reading() as conn:
            for rows in rows_of(conn, _stream(conn, branch, after)):
                self.rows_read += len(rows)
                yield from recorded_from(rows, branch)

    def backwards(self, branch: Branch, chunk: int = 8) -> Iterator[ev.Recorded]:
        """The events of `branch` newest first, read a few at a time as they are asked
        for: an undo reads back only as far as the action it takes back, however long the
        branch. Each branch of the lineage is read on its own (its rows lie above the
        fork it continues), so each read walks the index from the top."""
        below = branch.head + 1
        if branch.parent_id is None:  # a campaign's first branch: itself alone
            owners = [(branch.id, branch.head)]
        else:
            with self.db.reading() as conn:
                owners = lineage(conn, branch)
        for owner, limit in owners:
            below = min(below, limit + 1)
            while below > 1:
                with self.db.reading() as conn:
                    rows = conn.execute(_BACKWARDS, {
                        "owner": owner, "below": below, "chunk": chunk}).all()
                if not rows:
                    break
                self.rows_read += len(rows)
                yield from recorded_from(rows, branch)
                below, chunk = rows[-1][0], min(chunk * 2, 2000)

    def stream(self, branch: Branch, chunk: int = 2000, after: int = 0) -> Iterator[ev.Fact]:
        """The branch's events (past `after`) as a replay folds them, one at a time,
        fetched in chunks: a million events replay without a million in memory. Each
        payload is validated; the provenance only proof reads (time, player, hashes) is
        not fetched."""
        from journal.core.events import facts

        return self._parsed(branch, after, FOLDED, facts, chunk)

    def told(self, branch: Branch, after: int = 0) -> Iterator[ev.Told]:
        """The branch's events (past `after`) as a story tells them (the play report, the
        map), a chunk at a time as `stream` reads them: each with its time, without the
        player and hashes only proof reads."""
        from journal.core.events import told

        return self._parsed(branch, after, TOLD, told)

    def _parsed(self, branch: Branch, after: int, columns: Sequence[Any],
                parse: Callable[[list[Any]], list[T]], chunk: int = 2000) -> Iterator[T]:
        with self.db.reading() as conn:
            query = _stream(conn, branch, after, columns)
            for rows in rows_of(conn, query, chunk):  # in the order of `columns`
                self.rows_read += len(rows)
                try:
                    parsed = parse(rows)
                except TooNew:
                    raise
                except UNREADABLE as e:
                    raise unreadable(branch, rows, e) from None
                yield from parsed

    def event_at(self, branch: Branch, position: int) -> ev.Recorded:
        found = [r for r in self.read(branch, position - 1) if r.position == position]
        if not found:
            raise NotFound(f"no event {position} on branch {branch.name!r} (head is {branch.head})")
        return found[0]

    # -- what the undos took back -----------------------------------------------------------

    def undone_among(self, branch: Branch, positions: Collection[int]) -> frozenset[int]:
        """Those of `positions` an undo of the branch (its own, or an ancestor's up to the
        fork) took back: a few rows, however many undos the campaign has."""
        if not positions:
            return frozenset()
        with self.db.reading() as conn:
            found: set[int] = set()
            for owner, limit in lineage(conn, branch):
                found.update(conn.scalars(_UNDONE_AMONG, {
                    "owner": owner, "limit": limit, "positions": list(positions)}))
        return frozenset(found)

    def undone_before(self, branch: Branch, position: int) -> bool:
        """Whether an undo of the branch before `position` took anything back."""
        with self.db.reading() as conn:
            for owner, limit in lineage(conn, branch):
                if conn.scalar(sa.select(undone.c.position).where(
                        undone.c.branch_id == owner, undone.c.position <= limit,
                        undone.c.position < position).limit(1)) is not None:
                    return True
        return False

    def retracted(self, branch: Branch) -> frozenset[int]:
        """The positions the branch's retractions undo, found through the index of
        retractions without reading the rest of the branch."""
        return frozenset(p for _, undone in self.retractions(branch) for p in undone)

    def retractions(
        self, branch: Branch, after: int = 0,
    ) -> list[tuple[int, tuple[int, ...]]]:
        """Each retraction of the branch past position `after`: its position and the
        positions it undoes."""
        with self.db.reading() as conn:
            payloads: list[Any] = []
            for owner, limit in lineage(conn, branch):
                query = sa.select(  # the literal, as the index has it
                    events.c.position, events.c.type, events.c.version, events.c.payload,
                ).where(events.c.branch_id == owner,
                        events.c.type == sa.literal_column("'retracted'"))
                query = query.where(events.c.position <= limit, events.c.position > after)
                payloads += conn.execute(query).all()
        self.rows_read += len(payloads)
        try:
            return [(row[0], tuple(json.loads(row[3])["positions"])) for row in payloads]
        except UNREADABLE as e:
            raise unreadable(branch, payloads, e) from None

    # -- the rows as stored (export, the audit) ---------------------------------------------

    def raw(self, branch: Branch, own: bool = False) -> Iterator[RawEvent]:
        """The stored rows of `branch`'s stream (only its own, past its fork, if `own`),
        unparsed, for export: read in chunks as they are asked for, so a million events
        are written without a million in memory."""
        with self.db.reading() as conn:
            query = _stream(conn, branch, 0)
            if own:
                query = query.where(events.c.branch_id == branch.id)
            for rows in rows_of(conn, query):
                self.rows_read += len(rows)
                try:
                    raw = [RawEvent(position, type_, version, json.loads(payload), *rest)
                           for position, type_, version, payload, *rest in rows]
                except TooNew:
                    raise
                except UNREADABLE as e:
                    raise unreadable(branch, rows, e) from None
                yield from raw

    def own_rows(
        self, branch_id: int, where: Any = None, chunk: int = 2000,
    ) -> Iterator[tuple[Any, ...]]:
        """A branch's own rows exactly as stored (payload text unparsed, nothing validated),
        in position order, in the order of AUDITED, read a chunk at a time: the audit
        reports a row that does not read rather than fail on it, and never holds them all.
        `where`: a further condition (one position, the retractions)."""
        query = sa.select(*AUDITED).where(events.c.branch_id == branch_id)
        if where is not None:
            query = query.where(where)
        with self.db.reading() as conn:
            for rows in rows_of(conn, query.order_by(events.c.position), chunk):
                self.rows_read += len(rows)
                yield from rows

    def own_row_at(self, branch_id: int, position: int) -> tuple[Any, ...] | None:
        return next(self.own_rows(branch_id, events.c.position == position), None)

    def own_retraction_rows(self, branch_id: int) -> list[tuple[Any, ...]]:
        return list(self.own_rows(  # the literal, as the index of retractions has it
            branch_id, events.c.type == sa.literal_column("'retracted'")))


def _stream(
    conn: Connection, branch: Branch, after: int, columns: Sequence[Any] = STREAMED,
) -> sa.Select[Any]:
    conditions = []
    for owner, limit in lineage(conn, branch):
        conditions.append(sa.and_(events.c.branch_id == owner, events.c.position > after,
                                  events.c.position <= limit))
    return sa.select(*columns).where(sa.or_(*conditions)).order_by(events.c.position)


_UNDONE_AMONG = sa.select(undone.c.undone).where(
    undone.c.branch_id == sa.bindparam("owner"), undone.c.position <= sa.bindparam("limit"),
    undone.c.undone.in_(sa.bindparam("positions", expanding=True)))
"""Which of some positions a branch's undos took back (made once: every status asks)."""

_BACKWARDS = sa.select(*STREAMED).where(
    events.c.branch_id == sa.bindparam("owner"), events.c.position < sa.bindparam("below"),
).order_by(events.c.position.desc()).limit(sa.bindparam("chunk"))
"""A branch's own events below a position, newest first (made once: every undo reads it)."""


def lineage(conn: Connection, branch: Branch) -> list[tuple[int, int]]:
    """(branch id, last position it contributes) from `branch` up to the root: the
    branch's own events up to `branch.head` as read, not what another writer appended
    since, so a state folded from them is the state at that head."""
    found: list[tuple[int, int]] = [(branch.id, branch.head)]
    limit, parent = branch.fork_position, branch.parent_id
    while parent is not None and limit is not None:
        found.append((parent, limit))
        row = conn.execute(_ANCESTOR, {"parent": parent}).one()
        limit = min(limit, row.fork_position) if row.fork_position is not None else None
        parent = row.parent_id
    return found


_ANCESTOR = sa.select(branches.c.fork_position, branches.c.parent_id).where(
    branches.c.id == sa.bindparam("parent"))
