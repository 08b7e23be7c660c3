"""Puzzles (issue 35, item 1): the kept puzzles with their ratings, each signed-in
person's first try at each, and their puzzle rating (parlour/server/people/puzzles.py).
The shipped puzzles are loaded by the server as it starts, not here.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("themes", sa.String(200), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("source", sa.String(10), nullable=False),
        sa.Column("table_id", sa.String(16)),
        sa.Column("match", sa.Integer),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_puzzles_game", "parlour_puzzles", ["game", "mu"])
    op.create_table(
        "parlour_puzzle_tries",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("parlour_puzzles.id"),
                  primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("played", sa.String(40), nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=False),
        sa.Column("rating_after", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("parlour_puzzle_tries_recent", "parlour_puzzle_tries",
                    ["account_id", "created"])
    op.create_table(
        "parlour_puzzle_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"),
                  primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_puzzle_ratings")
    op.drop_index("parlour_puzzle_tries_recent", "parlour_puzzle_tries")
    op.drop_table("parlour_puzzle_tries")
    op.drop_index("parlour_puzzles_game", "parlour_puzzles")
    op.drop_table("parlour_puzzles")
