"""The analysis board: analyses cached by position, each board's engine job, game reviews
(see :mod:`panal.server.analysis.analysis_store`).

Revision ID: 0009_analysisweb
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import created_at_column, id_column, updated_at_column

revision = "0009_analysisweb"
down_revision = "0008_signin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_positions",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("nodes", sa.Integer, nullable=False),
        sa.Column("analysis", sa.Text, nullable=False),
        created_at_column(),
    )
    op.create_table(
        "analysis_engines",
        sa.Column("client", sa.String(32), primary_key=True),
        sa.Column("job_id", sa.String(64)),
        updated_at_column(),
    )
    op.create_table(
        "game_reviews",
        id_column(),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("nodes_per_ply", sa.Integer, nullable=False),
        sa.Column("review", sa.Text),
        sa.Column("error", sa.Text),
        created_at_column(),
        updated_at_column(),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")
    op.drop_table("analysis_engines")
    op.drop_table("analysis_positions")
