"""One bus and one job queue for everything a process serves: Hive games and Enjambre tables.

The bus delivers messages by channel (``game:<id>``, ``table:<id>``) and the job queue results by
kind (``hive.*``, ``records.*``, ``enjambre.*``); :class:`Dispatch` hands each to the hub that owns
it, so both hubs share one Redis connection, one stream of jobs and one pool of workers.
"""

from __future__ import annotations

from typing import Any

from panal.server.hub import GameHub
from panal.server.jobs import Job
from panal.server.tables import TableHub

__all__ = ["Dispatch"]


class Dispatch:
    """The bus's receiver and the job queue's handler, routing to the game or the table hub."""

    def __init__(self, games: GameHub, tables: TableHub) -> None:
        self.games = games
        self.tables = tables

    def on_message(self, channel: str, message: dict[str, Any]) -> None:
        if channel.startswith("table:"):
            self.tables.on_bus_message(channel, message)
        else:
            self.games.on_bus_message(channel, message)

    def on_reconnect(self) -> None:
        self.games.on_bus_reconnect()
        self.tables.on_bus_reconnect()

    def _hub(self, job: Job) -> GameHub | TableHub:
        return self.tables if job.kind.startswith("enjambre.") else self.games

    async def is_current(self, job: Job) -> bool:
        return await self._hub(job).is_current(job)

    async def apply(self, job: Job, result: Any) -> None:
        await self._hub(job).apply(job, result)

    async def failed(self, job: Job, message: str) -> None:
        await self._hub(job).failed(job, message)

    async def start(self, *, sweep: bool = True) -> None:
        """Start the bus and the job queue (shared by both hubs), then the tables' upkeep."""
        await self.games.start(self)
        await self.tables.start(sweep=sweep)

    async def close(self) -> None:
        await self.tables.close()
        await self.games.close()
