"""Who took each seat, as rated play's rule for accounts sharing an address needs it
(docs/players.md): ``client`` is a hash of the client's key (limits.client_hash, never the
address), kept after the person leaves until someone else takes the seat. Seats from
before it have none, and count as sharing nothing.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_seats") as batch:
        batch.add_column(sa.Column("client", sa.String(32)))


def downgrade() -> None:
    with op.batch_alter_table("parlour_seats") as batch:
        batch.drop_column("client")
