"""Chat in the database: the messages of each game's and each table's chat, kept with it; the
reports on them, each account's mutes, the moderators, the silenced accounts, and each sender's
rate of messages.

**The rate limit is decided by the database** (as the sign-in counters are,
:mod:`panal.server.players.attempts`): each sender has a token bucket, one row changed by one
``INSERT … ON CONFLICT DO UPDATE … RETURNING`` statement in the message's own transaction. The
database serializes the statements on a row, so messages sent at the same instant from any
number of server processes are granted one after the other, and no more than the bucket holds
pass. A bucket holds :attr:`ChatLimits.burst` messages and refills by one every
:attr:`ChatLimits.refill_seconds` (5 at once, then one every 2 s: 5 per 10 s).

Rooms are named ``<kind>:<key>`` (``game:AbC…``, ``table:…``) and each has two channels,
``players`` and ``spectators``; a sender is ``u:<account id>`` or, for a guest who plays,
``g:`` and a hash of their seat token (public: it shows who said what, never the token).
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, case, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from panal.server.database.columns import serial_id_column, time_column
from panal.server.database.store import metadata
from panal.server.http.request_error import RequestError
from panal.server.room.tokens import hash_token

__all__ = [
    "CHANNELS",
    "ChatLimits",
    "ChatMessage",
    "ChatStore",
    "Sender",
    "check_text",
]

#: The two channels of every room: the players', and the spectators'.
CHANNELS = ("players", "spectators")

chat_messages_table = sa.Table(
    "chat_messages",
    metadata,
    serial_id_column(),
    sa.Column("room", sa.String(40), nullable=False),
    sa.Column("channel", sa.String(12), nullable=False),
    sa.Column("sender", sa.String(40), nullable=False),
    sa.Column("user_id", sa.Integer),  # None: a guest who plays
    sa.Column("author", sa.String(40)),  # the account's name when it spoke
    sa.Column("seat", sa.Integer),  # a guest's seat
    sa.Column("text", sa.Text, nullable=False),
    time_column("at"),
    time_column(
        "deleted_at", nullable=True
    ),  # by a moderator: kept for the reports, shown to nobody
    sa.Column("deleted_by", sa.Integer),
    sa.Index("chat_messages_by_room", "room", "id"),
)

chat_reports_table = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("message_id", sa.Integer, primary_key=True),
    sa.Column("reporter", sa.String(40), primary_key=True),
    time_column("at"),
    sa.Index("chat_reports_by_time", "at"),
)

chat_mutes_table = sa.Table(
    "chat_mutes",
    metadata,
    sa.Column("user_id", sa.Integer, primary_key=True),
    sa.Column("sender", sa.String(40), primary_key=True),
    time_column("at"),
)

chat_rates_table = sa.Table(
    "chat_rates",
    metadata,
    sa.Column("sender", sa.String(40), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    time_column("at"),
    sa.Column("granted", sa.Integer, nullable=False),  # whether the last message passed
)

moderators_table = sa.Table(
    "moderators",
    metadata,
    sa.Column("user_id", sa.Integer, primary_key=True),
    time_column("added_at"),
)

chat_silences_table = sa.Table(
    "chat_silences",
    metadata,
    sa.Column("user_id", sa.Integer, primary_key=True),
    time_column("until"),
    time_column("at"),
)


@dataclass(frozen=True)
class ChatLimits:
    """How long a message may be, and how many a sender may send (a token bucket)."""

    max_chars: int = 300
    burst: int = 5
    refill_seconds: float = 2.0
    history: int = 200  # messages of a channel sent to a page that opens the chat


@dataclass(frozen=True)
class Sender:
    """Who speaks: an account (``user_id``, ``name``) or a guest who plays (``seat``)."""

    key: str
    user_id: int | None = None
    name: str | None = None
    seat: int | None = None

    @classmethod
    def account(cls, user_id: int, name: str) -> Sender:
        return cls(f"u:{user_id}", user_id, name)

    @classmethod
    def guest(cls, token: str, seat: int) -> Sender:
        return cls("g:" + hash_token(f"chat:{token}")[:16], seat=seat)


@dataclass(frozen=True)
class ChatMessage:
    id: int
    room: str
    channel: str
    sender: str
    author: str | None
    seat: int | None
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel": self.channel,
            "sender": self.sender,
            "author": self.author,
            "seat": self.seat,
            "text": self.text,
            "at": self.at,
        }


def check_text(text: str, limits: ChatLimits) -> str:
    """The message as stored: runs of white space made one space, trimmed; refused when empty,
    too long or holding control characters (``chat_empty``, ``chat_too_long``,
    ``chat_bad_text``). Markup is kept as the text it is: pages show it with ``textContent``."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise RequestError("chat_empty", "say something")
    if len(cleaned) > limits.max_chars:
        raise RequestError(
            "chat_too_long",
            f"a message is at most {limits.max_chars} characters",
            422,
            details={"max": str(limits.max_chars)},
        )
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in cleaned):
        raise RequestError("chat_bad_text", "a message holds no control characters", 422)
    return cleaned


