"""Account care in the database: passwords changed and reset, e-mail addresses, the e-mailed
links' tokens, deleting an account, and the correspondence reminders due.

* **Tokens** (a reset, an address to verify) are stored by their SHA-256 only
  (:func:`panal.server.players.accounts.session_key`), with their purpose and expiry; one is
  used by one conditional ``UPDATE … WHERE used_at IS NULL AND expires_at > now``, in the
  transaction that does what it allows, so two clicks on one link change the password once.
* **Deleting an account** keeps its games, ratings history and tournament places (other players'
  records), and removes the person: the name becomes :data:`DELETED_NAME` (a label no name can
  be: it has a space), the name's keys are cleared so the name is free again, and the password
  hash, e-mail, preferences, sessions, links, its bots' API tokens, current ratings (the
  leaderboards) and open challenges go. The ``users`` row stays, so every game's reference to
  it stays valid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from panal.server.bots.bot_table import bots_table
from panal.server.chat.chat_store import chat_messages_table
from panal.server.database.columns import account_column, created_at_column, time_column
from panal.server.database.store import metadata
from panal.server.enjambre_tables.table_store import seats_table
from panal.server.hive_games.game_store import games_table
from panal.server.lobby.challenge_store import CANCELLED, OPEN, challenges_table
from panal.server.notifications.notification_store import (
    notification_switches_table,
    notifications_table,
    push_subscriptions_table,
)
from panal.server.players.player_store import sessions_table, users_table
from panal.server.ratings.rating_store import ratings_table

__all__ = [
    "DELETED_NAME",
    "AccountStore",
    "EmailTaken",
    "MailAccount",
    "ReminderDue",
    "account_tokens_table",
    "mail_reminders_table",
]

#: What a deleted account is called everywhere its name was (the browser translates it).
DELETED_NAME = "deleted player"
RESET, VERIFY = "reset", "verify"

account_tokens_table = sa.Table(
    "account_tokens",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    account_column(),
    sa.Column("purpose", sa.String(12), nullable=False),
    sa.Column("email", sa.String(254)),
    created_at_column(),
    time_column("expires_at"),
    time_column("used_at", nullable=True),
    sa.Index("account_tokens_by_user", "user_id"),
)

mail_reminders_table = sa.Table(
    "mail_reminders",
    metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("ply", sa.Integer, nullable=False),  # the move awaited (the game's plies)
    time_column("sent_at"),
)


class EmailTaken(Exception):
    """Another account has verified this address."""


@dataclass(frozen=True)
class MailAccount:
    """What an e-mail to an account needs: its id, name, address and language."""

    id: int
    name: str
    email: str | None
    language: str | None
    reminders: bool


@dataclass(frozen=True)
class ReminderDue:
    """A correspondence game waiting on an account with reminders on."""

    game_id: str
    ply: int
    player: MailAccount
    opponent: int | None
    deadline: float


def _mail_account(row: sa.Row[tuple[object, ...]]) -> MailAccount:
    values = row._mapping
    return MailAccount(
        values["id"], values["name"], values["email"], values["language"], values["reminders"]
    )


_LIVE_USERS = users_table.c.deleted_at.is_(None)


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def mail_account(self, user_id: int) -> MailAccount | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table).where(users_table.c.id == user_id, _LIVE_USERS)
            ).first()
        return None if row is None else _mail_account(row)

    def account_by_email(self, email: str) -> MailAccount | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table).where(users_table.c.email == email, _LIVE_USERS)
            ).first()
        return None if row is None else _mail_account(row)

    def password_hash(self, user_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(users_table.c.password_hash).where(users_table.c.id == user_id, _LIVE_USERS)
            ).scalar_one_or_none()

    # --- passwords ---------------------------------------------------------------------------

    def change_password(self, user_id: int, password_hash: str, keep_session: str) -> None:
        """A new password: every other session of the account signed out, its reset links
        void."""
        with self.engine.begin() as conn:
            conn.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(password_hash=password_hash)
            )
            conn.execute(
                delete(sessions_table).where(
                    sessions_table.c.user_id == user_id, sessions_table.c.key != keep_session
                )
            )
            conn.execute(
                delete(account_tokens_table).where(
                    account_tokens_table.c.user_id == user_id,
                    account_tokens_table.c.purpose == RESET,
                )
            )

    # --- tokens ------------------------------------------------------------------------------

    def new_token(
        self, key: str, user_id: int, purpose: str, lifetime: float, email: str | None = None
    ) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(account_tokens_table).values(
                    key=key,
                    user_id=user_id,
                    purpose=purpose,
                    email=email,
                    created_at=now,
                    expires_at=now + lifetime,
                )
            )
            # Links that ran out are dropped as new ones come (the table stays small).
            conn.execute(
                delete(account_tokens_table).where(account_tokens_table.c.expires_at < now - 86_400)
            )

    def token_account(self, key: str, purpose: str) -> MailAccount | None:
        """The account a usable (unused, unexpired) token of ``purpose`` belongs to."""
        token = account_tokens_table
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table)
                .join(token, token.c.user_id == users_table.c.id)
                .where(
                    token.c.key == key,
                    token.c.purpose == purpose,
                    token.c.used_at.is_(None),
                    token.c.expires_at > time.time(),
                    _LIVE_USERS,
                )
            ).first()
        return None if row is None else _mail_account(row)

    @staticmethod
    def _use_token(conn: sa.Connection, key: str, purpose: str) -> tuple[int, str | None] | None:
        """Mark a usable token used, once: its account and e-mail, or None."""
        token = account_tokens_table
        now = time.time()
        row = conn.execute(
            update(token)
            .where(
                token.c.key == key,
                token.c.purpose == purpose,
                token.c.used_at.is_(None),
                token.c.expires_at > now,
            )
            .values(used_at=now)
            .returning(token.c.user_id, token.c.email)
        ).first()
        return None if row is None else (int(row.user_id), row.email)

    def reset_password(self, key: str, password_hash: str) -> int | None:
        """Use a reset token: the new password set, every session signed out, the account's
        other reset links void; the account's id, or None for a token used or expired."""
        with self.engine.begin() as conn:
            used = self._use_token(conn, key, RESET)
            if used is None:
                return None
            user_id = used[0]
            conn.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(password_hash=password_hash)
            )
            conn.execute(delete(sessions_table).where(sessions_table.c.user_id == user_id))
            conn.execute(
                update(account_tokens_table)
                .where(
                    account_tokens_table.c.user_id == user_id,
                    account_tokens_table.c.purpose == RESET,
                    account_tokens_table.c.used_at.is_(None),
                )
                .values(used_at=time.time())
            )
        return user_id

    # --- e-mail ------------------------------------------------------------------------------

    def verify_email(self, key: str) -> str | None:
        """Use a verification token: its address becomes the account's. The address, or None
        for a token used or expired; :class:`EmailTaken` if another account verified it."""
        try:
            with self.engine.begin() as conn:
                used = self._use_token(conn, key, VERIFY)
                if used is None:
                    return None
                user_id, email = used
                conn.execute(
                    update(users_table).where(users_table.c.id == user_id).values(email=email)
                )
        except IntegrityError:
            raise EmailTaken(str(key)) from None
        return email

    def set_email(self, user_id: int, email: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(users_table).where(users_table.c.id == user_id).values(email=email))

    def set_reminders(self, user_id: int, on: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(users_table).where(users_table.c.id == user_id).values(reminders=on)
            )

    # --- deleting ----------------------------------------------------------------------------

    def delete_account(self, user_id: int) -> None:
        """Remove the person, keep the games (see the module's note)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(
                    name=DELETED_NAME,
                    name_key=f"~{user_id}",  # no name has a "~": the name is free again
                    name_skeleton=None,
                    password_hash="!",  # no Argon2 hash: no password ever matches
                    email=None,
                    language=None,
                    look=None,
                    reminders=False,
                    deleted_at=now,
                )
            )
            conn.execute(delete(sessions_table).where(sessions_table.c.user_id == user_id))
            conn.execute(
                delete(account_tokens_table).where(account_tokens_table.c.user_id == user_id)
            )
            conn.execute(delete(ratings_table).where(ratings_table.c.user_id == user_id))
            # Its bots stay (their games are records) but can no longer connect.
            conn.execute(
                update(bots_table).where(bots_table.c.owner_id == user_id).values(token_hash=None)
            )
            conn.execute(
                update(challenges_table)
                .where(challenges_table.c.creator_id == user_id, challenges_table.c.status == OPEN)
                .values(status=CANCELLED)
            )
            conn.execute(
                update(seats_table)
                .where(seats_table.c.user_id == user_id)
                .values(name=DELETED_NAME)
            )
            # What it said stays in the games' chats, under the neutral label; where its
            # notices were pushed (its devices' addresses) is personal and goes.
            conn.execute(
                update(chat_messages_table)
                .where(chat_messages_table.c.user_id == user_id)
                .values(author=DELETED_NAME)
            )
            for personal in (
                notifications_table,
                notification_switches_table,
                push_subscriptions_table,
            ):
                conn.execute(delete(personal).where(personal.c.user_id == user_id))

    # --- correspondence reminders ------------------------------------------------------------

    def reminders_due(
        self, now: float, before_deadline: float, limit: int = 100
    ) -> list[ReminderDue]:
        """Unfinished correspondence games whose player to move has reminders on and a
        verified address, at most ``before_deadline`` seconds (or half the move's time) before
        their deadline, and not reminded for this move."""
        games = games_table
        sent = mail_reminders_table
        half = (games.c.deadline - games.c.clock_since) / 2
        due_at = games.c.deadline - sa.case((half < before_deadline, half), else_=before_deadline)
        mover = sa.case((games.c.plies % 2 == 0, games.c.white_user), else_=games.c.black_user)
        other = sa.case((games.c.plies % 2 == 0, games.c.black_user), else_=games.c.white_user)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games.c.id,
                    games.c.plies,
                    games.c.deadline,
                    other.label("opponent"),
                    users_table,
                )
                .join(users_table, users_table.c.id == mover)
                .outerjoin(sent, sent.c.game_id == games.c.id)
                .where(
                    games.c.speed == "correspondence",
                    games.c.result.is_(None),
                    games.c.deadline.is_not(None),
                    games.c.clock_since.is_not(None),
                    games.c.deadline > now,
                    due_at <= now,
                    users_table.c.reminders.is_(True),
                    users_table.c.email.is_not(None),
                    _LIVE_USERS,
                    sa.or_(sent.c.ply.is_(None), sent.c.ply < games.c.plies),
                )
                .limit(limit)
            ).all()
        return [
            ReminderDue(row.id, row.plies, _mail_account(row), row.opponent, row.deadline)
            for row in rows
        ]

    def claim_reminder(self, game_id: str, ply: int) -> bool:
        """Whether this process sends the reminder for the game's move ``ply``: one
        ``INSERT … ON CONFLICT DO UPDATE … WHERE`` statement, so one process of many does."""
        sent = mail_reminders_table
        now = time.time()
        with self.engine.begin() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            claimed = conn.execute(
                dialect.insert(sent)
                .values(game_id=game_id, ply=ply, sent_at=now)
                .on_conflict_do_update(
                    index_elements=[sent.c.game_id],
                    set_={"ply": ply, "sent_at": now},
                    where=sent.c.ply < ply,
                )
                .returning(sent.c.game_id)
            ).first()
        return claimed is not None
