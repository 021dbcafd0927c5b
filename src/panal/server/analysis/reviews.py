"""Game reviews, a kind of live room (:class:`panal.server.room.core.RoomKind`): one room per
finished game, whose stored row (``game_reviews``) is the review.

Anyone who opens a finished game may ask for its review; the whole game is then evaluated once
in the background, as one job (``analysis.review``) that any worker may take, reporting the plies
done as it goes. Every step is a change of the room, committed with a compare-and-set on the
review's version and shown to everyone watching the game, on every process (the room's bus
channel ``review:<game id>``): queued, the plies done so far, done with the review, or failed.
The review is stored: whoever opens the game later sees it at once. A game still being played
is not reviewed.

The games themselves belong to another kind of room; this one reads them through a
:class:`GameSource` that the wiring (``app.py``) gives it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from panal.server.analysis.analysis_store import AnalysisStore, ReviewRow
from panal.server.analysis.engine import EngineLimits
from panal.server.http.request_error import RequestError
from panal.server.room.core import Failure, RoomKindBase, Rooms, RowCopy
from panal.server.room.outbox import Outbox
from panal.server.runtime.jobs import Job, JobError
from panal.server.runtime.runtime import Runtime

__all__ = ["REVIEW_JOB", "GameSource", "LiveReview", "ReviewChange", "ReviewedGame", "Reviews"]

log = logging.getLogger("panal.server")
REVIEW_JOB = "analysis.review"


@dataclass(frozen=True)
class ReviewedGame:
    """What a review needs of a game: its position (the moves from the start, as
    :mod:`panal.server.analysis.positions` reads them), whether it is over, who plays it."""

    position: dict[str, Any]
    finished: bool
    seats_for: Callable[[str | None, int | None], frozenset[int]]
    players: tuple[str | None, str | None] = (None, None)


#: The game of an id (raises the games' ``unknown_game`` RequestError).
GameSource = Callable[[str], Awaitable[ReviewedGame]]


@dataclass
class LiveReview(RowCopy):
    """A process's copy of a game's review."""

    row: ReviewRow
    game: ReviewedGame
    connections: set[Outbox] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    used_at: float = field(default_factory=time.monotonic)

    def state(self) -> dict[str, Any]:
        row = self.row
        return {
            "type": "review",
            "game": row.id,
            "version": row.version,
            "status": row.status,
            "done": row.done,
            "total": row.total,
            "finished": self.game.finished,
            "players": list(self.game.players),
            "position": self.game.position,
            "review": None if row.review is None else json.loads(row.review),
            "error": row.error,
        }


@dataclass(frozen=True)
class ReviewChange:
    """The review's stored fields a step sets."""

    values: dict[str, Any]


