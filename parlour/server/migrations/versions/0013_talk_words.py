"""Free text in table talk (issue 34): ``parlour_talk_words`` keeps the moderators' changes
to the word filter (a word added, or a listed word let through), and a report may carry the
message it is about (``parlour_reports.message``, as the server sent it).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_talk_words",
        sa.Column("word", sa.String(60), primary_key=True),
        sa.Column("allowed", sa.Boolean(), nullable=False),
        sa.Column("operator", sa.String(80), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("parlour_reports") as batch:
        batch.add_column(sa.Column("message", sa.String(200)))


def downgrade() -> None:
    with op.batch_alter_table("parlour_reports") as batch:
        batch.drop_column("message")
    op.drop_table("parlour_talk_words")
