"""The Dragonfly gates rule option (commit 976dd33).

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it): a batch copy of ``games`` would trip the moves'
    # foreign key.
    op.add_column(
        "games",
        sa.Column("dragonfly_gates", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dragonfly_gates")
