"""Bots and the engine ladder: a bot is an account owned by a person's account, signed in by an
API token (the database keeps its SHA-256 hash), with the limits of the challenges it accepts
and the engine it last reported; the ladder's entries and its games (each pair of games shares
an opening, colours swapped).

Revision ID: 0012_bots
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import account_column, created_at_column, time_column

revision = "0012_bots"
down_revision = "0011_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bots",
        account_column(primary_key=True),
        account_column("owner_id"),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("limits", sa.Text, nullable=False),
        sa.Column("engine", sa.Text),
        created_at_column(),
    )
    op.create_index("bots_by_token", "bots", ["token_hash"], unique=True)
    op.create_index("bots_by_owner", "bots", ["owner_id"])
    op.create_table(
        "ladder_entries",
        account_column(primary_key=True),
        time_column("joined_at"),
        time_column("seen_at"),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("pair", sa.String(16)),
    )
    op.create_table(
        "ladder_games",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("pair", sa.String(16), nullable=False),
        created_at_column(),
        sa.Column("opening", sa.Text, nullable=False),
    )
    op.create_index("ladder_games_by_pair", "ladder_games", ["pair"])


def downgrade() -> None:
    op.drop_table("ladder_games")
    op.drop_table("ladder_entries")
    op.drop_table("bots")
