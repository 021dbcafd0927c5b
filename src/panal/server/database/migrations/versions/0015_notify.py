"""Notifications (issue 25): each player's notices, their switches per kind and channel, their
browsers' Web Push subscriptions, and the server's own keys (the VAPID key pair, made at the
first start).

Revision ID: 0015_notify
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import (
    account_column,
    created_at_column,
    serial_id_column,
    time_column,
)

revision = "0015_notify"
down_revision = "0014_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        serial_id_column(),
        account_column(),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        created_at_column(),
        time_column("read_at", nullable=True),
        sqlite_autoincrement=True,  # an id is never given twice: a page marks read what it saw
    )
    op.create_index("notifications_by_user", "notifications", ["user_id", "id"])
    op.create_table(
        "notification_switches",
        account_column(primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("channel", sa.String(8), primary_key=True),
        sa.Column("enabled", sa.Boolean, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        serial_id_column(),
        account_column(),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        created_at_column(),
    )
    op.create_index(
        "push_subscriptions_by_endpoint", "push_subscriptions", ["endpoint"], unique=True
    )
    op.create_index("push_subscriptions_by_user", "push_subscriptions", ["user_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        created_at_column(),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_index("push_subscriptions_by_user", "push_subscriptions")
    op.drop_index("push_subscriptions_by_endpoint", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notification_switches")
    op.drop_index("notifications_by_user", "notifications")
    op.drop_table("notifications")
