"""The seal: the sidecar beside a journal file that keeps each branch's head, renewed
under the write lock by every write that moves one (journal.store.seal reads and writes it).

A write appends the heads it moved as one line, synced in place (a tenth of a millisecond
on a laptop's disk, where a new file synced and renamed takes half of one); the seal is
written whole, to a temporary file renamed into place, when it cannot be appended to
(none yet, an older version, a line cut short), when a branch is renamed, and once every
`RENEWALS_KEPT` writes, so reading it stays small."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from journal.errors import StorageError
from journal.paths import append_whole, write_whole
from journal.store import opening
from journal.store import seal as seal_
from journal.store.schema import branches, campaigns

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


def renew(conn: Connection, url: str, moved: Mapping[int, tuple[int, str] | None]) -> None:
    """Renew the seal of the branches this write `moved` (each with its head before, None
    for one it made), with their heads as written. A journal with no readable seal yet
    (made by an older spire) has every branch sealed as it is: the seal vouches from then
    on."""
    path = path_of(url)
    if path is None:
        return
    rows = conn.execute(_HEADS).all()
    sealed = _known(path)
    whole = sealed.renewals is None or sealed.renewals >= RENEWALS_KEPT
    if whole and sealed.heads is not None:
        sealed = seal_.read(path)  # written whole from the file as it is, never from memory
        whole = sealed.renewals is None or sealed.renewals >= RENEWALS_KEPT
    kept = sealed.heads
    heads = {} if kept is None else dict(kept)
    renewed: seal_.Heads = {}
    found: list[seal_.Disagreed] = []
    for row in rows:
        if kept is not None and row.id not in moved:
            continue
        key = (row.campaign, row.name)
        before = moved.get(row.id)
        if kept is not None and before is not None and key in heads \
                and heads[key] != before:
            found.append(seal_.Disagreed(row.campaign, row.name, heads[key], before))
        heads[key] = renewed[key] = (row.head_position, row.head_hash)
    disagreed = (*sealed.disagreed, *found)
    if whole:
        _write(path, heads, disagreed)
    else:
        _append(path, renewed, found)
    renewals = 0 if whole else (sealed.renewals or 0) + 1
    _remember(path, seal_.Sealed(str(path), heads, None, disagreed, renewals))


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


def renamed(url: str, campaign: str, old: str, new: str) -> None:
    """The seal with a renamed branch's head under its new name."""
    path = path_of(url)
    sealed = read(url)
    if path is None or sealed.heads is None:
        return  # no seal yet: the next write seals every branch as it is
    _KNOWN.pop(path, None)
    heads = dict(sealed.heads)
    if (campaign, old) in heads:
        heads[(campaign, new)] = heads.pop((campaign, old))
    disagreed = [replace(d, branch=new) if (d.campaign, d.branch) == (campaign, old)
                 else d for d in sealed.disagreed]
    _write(path, heads, disagreed)


def _write(path: Path, heads: seal_.Heads, disagreed: Sequence[seal_.Disagreed]) -> None:
    try:
        write_whole(path, seal_.text(heads, disagreed))
    except OSError as e:
        raise _unwritten(path, e) from None


def _append(path: Path, heads: seal_.Heads, disagreed: Sequence[seal_.Disagreed]) -> None:
    try:
        append_whole(path, seal_.renewal(heads, disagreed))
    except OSError as e:
        raise _unwritten(path, e) from None


def _unwritten(path: Path, e: OSError) -> StorageError:
    return StorageError(f"cannot write the seal {path}: {e.strerror}; nothing was written")
