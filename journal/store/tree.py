"""The journal's campaigns, the branches of each, and the checkpoints on them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import sqlalchemy as sa

from journal.core import chain
from journal.core.chain import Mark, RawEvent, Section
from journal.errors import BadInput, NotFound, meant
from journal.store.codec import branch_of
from journal.store.database import Database
from journal.store.log import lineage
from journal.store.records import Branch, Campaign, NewEvent
from journal.store.schema import branches, campaigns, checkpoints, undone
from journal.store.writing import Writer


class Tree:
    """Campaigns and their branches: found, made, renamed, switched; and checkpoints."""

    def __init__(self, db: Database, writer: Writer) -> None:
        self.db = db
        self.writer = writer

    # -- campaigns ----------------------------------------------------------------------

    def campaigns(self) -> list[Campaign]:
        with self.db.reading() as conn:
            rows = conn.execute(sa.select(campaigns).order_by(campaigns.c.id)).all()
        return [Campaign(**row._mapping) for row in rows]

    def campaign(self, name: str) -> Campaign:
        with self.db.reading() as conn:
            row = conn.execute(_CAMPAIGN, {"name": name}).first()
        if row is None:
            raise self._no_campaign(name)
        return Campaign(**row._mapping)

    def _no_campaign(self, name: str) -> NotFound:
        """There is no campaign `name`: the closest name, if one is close."""
        named = meant(name, (c.name for c in self.campaigns()), "`spire campaigns` lists them")
        return NotFound(f"no campaign named {name!r}; {named}")

    def _no_branch(self, campaign: Campaign, name: str) -> NotFound:
        """`campaign` has no branch `name`: the closest name, if one is close."""
        named = meant(name, (b.name for b in self.branches(campaign)),
                      "`spire branches` lists them")
        return NotFound(f"campaign {campaign.name!r} has no branch named {name!r}; {named}")

    def create_campaign(
        self, name: str, game: str, first: Sequence[NewEvent], created_at: datetime,
        recorded: Iterable[RawEvent | Section | Mark] = (),
    ) -> Campaign:
        """A new campaign with its `main` branch holding `first` (or, for an import, the
        already-chained `recorded` events, read as they come, in one transaction: an error
        raised while they are read writes nothing; a `Section` among them begins another
        branch) and a `start` checkpoint."""
        stamp = created_at.isoformat()
        with self.db.writing() as conn:
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
                self.writer.appended(conn, branch, 0, first)
            else:
                self.writer.insert_recorded(conn, branch, recorded, stamp)
            if not conn.scalar(sa.select(checkpoints.c.id).where(  # an import may carry it
                    checkpoints.c.branch_id == branch_id, checkpoints.c.name == "start")):
                conn.execute(sa.insert(checkpoints).values(
                    branch_id=branch_id, name="start", position=1, created_at=stamp))
        return Campaign(campaign_id, name, game, "main", stamp)

    def campaign_at(self, name: str, branch: str | None = None) -> tuple[Campaign, Branch]:
        """Campaign `name` and one of its branches (its current one unless named), read
        together: one statement where a command found each with its own."""
        if self.db.holding:  # the branch's row lock too, which an outer join cannot take
            campaign = self.campaign(name)
            return campaign, self.branch(campaign, branch)
        with self.db.reading() as conn:
            row = conn.execute(_CAMPAIGN_AT, {"name": name, "branch": branch or None}).first()
        if row is None:
            raise self._no_campaign(name)
        campaign = Campaign(row.id, row.name, row.game, row.current_branch, row.created_at)
        if row.branch_id is None:
            raise self._no_branch(campaign, branch or campaign.current_branch)
        return campaign, Branch(row.branch_id, row.id, row.branch_name, row.parent_id,
                                row.fork_position, row.head_position, row.head_hash)

    # -- branches -----------------------------------------------------------------------

    def branch(self, campaign: Campaign, name: str | None = None) -> Branch:
        name = name or campaign.current_branch
        # Holding the write lock: the row lock too, where the database has one.
        query = _BRANCH_HELD if self.db.holding else _BRANCH
        with self.db.reading() as conn:
            row = conn.execute(query, {"campaign": campaign.id, "name": name}).first()
        if row is None:
            raise self._no_branch(campaign, name)
        return branch_of(row)

    def branches(self, campaign: Campaign) -> list[Branch]:
        with self.db.reading() as conn:
            rows = conn.execute(sa.select(branches).where(
                branches.c.campaign_id == campaign.id).order_by(branches.c.id)).all()
        return [branch_of(row) for row in rows]

    def branch_by_id(self, branch_id: int) -> Branch:
        with self.db.reading() as conn:
            return branch_of(
                conn.execute(sa.select(branches).where(branches.c.id == branch_id)).one())

    def create_branch(
        self, campaign: Campaign, name: str, parent: Branch, fork: int, fork_hash: str,
        at: datetime,
    ) -> Branch:
        """A branch that shares `parent`'s events up to `fork` and continues its chain."""
        with self.db.writing() as conn:
            taken = conn.scalar(sa.select(branches.c.id).where(
                branches.c.campaign_id == campaign.id, branches.c.name == name))
            if taken:
                raise BadInput(f"campaign {campaign.name!r} has a branch named {name!r} already")
            made = conn.execute(sa.insert(branches).values(
                campaign_id=campaign.id, name=name, parent_id=parent.id, fork_position=fork,
                head_position=fork, head_hash=fork_hash, created_at=at.isoformat(),
            ).returning(branches.c.id))
            self.db.moved[int(made.scalar_one())] = None
        return self.branch(campaign, name)

    def rename_branch(self, campaign: Campaign, old: str, new: str) -> Branch:
        """Rename a branch (and the campaign's current branch, if it is that one); the
        seal keeps its head under the new name."""
        with self.db.writing() as conn:
            found = conn.scalar(sa.select(branches.c.id).where(
                branches.c.campaign_id == campaign.id, branches.c.name == old))
            if found is None:
                raise self._no_branch(campaign, old)
            if conn.scalar(sa.select(branches.c.id).where(
                    branches.c.campaign_id == campaign.id, branches.c.name == new)):
                raise BadInput(f"campaign {campaign.name!r} has a branch named {new!r} already")
            conn.execute(sa.update(branches).where(branches.c.id == found).values(name=new))
            conn.execute(sa.update(campaigns).where(
                campaigns.c.id == campaign.id, campaigns.c.current_branch == old,
            ).values(current_branch=new))
            self.db.keeper.renamed(campaign.name, old, new)
        return self.branch(campaign, new)

    def set_current_branch(self, campaign: Campaign, name: str) -> None:
        with self.db.writing() as conn:
            conn.execute(sa.update(campaigns).where(campaigns.c.id == campaign.id).values(
                current_branch=name))

    # -- checkpoints --------------------------------------------------------------------

    def add_checkpoint(self, branch: Branch, name: str, position: int, at: datetime) -> None:
        """Mark `position` as `name`, in place of a checkpoint of that name the branch holds
        at an event an undo took back (it no longer counts, so its name is free); one that
        counts (another player's, made meanwhile) is refused."""
        with self.db.writing() as conn:
            held = conn.scalar(sa.select(checkpoints.c.position).where(
                checkpoints.c.branch_id == branch.id, checkpoints.c.name == name))
            if held is not None:
                if conn.scalar(sa.select(undone.c.undone).where(
                        undone.c.branch_id == branch.id, undone.c.undone == held).limit(1)) is None:
                    raise BadInput(f"checkpoint {name!r} exists already; choose another name")
                conn.execute(sa.delete(checkpoints).where(
                    checkpoints.c.branch_id == branch.id, checkpoints.c.name == name))
            conn.execute(sa.insert(checkpoints).values(
                branch_id=branch.id, name=name, position=position, created_at=at.isoformat()))
            head = conn.execute(sa.select(branches.c.head_position, branches.c.head_hash).where(
                branches.c.id == branch.id)).one()
            self.db.moved.setdefault(branch.id, (head.head_position, head.head_hash))  # sealed

    def own_checkpoints(self, branch: Branch) -> list[Mark]:
        """The checkpoints `branch` itself holds (not its ancestors'), in position order."""
        with self.db.reading() as conn:
            rows = conn.execute(sa.select(
                checkpoints.c.name, checkpoints.c.position, checkpoints.c.created_at,
            ).where(checkpoints.c.branch_id == branch.id, checkpoints.c.position <= branch.head,
                    ).order_by(checkpoints.c.position, checkpoints.c.id)).all()
        return [Mark(r.name, r.position, r.created_at) for r in rows]

    def checkpoints(self, branch: Branch) -> list[tuple[str, int, str]]:
        """The checkpoints `branch` sees: its own, and its ancestors' up to each fork."""
        with self.db.reading() as conn:
            found: list[tuple[str, int, str]] = []
            for owner, limit in lineage(conn, branch):
                found += [(r.name, r.position, r.created_at) for r in
                          conn.execute(_CHECKPOINTS, {"owner": owner, "limit": limit})]
        unique: dict[str, tuple[str, int, str]] = {}
        for mark in found:
            unique.setdefault(mark[0], mark)  # a branch's own checkpoint wins over an ancestor's
        return sorted(unique.values(), key=lambda c: (c[1], c[0]))


# Made once: every command looks up its campaign and branch.
_CAMPAIGN = sa.select(campaigns).where(campaigns.c.name == sa.bindparam("name"))
_BRANCH = sa.select(branches).where(
    branches.c.campaign_id == sa.bindparam("campaign"), branches.c.name == sa.bindparam("name"))
_BRANCH_HELD = _BRANCH.with_for_update()
_CAMPAIGN_AT = sa.select(
    campaigns, branches.c.id.label("branch_id"), branches.c.name.label("branch_name"),
    branches.c.parent_id, branches.c.fork_position, branches.c.head_position,
    branches.c.head_hash,
).outerjoin(branches, sa.and_(
    branches.c.campaign_id == campaigns.c.id,
    branches.c.name == sa.func.coalesce(sa.bindparam("branch", type_=sa.String),
                                        campaigns.c.current_branch),
)).where(campaigns.c.name == sa.bindparam("name"))
"""A campaign and one of its branches, its current one unless named (`campaign_at`)."""
_CHECKPOINTS = sa.select(
    checkpoints.c.name, checkpoints.c.position, checkpoints.c.created_at,
).where(checkpoints.c.branch_id == sa.bindparam("owner"),
        checkpoints.c.position <= sa.bindparam("limit"))
