"""The schema as it was before migrations: tables, seats, matches, deals, secrets, actions.

A database made before Alembic has exactly these tables and no ``alembic_version``: it is
stamped with this revision and upgraded from here (see
:func:`parlour.server.storage.schema.prepare`).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("num_seats", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("match", sa.Integer, nullable=False),
    )
    op.create_table(
        "parlour_seats",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(40)),
        sa.Column("name", sa.String(40)),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_table(
        "parlour_matches",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("result", sa.Text),
    )
    op.create_table(
        "parlour_deals",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("deal", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "parlour_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "parlour_actions",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
