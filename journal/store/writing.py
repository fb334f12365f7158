"""Writing a branch's events: an append at an expected head, chained and hashed, and an
import's already-chained rows (its other branches and checkpoints among them).

An append is one transaction at an expected head position. The unique key on (branch,
position) and the conditional update of the branch head mean two writers can never both
write one position: the loser gets `StaleHead` and may re-read and retry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from journal.core.chain import Mark, RawEvent, Section
from journal.errors import BadInput
from journal.store.codec import chained, linked, row_of, stale
from journal.store.database import Database
from journal.store.driver import inserts
from journal.store.kept import keep_glance
from journal.store.records import Branch, NewEvent, StaleHead
from journal.store.schema import IMPORTED, branches, checkpoints, events, undone

if TYPE_CHECKING:
    from journal.core import events as ev


# An append's statements, made once: a write in the play shell runs each, and making one
# (and its cache key) cost as much as running it.
_HEAD_AT = sa.select(branches.c.head_hash).where(
    branches.c.id == sa.bindparam("branch"), branches.c.head_position == sa.bindparam("at"),
).with_for_update()  # PostgreSQL: writers queue on the branch's row (SQLite: no-op)
_INSERT = sa.insert(events)
_UNDID = sa.insert(undone)
_MOVE_HEAD = sa.update(branches).where(branches.c.id == sa.bindparam("branch")).values(
    head_position=sa.bindparam("to"), head_hash=sa.bindparam("digest"))


class Writer:
    """Appends to the journal's branches."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def append(
        self, branch: Branch, expected_head: int, new: Sequence[NewEvent],
        checkpoint: str | None = None,
        glance: Callable[[list[ev.Recorded]], tuple[str, str]] | None = None,
    ) -> list[ev.Recorded]:
        """Append `new` at `expected_head` in one transaction; `StaleHead` if it moved.
        `glance` works out the branch's glance (version, text) at its new head from the
        events written; it is kept in the same transaction."""
        try:
            with self.db.writing() as conn:
                written = self.appended(conn, branch, expected_head, new)
                if checkpoint:
                    _checkpoint(conn, branch, checkpoint, written[-1].position)
                if glance is not None:
                    last = written[-1]
                    keep_glance(conn, branch.id, last.position, last.hash, *glance(written))
        except sa.exc.IntegrityError:
            raise StaleHead(stale(branch, expected_head)) from None
        return written

    def appended(
        self, conn: Connection, branch: Branch, expected_head: int, new: Sequence[NewEvent],
    ) -> list[ev.Recorded]:
        """`new` appended at `expected_head` inside `conn`'s transaction, as written."""
        prev = conn.scalar(_HEAD_AT, {"branch": branch.id, "at": expected_head})
        if prev is None:
            raise StaleHead(stale(branch, expected_head))
        self.db.moved.setdefault(branch.id, (expected_head, prev))
        written = []
        for i, n in enumerate(new):
            recorded = linked(chained(n, expected_head + i + 1), prev)
            conn.execute(_INSERT, {"branch_id": branch.id, **row_of(recorded)})
            if recorded.type == "retracted":
                from journal.core.events import Retracted

                assert isinstance(recorded.event, Retracted)
                _undid(conn, [(branch.id, recorded.position, recorded.event.positions)])
            written.append(recorded)
            prev = recorded.hash
        conn.execute(_MOVE_HEAD, {"branch": branch.id, "to": expected_head + len(new),
                                  "digest": prev})
        return written  # as written: the rows hold nothing these do not (not read back)

    def insert_recorded(
        self, conn: Connection, branch: Branch, recorded: Iterable[RawEvent | Section | Mark],
        stamp: str, chunk: int = 5000,
    ) -> None:
        """An import's rows, as they come, inside `conn`'s transaction: a `Section` among
        them begins another branch, a `Mark` is a checkpoint of the branch being written."""
        head: tuple[int, str] | None = None
        rows: list[tuple[Any, ...]] = []
        undos: list[tuple[int, int, Sequence[int]]] = []
        owner, ids = branch.id, {branch.name: branch.id}
        with inserts(conn, events, IMPORTED) as insert:
            for item in recorded:
                if type(item) is RawEvent:
                    rows.append((owner, *item.row()))
                    head = (item.position, item.hash)
                    if item.type == "retracted":  # checked already: the payload reads
                        undos.append((owner, item.position, item.payload["positions"]))
                    if len(rows) >= chunk:
                        insert(rows)
                        rows = []
                    continue
                if isinstance(item, Mark):
                    _mark(conn, owner, item)
                    continue
                assert isinstance(item, Section)
                if head is None:
                    raise BadInput("the file holds no events")
                if rows:
                    insert(rows)
                    rows = []
                _set_head(conn, owner, head)
                self.db.moved[owner] = None
                owner = ids[item.name] = _forked(conn, branch.campaign_id, ids, item, stamp)
                head = (item.fork, item.fork_hash)
            if rows:
                insert(rows)
        if head is None:
            raise BadInput("the file holds no events")
        _undid(conn, undos)
        _set_head(conn, owner, head)
        self.db.moved[owner] = None


def _checkpoint(conn: Connection, branch: Branch, name: str, position: int) -> None:
    conn.execute(sa.delete(checkpoints).where(
        checkpoints.c.branch_id == branch.id, checkpoints.c.name == name))
    stamp = conn.scalar(sa.select(events.c.recorded_at).where(
        events.c.branch_id == branch.id, events.c.position == position))
    conn.execute(sa.insert(checkpoints).values(
        branch_id=branch.id, name=name, position=position, created_at=stamp))


def _mark(conn: Connection, branch_id: int, mark: Mark) -> None:
    """An imported checkpoint, in place of one of its name on the branch."""
    conn.execute(sa.delete(checkpoints).where(
        checkpoints.c.branch_id == branch_id, checkpoints.c.name == mark.name))
    conn.execute(sa.insert(checkpoints).values(
        branch_id=branch_id, name=mark.name, position=mark.position, created_at=mark.created_at))


def _undid(conn: Connection, undos: Sequence[tuple[int, int, Sequence[int]]]) -> None:
    """Keep what each undo (branch, its position, the positions it took back) undid."""
    found = [{"branch_id": b, "undone": p, "position": at}
             for b, at, taken in undos for p in dict.fromkeys(taken)]
    if found:
        conn.execute(_UNDID, found)


def _set_head(conn: Connection, branch_id: int, head: tuple[int, str]) -> None:
    conn.execute(sa.update(branches).where(branches.c.id == branch_id).values(
        head_position=head[0], head_hash=head[1]))


def _forked(
    conn: Connection, campaign_id: int, ids: Mapping[str, int], section: Section, stamp: str,
) -> int:
    """The id of the branch an imported `section` begins, forked from its parent where the
    parent's event has the section's fork hash (else the file is refused)."""
    parent = ids[section.parent]
    there = conn.scalar(sa.select(events.c.hash).where(
        events.c.branch_id == parent, events.c.position == section.fork))
    if there != section.fork_hash:
        raise BadInput(f"branch {section.name!r} forks at #{section.fork} of "
                       f"{section.parent!r}, whose event there has another hash")
    made = conn.execute(sa.insert(branches).values(
        campaign_id=campaign_id, name=section.name, parent_id=parent,
        fork_position=section.fork, head_position=section.fork, head_hash=section.fork_hash,
        created_at=stamp).returning(branches.c.id))
    return int(made.scalar_one())
