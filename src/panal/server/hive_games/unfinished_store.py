"""The queries about unfinished games against the AI (:mod:`panal.server.hive_games.unfinished`):
how many a client, an account and an address have, a client's list, the games nobody touched
for a while, and the note that someone is connected to a game."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, and_, false, func, or_, select, update

from panal.server.hive_games.game_store import GameRow, games_table
from panal.server.http.clients import Client, Usage

__all__ = ["UnfinishedStore"]


class UnfinishedStore:
    """The queries on the games' table, in the store's threads (``Runtime.db``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def usage(conn: Connection, client: Client, since: float) -> Usage:
        """How many unfinished AI games touched after ``since`` a client, its account and its
        address have, read in the caller's transaction."""
        g = games_table.c
        open_ai = and_(g.mode == "ai", g.result.is_(None), g.updated_at > since)
        account = client.account
        mine = or_(g.white_user == account, g.black_user == account) if account else false()
        found = conn.execute(
            select(
                func.count().filter(g.client == client.key),
                func.count().filter(mine),
                func.count().filter(g.owner == client.address),
            ).where(open_ai, or_(g.client == client.key, g.owner == client.address, mine))
        ).one()
        return Usage(int(found[0]), int(found[1]), int(found[2]))

    def unfinished_ai_games_of(
        self, client: str, account: int | None, since: float
    ) -> list[GameRow]:
        """A client's or an account's unfinished AI games touched after ``since``, newest
        first."""
        g = games_table.c
        mine = or_(g.white_user == account, g.black_user == account) if account else false()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(
                    g.mode == "ai",
                    g.result.is_(None),
                    g.updated_at > since,
                    or_(g.client == client, mine),
                )
                .order_by(g.updated_at.desc(), g.id)
                .limit(50)
            ).all()
        return [GameRow.from_columns(r._mapping) for r in rows]

    def idle_ai_games(self, before: float) -> list[str]:
        """Unfinished AI games nothing has touched since ``before`` (nobody connected)."""
        g = games_table.c
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(g.id)
                    .where(g.mode == "ai", g.result.is_(None), g.updated_at <= before)
                    .limit(500)
                ).scalars()
            )

    def touched_at(self, game_id: str) -> float | None:
        """When the game last changed, or someone was last noted connected to it."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(games_table.c.updated_at).where(games_table.c.id == game_id)
            ).scalar_one_or_none()
        return None if found is None else float(found)

    def touch_games(self, game_ids: list[str], now: float) -> None:
        """Note that someone is connected to these games now (their ``updated_at``; their
        version is not changed: nothing in them changed)."""
        if not game_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id.in_(game_ids), games_table.c.result.is_(None))
                .values(updated_at=now)
            )
