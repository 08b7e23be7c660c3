"""Who opened a table and whether searching bots sit at it, so that the open-table caps
are counted in the database, by every process alike (parlour.server.edge.limits.TableQuota):
``client`` is a hash of the opening client's key (never its address), ``searches`` says a
searching bot sits there. Tables from before it count towards the server's cap only.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("client", sa.String(32)))
        batch.add_column(sa.Column("searches", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_index("parlour_tables_open", "parlour_tables", ["status", "client"])


def downgrade() -> None:
    op.drop_index("parlour_tables_open", table_name="parlour_tables")
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("searches")
        batch.drop_column("client")
