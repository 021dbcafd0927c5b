"""The Redis job queue's submission: a job is queued once, and a submission cut short never
leaves its dedupe key behind without the job (which blocked every later submission of that job
until the key expired: a table's bots did not resume after a restart). At a process's shutdown,
a job it took but did not finish goes to another process at once (not after the reclaim's
two-minute time-out)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from panal.server.jobs import InlineExecutor, Job, RedisJobQueue
from tests.server.conftest import scale_out_services


def test_a_job_is_queued_once_and_never_half_submitted() -> None:
    _, redis_url = scale_out_services()

    async def scenario() -> None:
        queue = RedisJobQueue(redis_url, prefix=f"test-{secrets.token_hex(4)}")
        try:
            await queue.submit(Job("enjambre.bot_turn", "table:t", {}, id="t@1"))
            await queue.submit(Job("enjambre.bot_turn", "table:t", {}, id="t@1"))
            assert await queue.redis.xlen(queue.stream) == 1
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
                entries = await queue.redis.xrange(queue.stream)
                queued = any(job.id.encode() in fields[b"job"] for _, fields in entries)
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

    async def failed(self, job: Job, message: str) -> None:
        raise AssertionError(f"job {job.id} failed: {message}")


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
