"""The engine beside each analysis board: the best lines of the position on the board,
deepening as the search goes, computed as jobs by any worker (like lichess's fishnet).

Each open board is a *client* with one engine job at most, queued or running: a new position
cancels the previous one (its key is the client's), and so does leaving the page or switching
the engine off. That is how the workers are shared fairly: no client holds more than one, and
each job is bounded by nodes (the same answer on any machine). The database decides which job
a client's engine is on (``analysis_engines``), so a worker on another machine drops a job that
no longer matters before it starts it, or as soon as its key is cancelled.

A finished analysis is stored by position (``analysis_positions``): a position already
analysed with as many nodes is answered at once, without a job. The lines found at each depth
reach the page as they come: the worker's process announces them on the client's bus channel
``engine:<client>``, which the process holding the page's socket forwards.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from panal.server.analysis.analysis_store import AnalysisStore
from panal.server.analysis.positions import Position
from panal.server.room.outbox import Outbox
from panal.server.runtime.jobs import Job, JobError
from panal.server.runtime.runtime import Runtime

__all__ = ["ENGINE_JOB", "EngineLimits", "Engines"]

log = logging.getLogger("panal.server")
ENGINE_JOB = "analysis.position"
CHANNEL = "engine"


@dataclass(frozen=True)
class EngineLimits:
    """``nodes``: the search budget of one position (the deepest the board goes); ``lines``:
    how many best lines are shown at most; ``review_nodes_per_ply``: a review's budget for each
    position of the game; ``cached_reviews``: reviews kept in memory. The budgets are the
    library's defaults (``panal.ai.analysis.DEFAULT_NODES``,
    ``panal.ai.game_review.DEFAULT_NODES_PER_PLY``), not imported: panal.ai is optional."""

    nodes: int = 20_000
    lines: int = 3
    review_nodes_per_ply: int = 5_000
    cached_reviews: int = 200


@dataclass
class EngineClient:
    """One open analysis board on this process."""

    id: str
    connection: Outbox
    key: str | None = None  # the position whose lines are being searched
    seq: int = 0
    jobs: set[str] = field(default_factory=set)


class Engines:
    """The engine jobs of this process's boards, and (a job owner) of every board's jobs that
    this process's workers compute."""

    def __init__(self, runtime: Runtime, store: AnalysisStore, limits: EngineLimits) -> None:
        self.runtime = runtime
        self.store = store
        self.limits = limits
        self.clients: dict[str, EngineClient] = {}
        runtime.listen(CHANNEL, self)
        runtime.own_jobs(ENGINE_JOB, self)

    # --- boards on this process -----------------------------------------------------------

    async def open(self, connection: Outbox) -> EngineClient:
        client = EngineClient(secrets.token_urlsafe(12), connection)
        self.clients[client.id] = client
        await self.runtime.bus.subscribe(f"{CHANNEL}:{client.id}")
        return client

    async def close(self, client: EngineClient) -> None:
        """The page was left: its engine stops, wherever it runs."""
        self.clients.pop(client.id, None)
        await self.stop(client)
        await self.runtime.bus.unsubscribe(f"{CHANNEL}:{client.id}")

    async def stop(self, client: EngineClient) -> None:
        client.key = None
        await self.runtime.db(self.store.engine_on, client.id, None)
        await self.runtime.jobs.cancel(f"{CHANNEL}:{client.id}")

    async def analyse(self, client: EngineClient, position: Position, lines: int) -> None:
        """Search ``position`` for the client: from the cache at once, else as a job (the
        client's previous one is cancelled)."""
        key = position.key
        client.key = key
        nodes = self.limits.nodes
        cached = await self.runtime.db(self.store.cached, key, nodes)
        if cached is not None:
            await self.runtime.db(self.store.engine_on, client.id, None)
            await self.runtime.jobs.cancel(f"{CHANNEL}:{client.id}")
            client.connection.post(_lines_message(key, cached, final=True, cached=True))
            return
        client.seq += 1
        job = Job(
            ENGINE_JOB,
            f"{CHANNEL}:{client.id}",
            {
                "client": client.id,
                "key": key,
                "position": position.spec,
                "nodes": nodes,
                "lines": max(1, min(lines, self.limits.lines)),
            },
            id=f"{client.id}.{client.seq}",
        )
        await self.runtime.db(self.store.engine_on, client.id, job.id)
        await self.runtime.jobs.cancel(job.key, keep=job.id)
        await self.runtime.jobs.submit(job)

    # --- the bus (a BusListener): lines computed anywhere, for this process's boards -------

    def on_bus_message(self, channel: str, message: Any) -> None:
        client = self.clients.get(channel.partition(":")[2])
        if client is None or not isinstance(message, dict):
            return
        if message.get("key") != client.key:
            return  # lines of a position the board has left
        client.connection.post(json.dumps(message, ensure_ascii=False))

    def on_bus_reconnect(self) -> None:
        """Lines lost meanwhile are only a step of a search: the next step or the end comes."""

    # --- its jobs (a job owner), on whichever process computes them ------------------------

    async def is_current(self, job: Job) -> bool:
        if job.kind != ENGINE_JOB:
            return True
        current = await self.runtime.db(self.store.engine_job, job.payload["client"])
        return current == job.id

    def progress(self, job: Job, data: Any) -> None:
        if isinstance(data, dict):
            self._tell(job, _lines(job.payload["key"], data, final=False))

    async def apply(self, job: Job, result: Any) -> None:
        key, nodes = job.payload["key"], job.payload["nodes"]
        await self.runtime.db(self.store.keep, key, nodes, result)
        self._tell(job, _lines(key, result, final=True))

    async def failed(self, job: Job, error: JobError) -> None:
        if error.kind == "cancelled":
            return
        message = {
            "type": "engine_error",
            "key": job.payload["key"],
            "code": f"engine_{error.kind}",
            "message": error.message,
        }
        self._tell(job, message)

    def _tell(self, job: Job, message: dict[str, Any]) -> None:
        self.runtime.announce(f"{CHANNEL}:{job.payload['client']}", message)


def _lines(
    key: str, analysis: dict[str, Any], *, final: bool, cached: bool = False
) -> dict[str, Any]:
    return {"type": "analysis", "key": key, "final": final, "cached": cached, "analysis": analysis}


def _lines_message(key: str, analysis: dict[str, Any], *, final: bool, cached: bool) -> str:
    return json.dumps(_lines(key, analysis, final=final, cached=cached), ensure_ascii=False)
