"""Notifications in the database: each player's notices (``notifications``: unread until the
player reads them), their switches (``notification_switches``: only those turned away from the
default), their browsers' Web Push subscriptions (``push_subscriptions``) and the server's own
keys (``server_keys``: the VAPID key pair, made once, at the first start, by whichever process
inserts it first)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from panal.server.bots.bot_table import bot_users
from panal.server.database.columns import (
    account_column,
    created_at_column,
    serial_id_column,
    time_column,
)
from panal.server.database.store import metadata
from panal.server.players.player_store import users_table

__all__ = [
    "CHANNELS",
    "DEFAULT_OFF",
    "KINDS",
    "Notice",
    "NotificationStore",
    "PushSubscription",
    "Switches",
]

#: What a player can be told of. ``takeback_offer`` and a named ``challenge`` are published by
#: their own concerns (see docs/web.md, "Notifications").
KINDS = (
    "your_turn",
    "draw_offer",
    "rematch_offer",
    "takeback_offer",
    "challenge",
    "tournament_round",
)
#: How: shown on every open page (badge, banner), with a sound, by Web Push.
CHANNELS = ("page", "sound", "push")
#: Switches that are off until the player turns them on: a push for what only matters while
#: one is at the board anyway (an offer made in a game one is playing live).
DEFAULT_OFF = frozenset(
    {("draw_offer", "push"), ("rematch_offer", "push"), ("takeback_offer", "push")}
)
UNREAD_SHOWN = 50  # the newest unread notices a page is given
KEPT_PER_PLAYER = 200  # older notices are dropped as new ones come
MAX_SUBSCRIPTIONS = 10  # browsers per player; the oldest subscription goes first

notifications_table = sa.Table(
    "notifications",
    metadata,
    serial_id_column(),
    account_column(),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # JSON object: what the page needs to say it
    created_at_column(),
    time_column("read_at", nullable=True),  # NULL: unread
    sa.Index("notifications_by_user", "user_id", "id"),
    sqlite_autoincrement=True,  # an id is never given twice: a page marks read what it saw
)

notification_switches_table = sa.Table(
    "notification_switches",
    metadata,
    account_column(primary_key=True),
    sa.Column("kind", sa.String(24), primary_key=True),
    sa.Column("channel", sa.String(8), primary_key=True),
    sa.Column("enabled", sa.Boolean, nullable=False),
)

push_subscriptions_table = sa.Table(
    "push_subscriptions",
    metadata,
    serial_id_column(),
    account_column(),
    sa.Column("endpoint", sa.Text, nullable=False),
    sa.Column("p256dh", sa.String(200), nullable=False),  # the browser's public key (base64url)
    sa.Column("auth", sa.String(64), nullable=False),  # its authentication secret (base64url)
    created_at_column(),
    sa.Index("push_subscriptions_by_endpoint", "endpoint", unique=True),
    sa.Index("push_subscriptions_by_user", "user_id"),
)

server_keys_table = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    created_at_column(),
)


@dataclass(frozen=True)
class Notice:
    id: int
    kind: str
    data: dict[str, Any]
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "data": self.data, "at": self.created_at}


@dataclass(frozen=True)
class PushSubscription:
    id: int
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As the browser's ``PushSubscription.toJSON()`` gave it (pywebpush's argument)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True)
class Switches:
    """A player's switches: every (kind, channel) on or off."""

    turned: dict[tuple[str, str], bool]

    def on(self, kind: str, channel: str) -> bool:
        return self.turned.get((kind, channel), (kind, channel) not in DEFAULT_OFF)

    def to_json(self) -> dict[str, dict[str, bool]]:
        return {kind: {channel: self.on(kind, channel) for channel in CHANNELS} for kind in KINDS}


