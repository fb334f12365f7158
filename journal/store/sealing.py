"""The seal: the sidecar beside a journal file that keeps each branch's head and
checkpoints, renewed under the write lock by every write that moves one, before its
commit, and said committed after it (journal.store.seal reads and writes it).

A write appends the heads it moved as one line, synced in place (a tenth of a millisecond
on a laptop's disk, where a new file synced and renamed takes half of one); the seal is
written whole, to a temporary file renamed into place, when it cannot be appended to
(none yet, an older version, a line cut short), when a branch is renamed, and once every
`RENEWALS_KEPT` writes, so reading it stays small."""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from journal.errors import StorageError
from journal.paths import append_whole, write_whole
from journal.store import opening
from journal.store import seal as seal_
from journal.store.schema import branches, campaigns, checkpoints

RENEWALS_KEPT = 64
"""Renewals appended to the whole seal before the next write writes it whole again."""


@cache
def path_of(url: str) -> Path | None:
    """The sidecar beside a journal file (None for a database that is not a file): worked
    out once per URL, as every write renews it."""
    path = opening.sqlite_file(url) or opening.sqlite_uri_file(url)
    return seal_.beside(path) if path is not None else None


def read(url: str) -> seal_.Sealed:
    """The seal as kept beside the journal."""
    path = path_of(url)
    if path is None:
        return seal_.Sealed(None, None, "the journal is not a file: it has no seal beside it")
    return seal_.read(path)


class Keeper:
    """The seal's side of a journal's writes (`Database.writing`): renewed under the write
    lock before each commit, said committed after it; and what it has to say (the seal
    mended), until the command line asks (`spoken`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.writes: list[str] = []
        """The seal's lines the write under way made, each said committed after it."""
        self.mended: str | None = None
        self.said: list[str] = []
        self.looked: seal_.Sealed | None = None
        """The seal as the write under way found it, where its last line was pending."""

    def begun(self, conn: Connection) -> None:
        """A write begins (its transaction, under the write lock, has changed nothing
        yet): nothing of it sealed; the seal's last line, if pending, read against the
        journal as it is (`resolved`)."""
        self.writes.clear()
        self.mended = self.looked = None
        path = path_of(self.url)
        if path is not None and _known(path).pending is not None:
            self.looked = resolved(conn, seal_.read(path))

    def renew(self, conn: Connection, moved: Mapping[int, tuple[int, str] | None]) -> None:
        """`renew` the seal of the branches moved, before the commit."""
        renewed = renew(conn, self.url, moved, self.looked)
        if renewed is not None:
            self.writes.append(renewed.write)
            self.mended = renewed.mended

    def renamed(self, campaign: str, old: str, new: str) -> None:
        """The seal with a renamed branch's head under its new name (`renamed`)."""
        renewed = renamed(self.url, campaign, old, new, self.looked)
        if renewed is not None:
            self.writes.append(renewed.write)
            self.mended = renewed.mended

    def committed(self) -> None:
        """The write committed: its lines are no longer ahead of the journal."""
        for write in self.writes:
            confirm(self.url, write)
        self.writes.clear()
        if self.mended is not None:
            self.said.append(f"{self.mended}; mended")
            self.mended = None

    def spoken(self) -> list[str]:
        """What the writes had to say since it was last asked, once."""
        found, self.said = self.said, []
        return found


class Renewed(NamedTuple):
    """What a write sealed: its id, which it says committed once it has (`confirm`); and
    the line that says the seal was mended, if it was one write ahead of the journal."""

    write: str
    mended: str | None


