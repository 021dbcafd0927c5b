"""The analysis board's tables: analyses cached by position, which job each client's engine
is on, and the reviews of finished games.

* ``analysis_positions``: a position's best lines (JSON) at the node budget they were computed
  with, keyed by :attr:`panal.server.analysis.positions.Position.key`; a position asked again
  with no more nodes is answered from here at once, by any process.
* ``analysis_engines``: each open analysis board (a *client*) and the one job its engine is on.
  The database decides whether an engine job still matters: a worker on another machine asks
  here before it starts the job and when its key is cancelled (a board that moved on or left).
* ``game_reviews``: one row per reviewed game, its ``version`` bumped by every change
  (compare-and-set, as a game's): queued, the plies evaluated so far, done with the review's
  JSON, or failed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Integer, String, Table, Text, delete, select
from sqlalchemy.exc import IntegrityError

from panal.server.database.columns import created_at_column, updated_at_column
from panal.server.database.store import Conflict, Store, bump_version, metadata

__all__ = ["AnalysisStore", "ReviewRow"]

positions_table = Table(
    "analysis_positions",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("nodes", Integer, nullable=False),
    Column("analysis", Text, nullable=False),
    created_at_column(),
)

engines_table = Table(
    "analysis_engines",
    metadata,
    Column("client", String(32), primary_key=True),
    Column("job_id", String(64)),
    updated_at_column(),
)

reviews_table = Table(
    "game_reviews",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("status", String(12), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("nodes_per_ply", Integer, nullable=False),
    Column("review", Text),
    Column("error", Text),
    created_at_column(),
    updated_at_column(),
)

REVIEW_FIELDS = ("status", "done", "total", "nodes_per_ply", "review", "error")


@dataclass
class ReviewRow:
    """A game's review as stored (``version`` 0: none was asked for yet)."""

    id: str
    version: int = 0
    status: str = "none"  # none, queued, running, done, failed
    done: int = 0
    total: int = 0
    nodes_per_ply: int = 0
    review: str | None = None  # the library's Review.to_json(), as JSON text
    error: str | None = None

    def fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in REVIEW_FIELDS}


class AnalysisStore:
    """The analysis tables of a :class:`~panal.server.database.store.Store`'s database. Every
    method is synchronous and short: the server calls them in the store's threads."""

    def __init__(self, store: Store) -> None:
        self.database = store
        self.engine = store.engine

    # --- analyses by position -------------------------------------------------------------

    def cached(self, key: str, nodes: int) -> dict[str, Any] | None:
        """The stored analysis of a position if it was computed with at least ``nodes``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(positions_table.c.analysis).where(
                    positions_table.c.key == key, positions_table.c.nodes >= nodes
                )
            ).first()
        return None if row is None else dict(json.loads(row.analysis))

    def keep(self, key: str, nodes: int, analysis: dict[str, Any]) -> None:
        """Store an analysis unless one with as many nodes or more is there already."""
        text = json.dumps(analysis, separators=(",", ":"))
        with self.engine.begin() as conn:
            stored = conn.execute(
                select(positions_table.c.nodes).where(positions_table.c.key == key)
            ).scalar()
            if stored is not None and stored >= nodes:
                return
            if stored is not None:
                conn.execute(delete(positions_table).where(positions_table.c.key == key))
            try:
                with conn.begin_nested():
                    conn.execute(
                        positions_table.insert().values(
                            key=key, nodes=nodes, analysis=text, created_at=time.time()
                        )
                    )
            except IntegrityError:
                pass  # another process stored the same position at the same moment

    # --- each client's engine -------------------------------------------------------------

    def engine_on(self, client: str, job_id: str | None) -> None:
        """The client's engine is now on ``job_id`` (None: off); every other job of it is stale."""
        with self.engine.begin() as conn:
            conn.execute(delete(engines_table).where(engines_table.c.client == client))
            if job_id is not None:
                conn.execute(
                    engines_table.insert().values(
                        client=client, job_id=job_id, updated_at=time.time()
                    )
                )

    def engine_job(self, client: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(engines_table.c.job_id).where(engines_table.c.client == client)
            ).scalar()
        return None if found is None else str(found)

    # --- reviews --------------------------------------------------------------------------

    def review(self, game_id: str) -> ReviewRow:
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews_table).where(reviews_table.c.id == game_id)).first()
        if row is None:
            return ReviewRow(game_id)
        return ReviewRow(row.id, row.version, *(getattr(row, name) for name in REVIEW_FIELDS))

    def review_version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(reviews_table.c.version).where(reviews_table.c.id == game_id)
            ).scalar()
        return 0 if found is None else int(found)

    def change_review(self, game_id: str, version: int, values: dict[str, Any]) -> int:
        """Write the review's ``values`` if it is still at ``version`` (0: not stored yet); the
        new version. Raises :class:`Conflict`, nothing written, when another process got there
        first."""
        now = time.time()

        def write(conn: Connection) -> int:
            if version:
                return bump_version(conn, reviews_table, game_id, version, values, now)
            row = {**ReviewRow(game_id).fields(), **values}
            try:
                with conn.begin_nested():
                    conn.execute(
                        reviews_table.insert().values(
                            id=game_id, version=1, created_at=now, updated_at=now, **row
                        )
                    )
            except IntegrityError:
                raise Conflict(game_id) from None
            return 1

        return self.database.transact(write)