def _message(row: Any) -> ChatMessage:
    return ChatMessage(
        row.id, row.room, row.channel, row.sender, row.author, row.seat, row.text, row.at
    )


_COLUMNS = (
    chat_messages_table.c.id,
    chat_messages_table.c.room,
    chat_messages_table.c.channel,
    chat_messages_table.c.sender,
    chat_messages_table.c.author,
    chat_messages_table.c.seat,
    chat_messages_table.c.text,
    chat_messages_table.c.at,
)


def _insert(conn: Connection, table: sa.Table, **values: Any) -> Any:
    """An ``INSERT`` of ``values`` that can say what to do on a conflict (SQLite or PostgreSQL)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table).values(**values)


def _insert_once(conn: Connection, table: sa.Table, **values: Any) -> bool:
    """Insert a row unless its key is there already; whether it was inserted."""
    return bool(conn.execute(_insert(conn, table, **values).on_conflict_do_nothing()).rowcount)


def _take_token(conn: Connection, sender: str, now: float, limits: ChatLimits) -> float:
    """Take one message from ``sender``'s bucket in one statement; 0 when granted, else the
    seconds until the next one may go."""
    table = chat_rates_table
    rate = 1.0 / limits.refill_seconds
    elapsed = case((table.c.at < now, now - table.c.at), else_=0.0)
    grown = table.c.tokens + elapsed * rate
    refilled = case((grown > limits.burst, float(limits.burst)), else_=grown)
    statement = (
        _insert(conn, table, sender=sender, tokens=limits.burst - 1.0, at=now, granted=1)
        .on_conflict_do_update(
            index_elements=[table.c.sender],
            set_={
                "tokens": case((refilled >= 1, refilled - 1), else_=refilled),
                "granted": case((refilled >= 1, 1), else_=0),
                "at": now,
            },
        )
        .returning(table.c.granted, table.c.tokens)
    )
    granted, tokens = conn.execute(statement).one()
    return 0.0 if granted else (1.0 - float(tokens)) * limits.refill_seconds


class ChatStore:
    """The chat's transactions (run in the store's threads)."""

    def __init__(self, engine: sa.Engine, limits: ChatLimits) -> None:
        self.engine = engine
        self.limits = limits

    # --- messages --------------------------------------------------------------------------

    def post(self, room: str, channel: str, sender: Sender, text: str, now: float) -> ChatMessage:
        """Store a message, if its sender is not silenced and within the rate (one transaction:
        a refused message changes nothing)."""
        with self.engine.begin() as conn:
            if sender.user_id is not None:
                until = conn.execute(
                    select(chat_silences_table.c.until).where(
                        chat_silences_table.c.user_id == sender.user_id,
                        chat_silences_table.c.until > now,
                    )
                ).scalar()
                if until is not None:
                    raise RequestError(
                        "chat_silenced",
                        "a moderator has silenced you for a while",
                        403,
                        details={"until": str(int(until))},
                    )
            wait = _take_token(conn, sender.key, now, self.limits)
            if wait > 0:  # the transaction is rolled back: the bucket is as it was
                raise RequestError(
                    "slow_down",
                    "too many messages; wait a moment",
                    429,
                    details={"retry_after": str(max(1, math.ceil(wait)))},
                )
            values = {
                "room": room,
                "channel": channel,
                "sender": sender.key,
                "user_id": sender.user_id,
                "author": sender.name,
                "seat": sender.seat,
                "text": text,
                "at": now,
            }
            message_id = conn.execute(
                insert(chat_messages_table).values(**values).returning(chat_messages_table.c.id)
            ).scalar_one()
        return ChatMessage(
            message_id, room, channel, sender.key, sender.name, sender.seat, text, now
        )

    def history(self, room: str, channels: frozenset[str]) -> list[ChatMessage]:
        """The newest messages of the room's ``channels`` (deleted ones left out), oldest first."""
        if not channels:
            return []
        table = chat_messages_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .where(
                    table.c.room == room,
                    table.c.channel.in_(sorted(channels)),
                    table.c.deleted_at.is_(None),
                )
                .order_by(table.c.id.desc())
                .limit(self.limits.history * len(channels))
            ).all()
        return [_message(row) for row in reversed(rows)]

    def message(self, room: str, message_id: int) -> ChatMessage:
        """One message of the room, not deleted (``unknown_message``, 404, otherwise)."""
        table = chat_messages_table
        with self.engine.connect() as conn:
            row = conn.execute(
                select(*_COLUMNS).where(
                    table.c.id == message_id, table.c.room == room, table.c.deleted_at.is_(None)
                )
            ).first()
        if row is None:
            raise RequestError("unknown_message", "there is no such message here", 404)
        return _message(row)

    def delete(self, room: str, message_id: int, moderator: int, now: float) -> bool:
        """A moderator deletes a message: kept for the reports, shown to nobody."""
        table = chat_messages_table
        with self.engine.begin() as conn:
            done = conn.execute(
                update(table)
                .where(table.c.id == message_id, table.c.room == room, table.c.deleted_at.is_(None))
                .values(deleted_at=now, deleted_by=moderator)
            )
        return done.rowcount == 1

    def report(self, message_id: int, reporter: str, now: float) -> None:
        """Report a message (once per reporter; again changes nothing)."""
        with self.engine.begin() as conn:
            _insert_once(conn, chat_reports_table, message_id=message_id, reporter=reporter, at=now)

    def reports(self, limit: int = 50) -> list[dict[str, Any]]:
        """The reported messages, the most recently reported first, with how many reported."""
        reports, messages = chat_reports_table, chat_messages_table
        counted = (
            select(
                reports.c.message_id,
                func.count().label("reports"),
                func.max(reports.c.at).label("last"),
            )
            .group_by(reports.c.message_id)
            .subquery()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS, messages.c.deleted_at, counted.c.reports, counted.c.last)
                .join(counted, counted.c.message_id == messages.c.id)
                .order_by(counted.c.last.desc())
                .limit(limit)
            ).all()
        return [
            {
                **_message(row).to_json(),
                "room": row.room,
                "reports": int(row.reports),
                "deleted": row.deleted_at is not None,
            }
            for row in rows
        ]

    # --- mutes -----------------------------------------------------------------------------

    def mutes(self, user_id: int) -> list[str]:
        table = chat_mutes_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(table.c.sender).where(table.c.user_id == user_id).order_by(table.c.at)
            ).scalars()
            return list(rows)

    def mute(self, user_id: int, sender: str, now: float) -> None:
        with self.engine.begin() as conn:
            _insert_once(conn, chat_mutes_table, user_id=user_id, sender=sender, at=now)

    def unmute(self, user_id: int, sender: str) -> None:
        table = chat_mutes_table
        with self.engine.begin() as conn:
            conn.execute(delete(table).where(table.c.user_id == user_id, table.c.sender == sender))

    # --- moderation ------------------------------------------------------------------------

    def is_moderator(self, user_id: int) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(moderators_table.c.user_id).where(moderators_table.c.user_id == user_id)
            ).first()
        return found is not None

    def set_moderator(self, user_id: int, moderator: bool, now: float) -> bool:
        """Make an account a moderator or not; whether that changed anything."""
        table = moderators_table
        with self.engine.begin() as conn:
            if not moderator:
                return conn.execute(delete(table).where(table.c.user_id == user_id)).rowcount == 1
            return _insert_once(conn, table, user_id=user_id, added_at=now)

    def moderators(self) -> list[int]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(moderators_table.c.user_id).order_by("added_at"))
            return list(rows.scalars())

    def silence(self, user_id: int, until: float, now: float) -> None:
        """Silence an account until ``until`` (a time in the past lifts it)."""
        table = chat_silences_table
        with self.engine.begin() as conn:
            conn.execute(
                _insert(conn, table, user_id=user_id, until=until, at=now).on_conflict_do_update(
                    index_elements=[table.c.user_id], set_={"until": until, "at": now}
                )
            )
