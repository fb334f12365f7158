"""Glances: what `spire status` shows of a branch at its head, kept beside its events.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "glances",
        sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("version", sa.String(40), nullable=False),
        sa.Column("glance", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("glances")
