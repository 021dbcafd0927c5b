"""The Redis job queue's submission: a job is queued once, and a submission cut short never
leaves its dedupe key behind without the job (which blocked every later submission of that job
until the key expired: a table's bots did not resume after a restart)."""

from __future__ import annotations

import asyncio
import secrets

from panal.server.jobs import Job, RedisJobQueue
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
