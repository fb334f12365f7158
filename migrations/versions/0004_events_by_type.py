"""Index events by (branch, type): the retractions of a long branch are found without
reading the rest of it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_events_branch_type", "events", ["branch_id", "type"])


def downgrade() -> None:
    op.drop_index("ix_events_branch_type", table_name="events")
