"""A solitaire's figures get their own columns (issue 33): ``win_rate`` and ``mean_score``
in ``parlour_ratings`` and ``parlour_rating_history``, where a game rated by win rate (the
``rated_by`` trait of its spec) keeps its figures; ``mu`` and ``sigma`` stay OpenSkill's and
are empty for such a game. Foursquare, the one solitaire when this ran, kept its win rate
in ``mu`` and its mean score in ``sigma``: they move over.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

TABLES = ("parlour_ratings", "parlour_rating_history")
#: The games measured by win rate when this migration was written (a migration keeps the
#: facts of its day: later games declare the trait and are written so from the start).
SOLITAIRES = ("foursquare",)


def upgrade() -> None:
    for name in TABLES:
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("win_rate", sa.Float()))
            batch.add_column(sa.Column("mean_score", sa.Float()))
            batch.alter_column("mu", existing_type=sa.Float(), nullable=True)
            batch.alter_column("sigma", existing_type=sa.Float(), nullable=True)
        table = sa.table(name, sa.column("game", sa.String()), sa.column("mu", sa.Float()),
                         sa.column("sigma", sa.Float()), sa.column("win_rate", sa.Float()),
                         sa.column("mean_score", sa.Float()))
        op.execute(table.update().where(table.c.game.in_(SOLITAIRES))
                   .values(win_rate=table.c.mu, mean_score=table.c.sigma))
        op.execute(table.update().where(table.c.game.in_(SOLITAIRES))
                   .values(mu=None, sigma=None))


def downgrade() -> None:
    for name in TABLES:
        table = sa.table(name, sa.column("game", sa.String()), sa.column("mu", sa.Float()),
                         sa.column("sigma", sa.Float()), sa.column("win_rate", sa.Float()),
                         sa.column("mean_score", sa.Float()))
        op.execute(table.update().where(table.c.win_rate.is_not(None))
                   .values(mu=table.c.win_rate, sigma=table.c.mean_score))
        op.execute(table.delete().where(table.c.mu.is_(None)))
        with op.batch_alter_table(name) as batch:
            batch.alter_column("mu", existing_type=sa.Float(), nullable=False)
            batch.alter_column("sigma", existing_type=sa.Float(), nullable=False)
            batch.drop_column("mean_score")
            batch.drop_column("win_rate")
