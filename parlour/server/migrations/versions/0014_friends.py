"""Friends, blocks, presence and challenges (issue 34, items 2 and 3): who follows whom
(two people following each other are friends), who blocked whom, which processes have a
page of the parlour open for an account (its presence), a friend's challenge to a game,
and the account's choice to be shown online to people who are not its friends.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.add_column(sa.Column("show_online", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    op.create_table(
        "parlour_follows",
        sa.Column("follower", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("followed", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_follows_followed", "parlour_follows", ["followed"])
    op.create_table(
        "parlour_blocks",
        sa.Column("blocker", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("blocked", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_blocks_blocked", "parlour_blocks", ["blocked"])
    op.create_table(
        "parlour_presence",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "parlour_challenges",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("challenger", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("challenged", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("speed", sa.String(10)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("answered", sa.Float),
        sa.Column("table_id", sa.String(16)),
    )
    op.create_index("parlour_challenges_challenged", "parlour_challenges",
                    ["challenged", "status"])
    op.create_index("parlour_challenges_challenger", "parlour_challenges",
                    ["challenger", "status"])


def downgrade() -> None:
    op.drop_table("parlour_challenges")
    op.drop_table("parlour_presence")
    op.drop_table("parlour_blocks")
    op.drop_table("parlour_follows")
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.drop_column("show_online")
