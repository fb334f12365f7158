"""The journal's storage: the only package that speaks SQL (SQLAlchemy 2 Core).

A `Store` is the database, opened (journal.store.database: its engine, transactions,
write lock and seal), with a part for each thing it does:

- `store.log`: the events of a branch, read (journal.store.log);
- `store.writer`: appends to a branch (journal.store.writing);
- `store.tree`: campaigns, branches and checkpoints (journal.store.tree);
- `store.kept`: snapshots, glances, each person's current campaign and the card catalog
  (journal.store.kept).

An append is one transaction at an expected head position: two writers can never both
write one position, the loser gets `StaleHead` and may re-read and retry.
"""

from __future__ import annotations

from journal.errors import Conflict, StorageError
from journal.store.codec import UNREADABLE, encoded
from journal.store.database import Database
from journal.store.engine import BUSY_TIMEOUT_MS, url_for
from journal.store.kept import Kept
from journal.store.log import Log
from journal.store.migration import SCHEMA_REVISION
from journal.store.records import Branch, Campaign, NewEvent, StaleHead, StoredCard, Unreadable
from journal.store.schema import AUDITED, FOLDED, IMPORTED, STREAMED, TOLD, metadata
from journal.store.tree import Tree
from journal.store.writing import Writer

__all__ = [
    "AUDITED", "BUSY_TIMEOUT_MS", "FOLDED", "IMPORTED", "SCHEMA_REVISION", "STREAMED", "TOLD",
    "UNREADABLE", "Branch", "Campaign", "Conflict", "Database", "Kept", "Log", "NewEvent",
    "StaleHead", "StorageError", "Store", "StoredCard", "Tree", "Unreadable", "Writer",
    "encoded", "metadata", "url_for",
]


class Store(Database):
    """A journal database: campaigns, their branches and the events of each branch."""

    def __init__(self, url: str, lazily: bool = False) -> None:
        super().__init__(url, lazily)
        self.log = Log(self)
        self.writer = Writer(self)
        self.tree = Tree(self, self.writer)
        self.kept = Kept(self)
