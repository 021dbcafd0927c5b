"""The ``bots`` table, on its own so that the ratings can tell a bot's game from a person's
without importing the bots' store (which stands on the players' store)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Connection, select

from panal.server.database.columns import account_column, created_at_column
from panal.server.database.store import metadata

__all__ = ["bot_users", "bots_table"]

bots_table = sa.Table(
    "bots",
    metadata,
    account_column(primary_key=True),
    account_column("owner_id"),
    sa.Column("token_hash", sa.String(64)),  # SHA-256 of the API token; NULL: revoked
    sa.Column("limits", sa.Text, nullable=False),  # BotLimits as JSON
    sa.Column("engine", sa.Text),  # the engine it last reported: name, version, options
    created_at_column(),
    sa.Index("bots_by_token", "token_hash", unique=True),
    sa.Index("bots_by_owner", "owner_id"),
)


def bot_users(conn: Connection, user_ids: list[int]) -> set[int]:
    """Which of these accounts are bots."""
    if not user_ids:
        return set()
    rows = conn.execute(select(bots_table.c.user_id).where(bots_table.c.user_id.in_(user_ids)))
    return {row.user_id for row in rows}
