"""Players in the database: accounts, sessions, ratings and their history, and the games they
play (the lobby's challenges are :mod:`panal.server.lobby.challenge_store`'s, the counts of
attempts :mod:`panal.server.players.attempts`'s).

The tables sit beside :mod:`panal.server.database.store`'s games (same metadata, same Alembic
migrations); their transactions are short and synchronous, and the server runs them in a thread.
What must happen exactly once is decided by the database:

* a name is taken by one account (a unique index on its case-free key), and names that read
  alike by one (a unique index on the name's confusable skeleton);
* a challenge is accepted by one player (a conditional ``UPDATE`` in the transaction that
  creates the game);
* a rated game's result changes its players' ratings once
  (:func:`panal.server.ratings.rating_store.settle_ratings`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, and_, case, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from panal.server.bots.bot_table import bot_users
from panal.server.database.columns import (
    account_column,
    created_at_column,
    serial_id_column,
    time_column,
)
from panal.server.database.store import metadata
from panal.server.hive_games.game_store import GameRow, games_table
from panal.server.ratings.glicko2 import Glicko2, TableRating
from panal.server.ratings.leaderboard import LeaderboardPage, leaderboard
from panal.server.ratings.rating_store import (
    game_category,
    rating_history_table,
    ratings_table,
)

__all__ = [
    "Account",
    "NameTaken",
    "PlayerStore",
    "RatingRow",
    "insert_account",
]

users_table = sa.Table(
    "users",
    metadata,
    serial_id_column(),
    sa.Column("name", sa.String(20), nullable=False),
    sa.Column("name_key", sa.String(20), nullable=False),
    # Nullable: accounts older than the column whose skeleton another account already had.
    sa.Column("name_skeleton", sa.String(80)),
    sa.Column("password_hash", sa.String(255), nullable=False),
    created_at_column(),
    sa.Column("language", sa.String(8)),
    sa.Column("look", sa.String(12)),
    sa.Index("users_by_name_key", "name_key", unique=True),
    sa.Index("users_by_name_skeleton", "name_skeleton", unique=True),
    # Account care (revision 0016_account, players/account_store.py): the verified e-mail
    # address (lower case), correspondence reminders by e-mail, and when it was deleted.
    sa.Column("email", sa.String(254)),
    sa.Column("reminders", sa.Boolean, nullable=False, server_default=sa.true()),
    time_column("deleted_at", nullable=True),
    sa.Index("users_by_email", "email", unique=True),
)

sessions_table = sa.Table(
    "sessions",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    account_column(),
    created_at_column(),
    time_column("expires_at"),
    sa.Index("sessions_by_user", "user_id"),
)

T = TypeVar("T")
SESSION_SECONDS = 30 * 86_400
SESSION_REFRESH = 86_400  # a session used a day after its last renewal runs 30 days again


class NameTaken(Exception):
    """Another account has this name (in any case), or one that reads alike (``confusable``)."""

    def __init__(self, name: str, *, confusable: bool) -> None:
        super().__init__(name)
        self.confusable = confusable


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created_at: float
    language: str | None = None
    look: str | None = None
    bot: bool = False  # signed in by a bot's API token (panal.server.bots), not a session


@dataclass(frozen=True)
class RatingRow:
    category: str
    rating: float
    deviation: float
    volatility: float | None
    games: int

    @property
    def glicko2(self) -> Glicko2:
        return Glicko2(self.rating, self.deviation, self.volatility or 0.06)

    def to_json(self) -> dict[str, Any]:
        if self.volatility is None:  # a table's OpenSkill rating (see rate_table_game)
            table = TableRating(self.rating, self.deviation)
            shown, provisional = table.shown_text(), table.provisional
        else:
            shown, provisional = self.glicko2.shown(), self.glicko2.provisional
        return {
            "category": self.category,
            "rating": round(self.rating, 1),
            "deviation": round(self.deviation, 1),
            "provisional": provisional,
            "shown": shown,
            "games": self.games,
        }


def _account(values: Any) -> Account:
    return Account(
        values["id"], values["name"], values["created_at"], values["language"], values["look"]
    )


def insert_account(
    conn: Connection,
    name: str,
    key: str,
    skeleton: str,
    password_hash: str,
    now: float,
    language: str | None = None,
    look: str | None = None,
) -> int:
    """A new ``users`` row in the caller's transaction (a person's, or a bot's with its
    ``bots`` row); its id. A name taken raises ``IntegrityError``."""
    return int(
        conn.execute(
            insert(users_table)
            .values(
                name=name,
                name_key=key,
                name_skeleton=skeleton,
                password_hash=password_hash,
                created_at=now,
                language=language,
                look=look,
            )
            .returning(users_table.c.id)
        ).scalar_one()
    )


class PlayerStore:
    """Accounts, sessions and ratings on the games' database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def in_transaction(self, work: Callable[..., T], *args: Any) -> T:
        """``work(conn, *args)`` in one transaction (the attempts' counters)."""
        with self.engine.begin() as conn:
            return work(conn, *args)

    # --- accounts --------------------------------------------------------------------------

    def create_account(
        self,
        name: str,
        key: str,
        skeleton: str,
        password_hash: str,
        language: str | None,
        look: str | None,
    ) -> Account:
        now = time.time()
        try:
            with self.engine.begin() as conn:
                user_id = insert_account(
                    conn, name, key, skeleton, password_hash, now, language, look
                )
        except IntegrityError:
            raise NameTaken(name, confusable=self.account_by_key(key) is None) from None
        return Account(user_id, name, now, language, look)

    def account_by_key(self, key: str) -> tuple[Account, str] | None:
        """The account with this name key, and its password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users_table).where(users_table.c.name_key == key)).first()
        return None if row is None else (_account(row._mapping), row.password_hash)

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(password_hash=password_hash)
            )

    def set_preferences(self, user_id: int, values: dict[str, str]) -> None:
        """The account's language and look (``values`` names one or both)."""
        allowed = {k: v for k, v in values.items() if k in ("language", "look")}
        if allowed:
            with self.engine.begin() as conn:
                conn.execute(
                    update(users_table).where(users_table.c.id == user_id).values(**allowed)
                )

    def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = {u for u in user_ids if u is not None}
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(users_table.c.id, users_table.c.name).where(users_table.c.id.in_(ids))
            )
            return {row.id: row.name for row in rows}

    def search(self, key: str, limit: int) -> list[str]:
        """The names whose case-free key (``accounts.name_key``) begins with ``key``, in the
        keys' order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(users_table.c.name)
                .where(users_table.c.name_key.startswith(key, autoescape=True))
                .order_by(users_table.c.name_key)
                .limit(limit)
            )
            return list(rows.scalars())

    def leaderboard(
        self, category: str, *, provisional: bool, limit: int, offset: int
    ) -> LeaderboardPage:
        return leaderboard(
            self.engine,
            users_table,
            category,
            provisional=provisional,
            limit=limit,
            offset=offset,
        )

    # --- sessions --------------------------------------------------------------------------

    def create_session(self, key: str, user_id: int) -> float:
        """Store a session (by its token's hash); returns when it expires."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_table).values(
                    key=key, user_id=user_id, created_at=now, expires_at=now + SESSION_SECONDS
                )
            )
            # Sessions that ran out are dropped as new ones come (the table stays small).
            conn.execute(delete(sessions_table).where(sessions_table.c.expires_at < now))
        return now + SESSION_SECONDS

    def session_account(self, key: str) -> Account | None:
        """The account signed in by the session with this key, if it has not expired; a
        session in use is renewed once a day."""
        now = time.time()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table, sessions_table.c.expires_at)
                .join(sessions_table, sessions_table.c.user_id == users_table.c.id)
                .where(sessions_table.c.key == key, sessions_table.c.expires_at > now)
            ).first()
        if row is None:
            return None
        if row.expires_at - now < SESSION_SECONDS - SESSION_REFRESH:
            with self.engine.begin() as conn:
                conn.execute(
                    update(sessions_table)
                    .where(sessions_table.c.key == key)
                    .values(expires_at=now + SESSION_SECONDS)
                )
        return _account(row._mapping)

    def delete_session(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.key == key))

    # --- ratings and profiles --------------------------------------------------------------

    def ratings(self, user_id: int) -> list[RatingRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table)
                .where(ratings_table.c.user_id == user_id)
                .order_by(ratings_table.c.category)
            )
            return [
                RatingRow(r.category, r.rating, r.deviation, r.volatility, r.games) for r in rows
            ]

    def rating_history(self, user_id: int, limit: int = 500) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rating_history_table)
                .where(rating_history_table.c.user_id == user_id)
                .order_by(rating_history_table.c.at.desc(), rating_history_table.c.id.desc())
                .limit(limit)
            ).all()
        return [
            {
                "category": r.category,
                "game": r.game_id,
                "at": r.at,
                "rating": round(r.rating, 1),
                "change": round(r.change, 1),
            }
            for r in reversed(rows)
        ]

    def game_players(self, row: GameRow) -> dict[str, Any] | None:
        """The accounts on a game's sides, as its page shows them: name, rating at the game's
        speed (before the game, once a rated game is over) and its change."""
        users = row.users()
        if users == (None, None):
            return None
        names = self.names(u for u in users if u is not None)
        accounts = [u for u in users if u is not None]
        with self.engine.connect() as conn:
            bots = bot_users(conn, accounts)
        control = row.control
        shown: dict[int, str] = {}
        if control is not None:
            shown = self.shown_ratings(accounts, game_category(control, bool(bots)))
        changes: dict[int, tuple[float, float, float]] = {}
        if row.rated and row.result is not None:
            with self.engine.connect() as conn:
                for r in conn.execute(
                    select(rating_history_table).where(rating_history_table.c.game_id == row.id)
                ):
                    changes[r.user_id] = (r.rating, r.deviation, r.change)
        players: dict[str, Any] = {}
        for color, user in zip(("white", "black"), users, strict=True):
            if user is None:
                players[color] = None
                continue
            player: dict[str, Any] = {"name": names.get(user), "rating": shown.get(user)}
            if user in bots:
                player["bot"] = True  # a bot's game is marked, and rated in the bots' pool
            if user in changes:
                after, deviation, change = changes[user]
                player["rating"] = Glicko2(after - change, deviation).shown()
                player["change"] = round(change)
            players[color] = player
        return players

    def shown_ratings(self, user_ids: Iterable[int], category: str) -> dict[int, str]:
        """Each account's rating in the category as players read it ("1500?" for none yet)."""
        ids = {u for u in user_ids if u is not None}
        shown = {u: Glicko2().shown() for u in ids}
        if ids:
            with self.engine.connect() as conn:
                rows = conn.execute(
                    select(ratings_table).where(
                        ratings_table.c.user_id.in_(ids), ratings_table.c.category == category
                    )
                )
                for r in rows:
                    shown[r.user_id] = Glicko2(r.rating, r.deviation, r.volatility).shown()
        return shown

    def games_of(self, user_id: int, *, finished: bool, limit: int) -> list[GameRow]:
        mine = or_(games_table.c.white_user == user_id, games_table.c.black_user == user_id)
        state = games_table.c.result.is_not(None) if finished else games_table.c.result.is_(None)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(mine, state, games_table.c.mode.in_(("online", "ai")))
                .order_by(games_table.c.updated_at.desc(), games_table.c.id)
                .limit(limit)
            ).all()
        return [GameRow.from_columns(r._mapping) for r in rows]

    def results_of(self, user_id: int) -> dict[str, int]:
        """Wins, losses and draws of the account's finished games."""
        won = or_(
            and_(games_table.c.white_user == user_id, games_table.c.result == "WhiteWins"),
            and_(games_table.c.black_user == user_id, games_table.c.result == "BlackWins"),
        )
        mine = or_(games_table.c.white_user == user_id, games_table.c.black_user == user_id)
        with self.engine.connect() as conn:
            total = conn.execute(
                select(
                    func.count(),
                    func.sum(case((won, 1), else_=0)),
                    func.sum(case((games_table.c.result == "Draw", 1), else_=0)),
                ).where(mine, games_table.c.result.is_not(None))
            ).one()
        games, wins, draws = int(total[0]), int(total[1] or 0), int(total[2] or 0)
        return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws}

    def games_in_play(self, since: float, limit: int = 50) -> list[GameRow]:
        """Online games with both seats taken, unfinished, changed after ``since``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(
                    games_table.c.mode == "online",
                    games_table.c.result.is_(None),
                    games_table.c.white_token.is_not(None),
                    games_table.c.black_token.is_not(None),
                    games_table.c.updated_at > since,
                )
                .order_by(games_table.c.updated_at.desc())
                .limit(limit)
            ).all()
        return [GameRow.from_columns(r._mapping) for r in rows]
