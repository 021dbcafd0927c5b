"""Enjambre Tácticas tables: the table, its seats, its games and every game's action log.

A table is stored as the engine's action log (``panal.enjambre.GameLog``): each game's seed and
first player, and its actions in order. ``version`` on the table is the compare-and-set: an
action is accepted only if it extends the stored log. Seat tokens and invitation codes are kept
as SHA-256 hashes.

Revision ID: 0005_enjambre
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

revision = "0005_enjambre"
down_revision = "0004_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "enjambre_tables",
        id_column(),
        created_at_column(),
        updated_at_column(),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(12), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("replace_after", sa.Float),
        sa.Column("waiting_for", sa.String(32)),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("enjambre_tables_by_status", "enjambre_tables", ["status", "updated_at"])
    op.create_table(
        "enjambre_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("enjambre_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(16)),
        sa.Column("token", sa.String(64)),
        sa.Column("invite", sa.String(64)),
        sa.Column("name", sa.String(40)),
        time_column("seen_at", nullable=True),
        sa.Column("replaced", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "enjambre_games",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("enjambre_tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("first_player", sa.Integer, nullable=False),
        sa.Column("result", sa.Text),
    )
    op.create_table(
        "enjambre_actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("enjambre_tables.id"), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        time_column("played_at"),
    )


def downgrade() -> None:
    op.drop_table("enjambre_actions")
    op.drop_table("enjambre_games")
    op.drop_table("enjambre_seats")
    op.drop_index("enjambre_tables_by_status", "enjambre_tables")
    op.drop_table("enjambre_tables")
