"""Snapshots: projected state cached by (branch, position, projection version).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
