"""Test helpers for the community pages: accounts, ratings and finished games written straight
into a server's database (signing up through the API costs an Argon2 hash each)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import insert

from panal.server.database.store import Store
from panal.server.hive_games.game_store import GameRow, games_table
from panal.server.players.player_store import users_table
from panal.server.ratings.rating_store import ratings_table

DAY = 86_400.0
JAN_1 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp()
BLITZ = {"kind": "realtime", "base": 180, "increment": 2}
BULLET = {"kind": "realtime", "base": 60, "increment": 0}
POST = {"kind": "correspondence", "days": 3}


class World:
    """The seeded database: account ids by name, and the games written."""

    def __init__(self, db_url: str) -> None:
        self.store = Store(db_url)
        self.ids: dict[str, int] = {}
        self.games: dict[str, GameRow] = {}

    def accounts(self, *names: str) -> None:
        with self.store.engine.begin() as conn:
            for name in names:
                self.ids[name] = conn.execute(
                    insert(users_table)
                    .values(name=name, name_key=name.lower(), password_hash="x", created_at=0.0)
                    .returning(users_table.c.id)
                ).scalar_one()

    def rating(self, name: str, category: str, rating: float, deviation: float, games: int) -> None:
        table = category == "enjambre"
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(ratings_table).values(
                    user_id=self.ids[name],
                    category=category,
                    rating=rating,
                    deviation=deviation,
                    volatility=None if table else 0.06,
                    games=games,
                    updated_at=0.0,
                )
            )

    def game(
        self,
        key: str,
        white: str | None,
        black: str | None,
        result: str,
        *,
        day: int,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
        game_type: str = "Base",
    ) -> None:
        row = GameRow(
            id=key,
            game_type=game_type,
            mode="online",
            look="classic",
            white_user=self.ids[white] if white else None,
            black_user=self.ids[black] if black else None,
            rated=rated,
            result=result,
            end_reason="queen",
            plies=20,
            time_control=json.dumps(clock) if clock else None,
            created_at=JAN_1 + day * DAY,
            updated_at=JAN_1 + day * DAY + 3600,
        )
        with self.store.engine.begin() as conn:
            conn.execute(insert(games_table).values(**row.to_columns()))
        self.games[key] = row
