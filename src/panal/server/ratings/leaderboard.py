"""The leaderboard: one rating category's accounts, best first, a page at a time.

As on lichess, a provisional rating (a deviation of :data:`PROVISIONAL_DEVIATION` or more, shown
with a "?") is not ranked: those players are listed apart, most games first. Hive's categories
are Glicko-2 ratings ranked by rating; Enjambre's are OpenSkill ratings ranked by what players
read, μ − 3σ (:class:`TableRating`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Engine, Table, func, select

from panal.server.hive_games.clock import SPEEDS
from panal.server.ratings.glicko2 import (
    PROVISIONAL_DEVIATION,
    TABLE_SCALE,
    Glicko2,
    TableRating,
)
from panal.server.ratings.rating_store import HIVE_CATEGORY, TABLE_CATEGORY, ratings_table

__all__ = ["GAMES", "LeaderboardPage", "category_of", "leaderboard"]

#: The games that have leaderboards: Hive (one per speed) and Enjambre Tácticas (one).
GAMES = ("hive", "enjambre")


def category_of(game: str, speed: str | None) -> str | None:
    """The rating category of a game and speed; ``None`` when there is no such leaderboard."""
    if game == "hive" and speed in SPEEDS:
        return HIVE_CATEGORY.format(speed=speed)
    if game == "enjambre" and speed in (None, ""):
        return TABLE_CATEGORY
    return None


@dataclass(frozen=True)
class LeaderboardPage:
    total: int
    players: list[dict[str, Any]]


def leaderboard(
    engine: Engine,
    users: Table,
    category: str,
    *,
    provisional: bool,
    limit: int,
    offset: int,
) -> LeaderboardPage:
    """One page of ``category``'s ranked players (``provisional``: of those listed apart).
    ``users`` is the accounts' table (its ``id`` and ``name``)."""
    r = ratings_table.c
    table = category == TABLE_CATEGORY
    deviation: ColumnElement[Any] = r.deviation * TABLE_SCALE if table else r.deviation
    uncertain = deviation >= PROVISIONAL_DEVIATION
    where = [r.category == category, uncertain if provisional else ~uncertain]
    strength = r.rating - 3.0 * r.deviation if table else r.rating
    order = (
        (r.games.desc(), users.c.name_key) if provisional else (strength.desc(), users.c.name_key)
    )
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(ratings_table).where(*where))
        count = total.scalar_one()
        rows = conn.execute(
            select(r.rating, r.deviation, r.volatility, r.games, users.c.name)
            .join(users, users.c.id == r.user_id)
            .where(*where)
            .order_by(*order)
            .limit(limit)
            .offset(offset)
        ).all()
    players = []
    for place, row in enumerate(rows, offset + 1):
        if table:
            rating = TableRating(row.rating, row.deviation)
            shown, value = rating.shown_text(), float(rating.shown)
        else:
            glicko = Glicko2(row.rating, row.deviation)
            shown, value = glicko.shown(), round(row.rating, 1)
        players.append(
            {
                "rank": None if provisional else place,
                "name": row.name,
                "rating": value,
                "shown": shown,
                "provisional": provisional,
                "games": row.games,
            }
        )
    return LeaderboardPage(count, players)
