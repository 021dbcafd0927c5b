"""Alembic environment: migrations run on the connection that :mod:`panal.server.database.store`
gives.

Never run from a command line of its own: ``Store`` upgrades the database at start-up
(``panal.server.database.store.migrate``), so ``panal serve`` and ``panal ai-worker`` never meet an
old schema.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
