"""The lobby's challenges in the database: posted by a player (an account or a guest's seat
token), listed until they expire, and accepted by one player only (a conditional ``UPDATE`` in
the transaction that creates the game). A *named* challenge is addressed to one account
(``addressee_id``): only its creator and its addressee see it, only the addressee accepts or
declines it, and it counts towards the same caps as the open ones. An account or a client
address has at most so many open at once: counted and posted in one transaction holding both
keys (:func:`panal.server.players.attempts.hold`), so that parallel posts cannot pass the cap."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import and_, func, insert, or_, select, update

from panal.server.bots.bot_table import bot_users
from panal.server.database.columns import account_column, created_at_column, id_column, time_column
from panal.server.database.store import metadata, row_fields
from panal.server.hive_games.clock import TimeControl
from panal.server.hive_games.game_store import GameRow, insert_game
from panal.server.players.attempts import hold
from panal.server.players.player_store import PlayerStore, users_table
from panal.server.ratings.rating_store import game_category

__all__ = [
    "CHALLENGE_SECONDS",
    "CORRESPONDENCE_CHALLENGE_SECONDS",
    "Challenge",
    "ChallengeStore",
    "TooManyChallenges",
]

challenges_table = sa.Table(
    "challenges",
    metadata,
    id_column(),
    created_at_column(),
    time_column("expires_at"),
    account_column("creator_id", nullable=True),
    sa.Column("creator_token", sa.String(64), nullable=False),
    sa.Column("creator_address", sa.String(32)),  # attempts.address_key of the creator's address
    sa.Column("game_type", sa.String(16), nullable=False),
    sa.Column("options", sa.String(200), nullable=False),
    sa.Column("look", sa.String(12), nullable=False),
    sa.Column("time_control", sa.String(64)),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("color", sa.String(8), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("game_id", sa.String(16)),
    sa.Index("challenges_by_status", "status", "expires_at"),
    sa.Index("challenges_by_creator_address", "creator_address", "status"),
    # Named challenges and takebacks (revision 0017_challenge).
    sa.Column("addressee_id", sa.Integer),  # the one account it is addressed to; NULL: open
    sa.Column("takebacks", sa.Boolean, nullable=False, default=False),
    sa.Index("challenges_by_addressee", "addressee_id", "status"),
)

CHALLENGE_SECONDS = 30 * 60  # an open real-time challenge stays in the lobby this long
CORRESPONDENCE_CHALLENGE_SECONDS = 7 * 86_400
OPEN, ACCEPTED, CANCELLED, DECLINED = "open", "accepted", "cancelled", "declined"
EXPIRED = "expired"  # shown for an open challenge past its time; never stored


class TooManyChallenges(Exception):
    """The creator (``by``: ``account`` or ``address``) has ``open_now`` open challenges
    already, at most ``cap``."""

    def __init__(self, by: str, open_now: int, cap: int) -> None:
        super().__init__(by)
        self.by = by
        self.open_now = open_now
        self.cap = cap


@dataclass(frozen=True)
class Challenge:
    """A challenge: the game it will start, who posted it, and for a named challenge, whom
    it is addressed to."""

    id: str
    created_at: float
    expires_at: float
    creator_id: int | None
    creator_token: str  # the SHA-256 hash of the seat token the creator will play with
    game_type: str
    options: dict[str, bool | str]  # rule options that differ from the defaults, by name
    look: str
    time_control: TimeControl | None
    rated: bool
    color: str  # the creator's colour: white, black or random
    status: str = OPEN
    game_id: str | None = None
    addressee_id: int | None = None
    takebacks: bool = False  # whether its game allows takebacks
    creator_name: str | None = None
    creator_rating: str | None = None
    addressee_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """What the lobby shows (never the creator's token)."""
        status = self.status
        if status == OPEN and self.expires_at <= time.time():
            status = EXPIRED
        return {
            "id": self.id,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "creator": self.creator_name,
            "creator_rating": self.creator_rating,
            "game_type": self.game_type,
            "options": self.options,
            "look": self.look,
            "clock": self.time_control.shown() if self.time_control else None,
            "rated": self.rated,
            "color": self.color,
            "takebacks": self.takebacks,
            "to": self.addressee_name,
            "status": status,
            "game": self.game_id,
        }

    @classmethod
    def from_columns(cls, values: Any, **extra: Any) -> Challenge:
        data = {**row_fields(cls, values), **extra}
        control = data["time_control"]
        data.update(
            options=json.loads(data["options"]),
            time_control=TimeControl.from_json(json.loads(control)) if control else None,
            rated=bool(data["rated"]),
            takebacks=bool(data["takebacks"]),
        )
        return cls(**data)

    def to_columns(self) -> dict[str, Any]:
        values = asdict(self)
        # names and rating are read from the accounts
        del values["creator_name"], values["creator_rating"], values["addressee_name"]
        control = self.time_control
        values.update(
            options=json.dumps(self.options, sort_keys=True),
            time_control=json.dumps(control.to_json()) if control else None,
        )
        return values


class ChallengeStore:
    """The challenges, on the players' database engine."""

    def __init__(self, players: PlayerStore) -> None:
        self.players = players
        self.engine = players.engine

    def create_challenge(
        self, challenge: Challenge, address: str, per_account: int, per_address: int
    ) -> None:
        """Post the challenge unless its creator's account already has ``per_account`` open
        challenges, or its address ``per_address`` (guests and accounts alike): raises
        :class:`TooManyChallenges`."""
        table = challenges_table
        open_now = and_(table.c.status == OPEN, table.c.expires_at > challenge.created_at)
        caps: list[tuple[str, Any, Any, int]] = [
            ("address", table.c.creator_address, address, per_address)
        ]
        if challenge.creator_id is not None:
            caps.append(("account", table.c.creator_id, challenge.creator_id, per_account))
        with self.engine.begin() as conn:
            hold(conn, [f"challenges:{by}:{value}" for by, _, value, _ in caps])
            for by, column, value, cap in caps:
                mine = column == value
                count = conn.execute(select(func.count()).where(open_now, mine)).scalar_one()
                if count >= cap:
                    raise TooManyChallenges(by, int(count), cap)
            values = {**challenge.to_columns(), "status": OPEN, "creator_address": address}
            conn.execute(insert(table).values(values))

    def challenge(self, challenge_id: str) -> Challenge | None:
        """The challenge, with its creator's and addressee's names."""
        with self.engine.connect() as conn:
            row = conn.execute(_with_names().where(challenges_table.c.id == challenge_id)).first()
        return None if row is None else _named(row)

    def open_challenges(self, now: float, limit: int = 100) -> list[Challenge]:
        """The lobby's open challenges (never a named one), newest first."""
        table = challenges_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                _with_names()
                .where(table.c.status == OPEN, table.c.expires_at > now)
                .where(table.c.addressee_id.is_(None))
                .order_by(table.c.created_at.desc())
                .limit(limit)
            ).all()
        return [self._with_rating(_named(r)) for r in rows]

    def named_challenges(self, user_ids: set[int], now: float) -> list[Challenge]:
        """The open named challenges addressed to or sent by these accounts, newest first: what
        each of them sees beside the lobby's list."""
        if not user_ids:
            return []
        table = challenges_table
        mine = or_(table.c.addressee_id.in_(user_ids), table.c.creator_id.in_(user_ids))
        with self.engine.connect() as conn:
            rows = conn.execute(
                _with_names()
                .where(table.c.status == OPEN, table.c.expires_at > now)
                .where(table.c.addressee_id.is_not(None), mine)
                .order_by(table.c.created_at.desc())
            ).all()
        return [self._with_rating(_named(r)) for r in rows]

    def with_creator(self, challenge: Challenge, name: str) -> Challenge:
        """The challenge with its creator's name and rating, as the lobby lists it."""
        return self._with_rating(replace(challenge, creator_name=name))

    def _with_rating(self, challenge: Challenge) -> Challenge:
        """The challenge with its creator's rating at its speed (guests have none)."""
        if challenge.creator_id is None or challenge.time_control is None:
            return challenge
        with self.engine.connect() as conn:
            bot = bool(bot_users(conn, [challenge.creator_id]))
        # a bot's rating is its own pool's (``bot:<speed>``), where its games are rated
        category = game_category(challenge.time_control, bot)
        shown = self.players.shown_ratings([challenge.creator_id], category)[challenge.creator_id]
        return replace(challenge, creator_rating=shown)

    def cancel_challenge(self, challenge_id: str) -> bool:
        """Withdrawn by its creator, if still open."""
        return self._close(challenge_id, CANCELLED)

    def decline_challenge(self, challenge_id: str, addressee_id: int) -> bool:
        """Declined by its addressee, if still open (a conditional ``UPDATE``: an acceptance
        or a withdrawal that came first wins)."""
        return self._close(challenge_id, DECLINED, challenges_table.c.addressee_id == addressee_id)

    def _close(self, challenge_id: str, status: str, *where: Any) -> bool:
        table = challenges_table
        with self.engine.begin() as conn:
            updated = conn.execute(
                update(table)
                .where(table.c.id == challenge_id, table.c.status == OPEN, *where)
                .values(status=status)
            )
            return updated.rowcount == 1

    def accept_challenge(self, challenge_id: str, game: GameRow, now: float) -> bool:
        """Close the challenge and create its game in one transaction, if the challenge is
        still open: True for the one acceptor who wins."""
        with self.engine.begin() as conn:
            updated = conn.execute(
                update(challenges_table)
                .where(
                    challenges_table.c.id == challenge_id,
                    challenges_table.c.status == OPEN,
                    challenges_table.c.expires_at > now,
                )
                .values(status=ACCEPTED, game_id=game.id)
            )
            if updated.rowcount != 1:
                return False
            insert_game(conn, game)
        return True


_addressees = users_table.alias("addressees")


def _with_names() -> Any:
    """The challenges joined with their creator's and addressee's names."""
    table = challenges_table
    return (
        select(table, users_table.c.name, _addressees.c.name.label("addressee_name"))
        .outerjoin(users_table, users_table.c.id == table.c.creator_id)
        .outerjoin(_addressees, _addressees.c.id == table.c.addressee_id)
    )


def _named(row: Any) -> Challenge:
    return Challenge.from_columns(
        row._mapping, creator_name=row.name, addressee_name=row.addressee_name
    )
