"""Players: accounts, sessions, sign-in failures, ratings and their history, the lobby's
challenges, and on each game its players' accounts, whether it is rated, its clock and a rematch.

Revision ID: 0004_players
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import (
    account_column,
    created_at_column,
    id_column,
    serial_id_column,
    time_column,
    updated_at_column,
)
from panal.server.database.released_tables import create_sign_in_failures

revision = "0004_players"
down_revision = "0003"
branch_labels = None
depends_on = None

GAME_COLUMNS = (
    ("white_user", sa.Integer),
    ("black_user", sa.Integer),
    ("time_control", sa.String(64)),
    ("white_clock", sa.Float),
    ("black_clock", sa.Float),
    ("clock_since", sa.Float),
    ("deadline", sa.Float),
    ("rematch_offer", sa.Integer),
    ("rematch_game", sa.String(16)),
)


def upgrade() -> None:
    op.create_table(
        "users",
        serial_id_column(),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        created_at_column(),
        sa.Column("language", sa.String(8)),
        sa.Column("look", sa.String(12)),
    )
    op.create_index("users_by_name_key", "users", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("key", sa.String(64), primary_key=True),
        account_column(),
        created_at_column(),
        time_column("expires_at"),
    )
    op.create_index("sessions_by_user", "sessions", ["user_id"])
    create_sign_in_failures()
    op.create_table(
        "ratings",
        account_column(primary_key=True),
        sa.Column("category", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float),
        sa.Column("games", sa.Integer, nullable=False),
        updated_at_column(),
    )
    op.create_table(
        "rating_history",
        serial_id_column(),
        account_column(),
        sa.Column("category", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(16)),
        time_column("at"),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("change", sa.Float, nullable=False),
    )
    op.create_index("rating_history_by_user", "rating_history", ["user_id", "category", "at"])
    op.create_index("rating_history_by_game", "rating_history", ["game_id"])
    op.create_table(
        "challenges",
        id_column(),
        created_at_column(),
        time_column("expires_at"),
        account_column("creator_id", nullable=True),
        sa.Column("creator_token", sa.String(64), nullable=False),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("options", sa.String(200), nullable=False),
        sa.Column("look", sa.String(12), nullable=False),
        sa.Column("time_control", sa.String(64)),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("color", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.String(16)),
    )
    op.create_index("challenges_by_status", "challenges", ["status", "expires_at"])
    op.create_table(
        "heartbeats",
        sa.Column("name", sa.String(16), primary_key=True),
        time_column("at"),
    )
    # Plain ADD COLUMNs (SQLite has them): a batch copy of ``games`` would trip the moves'
    # foreign key. The accounts' columns are indexed for the profile pages.
    for name, kind in GAME_COLUMNS:
        op.add_column("games", sa.Column(name, kind))
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("games_by_white_user", "games", ["white_user", "updated_at"])
    op.create_index("games_by_black_user", "games", ["black_user", "updated_at"])
    op.create_index("games_by_deadline", "games", ["deadline"])


def downgrade() -> None:
    for index in ("games_by_deadline", "games_by_black_user", "games_by_white_user"):
        op.drop_index(index, "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
        for name, _kind in reversed(GAME_COLUMNS):
            batch.drop_column(name)
    for table in (
        "heartbeats",
        "challenges",
        "rating_history",
        "ratings",
        "sign_in_failures",
        "sessions",
        "users",
    ):
        op.drop_table(table)
