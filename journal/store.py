"""The journal's storage: the only module that speaks SQL (SQLAlchemy 2 Core).

An append is one transaction at an expected head position. The unique key on
(branch, position) and the conditional update of the branch head mean two writers can
never both write one position: the loser gets `StaleHead` and may re-read and retry.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine

from journal import chain, opening, watching
from journal import seal as seal_
from journal.chain import Mark, RawEvent, Section
from journal.errors import BadInput, Conflict, NotFound, StorageError, TooNew
from journal.paths import shipped, write_whole

if TYPE_CHECKING:
    from journal import events as ev

SCHEMA_REVISION = "0007"
"""The Alembic head this code expects; a journal at it opens without loading Alembic."""

BUSY_TIMEOUT_MS = 5000

metadata = sa.MetaData()
campaigns = sa.Table(
    "campaigns", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("current_branch", sa.String(200), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
branches = sa.Table(
    "branches", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id"), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("parent_id", sa.Integer, sa.ForeignKey("branches.id"), nullable=True),
    sa.Column("fork_position", sa.Integer, nullable=True),
    sa.Column("head_position", sa.Integer, nullable=False),
    sa.Column("head_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("campaign_id", "name", name="uq_branch_name"),
)
events = sa.Table(
    "events", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("type", sa.String(60), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("recorded_at", sa.String(40), nullable=False),
    sa.Column("player", sa.Integer, nullable=True),
    sa.Column("override", sa.Text, nullable=True),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.UniqueConstraint("branch_id", "position", name="uq_event_position"),
    # The retractions only: a branch's undos are found without reading the branch, and
    # the other events (nearly all of them) cost the index nothing to append or import.
    # (The migration makes it partial on PostgreSQL too; naming postgresql_where here would
    # load SQLAlchemy's PostgreSQL dialect, asyncio and all, into every `spire status`.)
    sa.Index("ix_events_retractions", "branch_id", "position",
             sqlite_where=sa.text("type = 'retracted'")),
)
undone = sa.Table(
    "undone", metadata,
    # Each position an undo took back (`undone`), by the undo's own `position`: which
    # checkpoints still stand is asked of a few rows, not of every undo of the campaign.
    sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
    sa.Column("undone", sa.Integer, primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
)
checkpoints = sa.Table(
    "checkpoints", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("branch_id", "name", name="uq_checkpoint_name"),
)
snapshots = sa.Table(
    "snapshots", metadata,
    sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
glances = sa.Table(
    "glances", metadata,
    sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("version", sa.String(40), nullable=False),
    sa.Column("glance", sa.Text, nullable=False),
)
settings = sa.Table(
    "settings", metadata,
    sa.Column("key", sa.String(60), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
cards = sa.Table(
    "cards", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("number", sa.Integer, nullable=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("game", "name", name="uq_card_name"),
)


STREAMED = (
    events.c.position, events.c.type, events.c.version, events.c.payload,
    events.c.recorded_at, events.c.player, events.c.override, events.c.prev_hash, events.c.hash)
"""The columns of an event as read back, in the order `_recorded` unpacks them."""

AUDITED = STREAMED
"""The columns the audit reads, in the order of its `Row`."""

FOLDED = (events.c.position, events.c.type, events.c.version, events.c.payload,
          events.c.override)
"""The columns a replay folds, in the order `stream` unpacks them."""

TOLD = (events.c.position, events.c.type, events.c.version, events.c.payload,
        events.c.recorded_at, events.c.override)
"""The columns a story reads, in the order `told` unpacks them."""

IMPORTED = ("branch_id", *RawEvent.ROW)
"""The columns an import writes, in the order of its rows."""

T = TypeVar("T")


class Unreadable(StorageError):
    """A stored event that no longer reads: the journal was edited outside spire."""


class StaleHead(Conflict):
    """The branch head moved since it was read: another writer appended first."""


@dataclass(frozen=True)
class Campaign:
    id: int
    name: str
    game: str
    current_branch: str
    created_at: str


@dataclass(frozen=True)
class Branch:
    id: int
    campaign_id: int
    name: str
    parent_id: int | None
    fork_position: int | None
    head: int
    head_hash: str


@dataclass(frozen=True)
class StoredCard:
    """A catalog card as stored: its printed numbers are `data`, as the game describes them."""

    game: str
    name: str
    kind: str
    number: int | None
    data: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its payload and provenance; the store gives position and hashes."""

    event: ev.Payload
    recorded_at: datetime
    player: int | None = None
    override: str | None = None


def url_for(db: str) -> str:
    """A SQLAlchemy URL for `--db`: a URL as given, or a path to a SQLite file."""
    if "://" in db:
        return db
    path = Path(db).expanduser()
    if path.is_dir():
        raise BadInput(f"{db} is a directory; --db wants a journal file")
    return f"sqlite:///{path.resolve()}"


def _engine(url: str) -> Engine:
    try:
        engine = sa.create_engine(_with_driver(url))
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as e:
        raise BadInput(f"cannot use {opening.shown(url)!r} as a journal: {e}") from None
    except ImportError as e:  # the URL's database driver is not installed
        raise StorageError(opening.no_driver(url, e)) from None
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine)
    return engine


