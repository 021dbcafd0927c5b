"""Abuse limits: attempts are counted before the work they ask for, names that read alike are
refused, and open challenges are capped per client address too.

* ``attempt_counters`` replaces ``sign_in_failures`` (failures written after the password test
  let parallel attempts through): one row per counted key and window.
* ``users.name_skeleton``: each name's confusable skeleton (TR39, case folded), unique. Existing
  accounts get theirs here; where two existing names read alike, the older keeps it and the
  newer has none (a null is not compared), so no account is lost.
* ``challenges.creator_address``: the creator's hashed address, for the cap per address.

Revision ID: 0008_signin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import time_column
from panal.server.database.released_tables import create_sign_in_failures

revision = "0008_signin"
down_revision = "0007_fairness"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from panal.server.players.accounts import name_skeleton

    op.drop_index("sign_in_failures_by_key", table_name="sign_in_failures")
    op.drop_table("sign_in_failures")
    op.create_table(
        "attempt_counters",
        sa.Column("key", sa.String(64), primary_key=True),
        time_column("window_start"),
        sa.Column("attempts", sa.Integer, nullable=False),
    )
    op.create_index("attempt_counters_by_window", "attempt_counters", ["window_start"])
    op.add_column("users", sa.Column("name_skeleton", sa.String(80)))
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("name"), sa.column("name_skeleton")
    )
    conn = op.get_bind()
    taken: set[str] = set()
    for user_id, name in conn.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)):
        skeleton = name_skeleton(name)
        if skeleton not in taken:
            taken.add(skeleton)
            conn.execute(users.update().where(users.c.id == user_id).values(name_skeleton=skeleton))
    op.create_index("users_by_name_skeleton", "users", ["name_skeleton"], unique=True)
    op.add_column("challenges", sa.Column("creator_address", sa.String(32)))
    op.create_index("challenges_by_creator_address", "challenges", ["creator_address", "status"])


def downgrade() -> None:
    op.drop_index("challenges_by_creator_address", table_name="challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("creator_address")
    op.drop_index("users_by_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
    op.drop_index("attempt_counters_by_window", table_name="attempt_counters")
    op.drop_table("attempt_counters")
    create_sign_in_failures()
