"""``panal ai-worker``: takes AI and bot jobs from Redis and plays their moves into the database.

It is a game hub and a table hub without websockets: it loads the game or table a job belongs
to, checks that it is still at the job's version, computes the move (Hive's AI) or the turn
(Enjambre's bots) in a child process, and commits it through the same compare-and-set as any
web process, then publishes the change so the web processes show it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from panal.server.app import analysis_hubs
from panal.server.enjambre_tables.tables import TableHub
from panal.server.hive_games.ai_pool import ai_levels
from panal.server.hive_games.game_store import GameStore
from panal.server.hive_games.games import GameHub
from panal.server.players.player_store import PlayerStore
from panal.server.runtime.bus import RedisBus
from panal.server.runtime.job_queues import RedisJobQueue
from panal.server.runtime.jobs import ChildPool
from panal.server.runtime.runtime import Runtime

__all__ = ["run_worker"]


async def run_worker(
    db_url: str, redis_url: str, prefix: str, processes: int, description: str = ""
) -> None:
    store = GameStore(db_url)
    searchers = ChildPool(processes, warm=("panal.ai", "panal.enjambre.bots"))
    runtime = Runtime(
        store,
        RedisBus(redis_url, prefix),
        RedisJobQueue(redis_url, prefix, searchers, consumers=processes),
        ChildPool(1, warm=("panal.hive.records",)),
        shared=True,
    )
    games = GameHub(runtime, store, PlayerStore(store.engine), ai_levels())
    analysis_hubs(runtime, games)  # the analysis board's jobs and the reviews
    TableHub(runtime)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    await searchers.start()  # warm before the first job
    await runtime.start()
    print(
        f"panal ai-worker: {processes} processes, database {description or db_url}, "
        f"Redis {redis_url.rpartition('@')[2]}",
        flush=True,
    )
    try:
        await stop.wait()
    finally:
        await runtime.close()
        await store.close_async()
