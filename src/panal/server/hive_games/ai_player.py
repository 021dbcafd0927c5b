"""The AI of Hive games: it owes a move when it is its turn; the move is a job
(``hive.ai_move``, computed in a worker process by :mod:`panal.server.hive_games.ai_pool`), queued
for the game's version and dropped when the game moves on, and played through the same checks and
compare-and-set as a player's move. A per-concern collaborator of the games' hub, as lila's
``Player`` is of its ``Round``."""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from panal.server.hive_games.actions import GameChange, play
from panal.server.hive_games.ai_pool import ai_payload
from panal.server.hive_games.game_store import GameStore
from panal.server.hive_games.live import Limits, LiveGame
from panal.server.http.request_error import RequestError
from panal.server.room.core import Failure, RoomHub
from panal.server.runtime.jobs import Job, JobError, ai_job_id

__all__ = ["AI_JOB", "AiPlayer", "Games"]

log = logging.getLogger("panal.server")
AI_JOB = "hive.ai_move"


class Games(RoomHub[LiveGame, GameChange], Protocol):
    """What the AI needs of the games' hub."""

    store: GameStore
    limits: Limits
    now: Callable[[], float]

    async def stored_version(self, game_id: str) -> int | None: ...


class AiPlayer:
    """Queues, drops and plays the AI's moves in the games of ``games``."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def after_change(self, live: LiveGame, was_ai_turn: bool) -> None:
        """Queue the AI's move when it is its turn; drop the game's older AI jobs."""
        if live.row.mode != "ai":
            return
        key = f"game:{live.id}"
        if live.ai_thinking:
            job = self._ai_job(live)
            if was_ai_turn:
                await self.games.runtime.jobs.cancel(key, keep=job.id)
            await self.games.runtime.jobs.submit(job)
        elif was_ai_turn:
            await self.games.runtime.jobs.cancel(key)

    def _ai_job(self, live: LiveGame) -> Job:
        assert live.game is not None
        payload = ai_payload(
            live.id,
            live.version,
            live.game.game_string(),
            live.row.rules,
            live.row.ai_level or "",
            random.getrandbits(31),
        )
        control, clock = live.row.control, live.row.clock
        if control is not None and clock is not None and clock.running is not None:
            # On the clock, the AI thinks within its own time: what it has left spread over the
            # moves to come, plus most of the increment; never more than half of what is left.
            left = clock.time_left(clock.running, self.games.now())
            if control.kind == "realtime":
                budget = min(left / 25 + 0.8 * control.increment, left / 2)
            else:
                budget = left / 2
            payload["max_time"] = max(0.05, budget)
        return Job(
            AI_JOB,
            f"game:{live.id}",
            payload,
            id=ai_job_id(live.id, live.version),
            owner=live.row.client or live.row.owner,
            group=live.row.owner,
        )

    async def schedule_ai(self, live: LiveGame) -> None:
        """Queue the AI's move if it owes one (after a restart, or when a player comes back
        after the AI failed: a job already queued for this position is not queued twice)."""
        if live.is_ai_turn and not live.is_finished and live.game is not None:
            if live.ai_error is not None:
                live.ai_error = None
                live.broadcast()
            await self.games.runtime.jobs.submit(self._ai_job(live))

    async def resume_ai_games(self) -> None:
        """At start-up: the AI owes a move in some recent games; queue them."""
        since = time.time() - self.games.limits.ai_idle_seconds
        for game_id in await self.games.runtime.db(self.games.store.unfinished_ai_games, since):
            try:
                live = await self.games.get(game_id)
                await self.schedule_ai(live)
            except Exception:
                log.exception("cannot resume game %s", game_id)

    # --- its jobs (a JobOwner) ------------------------------------------------------------

    async def is_current(self, job: Job) -> bool:
        if job.kind != AI_JOB:
            return True
        version = await self.games.stored_version(job.payload["game_id"])
        return bool(version == job.payload["version"])

    async def apply(self, job: Job, result: Any) -> None:
        """The AI's move: played through the same checks and compare-and-set as a player's."""
        if job.kind != AI_JOB:
            return
        game_id, version = job.payload["game_id"], job.payload["version"]
        try:
            live = await self.games.get(game_id)
        except RequestError:
            return
        async with live.lock:
            if live.version != version:
                return  # the game moved on (undo, resignation): the move is for nothing
            if not live.ai_thinking:
                return
            try:
                change = play(live, str(result["move"]))
            except RequestError as exc:
                log.error("AI played %r in game %s: %s", result, game_id, exc.message)
                illegal = f"the AI played an illegal move: {exc.message}"
                await self.games.rooms.note_failure(
                    live, Failure(version, "ai_illegal_move", illegal)
                )
                return
            with contextlib.suppress(RequestError):  # stale: a player got there first
                await self.games.commit(live, change)

    async def failed(self, job: Job, error: JobError) -> None:
        if job.kind != AI_JOB:
            return
        failure = Failure(job.payload["version"], "ai_failed", f"the AI failed: {error.message}")
        await self.games.rooms.fail(job.payload["game_id"], failure)
