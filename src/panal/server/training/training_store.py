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

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from panal.server.database.store import metadata
from panal.server.ratings.glicko2 import Glicko2, rate_game
from panal.server.ratings.rating_store import rating_history_table, ratings_table

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

puzzle_ratings_table = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

puzzle_attempts_table = Table(
    "puzzle_attempts",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("puzzle_id", String(16), primary_key=True),
    Column("at", Float, nullable=False),
    Column("solved", Boolean, nullable=False),
)

lesson_progress_table = Table(
    "lesson_progress",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("lesson_id", String(40), primary_key=True),
    Column("at", Float, nullable=False),
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


def _insert_ignore(conn: Connection, table: Table, row: dict[str, Any]) -> bool:
    """Insert ``row`` unless its key exists; True when it was inserted (told by ``RETURNING``:
    the PostgreSQL driver's row count of such an insert is -1)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    key = next(iter(table.primary_key.columns))
    statement = dialect.insert(table).values(**row).on_conflict_do_nothing().returning(key)
    return conn.execute(statement).first() is not None


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
            first = _insert_ignore(
                conn,
                puzzle_attempts_table,
                {"user_id": user_id, "puzzle_id": puzzle_id, "at": now, "solved": solved},
            )
            if not first:
                return None
            _insert_ignore(
                conn,
                ratings_table,
                {
                    "user_id": user_id,
                    "category": PUZZLE_CATEGORY,
                    "rating": Glicko2().rating,
                    "deviation": Glicko2().deviation,
                    "volatility": Glicko2().volatility,
                    "games": 0,
                    "updated_at": now,
                },
            )
            _insert_ignore(
                conn,
                puzzle_ratings_table,
                {
                    "puzzle_id": puzzle_id,
                    "rating": initial.rating,
                    "deviation": initial.deviation,
                    "volatility": initial.volatility,
                    "plays": 0,
                    "updated_at": now,
                },
            )
            player_row = _locked(
                conn,
                select(ratings_table).where(
                    ratings_table.c.user_id == user_id,
                    ratings_table.c.category == PUZZLE_CATEGORY,
                ),
            )
            puzzle_row = _locked(
                conn,
                select(puzzle_ratings_table).where(puzzle_ratings_table.c.puzzle_id == puzzle_id),
            )
            before = Glicko2(player_row.rating, player_row.deviation, player_row.volatility)
            opponent = Glicko2(puzzle_row.rating, puzzle_row.deviation, puzzle_row.volatility)
            after, puzzle_after = rate_game(before, opponent, 1.0 if solved else 0.0)
            conn.execute(
                update(ratings_table)
                .where(
                    ratings_table.c.user_id == user_id,
                    ratings_table.c.category == PUZZLE_CATEGORY,
                )
                .values(
                    rating=after.rating,
                    deviation=after.deviation,
                    volatility=after.volatility,
                    games=player_row.games + 1,
                    updated_at=now,
                )
            )
            conn.execute(
                insert(rating_history_table).values(
                    user_id=user_id,
                    category=PUZZLE_CATEGORY,
                    game_id=puzzle_id,
                    at=now,
                    rating=after.rating,
                    deviation=after.deviation,
                    change=after.rating - before.rating,
                )
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
        with self.engine.begin() as conn:
            for lesson_id in lesson_ids:
                _insert_ignore(
                    conn,
                    lesson_progress_table,
                    {"user_id": user_id, "lesson_id": lesson_id, "at": now},
                )
