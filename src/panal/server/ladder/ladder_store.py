"""The engine ladder in the database: which bots are on it (``ladder_entries``: joined, last
seen, the pair of games they play now) and its games (``ladder_games``: each game of a pair, the
opening both games of the pair start from).

What must happen once is decided by the database: a pair is made by a transaction that takes
both bots with a conditional ``UPDATE`` (``pair IS NULL``) and creates both games, so two
processes sweeping at once never pair a bot twice; a bot is freed by a conditional ``UPDATE``
once every game of its pair has a result.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine, insert, select, update

from panal.server.database.columns import account_column, created_at_column, time_column
from panal.server.database.store import metadata
from panal.server.hive_games.game_store import GameRow, games_table, insert_game

__all__ = ["LadderEntry", "LadderStore", "PairTaken", "ladder_entries_table", "ladder_games_table"]

ladder_entries_table = sa.Table(
    "ladder_entries",
    metadata,
    account_column(primary_key=True),
    time_column("joined_at"),
    time_column("seen_at"),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("pair", sa.String(16)),  # the pair of games it plays now (NULL: free)
)

ladder_games_table = sa.Table(
    "ladder_games",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("pair", sa.String(16), nullable=False),
    created_at_column(),
    sa.Column("opening", sa.Text, nullable=False),  # JSON list of the opening's moves
    sa.Index("ladder_games_by_pair", "pair"),
)


class PairTaken(Exception):
    """One of the bots was paired by another process first."""


@dataclass(frozen=True)
class LadderEntry:
    user_id: int
    joined_at: float
    seen_at: float
    active: bool
    pair: str | None


class LadderStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def join(self, user_id: int, now: float) -> None:
        """Put the bot on the ladder (again), seen now."""
        with self.engine.begin() as conn:
            updated = conn.execute(
                update(ladder_entries_table)
                .where(ladder_entries_table.c.user_id == user_id)
                .values(seen_at=now, active=True)
            )
            if updated.rowcount == 0:
                conn.execute(
                    insert(ladder_entries_table).values(
                        user_id=user_id, joined_at=now, seen_at=now, active=True, pair=None
                    )
                )

    def leave(self, user_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(ladder_entries_table)
                .where(ladder_entries_table.c.user_id == user_id)
                .values(active=False)
            )

    def entries(self) -> list[LadderEntry]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(ladder_entries_table)).all()
        return [LadderEntry(**r._mapping) for r in rows]

    def meetings(self) -> dict[tuple[int, int], int]:
        """Games each pair of bots played on the ladder (smaller id first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.white_user, games_table.c.black_user).join(
                    ladder_games_table, ladder_games_table.c.game_id == games_table.c.id
                )
            ).all()
        found: dict[tuple[int, int], int] = {}
        for white, black in rows:
            key = (min(white, black), max(white, black))
            found[key] = found.get(key, 0) + 1
        return found

    def create_pair(
        self, pair: str, users: tuple[int, int], games: list[tuple[GameRow, list[str]]]
    ) -> None:
        """Take both bots (both free and on the ladder) and create the pair's games, or raise
        :class:`PairTaken` and change nothing."""
        now = time.time()
        with self.engine.begin() as conn:
            for user in users:
                taken = conn.execute(
                    update(ladder_entries_table)
                    .where(
                        ladder_entries_table.c.user_id == user,
                        ladder_entries_table.c.pair.is_(None),
                        ladder_entries_table.c.active.is_(True),
                    )
                    .values(pair=pair)
                )
                if taken.rowcount != 1:
                    raise PairTaken(pair)  # the transaction rolls back
            for row, opening in games:
                insert_game(conn, row, opening)
                conn.execute(
                    insert(ladder_games_table).values(
                        game_id=row.id, pair=pair, created_at=now, opening=json.dumps(opening)
                    )
                )

    def release_finished(self) -> int:
        """Free the bots whose pair's games all have a result; how many were freed."""
        with self.engine.begin() as conn:
            busy = select(ladder_entries_table.c.pair).where(
                ladder_entries_table.c.pair.is_not(None)
            )
            unfinished = (
                select(ladder_games_table.c.pair)
                .join(games_table, games_table.c.id == ladder_games_table.c.game_id)
                .where(games_table.c.result.is_(None))
            )
            done = set(conn.execute(busy).scalars()) - set(conn.execute(unfinished).scalars())
            if not done:
                return 0
            freed = conn.execute(
                update(ladder_entries_table)
                .where(ladder_entries_table.c.pair.in_(sorted(done)))
                .values(pair=None)
            )
            return int(freed.rowcount)

    def finished_games(self) -> list[dict[str, Any]]:
        """Every finished ladder game: its id, players, result and creation time, oldest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games_table.c.id,
                    games_table.c.white_user,
                    games_table.c.black_user,
                    games_table.c.result,
                    games_table.c.end_reason,
                    games_table.c.plies,
                    ladder_games_table.c.created_at,
                )
                .join(ladder_games_table, ladder_games_table.c.game_id == games_table.c.id)
                .where(games_table.c.result.is_not(None))
                .order_by(ladder_games_table.c.created_at, games_table.c.id)
            ).all()
        return [dict(r._mapping) for r in rows]
