"""Ratings, statistics and daily deals (the players issue): a table may be rated (its
results change ratings) or a day's daily deal; each account's rating per game and its
history; each account's finished matches with their counts (the statistics); and the
daily tries.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("daily", sa.String(10)))
    op.create_table(
        "parlour_ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("parlour_ratings_game", "parlour_ratings", ["game", "matches"])
    op.create_table(
        "parlour_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(16)),
        sa.Column("match", sa.Integer),
    )
    op.create_index("parlour_rating_history_account", "parlour_rating_history",
                    ["account_id", "game", "at"])
    op.create_table(
        "parlour_player_matches",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("won", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("points", sa.Float),
        sa.Column("counts", sa.Text),
    )
    op.create_index("parlour_player_matches_account", "parlour_player_matches",
                    ["account_id", "game", "finished"])
    op.create_table(
        "parlour_daily",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("result", sa.Float),
        sa.Column("finished", sa.Float),
    )
    op.create_index("parlour_daily_board", "parlour_daily", ["day", "game", "result"])
    op.create_index("parlour_daily_account", "parlour_daily", ["account_id", "day"])


def downgrade() -> None:
    op.drop_table("parlour_daily")
    op.drop_table("parlour_player_matches")
    op.drop_table("parlour_rating_history")
    op.drop_table("parlour_ratings")
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("daily")
        batch.drop_column("rated")
