"""Job queues: hold jobs until an executor (:mod:`panal.server.runtime.jobs`) is free.

Both queues hand out jobs in the order of fair shares between clients
(:mod:`panal.server.runtime.fair_share`), not first come first served.
:class:`LocalJobQueue` is in memory (the embedded default); :class:`RedisJobQueue` keeps the
waiting jobs in Redis lists and hands each one, when a consumer is free, to a Redis stream read
by a consumer group: any ``panal serve`` or ``panal ai-worker`` on any machine may take the next
job, and a job taken by a process that died is claimed again after a time-out. A queue hands
each result to a :class:`JobHandler` (the process's runtime), which decides whether
the job still matters and applies it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from typing import Any, Protocol

from panal.server.runtime.fair_share import (
    DONE_FAIR,
    QUEUE_FAIR,
    TAKE_FAIR,
    FairShares,
    share_of,
)
from panal.server.runtime.jobs import Executor, Job, JobCancelled, JobError

__all__ = ["JobHandler", "JobQueue", "LocalJobQueue", "RedisJobQueue"]

log = logging.getLogger("panal.server")


class JobHandler(Protocol):
    async def is_current(self, job: Job) -> bool:
        """Whether the job still matters (its game has not moved on, finished or gone)."""
        ...

    async def apply(self, job: Job, result: Any) -> None: ...

    async def failed(self, job: Job, error: JobError) -> None: ...


class JobQueue(Protocol):
    async def start(self, handler: JobHandler) -> None: ...

    async def submit(self, job: Job) -> None:
        """Queue a job (a job whose id is already queued or running is ignored)."""
        ...

    async def cancel(self, key: str, keep: str | None = None) -> None:
        """Drop the queued jobs of ``key`` and stop its running ones, wherever they run (all
        but the job whose id is ``keep``)."""
        ...

    async def close(self) -> None: ...


async def _process(job: Job, executor: Executor, handler: JobHandler, timeout: float) -> None:
    """Run one job and hand its outcome to the handler (every outcome is logged, none raised)."""
    try:
        if job.expired or not await handler.is_current(job):
            return
        try:
            result = await executor.run(job, timeout)
        except JobCancelled:
            return
        except JobError as exc:
            log.warning("job %s (%s) failed (%s): %s", job.id, job.kind, exc.kind, exc.message)
            await handler.failed(job, exc)
            return
        await handler.apply(job, result)
    except Exception:
        log.exception("job %s (%s)", job.id, job.kind)


class LocalJobQueue:
    """In memory, in fair order between clients, ``consumers`` jobs at a time."""

    def __init__(self, executor: Executor, consumers: int = 1, timeout: float = 120.0) -> None:
        self.executor = executor
        self.consumers = max(1, consumers)
        self.timeout = timeout
        self._queued = FairShares()
        self._ids: set[str] = set()
        self._running: dict[str, Job] = {}
        self._ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, handler: JobHandler) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._consume(handler)) for _ in range(self.consumers)]

    async def _consume(self, handler: JobHandler) -> None:
        while True:
            while not self._queued:
                self._ready.clear()
                await self._ready.wait()
            job = self._queued.pop()
            if job is None:
                continue
            self._running[job.id] = job
            try:
                await _process(job, self.executor, handler, self.timeout)
            finally:
                del self._running[job.id]
                self._ids.discard(job.id)
                self._queued.done(job)

    async def submit(self, job: Job) -> None:
        if job.id in self._ids:
            return
        self._ids.add(job.id)
        self._queued.push(job)
        self._ready.set()

    async def cancel(self, key: str, keep: str | None = None) -> None:
        for job in self._queued.remove(lambda job: job.key == key and job.id != keep):
            self._ids.discard(job.id)
        for job in list(self._running.values()):
            if job.key == key and job.id != keep:
                self.executor.cancel(job.id)

    @property
    def queued(self) -> int:
        return len(self._queued)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.executor.close()


#: KEYS: the stream; ARGV: an entry taken but not finished, the group. The job goes
#: to the end of the stream as a new entry; the taken one is acknowledged and deleted.
HAND_BACK = """
local found = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])
if found[1] then
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', '100000', '*', unpack(found[1][2]))
end
redis.call('XACK', KEYS[1], ARGV[2], ARGV[1])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[1] .. ':wake', '1')
return 0
"""


class RedisJobQueue:
    """Jobs wait in Redis lists in the order of fair shares (the keys ``<prefix>:jobs:…`` of
    :mod:`panal.server.runtime.fair_share`); a consumer that is free moves the next one onto a
    Redis stream (``<prefix>:jobs``) read by the consumer group ``workers``, which hands it out
    once, holds it and reclaims it. The stream thus holds about one job per free consumer, and
    the order of service is the fair one whatever the number of processes. Consumers with
    nothing to do block on the list ``<prefix>:jobs:wake``, which every submission pushes to.

    ``consumers`` = 0 only submits (a web process that leaves the AI to ``panal ai-worker``).
    Cancellations travel on the pub/sub channel ``<prefix>:jobs:cancel``; queued jobs of a
    cancelled game are dropped when a consumer finds them stale, and a running one is stopped
    when its handler finds it stale (a late cancellation must not stop the next position's job).

    A consumer renews its hold on the job it has taken every ``RENEW_SECONDS`` seconds (``XCLAIM``
    of the entry to itself, which resets the entry's idle time), from the moment it takes the
    job until it acknowledges it; every ``RENEW_SECONDS`` seconds each process takes over the jobs
    whose hold was not renewed for ``CLAIM_IDLE`` seconds (``XAUTOCLAIM``): their holder died,
    or its event loop stalled that long. A game whose AI move was being computed by a process
    that was killed thus gets its move from another within seconds, not after the job's whole
    time-out. A job taken over from a holder that was only slow is computed twice at worst:
    the result is applied through the game's compare-and-set, once.
    """

    GROUP = "workers"
    #: Seconds between two renewals of a hold on a job, and between two sweeps for abandoned jobs.
    RENEW_SECONDS = 1.0
    #: Seconds without a renewal after which another consumer takes a job over.
    CLAIM_IDLE = 5.0

    def __init__(
        self,
        url: str,
        prefix: str = "panal",
        executor: Executor | None = None,
        consumers: int = 0,
        timeout: float = 120.0,
    ) -> None:
        import redis.asyncio as redis

        from panal.server.runtime.bus import RedisPublisher

        self.redis = redis.Redis.from_url(url, health_check_interval=15)
        self.prefix = prefix
        self.stream = f"{prefix}:jobs"
        self.cancel_channel = f"{prefix}:jobs:cancel"
        self.executor = executor
        self.consumers = consumers if executor is not None else 0
        self.timeout = timeout
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        # Cancellations are sent without waiting (one comes with every AI move).
        self.cancels = RedisPublisher(url, f"panal-jobs-{self.name}")
        self._running: dict[str, Job] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._checks: set[asyncio.Future[None]] = set()  # cancellations being checked

    def _dedupe_key(self, job_id: str) -> str:
        return f"{self.prefix}:job:{job_id}"

    async def start(self, handler: JobHandler) -> None:
        from redis.exceptions import ResponseError

        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(self.stream, self.GROUP, id="0", mkstream=True)
        self.cancels.start()
        if not self.consumers:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._consume(handler, f"{self.name}:{i}"))
            for i in range(self.consumers)
        ]
        self._tasks.append(loop.create_task(self._listen_for_cancels(handler)))
        self._tasks.append(loop.create_task(self._reclaim(handler)))

    async def submit(self, job: Job) -> None:
        # One script, so one step for Redis: a submission cut short between the two (a process
        # stopping, a lost connection) left the dedupe key without its job, and every later
        # submission of that job was dropped until the key expired (the bots of a table resumed
        # after a restart waited for minutes).
        ttl = max(1, int(job.expires_at - time.time()) + 60)
        group, client = share_of(job)
        await self.redis.eval(
            QUEUE_FAIR, 2, self._dedupe_key(job.id), self.stream, ttl, job.to_json(), group, client
        )

    async def cancel(self, key: str, keep: str | None = None) -> None:
        self.cancels.publish(self.cancel_channel, json.dumps([key, keep]))

    async def _consume(self, handler: JobHandler, consumer: str) -> None:
        while True:
            try:
                # A job on the stream first (one moved there by a consumer that another took
                # first, or handed back); else move the next in fair order there; else wait.
                found: Any = await self.redis.xreadgroup(
                    self.GROUP, consumer, {self.stream: ">"}, count=1
                )
                if not found:
                    if not await self.redis.eval(TAKE_FAIR, 1, self.stream, 100_000):
                        await self.redis.blpop([f"{self.stream}:wake"], timeout=1)
                    continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("job queue: %s; retrying", exc)
                await asyncio.sleep(1)
                continue
            for _stream, entries in found or ():
                for entry_id, fields in entries:
                    await self._handle(handler, entry_id, fields, consumer)

    async def _handle(
        self, handler: JobHandler, entry_id: bytes, fields: dict[bytes, bytes], consumer: str
    ) -> None:
        assert self.executor is not None
        heartbeat = asyncio.ensure_future(self._hold(entry_id, consumer))
        try:
            try:
                job = Job.from_json(fields[b"job"])
            except (KeyError, ValueError, TypeError):
                log.warning("job queue: dropped a malformed entry %r", entry_id)
            else:
                self._running[job.id] = job
                try:
                    await _process(job, self.executor, handler, self.timeout)
                finally:
                    self._running.pop(job.id, None)
                    await self.redis.delete(self._dedupe_key(job.id))
                    await self.redis.eval(DONE_FAIR, 1, self.stream, *share_of(job))
        finally:
            heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heartbeat
        await self.redis.xack(self.stream, self.GROUP, entry_id)
        await self.redis.xdel(self.stream, entry_id)

    async def _hold(self, entry_id: bytes, consumer: str) -> None:
        """Renew this consumer's hold on a job it has taken, until cancelled (see the class
        docstring)."""
        while True:
            await asyncio.sleep(self.RENEW_SECONDS)
            try:
                await self.redis.xclaim(
                    self.stream, self.GROUP, consumer, 0, [entry_id], justid=True
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the next renewal may get through
                log.warning("job queue: cannot renew a job's hold: %s", exc)

    async def _listen_for_cancels(self, handler: JobHandler) -> None:
        """Stop this process's running jobs of each cancelled key that are no longer current.

        A cancellation travels on pub/sub, unordered with the job stream: it may arrive after
        the job of the *next* position has started (a player answering the AI's move at once),
        and stopping that job silently would leave the game waiting for a move forever. So a
        running job is stopped only when its handler says it is stale (the database decides)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        while True:
            try:
                await pubsub.subscribe(self.cancel_channel)
                async for message in pubsub.listen():  # no read time-out: nothing lost
                    if message.get("type") != "message":
                        continue
                    try:
                        key, keep = json.loads(message["data"])
                    except (ValueError, TypeError):
                        continue
                    for job in list(self._running.values()):
                        if job.key == key and job.id != keep:
                            check = asyncio.ensure_future(self._cancel_if_stale(handler, job))
                            self._checks.add(check)
                            check.add_done_callback(self._checks.discard)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 2)  # type: ignore[no-untyped-call]
                raise
            except Exception as exc:
                log.warning("job cancellations: %s; retrying", exc)
                await asyncio.sleep(1)

    async def _cancel_if_stale(self, handler: JobHandler, job: Job) -> None:
        assert self.executor is not None
        try:
            if job.id in self._running and not await handler.is_current(job):
                self.executor.cancel(job.id)
        except Exception:
            log.exception("job %s: cannot check a cancellation", job.id)

    async def _reclaim(self, handler: JobHandler) -> None:
        """Take over jobs whose holder stopped renewing its hold (see the class docstring)."""
        idle_ms = int(self.CLAIM_IDLE * 1000)
        consumer = f"{self.name}:reclaim"
        while True:
            await asyncio.sleep(self.RENEW_SECONDS)
            try:
                # One at a time: an entry taken here is held (renewed) only while it is
                # handled, so others left waiting would look abandoned again.
                _next, entries, *_ = await self.redis.xautoclaim(
                    self.stream, self.GROUP, consumer, idle_ms, "0-0", count=1
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("job reclaim: %s", exc)
                continue
            for entry_id, fields in entries:
                if fields:
                    log.warning("job queue: took over job entry %r from a silent holder", entry_id)
                    await self._handle(handler, entry_id, fields, consumer)

    async def close(self) -> None:
        for task in [*self._tasks, *self._checks]:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)
        if self._tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._hand_back(), 5)
        if self.executor is not None:
            await self.executor.close()
        await self.cancels.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)

    async def _hand_back(self) -> None:
        """The jobs this process took but did not finish (stopped by the shutdown, or taken
        from Redis just as it came) go back on the stream for another process at once, rather
        than waiting for the reclaim's time-out."""
        consumers = [f"{self.name}:{i}" for i in range(self.consumers)] + [f"{self.name}:reclaim"]
        for consumer in consumers:
            pending = await self.redis.xpending_range(
                self.stream, self.GROUP, min="-", max="+", count=1000, consumername=consumer
            )
            for entry in pending:
                await self.redis.eval(HAND_BACK, 1, self.stream, entry["message_id"], self.GROUP)
