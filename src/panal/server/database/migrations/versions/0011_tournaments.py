"""Tournaments (issue 22): ``tournaments``, ``tournament_players`` and ``tournament_pairings``.

A pairing's primary key is ``(tournament_id, round, user_id)``: a player is paired once per
round, however many processes try.

Revision ID: 0011_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import (
    account_column,
    created_at_column,
    id_column,
    time_column,
    updated_at_column,
)

revision = "0011_tournaments"
down_revision = "0010_trainer"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        id_column(),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("cycles", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer),
        sa.Column("minutes", sa.Integer),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("time_control", sa.String(64), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        time_column("starts_at", nullable=True),
        sa.Column("start_when_full", sa.Boolean, nullable=False),
        sa.Column("no_show_seconds", sa.Float, nullable=False),
        account_column("creator_id"),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        time_column("round_started_at", nullable=True),
        time_column("ends_at", nullable=True),
        created_at_column(),
        updated_at_column(),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("tournaments_by_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        account_column(primary_key=True),
        time_column("joined_at"),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        account_column(primary_key=True),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("opponent_id", sa.Integer),
        sa.Column("color", sa.Integer),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id")),
        sa.Column("points", sa.Float),
        sa.Column("counted", sa.Boolean, nullable=False),
    )
    op.create_index("tournament_pairings_by_game", "tournament_pairings", ["game_id"])


def downgrade() -> None:
    op.drop_index("tournament_pairings_by_game", "tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_players")
    op.drop_index("tournaments_by_status", "tournaments")
    op.drop_table("tournaments")
