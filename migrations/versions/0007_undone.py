"""The positions each undo took back, a row apiece: which checkpoints an undo took back is
found among a few rows, not by reading every undo of a long campaign.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    undone = op.create_table(
        "undone",
        sa.Column("branch_id", sa.Integer, sa.ForeignKey("branches.id"), primary_key=True),
        sa.Column("undone", sa.Integer, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
    )
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT branch_id, position, payload FROM events WHERE type = 'retracted'")).all()
    found = []
    for branch_id, position, payload in rows:
        try:
            taken = json.loads(payload)["positions"]
        except (ValueError, KeyError, TypeError):  # a row edited outside spire: the audit's
            continue
        found += [{"branch_id": branch_id, "undone": int(p), "position": position}
                  for p in dict.fromkeys(taken)]
    if found:
        op.bulk_insert(undone, found)


def downgrade() -> None:
    op.drop_table("undone")
