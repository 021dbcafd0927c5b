"""The Redis job queue's submission: a job is queued once, and a submission cut short never
leaves its dedupe key behind without the job (which blocked every later submission of that job
until the key expired: a table's bots did not resume after a restart). At a process's shutdown,
a job it took but did not finish goes to another process at once (not after the reclaim's
two-minute time-out)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from panal.server.runtime.job_queues import RedisJobQueue
from panal.server.runtime.jobs import InlineExecutor, Job, JobCancelled, JobError
from tests.server.conftest import scale_out_services


async def waiting_jobs(queue: RedisJobQueue) -> list[bytes]:
    """The jobs waiting for a consumer, in every client's list (see ``fair_share``)."""
    found: list[bytes] = []
    for key in await queue.redis.keys(f"{queue.stream}:waiting:*"):
        found.extend(await queue.redis.lrange(key, 0, -1))
    return found


def test_a_job_is_queued_once_and_never_half_submitted() -> None:
    _, redis_url = scale_out_services()

    async def scenario() -> None:
        queue = RedisJobQueue(redis_url, prefix=f"test-{secrets.token_hex(4)}")
        try:
            await queue.submit(Job("enjambre.bot_turn", "table:t", {}, id="t@1"))
            await queue.submit(Job("enjambre.bot_turn", "table:t", {}, id="t@1"))
            assert len(await waiting_jobs(queue)) == 1
            # Submissions cancelled after every number of event-loop turns: each leaves both
            # the key and the job, or neither.
            for turns in range(12):
                job = Job("enjambre.bot_turn", "table:t", {}, id=f"t@cut{turns}")
                task = asyncio.ensure_future(queue.submit(job))
                for _ in range(turns):
                    await asyncio.sleep(0)
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                await asyncio.sleep(0.05)  # a command already sent has run by now
                keyed = bool(await queue.redis.exists(f"{queue.prefix}:job:{job.id}"))
                queued = any(job.id.encode() in entry for entry in await waiting_jobs(queue))
                assert keyed == queued, (turns, keyed, queued)
            await queue.redis.delete(queue.stream, *await queue.redis.keys(f"{queue.prefix}:*"))
        finally:
            await queue.close()
            await queue.redis.aclose()

    asyncio.run(scenario())


KIND = "hive.ai_move"  # any known kind: the inline executor below stands in for its function


class Recorder:
    """A job handler that keeps every result it is given."""

    def __init__(self) -> None:
        self.applied: dict[str, Any] = {}
        self.done = asyncio.Event()

    async def is_current(self, job: Job) -> bool:
        return True

    async def apply(self, job: Job, result: Any) -> None:
        self.applied[job.id] = result
        self.done.set()

    async def failed(self, job: Job, error: JobError) -> None:
        raise AssertionError(f"job {job.id} failed ({error.kind}): {error.message}")


def test_a_job_taken_by_a_stopping_process_goes_to_another_at_once() -> None:
    _, redis_url = scale_out_services()
    prefix = f"test-{secrets.token_hex(4)}"

    async def scenario() -> dict[str, Any]:
        started = asyncio.Event()

        async def never_ends(payload: Any) -> Any:
            started.set()
            await asyncio.Event().wait()

        stopping = RedisJobQueue(
            redis_url, prefix, InlineExecutor({KIND: never_ends}), consumers=1, timeout=120
        )
        await stopping.start(Recorder())
        await stopping.submit(Job(KIND, "game:b", {"n": 2}, id="b@1"))
        await asyncio.wait_for(started.wait(), 10)
        await stopping.close()  # mid-job, as a process being stopped
        recorder = Recorder()
        taking_over = RedisJobQueue(
            redis_url, prefix, InlineExecutor({KIND: lambda payload: payload["n"] * 10}), 1, 120
        )
        await taking_over.start(recorder)
        try:
            await asyncio.wait_for(recorder.done.wait(), 10)  # the reclaim would take 150 s
            pending = await taking_over.redis.xpending(taking_over.stream, "workers")
            assert pending["pending"] == 0  # nothing left taken by the stopped process
        finally:
            await taking_over.close()
        return recorder.applied

    assert asyncio.run(scenario()) == {"b@1": 20}


class Stoppable:
    """An executor whose jobs run until released, or until cancelled (then JobCancelled)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancelled: list[str] = []
        self._stops: dict[str, asyncio.Event] = {}

    async def run(self, job: Job, timeout: float) -> Any:
        stop = self._stops[job.id] = asyncio.Event()
        self.started.set()
        released = asyncio.ensure_future(self.release.wait())
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait({released, stopped}, return_when=asyncio.FIRST_COMPLETED)
        released.cancel()
        stopped.cancel()
        if stop.is_set():
            raise JobCancelled(job.id)
        return "moved"

    def cancel(self, job_id: str) -> None:
        self.cancelled.append(job_id)
        self._stops[job_id].set()

    async def close(self) -> None:
        return None


class Versioned(Recorder):
    """A handler for which only the job of the stored ``version`` is current."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version
        self.failures: list[str] = []

    async def is_current(self, job: Job) -> bool:
        return bool(job.payload["version"] == self.version)

    async def failed(self, job: Job, error: JobError) -> None:
        self.failures.append(job.id)


def test_a_late_cancellation_stops_only_a_stale_job() -> None:
    """A cancellation travels on pub/sub and may arrive after the job of the next position has
    started (a player answering the AI at once): that job is current and must go on (stopping
    it left the game waiting for the AI forever: test_ai_plays_a_whole_game_to_its_end hung
    now and then on PostgreSQL); a job its game has moved past is stopped."""
    _, redis_url = scale_out_services()

    async def scenario(stale: bool) -> tuple[list[str], dict[str, Any]]:
        executor = Stoppable()
        handler = Versioned(version=2)
        queue = RedisJobQueue(redis_url, f"test-{secrets.token_hex(4)}", executor, 1, 120)
        await queue.start(handler)
        try:
            await queue.submit(Job(KIND, "game:g", {"version": 2}, id="g@2"))
            await asyncio.wait_for(executor.started.wait(), 10)
            if stale:
                handler.version = 3  # the game moved on (an undo) while the AI thought
            # The cancellation sent when the game left version 1, arriving late.
            await queue.cancel("game:g")
            for _ in range(100):
                if executor.cancelled:
                    break
                await asyncio.sleep(0.02)
            executor.release.set()
            if not stale:
                await asyncio.wait_for(handler.done.wait(), 10)
        finally:
            await queue.close()
        return executor.cancelled, handler.applied

    assert asyncio.run(scenario(stale=False)) == ([], {"g@2": "moved"})
    assert asyncio.run(scenario(stale=True)) == (["g@2"], {})
