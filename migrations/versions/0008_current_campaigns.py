"""The current campaign belongs to the person: a row for each database role (on a server)
or user of the machine (on a file), where it was one setting, `current_campaign`, for all.

On PostgreSQL every role may write its own row and no other's (row-level security), a
spectator's role too, which may write nothing else: choosing a campaign to look at is not
a write to the journal. The old setting stays, read for whoever has not chosen since.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "current_campaigns",
        sa.Column("person", sa.String(200), primary_key=True),
        sa.Column("campaign", sa.String(200), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE current_campaigns ENABLE ROW LEVEL SECURITY")
        op.execute("CREATE POLICY own_choice ON current_campaigns "
                   "USING (person = current_user) WITH CHECK (person = current_user)")
        op.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON current_campaigns TO PUBLIC")


def downgrade() -> None:
    op.drop_table("current_campaigns")
