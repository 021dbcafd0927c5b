"""Fair capacity: whose AI games and tables with bots these are, for the caps per client, per
account and per address and for the job queue's fair shares (``panal.server.http.clients``).

``games.client`` and ``enjambre_tables.client`` are the hash of the creator's client token (of
its address when it sent none); ``enjambre_tables.owner`` the hash of its address, as
``games.owner`` already is; ``enjambre_tables.creator`` its account.

Revision ID: 0007_fairness
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_fairness"
down_revision = "0006_rated_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("client", sa.String(64)))
    op.create_index("games_open_by_client", "games", ["mode", "result", "client"])
    op.add_column("enjambre_tables", sa.Column("owner", sa.String(64)))
    op.add_column("enjambre_tables", sa.Column("client", sa.String(64)))
    op.add_column("enjambre_tables", sa.Column("creator", sa.Integer))
    op.create_index("enjambre_tables_open_by_owner", "enjambre_tables", ["status", "owner"])
    op.create_index("enjambre_tables_open_by_client", "enjambre_tables", ["status", "client"])


def downgrade() -> None:
    op.drop_index("enjambre_tables_open_by_client", "enjambre_tables")
    op.drop_index("enjambre_tables_open_by_owner", "enjambre_tables")
    with op.batch_alter_table("enjambre_tables") as batch:
        batch.drop_column("creator")
        batch.drop_column("client")
        batch.drop_column("owner")
    op.drop_index("games_open_by_client", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("client")