def renew(conn: Connection, url: str, moved: Mapping[int, tuple[int, str] | None],
          looked: seal_.Sealed | None = None) -> Renewed | None:
    """Renew the seal of the branches this write `moved` (each with its head before, None
    for one it made), with their heads and checkpoints as written, pending the write's
    commit. A journal with no readable seal yet (made by an older spire) has every branch
    sealed as it is: the seal vouches from then on. `looked`: the seal as the write found
    it, its last line pending, read against the journal (`Keeper.begun`); one that never
    committed is mended (the seal written whole without it)."""
    path = path_of(url)
    if path is None:
        return None
    rows = conn.execute(_HEADS).all()
    sealed = _known(path) if looked is None else looked
    whole = sealed.renewals is None or sealed.renewals >= RENEWALS_KEPT \
        or sealed.unfinished is not None
    if whole and sealed.heads is not None and looked is None:
        sealed = seal_.read(path)  # written whole from the file, never from memory
        whole = sealed.renewals is None or sealed.renewals >= RENEWALS_KEPT
    kept = sealed.heads
    heads = {} if kept is None else dict(kept)
    renewed: seal_.Heads = {}
    found: list[seal_.Disagreed] = []
    was: dict[seal_.Key, seal_.Head | None] = {}
    ids: dict[int, seal_.Key] = {}
    for row in rows:
        if kept is not None and row.id not in moved:
            continue
        key = ids[row.id] = (row.campaign, row.name)
        head = moved.get(row.id)
        if row.id in moved:
            was[key] = head
        if kept is not None and head is not None and key in heads and heads[key] != head:
            found.append(seal_.Disagreed(row.campaign, row.name, heads[key], head))
        heads[key] = renewed[key] = (row.head_position, row.head_hash)
    marked = {ids[branch]: found for branch, found in _marks(conn, ids).items()}
    disagreed = (*sealed.disagreed, *found)
    pending = seal_.Pending(os.urandom(8).hex(), was, {
        key: sealed.marks[key] for key, head in was.items()
        if head is not None and key in sealed.marks})
    past = {key: dict(earlier) for key, earlier in sealed.past.items()}
    marks = {**sealed.marks, **marked}
    if whole:
        past = {key: seal_.thinned(past.get(key, {}), at) for key, (at, _) in heads.items()}
        _write(path, heads, disagreed, pending, past, marks)
    else:
        _append(path, renewed, found, pending, marked)
    for key, (at, digest) in renewed.items():
        past.setdefault(key, {})[at] = digest
    renewals = 0 if whole else (sealed.renewals or 0) + 1
    _remember(path, seal_.Sealed(str(path), heads, None, disagreed, renewals, pending, past,
                                 marks=marks))
    return Renewed(pending.write, sealed.unfinished)


def _marks(conn: Connection, ids: Collection[int] | None = None) -> dict[int, seal_.Marks]:
    """The own checkpoints of the branches `ids` (every branch if None), by branch id;
    each branch asked for has its entry."""
    rows = conn.execute(_MARKS) if ids is None else conn.execute(_MARKS_OF, {"ids": list(ids)})
    found: dict[int, list[tuple[str, int]]] = {i: [] for i in ids or ()}
    for row in rows:
        found.setdefault(row.branch_id, []).append((row.name, row.position))
    return {branch: tuple(marks) for branch, marks in found.items()}


def confirm(url: str, write: str) -> None:
    """Say in the seal that the write `write` committed (after its commit, so a crash
    before it leaves the line pending, which `resolved` reads against the journal). Not
    synced, and a failure is let be: a line left pending is read the same way."""
    path = path_of(url)
    if path is None:
        return
    found = _KNOWN.pop(path, None)
    line = seal_.committed(write).encode("utf-8")
    try:
        handle = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            before = os.fstat(handle)
            os.write(handle, line)
            after = os.fstat(handle)
        finally:
            os.close(handle)
    except OSError:
        return
    # Kept as known only if no other writer wrote the seal since this one did: the line is
    # appended after the write lock is let go, so the next write may have renewed the seal
    # already, and a seal known without that renewal would take its head for a tamper.
    if found is None or found[0] != (before.st_ino, before.st_size, before.st_mtime_ns) \
            or after.st_size != before.st_size + len(line):
        return
    if found[1].pending is not None and found[1].pending.write == write:
        _KNOWN[path] = ((after.st_ino, after.st_size, after.st_mtime_ns),
                        replace(found[1], pending=None))


def resolved(conn: Connection, sealed: seal_.Sealed) -> seal_.Sealed:
    """`sealed` as it vouches for the journal `conn` reads (`seal.resolved`)."""
    if sealed.pending is None:
        return sealed
    rows = conn.execute(_HEADS).all()
    heads = {(row.campaign, row.name): (row.head_position, row.head_hash) for row in rows}
    keys = {row.id: (row.campaign, row.name) for row in rows}
    marks = {keys[branch]: found for branch, found in _marks(conn).items() if branch in keys}
    return seal_.resolved(sealed, heads, {key: marks.get(key, ()) for key in heads})


