"""Named challenges and takebacks (issue 25).

* ``challenges.addressee_id``: the one account a named challenge is addressed to (NULL: an open
  challenge in the lobby), with an index for each player's incoming challenges.
* ``challenges.takebacks`` and ``games.takebacks``: whether the game allows takebacks (an option
  of the challenge; existing games and challenges: no).
* ``games.takeback_offer``: the colour proposing to take back its last move (NULL: none).

Plain ``ADD COLUMN``s: SQLite upgrades in place.

Revision ID: 0017_challenge
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_challenge"
down_revision = "0016_account"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("challenges", sa.Column("addressee_id", sa.Integer))
    op.add_column(
        "challenges",
        sa.Column("takebacks", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("challenges_by_addressee", "challenges", ["addressee_id", "status"])
    op.add_column(
        "games", sa.Column("takebacks", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("takeback_offer", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takeback_offer")
        batch.drop_column("takebacks")
    op.drop_index("challenges_by_addressee", "challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("takebacks")
        batch.drop_column("addressee_id")
