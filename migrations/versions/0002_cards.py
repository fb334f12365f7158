"""The card catalog: the cards the players enter once, with their printed numbers.

Journal-wide reference data, not events: an encounter's event keeps its own copy of the
card, so replacing a card here never changes a past playthrough.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cards",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("game", "name", name="uq_card_name"),
    )


def downgrade() -> None:
    op.drop_table("cards")
