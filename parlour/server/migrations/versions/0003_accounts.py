"""People with an account: a unique name (case and look-alikes folded), an Argon2 password
hash, a role, and when an operator banned it or its owner deleted it; and the sessions
(a signed-in browser's cookie, stored hashed); and which account holds a seat.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("role", sa.String(12), nullable=False, server_default="player"),
        sa.Column("banned", sa.Float),
        sa.Column("deleted", sa.Float),
    )
    op.create_table(
        "parlour_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("parlour_sessions_account", "parlour_sessions", ["account_id"])
    with op.batch_alter_table("parlour_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("parlour_seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("parlour_sessions")
    op.drop_table("parlour_accounts")
