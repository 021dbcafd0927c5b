"""Bot accounts in the database: a bot is an ordinary account (a ``users`` row, so it plays,
is rated and joins whatever a player joins) with a ``bots`` row: the person's account that owns
it, the SHA-256 hash of its API token (``NULL`` once revoked), the limits of the challenges it
accepts, and the engine it last reported (name, version and options, from UHP ``info``).

A bot has no password: its ``password_hash`` is no Argon2 hash, so signing in with any password
fails; the only way to act as a bot is its token.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from panal.hive import GameType
from panal.server.bots.bot_table import bots_table
from panal.server.hive_games.clock import TimeControl
from panal.server.http.request_error import RequestError
from panal.server.players.accounts import name_key, name_skeleton
from panal.server.players.player_store import (
    Account,
    NameTaken,
    PlayerStore,
    insert_account,
    users_table,
)
from panal.server.room.tokens import hash_token, new_token

if TYPE_CHECKING:
    from panal.server.lobby.challenge_store import Challenge

__all__ = [
    "SPEEDS",
    "TOKEN_PREFIX",
    "BotInfo",
    "BotLimits",
    "BotStore",
    "bot_may_accept",
    "new_bot_token",
]

#: Every bot token starts so: ``Authorization: Bearer bot_…`` is told from a seat token at once.
TOKEN_PREFIX = "bot_"
NO_PASSWORD = "bot: signs in by its API token only"
SPEEDS = ("bullet", "blitz", "rapid", "classic", "correspondence")
RATED_CHOICES = ("any", "rated", "casual")
MAX_GAMES = 16


def new_bot_token() -> str:
    return TOKEN_PREFIX + new_token()


@dataclass(frozen=True)
class BotLimits:
    """What its owner lets a bot accept: speeds, game types, rated or casual, games at once."""

    speeds: tuple[str, ...] = ("bullet", "blitz", "rapid")
    game_types: tuple[str, ...] = ("Base",)
    rated: str = "any"
    max_games: int = 2

    def __post_init__(self) -> None:
        unknown = set(self.speeds) - set(SPEEDS)
        if unknown:
            raise ValueError(f"unknown speeds {sorted(unknown)}; choose among {', '.join(SPEEDS)}")
        for game_type in self.game_types:
            GameType.parse(game_type)  # ValueError saying what is wrong
        if self.rated not in RATED_CHOICES:
            raise ValueError(f"rated is one of {', '.join(RATED_CHOICES)}")
        if not 1 <= self.max_games <= MAX_GAMES:
            raise ValueError(f"max_games is between 1 and {MAX_GAMES}")

    def allows(self, game_type: str, control: TimeControl | None, rated: bool) -> bool:
        """Whether a challenge for this game is one the bot may accept (bots play on the
        clock: an untimed game is never accepted)."""
        if control is None or control.speed not in self.speeds:
            return False
        if str(GameType.parse(game_type)) not in {str(GameType.parse(t)) for t in self.game_types}:
            return False
        return self.rated == "any" or (self.rated == "rated") == rated

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BotLimits:
        values = {**asdict(cls()), **data}
        return cls(
            speeds=tuple(values["speeds"]),
            game_types=tuple(str(GameType.parse(t)) for t in values["game_types"]),
            rated=values["rated"],
            max_games=values["max_games"],
        )


@dataclass(frozen=True)
class BotInfo:
    id: int
    name: str
    owner_id: int
    has_token: bool
    limits: BotLimits
    engine: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "token": "active" if self.has_token else "revoked",
            "limits": self.limits.to_json(),
            "engine": self.engine or None,
        }


def _info(row: Any) -> BotInfo:
    return BotInfo(
        id=row.user_id,
        name=row.name,
        owner_id=row.owner_id,
        has_token=row.token_hash is not None,
        limits=BotLimits.from_json(json.loads(row.limits)),
        engine=json.loads(row.engine) if row.engine else {},
    )


_BOT_ROWS = select(bots_table, users_table.c.name).join(
    users_table, users_table.c.id == bots_table.c.user_id
)


class BotStore:
    """Bots on the players' database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_bot(self, owner_id: int, name: str, limits: BotLimits) -> tuple[BotInfo, str]:
        """A new bot account and its first API token (shown once: only its hash is kept)."""
        token = new_bot_token()
        now = time.time()
        try:
            with self.engine.begin() as conn:
                user_id = insert_account(
                    conn, name, name_key(name), name_skeleton(name), NO_PASSWORD, now
                )
                conn.execute(
                    insert(bots_table).values(
                        user_id=user_id,
                        owner_id=owner_id,
                        token_hash=hash_token(token),
                        limits=json.dumps(limits.to_json()),
                        created_at=now,
                    )
                )
        except IntegrityError:
            taken = PlayerStore(self.engine).account_by_key(name_key(name)) is not None
            raise NameTaken(name, confusable=not taken) from None
        return BotInfo(user_id, name, owner_id, True, limits), token

    def bot_account(self, token: str) -> Account | None:
        """The bot whose token this is (never a revoked one)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table)
                .join(bots_table, bots_table.c.user_id == users_table.c.id)
                .where(bots_table.c.token_hash == hash_token(token))
            ).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.created_at, row.language, row.look, bot=True)

    def bot(self, user_id: int) -> BotInfo | None:
        with self.engine.connect() as conn:
            row = conn.execute(_BOT_ROWS.where(bots_table.c.user_id == user_id)).first()
        return None if row is None else _info(row)

    def owned_bot(self, owner_id: int, name: str) -> BotInfo | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                _BOT_ROWS.where(
                    bots_table.c.owner_id == owner_id, users_table.c.name_key == name_key(name)
                )
            ).first()
        return None if row is None else _info(row)

    def bots_of(self, owner_id: int) -> list[BotInfo]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                _BOT_ROWS.where(bots_table.c.owner_id == owner_id).order_by(users_table.c.name)
            ).all()
        return [_info(r) for r in rows]

    def bots(self, user_ids: list[int]) -> dict[int, BotInfo]:
        with self.engine.connect() as conn:
            rows = conn.execute(_BOT_ROWS.where(bots_table.c.user_id.in_(user_ids))).all()
        return {r.user_id: _info(r) for r in rows}

    def _set(self, user_id: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(bots_table).where(bots_table.c.user_id == user_id).values(values))

    def new_token(self, user_id: int) -> str:
        """A new API token; the old one stops working."""
        token = new_bot_token()
        self._set(user_id, token_hash=hash_token(token))
        return token

    def revoke_token(self, user_id: int) -> None:
        self._set(user_id, token_hash=None)

    def set_limits(self, user_id: int, limits: BotLimits) -> None:
        self._set(user_id, limits=json.dumps(limits.to_json()))

    def set_engine(self, user_id: int, engine: dict[str, Any]) -> None:
        self._set(user_id, engine=json.dumps(engine, sort_keys=True))


def bot_may_accept(players: PlayerStore, bot_id: int, challenge: Challenge) -> None:
    """Raise :class:`RequestError` unless the bot's owner lets it accept this challenge: within
    its limits, and fewer unfinished games than ``max_games`` (the server holds the bot to them
    whatever program speaks for it)."""
    bot = BotStore(players.engine).bot(bot_id)
    if bot is None:
        return
    limits = bot.limits
    if not limits.allows(challenge.game_type, challenge.time_control, challenge.rated):
        raise RequestError("outside_limits", "this bot's owner does not let it play this game", 403)
    playing = players.games_of(bot_id, finished=False, limit=limits.max_games)
    if len(playing) >= limits.max_games:
        raise RequestError(
            "too_many_games",
            f"this bot plays {len(playing)} games (at most {limits.max_games})",
            429,
        )
