"""Rated Enjambre tables: a table may be rated (every seat an account), and a seat remembers the
account that took it.

The seat's account is a foreign key: SQLite adds it by a batch copy of ``enjambre_seats``
(nothing refers to that table).

Revision ID: 0006_rated_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_rated_tables"
down_revision = "0005_enjambre"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "enjambre_tables",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    with op.batch_alter_table("enjambre_seats") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer))
        batch.create_foreign_key("enjambre_seats_user", "users", ["user_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("enjambre_seats") as batch:
        batch.drop_constraint("enjambre_seats_user", type_="foreignkey")
        batch.drop_column("user_id")
    with op.batch_alter_table("enjambre_tables") as batch:
        batch.drop_column("rated")
