"""The bots of Enjambre tables: their turn is a job (``enjambre.bot_turn``, computed in a worker
process by :mod:`panal.server.enjambre_tables.bots`), queued for the table's version, and stored
one action at a time, a moment apart, so the others watch the bot's turn happen; through the same
checks and compare-and-set as a person's action. A per-concern collaborator of the tables' hub."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Protocol

from panal.enjambre import Action, Place
from panal.enjambre.actions import action_from_dict
from panal.enjambre.state import Phase
from panal.server.enjambre_tables.actions import TableRequest
from panal.server.enjambre_tables.bots import bot_payload
from panal.server.enjambre_tables.live import LiveTable, TableLimits
from panal.server.http.request_error import RequestError
from panal.server.room.core import Failure, RoomHub
from panal.server.runtime.jobs import Job, JobError

__all__ = ["BOT_JOB", "BotPlayer"]

log = logging.getLogger("panal.server")
BOT_JOB = "enjambre.bot_turn"


class Tables(RoomHub[LiveTable, TableRequest], Protocol):
    """What the bots need of the tables' hub."""

    limits: TableLimits


class BotPlayer:
    """Queues and plays the bots' turns at the tables of ``tables``."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def schedule(self, live: LiveTable, *, again: bool = False) -> None:
        """Queue the waiting bots' job (one per table version; older ones are dropped).

        ``again`` (the sweep: the bots' table has stalled) gives the job an id of its own: the
        job for this version may be held by a process that stopped while running it, and its
        id stays taken until the queue gives it to another process, minutes later. Two jobs for
        one version are harmless: the compare-and-set stores one turn."""
        bots = live.waiting_bots()
        key = f"table:{live.id}"
        if not bots:
            return
        job_id = f"{live.id}@{live.version}"
        if again:
            job_id += f"~{secrets.token_hex(4)}"
        job = Job(
            BOT_JOB,
            key,
            bot_payload(live.id, live.version, live.number, live.game.log, bots),
            id=job_id,
            owner=live.row.client,  # the queue's fair shares: the table's creator's
            group=live.row.owner,
        )
        await self.tables.runtime.jobs.cancel(key, keep=job.id)
        await self.tables.runtime.jobs.submit(job)

    async def is_current(self, job: Job) -> bool:
        """A bot job still matters while its table waits for those bots in that game."""
        payload = job.payload
        try:
            live = await self.tables.get(payload["table"])
        except RequestError:
            return False
        if live.number != payload["game"] or live.bots_playing:
            return False
        if live.game.phase is Phase.SETUP:
            return any(int(seat) in live.waiting_bots() for seat in payload["bots"])
        return bool(live.version == payload["version"])

    async def apply(self, job: Job, result: Any) -> None:
        """Store the bots' actions: set-ups at once (they are secret), a turn one action at a
        time with a pause between, through the same checks and compare-and-set as a player's."""
        payload = job.payload
        try:
            live = await self.tables.get(payload["table"])
        except RequestError:
            return
        actions = [(int(p), action_from_dict(a)) for p, a in result.get("actions", [])]
        if not actions:
            return
        if isinstance(actions[0][1], Place):
            async with live.lock:
                if live.number != payload["game"]:
                    return
                waiting = live.waiting_bots()
                still = tuple((p, a) for p, a in actions if p in waiting)
                if still:
                    await self._commit(live, TableRequest(actions=still))
            return
        self.tables.runtime.spawn(
            self._play_turn(live, payload["game"], payload["version"], actions)
        )

    async def _play_turn(
        self, live: LiveTable, game: int, version: int, actions: list[tuple[int, Action]]
    ) -> None:
        if live.bots_playing:
            return
        live.bots_playing = True
        try:
            for index, action in enumerate(actions):
                async with live.lock:
                    if live.number != game or live.version != version:
                        return  # the table moved on (a reload, another process): stop here
                    if not await self._commit(live, TableRequest(actions=(action,))):
                        return
                    version = live.version
                if index + 1 < len(actions):
                    await asyncio.sleep(self.tables.limits.bot_pause)
        finally:
            live.bots_playing = False
        async with live.lock:
            await self.schedule(live)

    async def _commit(self, live: LiveTable, change: TableRequest) -> bool:
        try:
            await self.tables.commit(live, change)
        except RequestError as exc:
            if exc.code != "stale":
                log.error("a bot's action in table %s was refused: %s", live.id, exc.message)
                failure = Failure(live.version, "bot_failed", exc.message)
                await self.tables.rooms.note_failure(live, failure)
            return False
        return True

    async def failed(self, job: Job, error: JobError) -> None:
        failure = Failure(job.payload["version"], "bot_failed", error.message)
        await self.tables.rooms.fail(job.payload["table"], failure)