class NotificationStore:
    """The notifications' rows (each method runs in the store's threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- notices -----------------------------------------------------------------------------

    def add(self, user_id: int, kind: str, data: dict[str, Any], now: float) -> Notice:
        """A new unread notice; an unread one of the same kind and page goes (an offer made
        again is one notice, not a pile), and the player's oldest beyond
        :data:`KEPT_PER_PLAYER`."""
        text = json.dumps(data, separators=(",", ":"))
        t = notifications_table
        with self.engine.begin() as conn:
            same = conn.execute(
                select(t.c.id, t.c.data).where(
                    t.c.user_id == user_id, t.c.kind == kind, t.c.read_at.is_(None)
                )
            ).all()
            repeated = [r.id for r in same if json.loads(r.data).get("url") == data.get("url")]
            if repeated:
                conn.execute(delete(t).where(t.c.id.in_(repeated)))
            row = {"user_id": user_id, "kind": kind, "data": text, "created_at": now}
            notice_id = conn.execute(
                insert(notifications_table).values(**row).returning(notifications_table.c.id)
            ).scalar_one()
            _drop_old(conn, user_id, notice_id)
        return Notice(notice_id, kind, data, now)

    def unread(self, user_id: int, limit: int = UNREAD_SHOWN) -> tuple[list[Notice], int]:
        """The newest unread notices (newest first) and how many are unread in all."""
        t = notifications_table
        waiting = (t.c.user_id == user_id) & t.c.read_at.is_(None)
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(waiting).order_by(t.c.id.desc()).limit(limit))
            notices = [Notice(r.id, r.kind, json.loads(r.data), r.created_at) for r in rows]
            count = conn.execute(select(func.count()).select_from(t).where(waiting)).scalar_one()
        return notices, int(count)

    def mark_read(self, user_id: int, ids: list[int] | None, now: float) -> int:
        """Mark these notices (None: all) read; how many were unread."""
        t = notifications_table
        where = (t.c.user_id == user_id) & t.c.read_at.is_(None)
        if ids is not None:
            where &= t.c.id.in_(ids)
        with self.engine.begin() as conn:
            return int(conn.execute(update(t).where(where).values(read_at=now)).rowcount)

    def who(self, user_id: int, by: int | None) -> tuple[bool, str | None, str | None]:
        """Whether the player is a bot (told nothing: it reads no page), their language (their
        push messages are said in it) and the name of the account ``by`` that caused it."""
        u = users_table
        wanted = [user_id] if by is None else [user_id, by]
        with self.engine.connect() as conn:
            if bot_users(conn, [user_id]):
                return True, None, None
            rows = {
                r.id: r
                for r in conn.execute(
                    select(u.c.id, u.c.name, u.c.language).where(u.c.id.in_(wanted))
                )
            }
        language = rows[user_id].language if user_id in rows else None
        name = rows[by].name if by is not None and by in rows else None
        return False, language, name

    # --- switches ----------------------------------------------------------------------------

    def switches(self, user_id: int) -> Switches:
        t = notification_switches_table
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.user_id == user_id))
            return Switches({(r.kind, r.channel): bool(r.enabled) for r in rows})

    def set_switches(self, user_id: int, turned: dict[tuple[str, str], bool]) -> Switches:
        t = notification_switches_table
        with self.engine.begin() as conn:
            for (kind, channel), enabled in turned.items():
                key = (t.c.user_id == user_id) & (t.c.kind == kind) & (t.c.channel == channel)
                conn.execute(delete(t).where(key))
                if enabled == ((kind, channel) in DEFAULT_OFF):  # differs from the default
                    row = {"user_id": user_id, "kind": kind, "channel": channel}
                    conn.execute(insert(t).values(**row, enabled=enabled))
        return self.switches(user_id)

    # --- push subscriptions ------------------------------------------------------------------

    def subscribe(self, user_id: int, endpoint: str, p256dh: str, auth: str, now: float) -> None:
        """Keep a browser's subscription for this player (an endpoint known already moves to
        them: a browser signed in to another account)."""
        t = push_subscriptions_table
        with self.engine.begin() as conn:
            conn.execute(delete(t).where(t.c.endpoint == endpoint))
            row = {"endpoint": endpoint, "p256dh": p256dh, "auth": auth, "created_at": now}
            conn.execute(insert(t).values(user_id=user_id, **row))
            ids = conn.execute(
                select(t.c.id).where(t.c.user_id == user_id).order_by(t.c.id.desc())
            ).scalars()
            old = list(ids)[MAX_SUBSCRIPTIONS:]
            if old:
                conn.execute(delete(t).where(t.c.id.in_(old)))

    def unsubscribe(self, user_id: int, endpoint: str) -> bool:
        t = push_subscriptions_table
        with self.engine.begin() as conn:
            gone = conn.execute(delete(t).where(t.c.user_id == user_id, t.c.endpoint == endpoint))
            return bool(gone.rowcount)

    def subscriptions(self, user_id: int) -> list[PushSubscription]:
        t = push_subscriptions_table
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.user_id == user_id).order_by(t.c.id))
            return [PushSubscription(r.id, r.endpoint, r.p256dh, r.auth) for r in rows]

    def drop_subscription(self, subscription_id: int) -> None:
        """The push service says this subscription is gone (404, 410)."""
        t = push_subscriptions_table
        with self.engine.begin() as conn:
            conn.execute(delete(t).where(t.c.id == subscription_id))

    # --- the server's keys -------------------------------------------------------------------

    def server_key(self, name: str, make: Any, now: float) -> str:
        """The key ``name``, made by ``make()`` and kept if there is none: the first process to
        insert it wins, and every process uses that one."""
        t = server_keys_table
        with self.engine.connect() as conn:
            found = conn.execute(select(t.c.value).where(t.c.name == name)).scalar()
        if found is not None:
            return str(found)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(t).values(name=name, value=str(make()), created_at=now))
        except IntegrityError:
            pass  # another process made it first: take theirs
        with self.engine.connect() as conn:
            return str(conn.execute(select(t.c.value).where(t.c.name == name)).scalar_one())


def _drop_old(conn: Connection, user_id: int, newest: int) -> None:
    t = notifications_table
    cut = conn.execute(
        select(t.c.id)
        .where(t.c.user_id == user_id)
        .order_by(t.c.id.desc())
        .offset(KEPT_PER_PLAYER)
        .limit(1)
    ).scalar()
    if cut is not None and cut < newest:
        conn.execute(delete(t).where(t.c.user_id == user_id, t.c.id <= cut))
