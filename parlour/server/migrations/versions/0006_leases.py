"""Leases: which server process owns each table, and its fencing token.

One row per table: the owning process (``owner``), the fencing token (grows by one with
each new owner) and when the lease runs out (seconds since the epoch, by the database's
clock). Every write of a table's log checks the token in the same transaction
(:mod:`parlour.server.cluster.lease`). Existing tables get a lease nobody holds, run out, so the
first process that looks takes it.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("parlour_leases_owner", "parlour_leases", ["owner"])
    op.create_index("parlour_leases_expires", "parlour_leases", ["expires"])
    op.execute("INSERT INTO parlour_leases (table_id, owner, token, expires) "
               "SELECT id, '', 0, 0 FROM parlour_tables")


def downgrade() -> None:
    op.drop_index("parlour_leases_expires", "parlour_leases")
    op.drop_index("parlour_leases_owner", "parlour_leases")
    op.drop_table("parlour_leases")
