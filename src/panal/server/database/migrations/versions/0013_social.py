"""The leaderboard, player search and archive filters (issue 25).

``games.speed`` is the speed of a game's clock (``TimeControl.speed``; NULL: untimed), kept in a
column so that the archive filters by speed with an index instead of parsing every row's
``time_control``; existing games get theirs here. ``ratings_by_category`` serves the
leaderboard (one category, best first).

Revision ID: 0013_social
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0013_social"
down_revision = "0012_bots"
branch_labels = None
depends_on = None

#: ``TimeControl.speed``'s rule as at this revision (a migration never changes with the code, and
#: the database layer knows no kind of room): a game's expected length ``base + 40 × increment``.
_SPEED_LIMITS = (("bullet", 180), ("blitz", 480), ("rapid", 1500))


def _speed(stored: str) -> str | None:
    try:
        control = json.loads(stored)
    except ValueError:
        return None
    if not isinstance(control, dict):
        return None
    if control.get("kind") == "correspondence":
        return "correspondence"
    base, increment = control.get("base"), control.get("increment", 0)
    if control.get("kind") != "realtime" or not isinstance(base, int):
        return None
    expected = base + 40 * (increment if isinstance(increment, int) else 0)
    return next((name for name, limit in _SPEED_LIMITS if expected < limit), "classic")


def upgrade() -> None:
    op.add_column("games", sa.Column("speed", sa.String(16)))
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("time_control", sa.String),
        sa.column("speed", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(games.c.id, games.c.time_control).where(games.c.time_control.is_not(None))
    ).all()
    for game_id, stored in rows:
        speed = _speed(stored)
        if speed is not None:
            conn.execute(sa.update(games).where(games.c.id == game_id).values(speed=speed))
    op.create_index("games_finished_by_speed", "games", ["speed", "updated_at"])
    op.create_index("ratings_by_category", "ratings", ["category", "rating"])


def downgrade() -> None:
    op.drop_index("ratings_by_category", "ratings")
    op.drop_index("games_finished_by_speed", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("speed")
