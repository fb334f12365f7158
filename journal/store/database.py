"""A journal's database, opened: its engine and its transactions.

A write is one transaction; the branches whose heads it moved are told to watchers and
sealed under the write lock, before the commit, so no other writer comes between; the
seal's line is pending until the write says, after the commit, that it committed. The
store's parts (journal.store) read and write through `reading` and `writing`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path

from sqlalchemy.engine import Connection, Engine

from journal.errors import StorageError
from journal.store import migration, opening, sealing, watching
from journal.store import seal as seal_
from journal.store.connections import Connections
from journal.store.engine import engine_for
from journal.store.schema import metadata


class Database:
    """A journal database: its engine, its transactions and the seal beside it."""

    def __init__(self, url: str, lazily: bool = False) -> None:
        """The journal at `url`. A SQLite file is looked at first, without a byte changed:
        another application's database, or a journal a newer spire wrote, is refused.
        With `lazily`, a journal that is not there yet (no file, an empty one) is made only
        by the first write: until then it reads as an empty journal, and a command that
        only reads leaves no file and no directory behind."""
        self.url = url
        self._connections = Connections(url)
        self._held: Connection | None = None
        self._look: ExitStack | None = None
        self._looking: Connection | None = None
        """A `look` under way, and its transaction once a read inside has begun it: every
        read inside shares it."""
        self._reading_only: str | None = None
        """Why nothing may be written (a view that only reads; a read-only place)."""
        self._unmade = False
        self.moved: dict[int, tuple[int, str] | None] = {}
        """The branches whose heads the write under way moved, each with its head before
        (None for a branch it made): their seal is renewed."""
        self.keeper = sealing.Keeper(url)
        """The seal's side of each write: renewed before the commit, said after it."""
        path = opening.sqlite_file(url)
        revision = opening.found(path) if path is not None else migration.SCHEMA_REVISION
        if revision is not None and revision != migration.SCHEMA_REVISION:
            migration.check_known(revision, str(path))
        if revision is None and lazily:
            self._unmake()
            return
        self._open(lazily)

    @property
    def engine(self) -> Engine:
        return self._connections.engine

    def _unmake(self) -> None:
        """Read as an empty journal until the first write makes the real one."""
        self._unmade = True
        self._shared = False
        self._connections.engine = engine_for("sqlite://")  # one connection, kept: empty
        with self.engine.begin() as conn:
            metadata.create_all(conn)

    def _open(self, lazily: bool = False) -> None:
        path = opening.sqlite_file(self.url)
        url = self.url
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageError(f"cannot make the journal's directory {path.parent}: "
                                   f"{e.strerror}") from None
            if opening.read_only(path):
                url, self._reading_only = opening.only_readable(path)
        self._connections.engine = engine_for(url)
        self._shared = self.engine.dialect.name == "postgresql"
        """A server's journal, which several machines share: appends are told to watchers."""
        with self._connections.translated():
            made = migration.migrate(self.engine, self.url, lazily)
        if not made:  # a server's database with no journal in it yet: a read makes none
            self.engine.dispose()
            self._unmake()

    @property
    def there(self) -> bool:
        """Whether the journal exists: one opened lazily is not there until its first write."""
        return not self._unmade

    def revision(self) -> str | None:
        """The journal's schema revision (None: it is not there yet)."""
        if self._unmade:
            return None
        with self.reading() as conn:
            return migration.revision_of(conn)

    def upgrade(self) -> None:
        """Bring the schema to the Alembic head (imports Alembic only when needed)."""
        migration.upgrade(self.engine)

    def _made(self) -> None:
        """Make the journal, now that a command writes to it."""
        if self._unmade:
            self._unmade = False
            self.engine.dispose()
            self._open()
            if not self._unmade:
                self._connections.made()

    @property
    def holding(self) -> bool:
        """Whether the write lock is held (`locked`): reads and writes are one transaction."""
        return self._held is not None

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read through: the held transaction's, a look's, or a
        transaction's own."""
        if self._held is not None:
            with self._connections.translated():
                yield self._held
            return
        if self._look is not None:
            with self._connections.translated():
                if self._looking is None:  # the look's first read begins its transaction
                    self._looking = self._look.enter_context(self._connections.transaction())
                yield self._looking
            return
        with self._connections.translated(), self._connections.transaction() as conn:
            yield conn

    def close(self) -> None:
        """Close the journal's pooled connections, as the process that opened it ends (a
        journal not made yet drops the empty one it read from)."""
        self.engine.dispose()

    def kept_open(self) -> AbstractContextManager[None]:
        """Every transaction inside on one connection, kept open until the block ends (the
        play shell: a connection from the pool costs as much as a read)."""
        return self._connections.kept_open(there=not self._unmade)

    @contextmanager
    def look(self) -> Iterator[None]:
        """Every read inside in one transaction, begun by the first of them: one look at
        the journal as it stood (a command reads its campaign, its branch and what its
        decision needs together: a transaction costs as much as a read). Nothing is
        written inside."""
        if self._held is not None or self._look is not None:
            yield
            return
        self._look = ExitStack()
        try:
            with self._connections.translated(), self._look:
                yield
        finally:
            self._look = self._looking = None

    def only_read(self) -> None:
        """From now on write nothing, not even a cache (a view such as `spire watch`):
        a write raises `StorageError`, which a cache's writer takes as going without."""
        self._reading_only = "this view of the journal only reads it"

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction (the held one, inside `locked`): the branches it moved are
        told to watchers and sealed before it commits, the seal said committed after."""
        if self._reading_only:
            raise StorageError(self._reading_only)
        assert self._look is None, "a write inside a look would not be seen by its reads"
        if self._held is not None:
            with self._connections.translated():
                yield self._held
            return
        self._made()
        self.moved.clear()
        with self._connections.translated(), self._connections.transaction(write=True) as conn:
            self.keeper.begun(conn)
            yield conn
            if self.moved and self._shared:  # told to watchers at the commit
                watching.notify(conn, self.moved)
            if self.moved:  # under the write lock, before the commit: no writer between
                moved = dict(self.moved)
                self.moved.clear()
                self.keeper.renew(conn, moved)
        self.keeper.committed()

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the write lock: every read and append inside is one transaction, so no
        other writer can move a head between reading it and appending at it. For a writer
        that lost the optimistic race; an error inside rolls everything back."""
        with self.writing() as conn:
            self._held = conn
            try:
                yield
            finally:
                self._held = None

    def seal_path(self) -> Path | None:
        """The sidecar beside a journal file that keeps each branch's head (None for a
        database that is not a file)."""
        return sealing.path_of(self.url)

    def seal(self) -> seal_.Sealed:
        """The seal as kept beside the journal, read against the journal's heads where
        the last write's line is pending (`seal.resolved`)."""
        sealed = sealing.read(self.url)
        if sealed.pending is None or self._unmade:
            return sealed
        with self.reading() as conn:
            return sealing.resolved(conn, sealed)

    def compact(self) -> None:
        """Fold SQLite's write-ahead log back into the file (after a big import)."""
        self._connections.compact()

    def changes(self) -> watching.Changes:
        """A waiter that wakes when another writer may have appended (for `spire watch`)."""
        return self._connections.changes()

