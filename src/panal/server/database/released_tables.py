"""Tables exactly as a released revision created them, for a later revision that creates one
again: ``0008_signin`` dropped ``sign_in_failures`` (made by ``0004_players``), and its
downgrade restores it.

Frozen, as :mod:`panal.server.database.columns`: both revisions call these functions, so they
never change; ``tests/server/test_server_migrations.py`` pins what they build.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from panal.server.database.columns import serial_id_column, time_column

__all__ = ["create_sign_in_failures"]


def create_sign_in_failures() -> None:
    """``sign_in_failures`` of ``0004_players``: one row per failed sign-in, by key and time."""
    op.create_table(
        "sign_in_failures",
        serial_id_column(),
        sa.Column("key", sa.String(80), nullable=False),
        time_column("at"),
    )
    op.create_index("sign_in_failures_by_key", "sign_in_failures", ["key", "at"])
