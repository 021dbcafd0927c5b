"""Tournaments with rule options (issue 22).

``tournaments.options`` holds the rule options every game of the tournament is played with, as
JSON ``{name: value}`` of the options that differ from panal's defaults
(:data:`panal.hive.OPTION_SPECS`; a tournament made before this revision plays the defaults).

Revision ID: 0018_tourney2
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_tourney2"
down_revision = "0017_challenge"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tournaments",
        sa.Column("options", sa.String(400), nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_column("tournaments", "options")
