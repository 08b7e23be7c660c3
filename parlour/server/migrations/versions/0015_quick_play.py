"""Quick play (issue 34, item 5): who waits to be seated for a game and preset, with their
rating, until a look of theirs finds the table (parlour/server/people/quick.py).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_seeks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.Integer, sa.ForeignKey("parlour_accounts.id")),
        sa.Column("rating", sa.Float),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("table_id", sa.String(16)),
        sa.Column("seat", sa.Integer),
    )
    op.create_index("parlour_seeks_waiting", "parlour_seeks", ["game", "preset", "status"])
    op.create_index("parlour_seeks_client", "parlour_seeks", ["client", "status"])


def downgrade() -> None:
    op.drop_index("parlour_seeks_client", "parlour_seeks")
    op.drop_index("parlour_seeks_waiting", "parlour_seeks")
    op.drop_table("parlour_seeks")
