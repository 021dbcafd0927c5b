"""What one server process runs on, whatever it serves: the database's threads, the bus, the job
queue, the heavy pool and its background tasks.

The kinds of live rooms (Hive games, Enjambre tables) and the lobby each listen to the channels
of one prefix (``game:<id>``, ``table:<id>``, ``lobby``) and take the jobs of some kinds
(``hive.*``); the runtime delivers each bus message and each job's outcome to the one that owns
it, so all of them share one Redis connection, one stream of jobs and one pool of workers.
Nothing here knows a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar, cast

from panal.server.database.store import Store
from panal.server.http.request_error import RequestError
from panal.server.runtime.bus import Bus
from panal.server.runtime.job_queues import JobQueue
from panal.server.runtime.jobs import Executor, Job, JobError

__all__ = ["BusListener", "JobOwner", "ProgressOwner", "Runtime"]

log = logging.getLogger("panal.server")
T = TypeVar("T")


class BusListener(Protocol):
    """Receives the bus's messages on the channels of its prefix."""

    def on_bus_message(self, channel: str, message: Any) -> None: ...

    def on_bus_reconnect(self) -> None:
        """Messages may have been lost (a Redis outage)."""
        ...


class JobOwner(Protocol):
    """Decides about, and applies, the jobs of its kinds (as a
    :class:`panal.server.runtime.jobs.JobHandler`)."""

    async def is_current(self, job: Job) -> bool: ...

    async def apply(self, job: Job, result: Any) -> None: ...

    async def failed(self, job: Job, error: JobError) -> None: ...


class ProgressOwner(JobOwner, Protocol):
    """A job owner whose jobs report progress while they run."""

    def progress(self, job: Job, data: Any) -> None: ...


class Runtime:
    """One process's shared machinery.

    ``shared``: other processes write to the same database (scale-out). ``clock`` is the
    server's time for game clocks (tests give a clock they move by hand)."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        jobs: JobQueue,
        heavy: Executor,
        *,
        shared: bool = False,
        heavy_seconds: float = 60.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.bus = bus
        self.jobs = jobs
        self.heavy = heavy
        self.shared = shared
        self.heavy_seconds = heavy_seconds
        self.now = clock
        self._listeners: dict[str, BusListener] = {}
        self._channels: list[str] = []
        self._owners: dict[str, JobOwner] = {}
        self._starting: list[Callable[[], Awaitable[None]]] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- who owns what ---------------------------------------------------------------------

    def listen(self, prefix: str, listener: BusListener, *, channel: bool = False) -> None:
        """Deliver the messages of the channels ``prefix:<id>`` to ``listener`` (each
        subscribed by the listener when it needs it); ``channel``: of the one channel
        ``prefix``, subscribed at start."""
        self._listeners[prefix] = listener
        if channel:
            self._channels.append(prefix)

    def own_jobs(self, prefix: str, owner: JobOwner) -> None:
        """Hand the outcome of jobs whose kind starts with ``prefix`` to ``owner``."""
        self._owners[prefix] = owner

    def on_start(self, start: Callable[[], Awaitable[None]]) -> None:
        """Run ``start`` once the bus is up, before the first job (in the order given)."""
        self._starting.append(start)

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.start(self._on_message, self._on_reconnect)
        for channel in self._channels:
            await self.bus.subscribe(channel)
        for start in self._starting:
            await start()
        await self.jobs.start(self)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.jobs.close()
        await self.bus.close()
        await self.heavy.close()

    def spawn(self, coroutine: Awaitable[T]) -> asyncio.Task[T]:
        """A background task the runtime keeps a reference to (and cancels on close)."""
        task: asyncio.Task[T] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def every(self, seconds: float, work: Callable[[], Awaitable[Any]], what: str) -> None:
        """Run ``work`` every ``seconds`` until cancelled; a failure is logged, not fatal."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s", what)

    def announce(self, channel: str, message: Any) -> None:
        """Deliver ``message`` to this process's listener of ``channel`` at once, and publish it
        to the other processes'."""
        self._on_message(channel, message)
        self.spawn(self.bus.publish(channel, message))

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the store's threads (see :meth:`Store.call`)."""
        return await self.store.call(function, *args, **kwargs)

    async def heavy_job(self, kind: str, payload: dict[str, Any]) -> Any:
        """Run a job in this process's worker for heavy work (records, the trainer's solver),
        within its time bound; a refusal is a :class:`RequestError` saying why, by the job
        error's kind."""
        if getattr(self.heavy, "busy", False):
            raise RequestError("busy", "the server is busy with other heavy work; try again", 503)
        try:
            return await self.heavy.run(Job(kind, "heavy", payload), self.heavy_seconds)
        except JobError as exc:
            if exc.kind == "bad_input":
                # A broken rule travels as its key and details: the page says it in its language.
                raise RequestError(
                    "bad_record",
                    exc.message,
                    422,
                    rule=exc.details.get("rule"),
                    reason=exc.details.get("reason"),
                    details=exc.details.get("details"),
                ) from None
            if exc.kind == "timeout":
                raise RequestError(
                    "too_slow", f"this is too much work: {exc.message}", 503
                ) from None
            raise RequestError(
                "server_error", f"the work could not be done: {exc.message}", 500
            ) from None

    # --- the bus and the job queue deliver here --------------------------------------------

    def _listener(self, channel: str) -> BusListener | None:
        return self._listeners.get(channel.partition(":")[0])

    def _on_message(self, channel: str, message: Any) -> None:
        listener = self._listener(channel)
        if listener is not None:
            listener.on_bus_message(channel, message)

    def _on_reconnect(self) -> None:
        for listener in self._listeners.values():
            listener.on_bus_reconnect()

    def _owner(self, job: Job) -> JobOwner | None:
        for prefix, owner in self._owners.items():
            if job.kind.startswith(prefix):
                return owner
        return None

    async def is_current(self, job: Job) -> bool:
        owner = self._owner(job)
        return owner is None or await owner.is_current(job)

    async def apply(self, job: Job, result: Any) -> None:
        owner = self._owner(job)
        if owner is not None:
            await owner.apply(job, result)

    async def failed(self, job: Job, error: JobError) -> None:
        owner = self._owner(job)
        if owner is not None:
            await owner.failed(job, error)

    def progress(self, job: Job, data: Any) -> None:
        owner = self._owner(job)
        if owner is not None and hasattr(owner, "progress"):
            cast(ProgressOwner, owner).progress(job, data)
