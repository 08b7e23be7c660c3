"""Presence says which table a page watches (issue 34, item 2): a friend who only watches
is shown at that table (parlour/server/people/social.py, tables_of).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_presence") as batch:
        batch.add_column(sa.Column("watching", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("parlour_presence") as batch:
        batch.drop_column("watching")
