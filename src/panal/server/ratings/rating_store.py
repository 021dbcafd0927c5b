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

from panal.server.bots.bot_table import bot_users
from panal.server.database.columns import (
    account_column,
    serial_id_column,
    time_column,
    updated_at_column,
)
from panal.server.database.store import insert_ignore, metadata
from panal.server.hive_games.clock import TimeControl
from panal.server.hive_games.game_store import games_table
from panal.server.ratings.glicko2 import Glicko2, TableRating, rate_game, rate_table

__all__ = [
    "ABORTED",
    "BOT_CATEGORY",
    "HIVE_CATEGORY",
    "RATED_FROM_PLIES",
    "TABLE_CATEGORY",
    "game_category",
    "locked_ratings",
    "rate_table_game",
    "rating_history_table",
    "ratings_table",
    "settle_ratings",
    "shown_table_ratings",
    "write_rating",
]

HIVE_CATEGORY = "hive:{speed}"
#: A rated game that ends before this many plies (one move by each side) is aborted: it keeps
#: the result it ended with but changes no rating, as on lichess and hivegame.com. Resigning or
#: letting the clock run out before one's first move would otherwise hand the other account
#: rating points without a game.
RATED_FROM_PLIES = 2
#: The end reason of such a game (translated as ``reason.aborted``).
ABORTED = "aborted"
#: Games with a bot on either side are rated in their own pool: a bot's games never move a
#: person's rating at ``hive:{speed}``, and bots are ranked among the games bots play.
BOT_CATEGORY = "bot:{speed}"
#: The rating category of Enjambre Tácticas tables (OpenSkill, see :func:`rate_table_game`).
TABLE_CATEGORY = "enjambre"

ratings_table = sa.Table(
    "ratings",
    metadata,
    account_column(primary_key=True),
    sa.Column("category", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float),
    sa.Column("games", sa.Integer, nullable=False),
    updated_at_column(),
    # The leaderboard reads a category best first (revision 0013_social).
    sa.Index("ratings_by_category", "category", "rating"),
)

rating_history_table = sa.Table(
    "rating_history",
    metadata,
    serial_id_column(),
    account_column(),
    sa.Column("category", sa.String(32), nullable=False),
    sa.Column("game_id", sa.String(16)),
    time_column("at"),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("change", sa.Float, nullable=False),
    sa.Index("rating_history_by_user", "user_id", "category", "at"),
    sa.Index("rating_history_by_game", "game_id"),
)


def game_category(control: TimeControl, with_bot: bool) -> str:
    """The rating pool of a game at this clock: the bots' if a bot plays in it."""
    return (BOT_CATEGORY if with_bot else HIVE_CATEGORY).format(speed=control.speed)


def locked_ratings(
    conn: Connection, user_ids: list[int], category: str, initial: dict[str, Any]
) -> dict[int, Any]:
    """The players' rating rows, made if missing, locked until the transaction ends (in user
    order, so two transactions never wait for each other in a circle)."""
    now = time.time()
    insert_ignore(  # a first rating, made by two games at once: one row
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


def write_rating(
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
    if the game was rated, played between two accounts, and not aborted (at least
    :data:`RATED_FROM_PLIES` plies). True when ratings changed."""
    game = conn.execute(
        select(
            games_table.c.plies,
            games_table.c.rated,
            games_table.c.result,
            games_table.c.white_user,
            games_table.c.black_user,
            games_table.c.time_control,
        ).where(games_table.c.id == game_id)
    ).first()
    if game is None or not game.rated or game.time_control is None:
        return False
    if game.plies < RATED_FROM_PLIES:
        return False
    white, black = game.white_user, game.black_user
    score = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}.get(game.result or "")
    if white is None or black is None or white == black or score is None:
        return False
    control = TimeControl.from_json(json.loads(game.time_control))
    assert control is not None
    category = game_category(control, bool(bot_users(conn, [white, black])))
    fresh = Glicko2()
    rows = locked_ratings(
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
        write_rating(
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
    rows = locked_ratings(
        conn, users, category, {"rating": fresh.mu, "deviation": fresh.sigma, "volatility": None}
    )
    before = [TableRating(rows[u].rating, rows[u].deviation) for u in users]
    after = rate_table(before, [places[u] for u in users])
    now = time.time()
    for user, old, new in zip(users, before, after, strict=True):
        shown = (float(new.shown), float(new.shown - old.shown))
        write_rating(conn, user, category, rows[user], new.mu, new.sigma, None, game_id, now, shown)
    return dict(zip(users, after, strict=True))
