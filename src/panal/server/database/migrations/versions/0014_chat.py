"""Chat (issue 25): each game's and table's messages, reports on them, accounts' mutes, the
moderators, silenced accounts, and each sender's token bucket (its rate of messages).

No foreign keys: a room is named ``<kind>:<key>`` whatever its kind, and a sender is an account
or a guest's seat (see ``panal.server.chat.chat_store``).

Revision ID: 0014_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import serial_id_column, time_column

revision = "0014_chat"
down_revision = "0013_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        serial_id_column(),
        sa.Column("room", sa.String(40), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("sender", sa.String(40), nullable=False),
        sa.Column("user_id", sa.Integer),
        sa.Column("author", sa.String(40)),
        sa.Column("seat", sa.Integer),
        sa.Column("text", sa.Text, nullable=False),
        time_column("at"),
        time_column("deleted_at", nullable=True),
        sa.Column("deleted_by", sa.Integer),
    )
    op.create_index("chat_messages_by_room", "chat_messages", ["room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("message_id", sa.Integer, primary_key=True),
        sa.Column("reporter", sa.String(40), primary_key=True),
        time_column("at"),
    )
    op.create_index("chat_reports_by_time", "chat_reports", ["at"])
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer, primary_key=True),
        sa.Column("sender", sa.String(40), primary_key=True),
        time_column("at"),
    )
    op.create_table(
        "chat_rates",
        sa.Column("sender", sa.String(40), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        time_column("at"),
        sa.Column("granted", sa.Integer, nullable=False),
    )
    op.create_table(
        "moderators",
        sa.Column("user_id", sa.Integer, primary_key=True),
        time_column("added_at"),
    )
    op.create_table(
        "chat_silences",
        sa.Column("user_id", sa.Integer, primary_key=True),
        time_column("until"),
        time_column("at"),
    )


def downgrade() -> None:
    for table in ("chat_silences", "moderators", "chat_rates", "chat_mutes", "chat_reports"):
        op.drop_table(table)
    op.drop_index("chat_messages_by_room", "chat_messages")
    op.drop_table("chat_messages")
