"""Enjambre tournaments (issue 22): a pairing row may name the Enjambre table of its round.

``tournament_pairings.table_id``: the table every player of a series' round sits at (NULL for
Hive pairings, which name a game).

Revision ID: 0019_etourney
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_etourney"
down_revision = "0018_tourney2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_pairings") as batch:
        batch.add_column(
            sa.Column(
                "table_id",
                sa.String(16),
                sa.ForeignKey("enjambre_tables.id", name="tournament_pairings_table_id_fkey"),
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_pairings") as batch:
        batch.drop_constraint("tournament_pairings_table_id_fkey", type_="foreignkey")
        batch.drop_column("table_id")
