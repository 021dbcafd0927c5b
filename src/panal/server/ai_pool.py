"""AI moves in worker processes, so a long search never delays the event loop or other games.

The worker receives the GameString and the rule options (plain strings and booleans, cheap to
pickle), rebuilds the :class:`panal.hive.Game` and asks :func:`panal.ai.choose_move`. It answers
with a MoveString, which the server plays through the rules engine like any other move.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from panal.hive import Options

__all__ = ["AiRequest", "AiRunner", "ProcessPoolAi", "ai_levels", "choose_move_string"]


@dataclass(frozen=True)
class AiRequest:
    game_string: str
    options: Options
    level: str
    seed: int | None = None


AiRunner = Callable[[AiRequest], Awaitable[str]]


def ai_levels() -> tuple[str, ...]:
    """The AI's levels, or none while panal.ai is not installed."""
    try:
        from panal.ai import LEVELS
    except ImportError:
        return ()
    return tuple(LEVELS)


def choose_move_string(request: AiRequest) -> str:
    """Runs in a worker process: the AI's move for ``request``, as a MoveString."""
    from panal.ai import choose_move
    from panal.hive import Game

    game = Game.from_game_string(request.game_string, options=request.options)
    move = choose_move(game, request.level, seed=request.seed)
    return game.move_string(move)


def _warm_up() -> None:
    """Import the AI once per worker, before the first search is timed."""
    with contextlib.suppress(ImportError):
        import panal.ai  # noqa: F401


class ProcessPoolAi:
    """The default :data:`AiRunner`: a lazily started pool of spawned worker processes."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
            )
        return self._pool

    async def __call__(self, request: AiRequest) -> str:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), choose_move_string, request)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more.
            self.shutdown()
            return await loop.run_in_executor(self._executor(), choose_move_string, request)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
