"""When a table's lease passed to its current owner (epoch seconds by the database's clock):
how long a takeover left the table without an owner can then be read from the database.
Leases from before it have none until their table next changes hands.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_leases") as batch:
        batch.add_column(sa.Column("taken", sa.Float))


def downgrade() -> None:
    with op.batch_alter_table("parlour_leases") as batch:
        batch.drop_column("taken")
