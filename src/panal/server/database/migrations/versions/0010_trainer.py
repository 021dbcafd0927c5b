"""The trainer: each puzzle's Glicko-2 rating, every account's first try at a puzzle, and the
tutorial's lessons each account has completed. A player's own puzzle rating is a row of
``ratings`` (category ``puzzle``), like a game rating.

Revision ID: 0010_trainer
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import account_column, time_column, updated_at_column

revision = "0010_trainer"
down_revision = "0009_analysisweb"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        updated_at_column(),
    )
    op.create_table(
        "puzzle_attempts",
        account_column(primary_key=True),
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        time_column("at"),
        sa.Column("solved", sa.Boolean, nullable=False),
    )
    op.create_table(
        "lesson_progress",
        account_column(primary_key=True),
        sa.Column("lesson_id", sa.String(40), primary_key=True),
        time_column("at"),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
