"""The life of a table: listed or private, compared (rated/daily: kept and never degraded),
the turn timer, the creator's seat, and when and why it ended.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False,
                                   server_default=sa.true()))
        batch.add_column(sa.Column("compared", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("turn_seconds", sa.Integer))
        batch.add_column(sa.Column("creator", sa.Integer))
        batch.add_column(sa.Column("ended", sa.Float))
        batch.add_column(sa.Column("note", sa.String(40)))
    op.create_index("parlour_tables_status", "parlour_tables", ["status", "ended"])
    op.execute("UPDATE parlour_tables SET ended = (SELECT MAX(m.finished) FROM parlour_matches m"
               " WHERE m.table_id = parlour_tables.id) WHERE status = 'finished'")
