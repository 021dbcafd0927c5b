"""Account care and e-mail (issue 25): change and reset a password, an e-mail address, delete an
account, correspondence reminders.

* ``users.email``: the account's verified address (lower case; unique, so a reset by address
  finds one account); ``users.reminders``: whether correspondence reminders are e-mailed;
  ``users.deleted_at``: when the account was deleted (its name is gone, its games stay).
* ``account_tokens``: the secrets of e-mailed links (a password reset, an address to verify),
  by their SHA-256 only, each single-use (``used_at``) and expiring.
* ``mail_reminders``: the correspondence reminders sent, one per game and move awaited (``ply``,
  the game's plies then), so that a reminder goes once whichever process finds it first.

Revision ID: 0016_account
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import account_column, created_at_column, time_column

revision = "0016_account"
down_revision = "0015_notify"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("email", sa.String(254)))
    op.add_column(
        "users", sa.Column("reminders", sa.Boolean, nullable=False, server_default=sa.true())
    )
    op.add_column("users", time_column("deleted_at", nullable=True))
    op.create_index("users_by_email", "users", ["email"], unique=True)
    op.create_table(
        "account_tokens",
        sa.Column("key", sa.String(64), primary_key=True),
        account_column(),
        sa.Column("purpose", sa.String(12), nullable=False),
        sa.Column("email", sa.String(254)),
        created_at_column(),
        time_column("expires_at"),
        time_column("used_at", nullable=True),
    )
    op.create_index("account_tokens_by_user", "account_tokens", ["user_id"])
    op.create_table(
        "mail_reminders",
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("ply", sa.Integer, nullable=False),
        time_column("sent_at"),
    )


def downgrade() -> None:
    op.drop_table("mail_reminders")
    op.drop_index("account_tokens_by_user", table_name="account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("users_by_email", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("reminders")
        batch.drop_column("email")