class Reviews(RoomKindBase[LiveReview, ReviewChange]):
    """The reviews' hub: the :class:`RoomKind` of reviews, and the owner of their jobs."""

    name = "review"
    stale_message = "the review changed meanwhile; look again"

    def __init__(
        self, runtime: Runtime, store: AnalysisStore, games: GameSource, limits: EngineLimits
    ) -> None:
        self.runtime = runtime
        self.store = store
        self.games = games
        self.limits = limits
        self.rooms = Rooms(runtime, self, limits.cached_reviews)
        runtime.own_jobs(REVIEW_JOB, self)

    # --- the RoomKind ---------------------------------------------------------------------

    def unknown(self) -> RequestError:
        return RequestError("unknown_game", "there is no game with that id", 404)

    async def load(self, key: str) -> LiveReview:
        game = await self.games(key)
        return LiveReview(await self.runtime.db(self.store.review, key), game)

    def take(self, live: LiveReview, fresh: LiveReview) -> None:
        live.row, live.game = fresh.row, fresh.game

    async def stored_version(self, key: str) -> int | None:
        return await self.runtime.db(self.store.review_version, key)

    def evictable(self, live: LiveReview) -> bool:
        return True

    async def write(self, live: LiveReview, change: ReviewChange) -> int:
        return await self.runtime.db(self.store.change_review, live.id, live.version, change.values)

    def apply_change(self, live: LiveReview, change: ReviewChange, version: int) -> None:
        for name, value in change.values.items():
            setattr(live.row, name, value)
        live.row.version = version

    async def applied(self, live: LiveReview, change: ReviewChange) -> None:
        return None

    def show(self, live: LiveReview) -> None:
        text = json.dumps(live.state(), ensure_ascii=False)
        for connection in live.connections:
            connection.post(text)

    def encode(self, change: ReviewChange) -> dict[str, Any]:
        return {"values": change.values}

    def decode(self, fields: dict[str, Any]) -> ReviewChange:
        values = fields["values"]
        if not isinstance(values, dict):
            raise TypeError("a review change's values are an object")
        return ReviewChange(values)

    def record_failure(self, live: LiveReview, failure: Failure) -> None:
        live.row.error = failure.message

    def on_other(self, live: LiveReview, message: dict[str, Any]) -> None:
        return None

    # --- watching and asking --------------------------------------------------------------

    def attach(self, live: LiveReview, connection: Outbox) -> None:
        live.connections.add(connection)
        live.used_at = time.monotonic()
        connection.post(json.dumps(live.state(), ensure_ascii=False))

    def detach(self, live: LiveReview, connection: Outbox) -> None:
        live.connections.discard(connection)

    async def request(self, game_id: str) -> LiveReview:
        """Review a finished game (nothing new when it is reviewed or being reviewed: the job is
        queued again, once, in case the process that held it stopped)."""
        live = await self.get(game_id)
        if not live.game.finished:
            raise RequestError("game_not_finished", "a game is reviewed once it is over", 409)
        async with live.lock:
            if live.row.status == "done":
                return live
            if live.row.status not in ("queued", "running"):
                total = len(live.game.position.get("moves") or [])
                values = {
                    "status": "queued",
                    "done": 0,
                    "total": total,
                    "nodes_per_ply": self.limits.review_nodes_per_ply,
                    "review": None,
                    "error": None,
                }
                await self.rooms.commit(live, ReviewChange(values))
            job = Job(
                REVIEW_JOB,
                f"review:{game_id}",
                {
                    "game_id": game_id,
                    "position": live.game.position,
                    "nodes_per_ply": live.row.nodes_per_ply,
                },
                id=f"review:{game_id}",
            )
        await self.runtime.jobs.submit(job)
        return live

    # --- its jobs (a job owner) -----------------------------------------------------------

    async def is_current(self, job: Job) -> bool:
        if job.kind != REVIEW_JOB:
            return True
        row = await self.runtime.db(self.store.review, job.payload["game_id"])
        return row.status in ("queued", "running")

    def progress(self, job: Job, data: Any) -> None:
        if isinstance(data, dict) and isinstance(data.get("done"), int):
            self.runtime.spawn(self._step(job.payload["game_id"], data))

    async def _step(self, game_id: str, data: dict[str, Any]) -> None:
        live = await self.get(game_id)
        async with live.lock:
            if live.row.status not in ("queued", "running") or data["done"] <= live.row.done:
                return  # a later step was written already, or the review ended
            values = {"status": "running", "done": data["done"]}
            if isinstance(data.get("total"), int):
                values["total"] = data["total"]
            await self._commit(live, values)

    async def apply(self, job: Job, result: Any) -> None:
        live = await self.get(job.payload["game_id"])
        async with live.lock:
            if live.row.status == "done":
                return
            values = {
                "status": "done",
                "done": live.row.total,
                "review": json.dumps(result, separators=(",", ":")),
                "error": None,
            }
            await self._commit(live, values)

    async def failed(self, job: Job, error: JobError) -> None:
        if error.kind == "cancelled":
            return
        live = await self.get(job.payload["game_id"])
        async with live.lock:
            if live.row.status in ("queued", "running"):
                await self._commit(live, {"status": "failed", "error": error.message})

    async def _commit(self, live: LiveReview, values: dict[str, Any]) -> None:
        try:
            await self.rooms.commit(live, ReviewChange(values))
        except RequestError as exc:  # stale: another process wrote a step first
            log.info("review %s: %s", live.id, exc.message)
