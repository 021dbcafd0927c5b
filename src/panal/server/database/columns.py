"""The columns that many tables share, written once: a row's id, a moment (when it was
created, last changed, ...), and a reference to an account. Both today's table declarations and
the migrations build these columns with them.

Frozen: a released migration must create the same schema on every database, forever, so a
function here never changes once a migration calls it; a column that differs is a new function.
(The migrations never import the table declarations themselves, which change with the code.)
``tests/server/test_server_migrations.py`` pins what each function builds, and checks that
upgrading an empty database gives the declared schema.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

__all__ = [
    "account_column",
    "created_at_column",
    "id_column",
    "serial_id_column",
    "time_column",
    "updated_at_column",
]


def id_column() -> sa.Column[Any]:
    """The id of a game, a table or a challenge: a short random string (``room.tokens.new_id``)."""
    return sa.Column("id", sa.String(16), primary_key=True)


def serial_id_column() -> sa.Column[Any]:
    """The id of an account, a message or a notification: the database counts them."""
    return sa.Column("id", sa.Integer, primary_key=True, autoincrement=True)


def time_column(name: str, *, nullable: bool = False) -> sa.Column[Any]:
    """A moment: seconds since the epoch (``time.time()``), as every moment here."""
    return sa.Column(name, sa.Float, nullable=nullable)


def created_at_column() -> sa.Column[Any]:
    """When the row was written first."""
    return time_column("created_at")


def updated_at_column() -> sa.Column[Any]:
    """When the row last changed."""
    return time_column("updated_at")


def account_column(
    name: str = "user_id", *, primary_key: bool = False, nullable: bool = False
) -> sa.Column[Any]:
    """A reference to an account (``users.id``); a primary key's part is never NULL."""
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("users.id"),
        primary_key=primary_key,
        nullable=nullable and not primary_key,
    )
