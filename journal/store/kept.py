"""What the journal keeps beside the events: snapshots of folded states and the glance at
each head (caches: a busy journal goes without), each person's current campaign, and the
card catalog."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import asdict
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from journal.errors import StorageError
from journal.store.codec import card_of
from journal.store.database import Database
from journal.store.log import lineage
from journal.store.records import Branch, StoredCard
from journal.store.schema import cards, current_campaigns, glances, settings, snapshots

OLD_CURRENT = "current_campaign"
"""The setting in which a spire before schema revision 0008 kept one current campaign for
everyone: still the current campaign of whoever has not chosen one since."""


PLAYED = "played:"
"""The settings that keep each session file played into a campaign (`spire play < FILE`),
by a digest of the campaign's name and the file's lines."""


class Kept:
    """The snapshots, glances, current campaigns and cards of a journal."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- snapshots ----------------------------------------------------------------------

    def snapshot(
        self, branch: Branch, version: int, before: int | None = None,
    ) -> tuple[int, str] | None:
        """The latest snapshot `branch` can start from: its own up to its head, or an
        ancestor's up to the fork; before position `before` if given; (position, state
        text)."""
        with self.db.reading() as conn:
            best: tuple[int, str] | None = None
            for owner, limit in lineage(conn, branch):
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
        with self.db.reading() as conn:
            rows = conn.execute(sa.select(snapshots.c.position, snapshots.c.state).where(
                snapshots.c.branch_id == branch.id, snapshots.c.version == version,
            ).order_by(snapshots.c.position)).all()
        return [(row.position, row.state) for row in rows]

    def save_snapshot(
        self, branch: Branch, position: int, version: int, state: str, at: datetime,
    ) -> bool:
        """Keep a snapshot (whether it was kept); a cache, so a busy journal (or one this
        role may only read) simply goes without it. Not inside a held transaction: a
        failure there would undo the write it holds on a database that aborts a
        transaction on an error."""
        if self.db.holding:
            return False
        try:
            with self.db.writing() as conn:
                conn.execute(sa.delete(snapshots).where(
                    snapshots.c.branch_id == branch.id, snapshots.c.position == position,
                    snapshots.c.version == version))
                conn.execute(sa.insert(snapshots).values(
                    branch_id=branch.id, position=position, version=version, state=state,
                    created_at=at.isoformat()))
        except StorageError:
            return False
        return True

    # -- the glance at a head -----------------------------------------------------------

    def glance(self, branch: Branch, version: str) -> str | None:
        """The glance kept for `branch` at its head by spire `version`, if there is one."""
        with self.db.reading() as conn:
            found: str | None = conn.scalar(_GLANCE, {
                "branch": branch.id, "at": branch.head, "digest": branch.head_hash,
                "made_by": version})
        return found

    def save_glance(self, branch: Branch, version: str, text: str) -> None:
        """Keep the glance of `branch` at its head; a cache, so a busy journal goes without."""
        if self.db.holding:
            return
        try:
            with self.db.writing() as conn:
                keep_glance(conn, branch.id, branch.head, branch.head_hash, version, text)
        except StorageError:
            pass

    # -- the current campaign: each person's own ----------------------------------------

    def current_campaign(self) -> str | None:
        """The campaign the person using the journal chose (`choose`), else the one an
        older spire kept for everyone; one read."""
        with self.db.reading() as conn:
            mine = sa.select(current_campaigns.c.campaign).where(
                current_campaigns.c.person == _person(conn)).scalar_subquery()
            old = sa.select(settings.c.value).where(
                settings.c.key == OLD_CURRENT).scalar_subquery()
            found: str | None = conn.scalar(sa.select(sa.func.coalesce(mine, old)))
        return found

    def choose(self, campaign: str) -> None:
        """Make `campaign` the current one of the person using the journal, and nobody
        else's: on a server a role's own row is all it may write there, a spectator's too."""
        with self.db.writing() as conn:
            person = _person(conn)
            chosen = conn.execute(sa.update(current_campaigns).where(
                current_campaigns.c.person == person).values(campaign=campaign))
            if chosen.rowcount == 0:
                conn.execute(sa.insert(current_campaigns).values(
                    person=person, campaign=campaign))

    # -- session files played ---------------------------------------------------------

    def played(self, marks: Collection[str]) -> dict[str, str]:
        """What was kept of each session file (or beginning of one) of `marks` that was
        played (`keep_played`), by its mark."""
        wanted = set(marks)
        with self.db.reading() as conn:
            rows = conn.execute(sa.select(settings.c.key, settings.c.value).where(
                settings.c.key.startswith(PLAYED, autoescape=True))).all()
        return {mark: row.value for row in rows
                if (mark := row.key.removeprefix(PLAYED)) in wanted}

    def keep_played(self, mark: str, what: str) -> None:
        """Keep that the session file `mark` names was played, and `what` of it."""
        key = f"{PLAYED}{mark}"
        with self.db.writing() as conn:
            conn.execute(sa.delete(settings).where(settings.c.key == key))
            conn.execute(sa.insert(settings).values(key=key, value=what))

    # -- the card catalog ---------------------------------------------------------------

    def cards(self, game: str) -> list[StoredCard]:
        """The cards entered for `game`, in the order they were first entered."""
        with self.db.reading() as conn:
            rows = conn.execute(
                sa.select(cards).where(cards.c.game == game).order_by(cards.c.id)).all()
        return [card_of(row) for row in rows]

    def put_card(self, card: StoredCard) -> bool:
        """Enter `card`, replacing the game's card of the same name whatever its case;
        True if it replaced one. A replaced card keeps its place in the catalog."""
        values = {**asdict(card), "data": json.dumps(card.data, sort_keys=True)}
        wanted = card.name.casefold()
        with self.db.writing() as conn:
            rows = conn.execute(sa.select(cards.c.id, cards.c.name).where(
                cards.c.game == card.game)).all()
            same = next((row.id for row in rows if row.name.casefold() == wanted), None)
            if same is None:
                conn.execute(sa.insert(cards).values(**values))
            else:
                conn.execute(sa.update(cards).where(cards.c.id == same).values(**values))
        return same is not None


