"""People with an account: a unique name (case and look-alikes folded), an Argon2 password
hash, a role, and when an operator banned it or its owner deleted it; and the sessions
(a signed-in browser's cookie, stored hashed); and which account holds a seat. Recovery
codes (hashed), reports, mutes and the operators' admin log.

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
    op.create_index("parlour_seats_account", "parlour_seats", ["account_id"])
    op.create_table(
        "parlour_recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_recovery_codes_account", "parlour_recovery_codes",
                    ["account_id"])
    op.create_table(
        "parlour_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40)),
        sa.Column("account_id", sa.Integer),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("note", sa.String(500)),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "parlour_mutes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("muted_account", sa.Integer),
        sa.Column("table_id", sa.String(16)),
        sa.Column("seat", sa.Integer),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_mutes_account", "parlour_mutes", ["account_id"])
    op.create_table(
        "parlour_admin_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("detail", sa.String(200), nullable=False),
        sa.Column("operator", sa.String(80), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_admin_log")
    op.drop_table("parlour_mutes")
    op.drop_table("parlour_reports")
    op.drop_table("parlour_recovery_codes")
    op.drop_index("parlour_seats_account", "parlour_seats")
    with op.batch_alter_table("parlour_seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("parlour_sessions")
    op.drop_table("parlour_accounts")