_KNOWN: dict[Path, tuple[tuple[int, int, int], seal_.Sealed]] = {}
"""The seal as this process last wrote it, by its file's identity (inode, size,
modification time): a process that writes again (the play shell) reads the file again only when
another wrote it since, not at every write (a seal of many renewals takes a while to
read). The seal is written whole only from the file itself."""


def _known(path: Path) -> seal_.Sealed:
    found = _KNOWN.get(path)
    try:
        if found is not None and found[0] == _identity(path):
            return found[1]
    except OSError:
        pass
    return seal_.read(path)


def _remember(path: Path, sealed: seal_.Sealed) -> None:
    try:
        _KNOWN[path] = (_identity(path), sealed)
    except OSError:
        _KNOWN.pop(path, None)


def _identity(path: Path) -> tuple[int, int, int]:
    found = os.stat(path)
    return found.st_ino, found.st_size, found.st_mtime_ns


_HEADS = sa.select(
    campaigns.c.name.label("campaign"), branches.c.id, branches.c.name,
    branches.c.head_position, branches.c.head_hash,
).join(campaigns, campaigns.c.id == branches.c.campaign_id)
"""Every branch's head, by campaign and name (made once: every write renews the seal)."""
_MARKS = sa.select(checkpoints.c.branch_id, checkpoints.c.name, checkpoints.c.position).join(
    branches, branches.c.id == checkpoints.c.branch_id,
).where(checkpoints.c.position <= branches.c.head_position).order_by(
    checkpoints.c.branch_id, checkpoints.c.position, checkpoints.c.id)
"""Each branch's own checkpoints, in the order `Tree.own_checkpoints` reads them."""


def renamed(url: str, campaign: str, old: str, new: str,
            looked: seal_.Sealed | None = None) -> Renewed | None:
    """The seal with a renamed branch's head under its new name, pending the rename's
    commit (`looked`: as for `renew`)."""
    path = path_of(url)
    sealed = read(url) if looked is None else looked
    if path is None or sealed.heads is None:
        return None  # no seal yet: the next write seals every branch as it is
    _KNOWN.pop(path, None)
    heads, past, marks = dict(sealed.heads), dict(sealed.past), dict(sealed.marks)
    was: dict[seal_.Key, seal_.Head | None] = {(campaign, new): None}
    before: dict[seal_.Key, seal_.Marks] = {}
    if (campaign, old) in heads:
        was[(campaign, old)] = heads[(campaign, old)]
        heads[(campaign, new)] = heads.pop((campaign, old))
        past[(campaign, new)] = past.pop((campaign, old), {})
        if (campaign, old) in marks:
            before[(campaign, old)] = marks[(campaign, new)] = marks.pop((campaign, old))
    past = {key: seal_.thinned(past.get(key, {}), head) for key, (head, _) in heads.items()}
    disagreed = [replace(d, branch=new) if (d.campaign, d.branch) == (campaign, old)
                 else d for d in sealed.disagreed]
    pending = seal_.Pending(os.urandom(8).hex(), was, before)
    _write(path, heads, disagreed, pending, past, marks)
    return Renewed(pending.write, sealed.unfinished)


def _write(path: Path, heads: seal_.Heads, disagreed: Sequence[seal_.Disagreed],
           pending: seal_.Pending | None = None, past: seal_.Past | None = None,
           marks: Mapping[seal_.Key, seal_.Marks] | None = None) -> None:
    try:
        write_whole(path, seal_.text(heads, disagreed, pending, past, marks))
    except OSError as e:
        raise _unwritten(path, e) from None


def _append(path: Path, heads: seal_.Heads, disagreed: Sequence[seal_.Disagreed],
            pending: seal_.Pending, marks: Mapping[seal_.Key, seal_.Marks]) -> None:
    try:
        append_whole(path, seal_.renewal(heads, disagreed, pending, marks))
    except OSError as e:
        raise _unwritten(path, e) from None


def _unwritten(path: Path, e: OSError) -> StorageError:
    return StorageError(f"cannot write the seal {path}: {e.strerror}; nothing was written")
_MARKS_OF = _MARKS.where(checkpoints.c.branch_id.in_(sa.bindparam("ids", expanding=True)))
"""`_MARKS` of the branches a write moved (made once, so a write does not build and compile
a statement of its own)."""
