"""The journal's tables, as SQLAlchemy Core describes them, and the columns read back."""

from __future__ import annotations

import sqlalchemy as sa

from journal.core.chain import RawEvent

NAME_LONGEST = 200
"""The most characters in a campaign's, branch's or checkpoint's name (its columns')."""

metadata = sa.MetaData()
campaigns = sa.Table(
    "campaigns", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(NAME_LONGEST), nullable=False, unique=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("current_branch", sa.String(NAME_LONGEST), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
branches = sa.Table(
    "branches", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id"), nullable=False),
    sa.Column("name", sa.String(NAME_LONGEST), nullable=False),
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
    sa.Column("name", sa.String(NAME_LONGEST), nullable=False),
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
current_campaigns = sa.Table(
    "current_campaigns", metadata,
    # Each person's current campaign: the database role's on a server, the machine's
    # user's on a file (where `settings` kept one for everyone before revision 0008).
    sa.Column("person", sa.String(200), primary_key=True),
    sa.Column("campaign", sa.String(NAME_LONGEST), nullable=False),
)
cards = sa.Table(
    "cards", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("name", sa.String(NAME_LONGEST), nullable=False),
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
