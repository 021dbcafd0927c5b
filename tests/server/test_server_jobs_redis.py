"""The Redis job queue at a process's shutdown: a job is queued whole or not at all, and a job the
stopping process took but did not finish goes to another process at once (not after the reclaim's
two-minute time-out). Needs Redis (``PANAL_TEST_REDIS_URL``, started by ``.ci/services``)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from panal.server.jobs import InlineExecutor, Job, RedisJobQueue
from tests.server.conftest import scale_out_services

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


def test_a_job_is_queued_once_and_whole() -> None:
    _, redis_url = scale_out_services()

    async def scenario() -> tuple[int, int]:
        queue = RedisJobQueue(redis_url, f"test-{secrets.token_hex(4)}")
        await queue.start(Recorder())  # submits only: no consumers
        job = Job(KIND, "game:a", {"n": 1}, id="a@1")
        await queue.submit(job)
        await queue.submit(job)  # the same id again: ignored
        entries = await queue.redis.xlen(queue.stream)
        marked = await queue.redis.exists(f"{queue.prefix}:job:a@1")
        await queue.close()
        return entries, marked

    assert asyncio.run(scenario()) == (1, 1)


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
