"""Correspondence tables (issue 34, item 4): a table's time per move, when the move it
awaits is due and whose move that is, so that a table waiting days for a person is a row
and not something a server holds (parlour/server/play/correspondence.py).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("move_seconds", sa.Integer))
        batch.add_column(sa.Column("deadline", sa.Float))
        batch.add_column(sa.Column("waiting_on", sa.Text))
    op.create_index("parlour_tables_deadline", "parlour_tables", ["deadline"])


def downgrade() -> None:
    op.drop_index("parlour_tables_deadline", "parlour_tables")
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("waiting_on")
        batch.drop_column("deadline")
        batch.drop_column("move_seconds")
