"""Scale-out: a version on each game (compare-and-set) and the client that owns an AI game.

``version`` counts the changes of a game; a write names the version it was computed from and is
refused when another process got there first. ``owner`` is a hash of the client's address, to
limit the AI games a client keeps busy at once.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("owner", sa.String(64)))
    op.create_index("games_open_by_mode", "games", ["mode", "result", "owner"])


def downgrade() -> None:
    op.drop_index("games_open_by_mode", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("owner")
        batch.drop_column("version")
