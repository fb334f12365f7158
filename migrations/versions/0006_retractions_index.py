"""Index the retractions alone, not every event by type: the index that finds a branch's
undos no longer grows with each roll, lock and note appended or imported.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

RETRACTIONS = sa.text("type = 'retracted'")


def upgrade() -> None:
    op.drop_index("ix_events_branch_type", table_name="events")
    op.create_index("ix_events_retractions", "events", ["branch_id", "position"],
                    sqlite_where=RETRACTIONS, postgresql_where=RETRACTIONS)


def downgrade() -> None:
    op.drop_index("ix_events_retractions", table_name="events")
    op.create_index("ix_events_branch_type", "events", ["branch_id", "type"])
