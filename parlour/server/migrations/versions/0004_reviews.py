"""Post-game reviews, stored with their match: one per table, match and reviewed seat, the
review's JSON (``parlour.analysis.review.Review.to_json``) with the budget it was made at;
and whether a table gives hints (on for every table made before: none was compared).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_reviews",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("budget", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("review", sa.Text, nullable=False),
    )
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("hints")
    op.drop_table("parlour_reviews")
