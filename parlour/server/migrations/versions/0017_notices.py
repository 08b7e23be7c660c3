"""Notices (issue 34, item 2): a turn or rematch told while Redis did not take it for the
other processes, kept ten minutes so that a page polling the room there shows it
(parlour/server/people/presence.py).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_notices_account", "parlour_notices", ["account_id", "created"])


def downgrade() -> None:
    op.drop_index("parlour_notices_account", "parlour_notices")
    op.drop_table("parlour_notices")
