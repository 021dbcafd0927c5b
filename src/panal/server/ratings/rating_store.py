"""Ratings in the database: each account's rating per category and its history, changed in
the transaction that writes a game's or a table's result (so once, whichever process writes
it; the rows are locked in user order)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from panal.server.database.store import metadata
from panal.server.hive_games.clock import TimeControl
from panal.server.hive_games.game_store import games_table
from panal.server.ratings.glicko2 import Glicko2, TableRating, rate_game, rate_table

__all__ = [
    "HIVE_CATEGORY",
    "TABLE_CATEGORY",
    "hive_category",
    "rate_table_game",
    "rating_history_table",
    "ratings_table",
    "settle_ratings",
    "shown_table_ratings",
]

HIVE_CATEGORY = "hive:{speed}"
#: The rating category of Enjambre Tácticas tables (OpenSkill, see :func:`rate_table_game`).
TABLE_CATEGORY = "enjambre"

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("category", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

rating_history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("category", sa.String(32), nullable=False),
    sa.Column("game_id", sa.String(16)),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("change", sa.Float, nullable=False),
    sa.Index("rating_history_by_user", "user_id", "category", "at"),
    sa.Index("rating_history_by_game", "game_id"),
)


def hive_category(control: TimeControl) -> str:
    return HIVE_CATEGORY.format(speed=control.speed)


def _insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """Insert rows, leaving those whose key exists (a first rating, made by two games at once)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(table).values(rows).on_conflict_do_nothing())


def _locked_ratings(
    conn: Connection, user_ids: list[int], category: str, initial: dict[str, Any]
) -> dict[int, Any]:
    """The players' rating rows, made if missing, locked until the transaction ends (in user
    order, so two transactions never wait for each other in a circle)."""
    now = time.time()
    _insert_ignore(
        conn,
        ratings_table,
        [
            {"user_id": u, "category": category, "games": 0, "updated_at": now, **initial}
            for u in sorted(user_ids)
        ],
    )
    query = (
        select(ratings_table)
        .where(ratings_table.c.user_id.in_(user_ids), ratings_table.c.category == category)
        .order_by(ratings_table.c.user_id)
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return {row.user_id: row for row in conn.execute(query)}


def _write_rating(
    conn: Connection,
    user_id: int,
    category: str,
    before: Any,
    rating: float,
    deviation: float,
    volatility: float | None,
    game_id: str,
    now: float,
    shown: tuple[float, float] | None = None,
) -> None:
    """Store a player's new rating and a line of its history: the rating and its change, or
    ``shown`` (the rating as players read it and its change) where that is on another scale."""
    shown_rating, shown_change = shown or (rating, rating - before.rating)
    conn.execute(
        update(ratings_table)
        .where(ratings_table.c.user_id == user_id, ratings_table.c.category == category)
        .values(
            rating=rating,
            deviation=deviation,
            volatility=volatility,
            games=before.games + 1,
            updated_at=now,
        )
    )
    conn.execute(
        insert(rating_history_table).values(
            user_id=user_id,
            category=category,
            game_id=game_id,
            at=now,
            rating=shown_rating,
            deviation=deviation,
            change=shown_change,
        )
    )


def settle_ratings(conn: Connection, game_id: str) -> bool:
    """In the transaction that writes a game's result: change both players' Glicko-2 ratings
    if the game was rated and played between two accounts. True when ratings changed."""
    game = conn.execute(
        select(
            games_table.c.rated,
            games_table.c.result,
            games_table.c.white_user,
            games_table.c.black_user,
            games_table.c.time_control,
        ).where(games_table.c.id == game_id)
    ).first()
    if game is None or not game.rated or game.time_control is None:
        return False
    white, black = game.white_user, game.black_user
    score = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}.get(game.result or "")
    if white is None or black is None or white == black or score is None:
        return False
    category = hive_category(TimeControl.from_json(json.loads(game.time_control)))  # type: ignore[arg-type]
    fresh = Glicko2()
    rows = _locked_ratings(
        conn,
        [white, black],
        category,
        {"rating": fresh.rating, "deviation": fresh.deviation, "volatility": fresh.volatility},
    )
    before_white = Glicko2(rows[white].rating, rows[white].deviation, rows[white].volatility)
    before_black = Glicko2(rows[black].rating, rows[black].deviation, rows[black].volatility)
    after_white, after_black = rate_game(before_white, before_black, score)
    now = time.time()
    for user, before, after in (
        (white, rows[white], after_white),
        (black, rows[black], after_black),
    ):
        _write_rating(
            conn,
            user,
            category,
            before,
            after.rating,
            after.deviation,
            after.volatility,
            game_id,
            now,
        )
    return True


def shown_table_ratings(conn: Connection, user_ids: Iterable[int], category: str) -> dict[int, str]:
    """Each account's table rating in ``category`` as players read it (a newcomer: "1500?")."""
    ids = sorted({u for u in user_ids if u is not None})
    shown = {u: TableRating().shown_text() for u in ids}
    if ids:
        rows = conn.execute(
            select(
                ratings_table.c.user_id, ratings_table.c.rating, ratings_table.c.deviation
            ).where(ratings_table.c.user_id.in_(ids), ratings_table.c.category == category)
        )
        for r in rows:
            shown[r.user_id] = TableRating(r.rating, r.deviation).shown_text()
    return shown


def rate_table_game(
    conn: Connection, game_id: str, category: str, places: dict[int, int]
) -> dict[int, TableRating]:
    """For multiplayer tables (Enjambre): in the transaction that writes a table's result,
    change every account's OpenSkill rating in ``category`` from the places they finished in
    (``{user_id: place}``, 1 first); returns the new ratings. Stored in the same tables as
    Glicko-2 ratings: ``rating`` holds μ, ``deviation`` σ, ``volatility`` is empty; the
    history holds the rating as players read it (:attr:`TableRating.shown`, 1500 for a
    newcomer), so that one chart draws every category on one scale."""
    fresh = TableRating()
    users = sorted(places)
    rows = _locked_ratings(
        conn, users, category, {"rating": fresh.mu, "deviation": fresh.sigma, "volatility": None}
    )
    before = [TableRating(rows[u].rating, rows[u].deviation) for u in users]
    after = rate_table(before, [places[u] for u in users])
    now = time.time()
    for user, old, new in zip(users, before, after, strict=True):
        shown = (float(new.shown), float(new.shown - old.shown))
        _write_rating(
            conn, user, category, rows[user], new.mu, new.sigma, None, game_id, now, shown
        )
    return dict(zip(users, after, strict=True))