def _person(conn: Connection) -> sa.ColumnElement[str]:
    """Whose the current campaign is: on a server the database role (`current_user`, to
    which its row-level security holds each role), on a file the user of the machine (a
    file is one machine's, or a share its users take turns at)."""
    if conn.dialect.name == "postgresql":
        return sa.func.current_user()
    return sa.literal(machine_user(), sa.String)


def machine_user() -> str:
    """The name the machine's user logs in with, as getpass finds it ("" where nothing
    says: a container without an entry for its user)."""
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # KeyError before Python 3.13, OSError since
        return ""


def keep_glance(
    conn: Connection, branch_id: int, position: int, digest: str, version: str, text: str,
) -> None:
    """The glance of a branch at `position` (its head), in place of the one it had: one
    statement when it had one, as it has after its first write (a write's every statement
    is a share of its time)."""
    if conn.execute(_RENEW_GLANCE, {"branch": branch_id, "at": position, "digest": digest,
                                    "made_by": version, "text": text}).rowcount == 0:
        conn.execute(_KEEP_GLANCE, {"branch_id": branch_id, "position": position,
                                    "hash": digest, "version": version, "glance": text})


# Made once: every write keeps its branch's glance.
_GLANCE = sa.select(glances.c.glance).where(
    glances.c.branch_id == sa.bindparam("branch"), glances.c.position == sa.bindparam("at"),
    glances.c.hash == sa.bindparam("digest"), glances.c.version == sa.bindparam("made_by"))
_RENEW_GLANCE = sa.update(glances).where(glances.c.branch_id == sa.bindparam("branch")).values(
    position=sa.bindparam("at"), hash=sa.bindparam("digest"), version=sa.bindparam("made_by"),
    glance=sa.bindparam("text"))
_KEEP_GLANCE = sa.insert(glances)
