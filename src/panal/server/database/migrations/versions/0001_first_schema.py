"""The first schema that shipped (commit 51a68b4): games and their moves.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import (
    created_at_column,
    id_column,
    time_column,
    updated_at_column,
)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        id_column(),
        created_at_column(),
        updated_at_column(),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("tournament_opening", sa.Boolean, nullable=False),
        sa.Column("repetition_draw", sa.Boolean, nullable=False),
        sa.Column("mode", sa.String(12), nullable=False),
        sa.Column("look", sa.String(12), nullable=False),
        sa.Column("ai_level", sa.String(32)),
        sa.Column("ai_color", sa.Integer),
        sa.Column("white_token", sa.String(64)),
        sa.Column("black_token", sa.String(64)),
        sa.Column("invite_code", sa.String(64)),
        sa.Column("result", sa.String(16)),
        sa.Column("end_reason", sa.String(16)),
        sa.Column("draw_offer", sa.Integer),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("headers", sa.Text),
    )
    op.create_index("games_by_update", "games", ["updated_at"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(64), nullable=False),
        time_column("played_at"),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