def _with_driver(url: str) -> str | sa.URL:
    """`url` with psycopg 3 as PostgreSQL's driver when it names none (SQLAlchemy 2.0
    would take psycopg2, which spire does not ship)."""
    if not url.startswith("postgresql:") and not url.startswith("postgres:"):
        return url
    try:
        parsed = sa.make_url(url.replace("postgres:", "postgresql:", 1)
                             if url.startswith("postgres:") else url)
    except sa.exc.ArgumentError:
        return url
    return parsed.set(drivername="postgresql+psycopg") if "+" not in parsed.drivername \
        else parsed


def _tune_sqlite(engine: Engine) -> None:
    @sa_event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        # Let spire, not the driver, say when a transaction begins (SQLAlchemy's recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")  # durable commits, even in WAL
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def begin(conn: Connection) -> None:
        # A writer takes the write lock at BEGIN, so it waits on busy_timeout instead of
        # failing when it upgrades a read lock another writer holds.
        immediate = conn.get_execution_options().get("spire_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Store:
    """A journal database: campaigns, their branches and the events of each branch."""

    def __init__(self, url: str, lazily: bool = False) -> None:
        """The journal at `url`. A SQLite file is looked at first, without a byte changed:
        another application's database, or a journal a newer spire wrote, is refused.
        With `lazily`, a journal that is not there yet (no file, an empty one) is made only
        by the first write: until then it reads as an empty journal, and a command that
        only reads leaves no file and no directory behind."""
        self.url = url
        self._held: Connection | None = None
        self._reading_only = False
        self._unmade = False
        self.rows_read = 0
        """Event rows this store has read: a command's cost, counted (the tests check that
        an undo reads a bounded number however long the branch)."""
        self._moved: dict[int, tuple[int, str] | None] = {}
        """The branches whose heads the write under way moved, each with its head before
        (None for a branch it made): their seal is renewed."""
        path = opening.sqlite_file(url)
        revision = opening.found(path) if path is not None else SCHEMA_REVISION
        if revision is not None and revision != SCHEMA_REVISION:
            self._check_known(revision, str(path))
        if revision is None and lazily:
            self._unmake()
            return
        self._open(lazily)

    def _unmake(self) -> None:
        """Read as an empty journal until the first write makes the real one."""
        self._unmade = True
        self._shared = False
        self.engine = _engine("sqlite://")  # one connection, kept: an empty journal
        with self.engine.begin() as conn:
            metadata.create_all(conn)

    def _open(self, lazily: bool = False) -> None:
        path = opening.sqlite_file(self.url)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageError(f"cannot make the journal's directory {path.parent}: "
                                   f"{e.strerror}") from None
        self.engine = _engine(self.url)
        self._shared = self.engine.dialect.name == "postgresql"
        """A server's journal, which several machines share: appends are told to watchers."""
        with self._translated():
            made = self._migrate(lazily)
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
        with self._read() as conn:
            return _revision(conn)

    def _made(self) -> None:
        """Make the journal, now that a command writes to it."""
        if self._unmade:
            self._unmade = False
            self.engine.dispose()
            self._open()

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except sa.exc.OperationalError as e:
            raise StorageError(_storage_message(self.url, e)) from None
        except sa.exc.DatabaseError as e:
            raise StorageError(_storage_message(self.url, e)) from None
        except self.engine.dialect.loaded_dbapi.Error as e:  # from a driver cursor
            raise StorageError(_storage_message(self.url, e)) from None
        except OverflowError:  # the driver's: a number past what the database holds
            raise BadInput("a number too big for the journal (at most 64 bits)") from None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        if self._held is not None:
            with self._translated():
                yield self._held
            return
        with self._translated(), self.engine.begin() as conn:
            yield conn

    def only_read(self) -> None:
        """From now on write nothing, not even a cache (a view such as `spire watch`):
        a write raises `StorageError`, which a cache's writer takes as going without."""
        self._reading_only = True

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        if self._reading_only:
            raise StorageError("this view of the journal only reads it")
        if self._held is not None:
            with self._translated():
                yield self._held
            return
        self._made()
        self._moved.clear()
        with self._translated(), self.engine.connect() as conn:
            conn = conn.execution_options(spire_write=True)
            with conn.begin():
                yield conn
                if self._moved and self._shared:  # told to watchers at the commit
                    watching.notify(conn, self._moved)
                if self._moved:  # under the write lock, before the commit: no writer between
                    self._seal(conn)

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the write lock: every read and append inside is one transaction, so no
        other writer can move a head between reading it and appending at it. For a writer
        that lost the optimistic race; an error inside rolls everything back."""
        with self._write() as conn:
            self._held = conn
            try:
                yield
            finally:
                self._held = None

    # -- schema ---------------------------------------------------------------------------

    def _migrate(self, lazily: bool = False) -> bool:
        """Bring the journal to this spire's schema; False (nothing done) for a database
        with no journal in it yet when it is opened `lazily`."""
        with self.engine.connect() as conn:
            revision = _revision(conn)
        if revision == SCHEMA_REVISION:
            return True
        if revision is None and lazily:
            return False
        if revision is not None:
            self._check_known(revision, self.engine.url.database or self.url)
            self._copy_aside(revision)
        self.upgrade()
        return True

    def _check_known(self, revision: str, where: str) -> None:
        from alembic.script import ScriptDirectory
        from alembic.util import CommandError

        try:
            ScriptDirectory(str(shipped("migrations"))).get_revision(revision)
        except CommandError:
            raise StorageError(
                f"{where} has schema revision {revision!r}, which this spire does not know; "
                f"a newer spire wrote it") from None

    def _copy_aside(self, revision: str) -> None:
        path = self.engine.url.database
        if self.engine.dialect.name == "sqlite" and path and Path(path).exists():
            # SQLite's backup API: copying the file would miss what is still in its WAL.
            source = sqlite3.connect(path)
            copy = sqlite3.connect(f"{path}.before-{SCHEMA_REVISION}-from-{revision}")
            try:
                source.backup(copy)
            finally:
                copy.close()
                source.close()

    def upgrade(self) -> None:
        """Bring the schema to the Alembic head (imports Alembic only when needed)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(shipped("migrations")))
        with self.engine.begin() as conn:  # one transaction: nothing half-upgraded where
            if conn.dialect.name == "postgresql":  # the database's DDL is transactional
                watching.upgrading(conn)  # one upgrader at a time; the others wait
                if _revision(conn) == SCHEMA_REVISION:
                    return
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    # -- the seal -------------------------------------------------------------------------

    def seal_path(self) -> Path | None:
        """The sidecar beside a journal file that keeps each branch's head (None for a
        database that is not a file)."""
        path = opening.sqlite_file(self.url) or opening.sqlite_uri_file(self.url)
        return seal_.beside(path) if path is not None else None

    def seal(self) -> seal_.Sealed:
        """The seal as kept beside the journal."""
        path = self.seal_path()
        if path is None:
            return seal_.Sealed(None, None, "the journal is not a file: it has no seal beside it")
        return seal_.read(path)

    def _seal(self, conn: Connection) -> None:
        """Renew the seal of the branches this write moved, with their heads as written.
        A journal with no readable seal yet (made by an older spire) has every branch
        sealed as it is: the seal vouches from then on."""
        path, moved = self.seal_path(), dict(self._moved)
        self._moved.clear()
        if path is None:
            return
        rows = conn.execute(sa.select(
            campaigns.c.name.label("campaign"), branches.c.id, branches.c.name,
            branches.c.head_position, branches.c.head_hash,
        ).join(campaigns, campaigns.c.id == branches.c.campaign_id)).all()
        sealed = self.seal()
        kept = sealed.heads
        heads = {} if kept is None else dict(kept)
        disagreed = list(sealed.disagreed)
        for row in rows:
            if kept is not None and row.id not in moved:
                continue
            key = (row.campaign, row.name)
            before = moved.get(row.id)
            if kept is not None and before is not None and key in heads \
                    and heads[key] != before:
                disagreed.append(seal_.Disagreed(row.campaign, row.name, heads[key], before))
            heads[key] = (row.head_position, row.head_hash)
        try:
            write_whole(path, seal_.text(heads, disagreed))
        except OSError as e:
            raise StorageError(f"cannot write the seal {path}: {e.strerror}; nothing was "
                               "written") from None

    # -- settings ---------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        with self._read() as conn:
            return conn.scalar(sa.select(settings.c.value).where(settings.c.key == key))

    def set_setting(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute(sa.delete(settings).where(settings.c.key == key))
            conn.execute(sa.insert(settings).values(key=key, value=value))

    # -- the card catalog -------------------------------------------------------------------

    def cards(self, game: str) -> list[StoredCard]:
        """The cards entered for `game`, in the order they were first entered."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(cards).where(cards.c.game == game).order_by(cards.c.id)).all()
        return [_card(row) for row in rows]

    def put_card(self, card: StoredCard) -> bool:
        """Enter `card`, replacing the game's card of the same name whatever its case;
        True if it replaced one. A replaced card keeps its place in the catalog."""
        values = {**asdict(card), "data": json.dumps(card.data, sort_keys=True)}
        wanted = card.name.casefold()
        with self._write() as conn:
            rows = conn.execute(sa.select(cards.c.id, cards.c.name).where(
                cards.c.game == card.game)).all()
            same = next((row.id for row in rows if row.name.casefold() == wanted), None)
            if same is None:
                conn.execute(sa.insert(cards).values(**values))
            else:
                conn.execute(sa.update(cards).where(cards.c.id == same).values(**values))
        return same is not None

    # -- campaigns and branches ----------------------------------------------------------

    def campaigns(self) -> list[Campaign]:
        with self._read() as conn:
            rows = conn.execute(sa.select(campaigns).order_by(campaigns.c.id)).all()
        return [Campaign(**row._mapping) for row in rows]

    def campaign(self, name: str) -> Campaign:
        with self._read() as conn:
            row = conn.execute(sa.select(campaigns).where(campaigns.c.name == name)).first()
        if row is None:
            raise NotFound(f"no campaign named {name!r}; `spire campaigns` lists them")
        return Campaign(**row._mapping)

    def branch(self, campaign: Campaign, name: str | None = None) -> Branch:
        name = name or campaign.current_branch
        query = sa.select(branches).where(
            branches.c.campaign_id == campaign.id, branches.c.name == name)
        if self._held is not None:
            query = query.with_for_update()  # the row lock where the database has one
        with self._read() as conn:
            row = conn.execute(query).first()
        if row is None:
            raise NotFound(f"campaign {campaign.name!r} has no branch named {name!r}")
        return _branch(row)

    def branches(self, campaign: Campaign) -> list[Branch]:
        with self._read() as conn:
            rows = conn.execute(sa.select(branches).where(
                branches.c.campaign_id == campaign.id).order_by(branches.c.id)).all()
        return [_branch(row) for row in rows]

    def create_campaign(
        self, name: str, game: str, first: Sequence[NewEvent], created_at: datetime,
        recorded: Iterable[RawEvent | Section | Mark] = (),
    ) -> Campaign:
        """A new campaign with its `main` branch holding `first` (or, for an import, the
        already-chained `recorded` events, read as they come, in one transaction: an error
        raised while they are read writes nothing; a `Section` among them begins another
        branch) and a `start` checkpoint."""
        stamp = created_at.isoformat()
        with self._write() as conn:
            if conn.scalar(sa.select(campaigns.c.id).where(campaigns.c.name == name)):
                raise BadInput(f"a campaign named {name!r} already exists")
            campaign_id = conn.execute(sa.insert(campaigns).values(
                name=name, game=game, current_branch="main", created_at=stamp,
            ).returning(campaigns.c.id)).scalar_one()
            branch_id = conn.execute(sa.insert(branches).values(
                campaign_id=campaign_id, name="main", parent_id=None, fork_position=None,
                head_position=0, head_hash=chain.GENESIS, created_at=stamp,
            ).returning(branches.c.id)).scalar_one()
            branch = Branch(branch_id, campaign_id, "main", None, None, 0, chain.GENESIS)
            if first:
                self._append(conn, branch, 0, first)
            else:
                self._insert_recorded(conn, branch, recorded, stamp)
            if not conn.scalar(sa.select(checkpoints.c.id).where(  # an import may carry it
                    checkpoints.c.branch_id == branch_id, checkpoints.c.name == "start")):
                conn.execute(sa.insert(checkpoints).values(
                    branch_id=branch_id, name="start", position=1, created_at=stamp))
        return Campaign(campaign_id, name, game, "main", stamp)

    def compact(self) -> None:
        """Fold SQLite's write-ahead log back into the journal file (after a big import, so
        the next reader does not wade through it)."""
        if self.engine.dialect.name == "sqlite":
            with self._translated(), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def changes(self) -> watching.Changes:
        """A waiter that wakes when another writer may have appended (for `spire watch`)."""
        with self._translated():
            return watching.changes(self.engine)

    # -- events -------------------------------------------------------------------------

    def read(self, branch: Branch, after: int = 0) -> list[ev.Recorded]:
        """The events of `branch` (its ancestors' up to each fork) past position `after`."""
        with self._read() as conn:
            rows = [row for chunk in _driver_rows(conn, self._stream(conn, branch, after))
                    for row in chunk]
        self.rows_read += len(rows)
        return _recorded(rows, branch)

    def events(self, branch: Branch, after: int = 0) -> Iterator[ev.Recorded]:
        """The events of `branch` past `after`, as `read` gives them, but read a chunk at a
        time as they are asked for: a replay of a million events holds a chunk, not all."""
        with self._read() as conn:
            for rows in _driver_rows(conn, self._stream(conn, branch, after)):
                self.rows_read += len(rows)
                yield from _recorded(rows, branch)

    def backwards(self, branch: Branch, chunk: int = 32) -> Iterator[ev.Recorded]:
        """The events of `branch` newest first, read a few at a time as they are asked
        for: an undo reads back only as far as the action it takes back, however long the
        branch. Each branch of the lineage is read on its own (its rows lie above the
        fork it continues), so each read walks the index from the top."""
        below = branch.head + 1
        with self._read() as conn:
            lineage = self._lineage(conn, branch)
        for owner, limit in lineage:
            below = min(below, limit + 1)
            while below > 1:
                with self._read() as conn:
                    rows = conn.execute(sa.select(*STREAMED).where(
                        events.c.branch_id == owner, events.c.position < below,
                    ).order_by(events.c.position.desc()).limit(chunk)).all()
                if not rows:
                    break
                self.rows_read += len(rows)
                yield from _recorded(rows, branch)
                below, chunk = rows[-1][0], min(chunk * 2, 2000)

    def _stream(
        self, conn: Connection, branch: Branch, after: int, columns: Sequence[Any] = STREAMED,
    ) -> sa.Select[Any]:
        conditions = []
        for owner, limit in self._lineage(conn, branch):
            conditions.append(sa.and_(events.c.branch_id == owner, events.c.position > after,
                                      events.c.position <= limit))
        return sa.select(*columns).where(sa.or_(*conditions)).order_by(events.c.position)

    def stream(self, branch: Branch, chunk: int = 2000, after: int = 0) -> Iterator[ev.Fact]:
        """The branch's events (past `after`) as a replay folds them, one at a time,
        fetched in chunks: a million events replay without a million in memory. Each
        payload is validated; the provenance only proof reads (time, player, hashes) is
        not fetched."""
        from journal.events import facts

        return self._parsed(branch, after, FOLDED, facts, chunk)

    def told(self, branch: Branch, after: int = 0) -> Iterator[ev.Told]:
        """The branch's events (past `after`) as a story tells them (the play report, the
        map), a chunk at a time as `stream` reads them: each with its time, without the
        player and hashes only proof reads."""
        from journal.events import told

        return self._parsed(branch, after, TOLD, told)

    def _parsed(self, branch: Branch, after: int, columns: Sequence[Any],
                parse: Callable[[list[Any]], list[T]], chunk: int = 2000) -> Iterator[T]:
        with self._read() as conn:
            query = self._stream(conn, branch, after, columns)
            for rows in _driver_rows(conn, query, chunk):  # in the order of `columns`
                self.rows_read += len(rows)
                try:
                    parsed = parse(rows)
                except TooNew:
                    raise
                except UNREADABLE as e:
                    raise _unreadable(branch, rows, e) from None
                yield from parsed

    def undone_among(self, branch: Branch, positions: Collection[int]) -> frozenset[int]:
        """Those of `positions` an undo of the branch (its own, or an ancestor's up to the
        fork) took back: a few rows, however many undos the campaign has."""
        if not positions:
            return frozenset()
        with self._read() as conn:
            found: set[int] = set()
            for owner, limit in self._lineage(conn, branch):
                found.update(conn.scalars(sa.select(undone.c.undone).where(
                    undone.c.branch_id == owner, undone.c.position <= limit,
                    undone.c.undone.in_(list(positions)))))
        return frozenset(found)

    def undone_before(self, branch: Branch, position: int) -> bool:
        """Whether an undo of the branch before `position` took anything back."""
        with self._read() as conn:
            for owner, limit in self._lineage(conn, branch):
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
        with self._read() as conn:
            payloads: list[Any] = []
            for owner, limit in self._lineage(conn, branch):
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
            raise _unreadable(branch, payloads, e) from None

    def raw(self, branch: Branch, own: bool = False) -> Iterator[RawEvent]:
        """The stored rows of `branch`'s stream (only its own, past its fork, if `own`),
        unparsed, for export: read in chunks as they are asked for, so a million events
        are written without a million in memory."""
        with self._read() as conn:
            query = self._stream(conn, branch, 0)
            if own:
                query = query.where(events.c.branch_id == branch.id)
            for rows in _driver_rows(conn, query):
                self.rows_read += len(rows)
                try:
                    raw = [RawEvent(position, type_, version, json.loads(payload), *rest)
                           for position, type_, version, payload, *rest in rows]
                except TooNew:
                    raise
                except UNREADABLE as e:
                    raise _unreadable(branch, rows, e) from None
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
        with self._read() as conn:
            for rows in _driver_rows(conn, query.order_by(events.c.position), chunk):
                self.rows_read += len(rows)
                yield from rows

    def own_row_at(self, branch_id: int, position: int) -> tuple[Any, ...] | None:
        return next(self.own_rows(branch_id, events.c.position == position), None)

    def own_retraction_rows(self, branch_id: int) -> list[tuple[Any, ...]]:
        return list(self.own_rows(  # the literal, as the index of retractions has it
            branch_id, events.c.type == sa.literal_column("'retracted'")))

    def event_at(self, branch: Branch, position: int) -> ev.Recorded:
        found = [r for r in self.read(branch, position - 1) if r.position == position]
        if not found:
            raise NotFound(f"no event {position} on branch {branch.name!r} (head is {branch.head})")
        return found[0]

    def append(
        self, branch: Branch, expected_head: int, new: Sequence[NewEvent],
        checkpoint: str | None = None,
        glance: Callable[[list[ev.Recorded]], tuple[str, str]] | None = None,
    ) -> list[ev.Recorded]:
        """Append `new` at `expected_head` in one transaction; `StaleHead` if it moved.
        `glance` works out the branch's glance (version, text) at its new head from the
        events written; it is kept in the same transaction."""
        try:
            with self._write() as conn:
                written = self._append(conn, branch, expected_head, new)
                if checkpoint:
                    self._checkpoint(conn, branch, checkpoint, written[-1].position)
                if glance is not None:
                    last = written[-1]
                    self._keep_glance(conn, branch.id, last.position, last.hash, *glance(written))
        except sa.exc.IntegrityError:
            raise StaleHead(_stale(branch, expected_head)) from None
        return written

    def _append(
        self, conn: Connection, branch: Branch, expected_head: int, new: Sequence[NewEvent],
    ) -> list[ev.Recorded]:
        prev = conn.scalar(sa.select(branches.c.head_hash).where(
            branches.c.id == branch.id, branches.c.head_position == expected_head,
        ).with_for_update())  # PostgreSQL: writers queue on the branch's row (SQLite: no-op)
        if prev is None:
            raise StaleHead(_stale(branch, expected_head))
        self._moved.setdefault(branch.id, (expected_head, prev))
        written = [_chained(n, expected_head + i + 1) for i, n in enumerate(new)]
        for recorded in written:
            recorded = _linked(recorded, prev)
            conn.execute(sa.insert(events).values(branch_id=branch.id, **_row(recorded)))
            if recorded.type == "retracted":
                from journal.events import Retracted

                assert isinstance(recorded.event, Retracted)
                _undid(conn, [(branch.id, recorded.position, recorded.event.positions)])
            prev = recorded.hash
        conn.execute(sa.update(branches).where(branches.c.id == branch.id).values(
            head_position=expected_head + len(new), head_hash=prev))
        return self._rows_written(conn, branch, expected_head)

    def _rows_written(self, conn: Connection, branch: Branch, after: int) -> list[ev.Recorded]:
        rows = conn.execute(sa.select(*STREAMED).where(
            events.c.branch_id == branch.id, events.c.position > after
        ).order_by(events.c.position)).all()
        return _recorded(rows, branch)

    def _insert_recorded(
        self, conn: Connection, branch: Branch, recorded: Iterable[RawEvent | Section | Mark],
        stamp: str, chunk: int = 5000,
    ) -> None:
        head: tuple[int, str] | None = None
        rows: list[tuple[Any, ...]] = []
        undos: list[tuple[int, int, Sequence[int]]] = []
        owner, ids = branch.id, {branch.name: branch.id}
        with _driver_inserts(conn, events, IMPORTED) as insert:
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
                self._moved[owner] = None
                owner = ids[item.name] = _forked(conn, branch.campaign_id, ids, item, stamp)
                head = (item.fork, item.fork_hash)
            if rows:
                insert(rows)
        if head is None:
            raise BadInput("the file holds no events")
        _undid(conn, undos)
        _set_head(conn, owner, head)
        self._moved[owner] = None

    def _checkpoint(self, conn: Connection, branch: Branch, name: str, position: int) -> None:
        conn.execute(sa.delete(checkpoints).where(
            checkpoints.c.branch_id == branch.id, checkpoints.c.name == name))
        stamp = conn.scalar(sa.select(events.c.recorded_at).where(
            events.c.branch_id == branch.id, events.c.position == position))
        conn.execute(sa.insert(checkpoints).values(
            branch_id=branch.id, name=name, position=position, created_at=stamp))

    def own_checkpoints(self, branch: Branch) -> list[Mark]:
        """The checkpoints `branch` itself holds (not its ancestors'), in position order."""
        with self._read() as conn:
            rows = conn.execute(sa.select(
                checkpoints.c.name, checkpoints.c.position, checkpoints.c.created_at,
            ).where(checkpoints.c.branch_id == branch.id, checkpoints.c.position <= branch.head,
                    ).order_by(checkpoints.c.position, checkpoints.c.id)).all()
        return [Mark(r.name, r.position, r.created_at) for r in rows]

    def checkpoints(self, branch: Branch) -> list[tuple[str, int, str]]:
        """The checkpoints `branch` sees: its own, and its ancestors' up to each fork."""
        with self._read() as conn:
            found: list[tuple[str, int, str]] = []
            for owner, limit in self._lineage(conn, branch):
                query = sa.select(checkpoints.c.name, checkpoints.c.position,
                                  checkpoints.c.created_at).where(checkpoints.c.branch_id == owner)
                query = query.where(checkpoints.c.position <= limit)
                found += [(r.name, r.position, r.created_at) for r in conn.execute(query)]
        unique: dict[str, tuple[str, int, str]] = {}
        for mark in found:
            unique.setdefault(mark[0], mark)  # a branch's own checkpoint wins over an ancestor's
        return sorted(unique.values(), key=lambda c: (c[1], c[0]))

    def _lineage(self, conn: Connection, branch: Branch) -> list[tuple[int, int]]:
        """(branch id, last position it contributes) from `branch` up to the root: the
        branch's own events up to `branch.head` as read, not what another writer appended
        since, so a state folded from them is the state at that head."""
        lineage: list[tuple[int, int]] = [(branch.id, branch.head)]
        limit, parent = branch.fork_position, branch.parent_id
        while parent is not None and limit is not None:
            lineage.append((parent, limit))
            row = conn.execute(sa.select(branches).where(branches.c.id == parent)).one()
            limit = min(limit, row.fork_position) if row.fork_position is not None else None
            parent = row.parent_id
        return lineage

    def snapshot(
        self, branch: Branch, version: int, before: int | None = None,
    ) -> tuple[int, str] | None:
        """The latest snapshot `branch` can start from: its own up to its head, or an
        ancestor's up to the fork; before position `before` if given; (position, state
        text)."""
        with self._read() as conn:
            best: tuple[int, str] | None = None
            for owner, limit in self._lineage(conn, branch):
                if before is not None:
                    limit = min(limit, before - 1)
                query = sa.select(snapshots.c.position, snapshots.c.state).where(
                    snapshots.c.branch_id == owner, snapshots.c.version == version,
                    snapshots.c.position <= limit,
                ).order_by(snapshots.c.position.desc()).limit(1)
                row = conn.execute(query).first()
                if row is not None and (best is None or row.position > best[0]):
                    best = (row.position, row.state)
        return best

    def snapshots_of(self, branch: Branch, version: int) -> list[tuple[int, str]]:
        with self._read() as conn:
            rows = conn.execute(sa.select(snapshots.c.position, snapshots.c.state).where(
                snapshots.c.branch_id == branch.id, snapshots.c.version == version,
            ).order_by(snapshots.c.position)).all()
        return [(row.position, row.state) for row in rows]

    def save_snapshot(
        self, branch: Branch, position: int, version: int, state: str, at: datetime,
    ) -> None:
        """Keep a snapshot; a cache, so a busy journal (or one this role may only read)
        simply goes without it. Not inside a held transaction: a failure there would undo
        the write it holds on a database that aborts a transaction on an error."""
        if self._held is not None:
            return
        try:
            with self._write() as conn:
                conn.execute(sa.delete(snapshots).where(
                    snapshots.c.branch_id == branch.id, snapshots.c.position == position,
                    snapshots.c.version == version))
                conn.execute(sa.insert(snapshots).values(
                    branch_id=branch.id, position=position, version=version, state=state,
                    created_at=at.isoformat()))
        except StorageError:
            pass

    def glance(self, branch: Branch, version: str) -> str | None:
        """The glance kept for `branch` at its head by spire `version`, if there is one."""
        with self._read() as conn:
            found: str | None = conn.scalar(sa.select(glances.c.glance).where(
                glances.c.branch_id == branch.id, glances.c.position == branch.head,
                glances.c.hash == branch.head_hash, glances.c.version == version))
        return found

    def save_glance(self, branch: Branch, version: str, text: str) -> None:
        """Keep the glance of `branch` at its head; a cache, so a busy journal goes without."""
        if self._held is not None:
            return
        try:
            with self._write() as conn:
                self._keep_glance(conn, branch.id, branch.head, branch.head_hash, version, text)
        except StorageError:
            pass

    def _keep_glance(self, conn: Connection, branch_id: int, position: int, digest: str,
                     version: str, text: str) -> None:
        conn.execute(sa.delete(glances).where(glances.c.branch_id == branch_id))
        conn.execute(sa.insert(glances).values(
            branch_id=branch_id, position=position, hash=digest, version=version, glance=text))

    def add_checkpoint(self, branch: Branch, name: str, position: int, at: datetime) -> None:
        with self._write() as conn:
            conn.execute(sa.insert(checkpoints).values(
                branch_id=branch.id, name=name, position=position, created_at=at.isoformat()))

    def branch_by_id(self, branch_id: int) -> Branch:
        with self._read() as conn:
            return _branch(conn.execute(sa.select(branches).where(branches.c.id == branch_id)).one())

    def create_branch(
        self, campaign: Campaign, name: str, parent: Branch, fork: int, fork_hash: str,
        at: datetime,
    ) -> Branch:
        """A branch that shares `parent`'s events up to `fork` and continues its chain."""
        with self._write() as conn:
            taken = conn.scalar(sa.select(branches.c.id).where(
                branches.c.campaign_id == campaign.id, branches.c.name == name))
            if taken:
                raise BadInput(f"campaign {campaign.name!r} has a branch named {name!r} already")
            made = conn.execute(sa.insert(branches).values(
                campaign_id=campaign.id, name=name, parent_id=parent.id, fork_position=fork,
                head_position=fork, head_hash=fork_hash, created_at=at.isoformat(),
            ).returning(branches.c.id))
            self._moved[int(made.scalar_one())] = None
        return self.branch(campaign, name)

    def rename_branch(self, campaign: Campaign, old: str, new: str) -> Branch:
        """Rename a branch (and the campaign's current branch, if it is that one); the
        seal keeps its head under the new name."""
        with self._write() as conn:
            found = conn.scalar(sa.select(branches.c.id).where(
                branches.c.campaign_id == campaign.id, branches.c.name == old))
            if found is None:
                raise NotFound(f"campaign {campaign.name!r} has no branch named {old!r}")
            if conn.scalar(sa.select(branches.c.id).where(
                    branches.c.campaign_id == campaign.id, branches.c.name == new)):
                raise BadInput(f"campaign {campaign.name!r} has a branch named {new!r} already")
            conn.execute(sa.update(branches).where(branches.c.id == found).values(name=new))
            conn.execute(sa.update(campaigns).where(
                campaigns.c.id == campaign.id, campaigns.c.current_branch == old,
            ).values(current_branch=new))
            self._reseal(campaign.name, old, new)
        return self.branch(campaign, new)

    def _reseal(self, campaign: str, old: str, new: str) -> None:
        """The seal with a renamed branch's head under its new name."""
        from dataclasses import replace

        path, sealed = self.seal_path(), self.seal()
        if path is None or sealed.heads is None:
            return  # no seal yet: the next write seals every branch as it is
        heads = dict(sealed.heads)
        if (campaign, old) in heads:
            heads[(campaign, new)] = heads.pop((campaign, old))
        disagreed = [replace(d, branch=new) if (d.campaign, d.branch) == (campaign, old)
                     else d for d in sealed.disagreed]
        try:
            write_whole(path, seal_.text(heads, disagreed))
        except OSError as e:
            raise StorageError(f"cannot write the seal {path}: {e.strerror}; nothing was "
                               "written") from None

    def set_current_branch(self, campaign: Campaign, name: str) -> None:
        with self._write() as conn:
            conn.execute(sa.update(campaigns).where(campaigns.c.id == campaign.id).values(
                current_branch=name))


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
        conn.execute(sa.insert(undone), found)


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


def _revision(conn: Connection) -> str | None:
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    revision: str | None = conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
    return revision


def _card(row: Any) -> StoredCard:
    return StoredCard(
        row.game, row.name, row.kind, row.number, json.loads(row.data), row.created_at)


def _branch(row: Any) -> Branch:
    return Branch(
        row.id, row.campaign_id, row.name, row.parent_id, row.fork_position,
        row.head_position, row.head_hash)


def _stale(branch: Branch, expected: int) -> str:
    return f"another writer appended to branch {branch.name!r} after position {expected}"


def _chained(new: NewEvent, position: int) -> ev.Recorded:
    from journal import events as ev

    return ev.Recorded(position, new.event, new.recorded_at, new.player, new.override)


def _payload_json(recorded: ev.Recorded) -> str:
    from journal import events as ev

    return chain.canonical_json(ev.payload_data(recorded.event))


def encoded(recorded: ev.Recorded) -> str:
    """The canonical encoding the hash covers."""
    from journal import events as ev

    return chain.envelope(
        recorded.position, recorded.type, ev.current_version(recorded.type),
        _payload_json(recorded), recorded.recorded_at.isoformat(), recorded.player,
        recorded.override)


def _linked(recorded: ev.Recorded, prev: str) -> ev.Recorded:
    from journal import events as ev

    digest = chain.link(prev, encoded(recorded))
    return ev.Recorded(
        recorded.position, recorded.event, recorded.recorded_at, recorded.player,
        recorded.override, prev, digest)


def _row(recorded: ev.Recorded) -> dict[str, Any]:
    from journal import events as ev

    return {
        "position": recorded.position, "type": recorded.type,
        "version": ev.current_version(recorded.type), "payload": _payload_json(recorded),
        "recorded_at": recorded.recorded_at.isoformat(), "player": recorded.player,
        "override": recorded.override, "prev_hash": recorded.prev_hash, "hash": recorded.hash,
    }


def _recorded(rows: Sequence[Any], branch: Branch) -> list[ev.Recorded]:
    """Events as read back, each row unpacked in the order of STREAMED."""
    from journal.events import Recorded, parse_stored

    when = datetime.fromisoformat
    try:
        return [Recorded(position, parse_stored(type_, version, payload), when(at), player,
                         override, prev, digest)
                for position, type_, version, payload, at, player, override, prev, digest
                in rows]
    except TooNew:
        raise
    except UNREADABLE as e:
        raise _unreadable(branch, rows, e) from None


UNREADABLE: tuple[type[Exception], ...] = (ValueError, KeyError, TypeError, BadInput)
"""What reading a stored row raises when it was edited behind spire's back: JSON that does
not parse, a payload its model refuses (pydantic's error is a ValueError), a time that
is not one, an unknown type or version."""


def _unreadable(branch: Branch, rows: Sequence[Any], error: Exception) -> StorageError:
    """The first of `rows` (position, type, version, payload, [recorded_at]...) that does
    not read, named: the journal was changed behind spire's back, and the audit says how."""
    from journal.events import parse_stored

    position, why = None, _reason(error)
    for row in rows:
        try:
            parse_stored(row[1], row[2], row[3])
            if len(row) > 5 and isinstance(row[4], str):
                datetime.fromisoformat(row[4])
        except UNREADABLE as e:
            position, why = row[0], _reason(e)
            break
    where = f"event #{position}" if position is not None else "an event"
    return Unreadable(f"{where} of branch {branch.name!r} does not read ({why}); the journal "
                      "was changed outside spire: `spire audit` says what is wrong")


def _reason(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"its payload is not JSON: {error.msg}"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _driver_rows(
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
def _driver_inserts(
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
                _bound(compiled, dict(zip(keys, row))) for row in rows])

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


def _storage_message(url: str, error: Exception) -> str:
    orig = getattr(error, "orig", None)
    text = opening.without_password(url, str(orig) if orig is not None else str(error))
    if getattr(orig if orig is not None else error, "sqlstate", None) == "42501":
        return (f"this role may only read the journal ({' '.join(text.split())}); "
                "nothing was written")
    if "locked" in text or "busy" in text:
        return f"the journal is locked by another writer; try again ({text})"
    if "not a database" in text:
        return f"{sa.make_url(url).database or url} is not a spire journal ({text})"
    return f"storage trouble with the journal: {text}"
