"""The trainer in the database: puzzle ratings, first tries, lessons completed.

A player's puzzle rating is a row of ``ratings`` with the category ``puzzle`` (so the profile
shows it beside the game ratings, with its history); each puzzle has its own Glicko-2 row in
``puzzle_ratings``, made from its shipped rating (:mod:`panal.puzzles.rating`) the first time
anyone tries it. Only an account's *first* try at a puzzle is rated (``puzzle_attempts``' key):
a player and the puzzle are rated against each other as one game (:func:`rate_game`), both in
the transaction that records the try, so two tries at once cannot rate twice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, select, update

from panal.server.database.columns import account_column, time_column, updated_at_column
from panal.server.database.store import insert_ignore, metadata
from panal.server.ratings.glicko2 import Glicko2, rate_game
from panal.server.ratings.rating_store import locked_ratings, ratings_table, write_rating

__all__ = [
    "PUZZLE_CATEGORY",
    "RatingChange",
    "TrainingStore",
    "lesson_progress_table",
    "puzzle_attempts_table",
    "puzzle_ratings_table",
]

#: The ``ratings`` category of a player's puzzle rating.
PUZZLE_CATEGORY = "puzzle"

puzzle_ratings_table = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("puzzle_id", sa.String(16), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("plays", sa.Integer, nullable=False),
    updated_at_column(),
)


def _first_times_table(name: str, item: sa.Column[Any], *more: sa.Column[Any]) -> sa.Table:
    """A table of the first time each account did something to an item (tried a puzzle,
    completed a lesson): one row per account and item, never written twice."""
    return sa.Table(
        name,
        metadata,
        account_column(primary_key=True),
        item,
        time_column("at"),
        *more,
    )


puzzle_attempts_table = _first_times_table(
    "puzzle_attempts",
    sa.Column("puzzle_id", sa.String(16), primary_key=True),
    sa.Column("solved", sa.Boolean, nullable=False),
)
lesson_progress_table = _first_times_table(
    "lesson_progress", sa.Column("lesson_id", sa.String(40), primary_key=True)
)


@dataclass(frozen=True)
class RatingChange:
    """What a rated try changed: the player's rating before and after, the puzzle's after."""

    before: Glicko2
    after: Glicko2
    puzzle: Glicko2

    def to_json(self) -> dict[str, Any]:
        return {
            "before": round(self.before.rating),
            "rating": round(self.after.rating),
            "shown": self.after.shown(),
            "change": round(self.after.rating - self.before.rating),
            "puzzle": round(self.puzzle.rating),
        }


def _locked(conn: Connection, query: Any) -> Any:
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return conn.execute(query).one()


class TrainingStore:
    """Reads and writes of the trainer's tables (each call one transaction, on the store's
    threads through ``Runtime.db``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def player_rating(self, user_id: int) -> Glicko2 | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ratings_table).where(
                    ratings_table.c.user_id == user_id,
                    ratings_table.c.category == PUZZLE_CATEGORY,
                )
            ).first()
        if row is None:
            return None
        return Glicko2(row.rating, row.deviation, row.volatility or 0.06)

    def puzzle_ratings(self, puzzle_ids: list[str]) -> dict[str, Glicko2]:
        """The stored ratings of those puzzles that anyone has tried."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(puzzle_ratings_table).where(puzzle_ratings_table.c.puzzle_id.in_(puzzle_ids))
            )
            return {r.puzzle_id: Glicko2(r.rating, r.deviation, r.volatility) for r in rows}

    def tried(self, user_id: int) -> dict[str, bool]:
        """Every puzzle the account has tried: id → solved at the first try."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(puzzle_attempts_table.c.puzzle_id, puzzle_attempts_table.c.solved).where(
                    puzzle_attempts_table.c.user_id == user_id
                )
            )
            return {r.puzzle_id: r.solved for r in rows}

    def rate_try(
        self, user_id: int, puzzle_id: str, initial: Glicko2, solved: bool
    ) -> RatingChange | None:
        """Record the account's first try at a puzzle and rate both; None (nothing changed)
        when it had tried this puzzle before. ``initial`` is the puzzle's shipped rating."""
        now = time.time()
        with self.engine.begin() as conn:
            try_row = {"user_id": user_id, "puzzle_id": puzzle_id, "at": now, "solved": solved}
            if not insert_ignore(conn, puzzle_attempts_table, [try_row]):
                return None
            newcomer = Glicko2()
            player_row = locked_ratings(
                conn,
                [user_id],
                PUZZLE_CATEGORY,
                {
                    "rating": newcomer.rating,
                    "deviation": newcomer.deviation,
                    "volatility": newcomer.volatility,
                },
            )[user_id]
            insert_ignore(
                conn,
                puzzle_ratings_table,
                [
                    {
                        "puzzle_id": puzzle_id,
                        "rating": initial.rating,
                        "deviation": initial.deviation,
                        "volatility": initial.volatility,
                        "plays": 0,
                        "updated_at": now,
                    }
                ],
            )
            puzzle_row = _locked(
                conn,
                select(puzzle_ratings_table).where(puzzle_ratings_table.c.puzzle_id == puzzle_id),
            )
            before = Glicko2(player_row.rating, player_row.deviation, player_row.volatility)
            opponent = Glicko2(puzzle_row.rating, puzzle_row.deviation, puzzle_row.volatility)
            after, puzzle_after = rate_game(before, opponent, 1.0 if solved else 0.0)
            write_rating(
                conn,
                user_id,
                PUZZLE_CATEGORY,
                player_row,
                after.rating,
                after.deviation,
                after.volatility,
                puzzle_id,
                now,
            )
            conn.execute(
                update(puzzle_ratings_table)
                .where(puzzle_ratings_table.c.puzzle_id == puzzle_id)
                .values(
                    rating=puzzle_after.rating,
                    deviation=puzzle_after.deviation,
                    volatility=puzzle_after.volatility,
                    plays=puzzle_row.plays + 1,
                    updated_at=now,
                )
            )
        return RatingChange(before, after, puzzle_after)

    def lessons_done(self, user_id: int) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(lesson_progress_table.c.lesson_id)
                .where(lesson_progress_table.c.user_id == user_id)
                .order_by(lesson_progress_table.c.at)
            )
            return [r.lesson_id for r in rows]

    def complete_lessons(self, user_id: int, lesson_ids: list[str]) -> None:
        """Mark lessons completed (again is harmless: the first time is kept)."""
        now = time.time()
        rows = [{"user_id": user_id, "lesson_id": x, "at": now} for x in dict.fromkeys(lesson_ids)]
        if rows:
            with self.engine.begin() as conn:
                insert_ignore(conn, lesson_progress_table, rows)
