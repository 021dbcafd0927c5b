"""The job queue serves clients in fair shares: round robin among groups (addresses), then among
the clients of a group, each client's own jobs first in first out; in memory (one process) and
in Redis (many), the same order.

Issue 19: one client's four ``strongest`` games made another's ``beginner`` game wait 38.8 s
for its first move, because the queue was first come, first served across clients."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from panal.server.runtime.fair_share import FairShares
from panal.server.runtime.job_queues import JobQueue, LocalJobQueue, RedisJobQueue
from panal.server.runtime.jobs import InlineExecutor, Job, JobError
from tests.server.conftest import scale_out_services

KIND = "hive.ai_move"  # any known kind: the inline executors below stand in for its function


def job(name: str, owner: str, group: str | None = None) -> Job:
    return Job(KIND, f"game:{name}", {"name": name}, id=name, owner=owner, group=group)


# A backlog of one client (a, four jobs), then two others that come after it. Made afresh for
# each test: a job expires a while after it is made, and the suite may reach a test long after
# it imported the module.
def backlog() -> list[Job]:
    return [job("a1", "a"), job("a2", "a"), job("a3", "a"), job("a4", "a")]


def later() -> list[Job]:
    return [job("b1", "b"), job("c1", "c"), job("b2", "b")]


FAIR_ORDER = ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]
# The same through a queue with one consumer, a1 running when the rest come: a has just been
# served (its job runs), so b and c, who come in fresh, go before a's second job.
SERVED_ORDER = FAIR_ORDER


def test_interleaved_clients_are_served_in_turn() -> None:
    shares = FairShares()
    for queued in backlog() + later():
        shares.push(queued)
    assert len(shares) == 7
    order = [shares.pop() for _ in range(7)]
    assert [j.id for j in order if j] == FAIR_ORDER
    assert shares.pop() is None and len(shares) == 0


def test_many_clients_of_one_group_weigh_as_one() -> None:
    """Ten clients from one address (x) and one client from another (y): y is served every
    second job, not every eleventh; within x, its clients take turns."""
    shares = FairShares()
    for n in range(10):
        shares.push(job(f"x{n}", f"x-client{n}", group="x"))
    shares.push(job("y1", "y-client", group="y"))
    shares.push(job("y2", "y-client", group="y"))
    order = [j.id for j in iter(shares.pop, None)]
    assert order[:4] == ["x0", "y1", "x1", "y2"]
    assert order[4:] == [f"x{n}" for n in range(2, 10)]


def test_a_client_that_comes_back_goes_to_the_end_of_the_ring() -> None:
    shares = FairShares()
    for queued in (job("a1", "a"), job("b1", "b")):
        shares.push(queued)
    assert (popped := shares.pop()) is not None and popped.id == "a1"  # a leaves the ring
    shares.push(job("c1", "c"))
    shares.push(job("a2", "a"))  # a rejoins after c
    assert [j.id for j in iter(shares.pop, None)] == ["b1", "c1", "a2"]


def test_a_client_that_comes_in_goes_before_a_backlog_already_served() -> None:
    """a's backlog has been served once when b's one job comes: b's goes next, not a's second
    (a plain round robin put b behind a, who was in the ring first); then a and b take turns."""
    shares = FairShares()
    for queued in backlog():
        shares.push(queued)
    assert (popped := shares.pop()) is not None and popped.id == "a1"
    shares.push(job("b1", "b"))
    shares.push(job("b2", "b"))
    assert [j.id for j in iter(shares.pop, None)] == ["b1", "a2", "b2", "a3", "a4"]


def test_removing_a_cancelled_game_keeps_the_others_in_place() -> None:
    shares = FairShares()
    for queued in backlog() + later():
        shares.push(queued)
    dropped = shares.remove(lambda j: j.key in ("game:a1", "game:b1", "game:b2"))
    assert sorted(j.id for j in dropped) == ["a1", "b1", "b2"]
    assert len(shares) == 4
    assert [j.id for j in iter(shares.pop, None)] == ["a2", "c1", "a3", "a4"]


class Recorder:
    """A job handler that notes the order in which jobs are applied."""

    def __init__(self, expected: int) -> None:
        self.order: list[str] = []
        self.expected = expected
        self.done = asyncio.Event()

    async def is_current(self, job: Job) -> bool:
        return True

    async def apply(self, job: Job, result: Any) -> None:
        self.order.append(job.id)
        if len(self.order) == self.expected:
            self.done.set()

    async def failed(self, job: Job, error: JobError) -> None:
        raise AssertionError(f"job {job.id} failed: {error.message}")


async def served_order(queue: JobQueue, gate: asyncio.Event, recorder: Recorder) -> list[str]:
    """Submit the backlog, then the later jobs while the first job runs, and the order served."""
    await queue.start(recorder)
    await queue.submit(backlog()[0])
    await asyncio.sleep(0.3)  # the one consumer has taken a1 and waits at the gate
    for queued in backlog()[1:] + later():
        await queue.submit(queued)
    gate.set()
    await asyncio.wait_for(recorder.done.wait(), 20)
    return recorder.order


def gated_executor(gate: asyncio.Event) -> InlineExecutor:
    async def run(payload: dict[str, Any]) -> str:
        await gate.wait()
        await asyncio.sleep(0.2)  # rounds of service well apart in time, whatever the load
        return str(payload["name"])

    return InlineExecutor({KIND: run})


def test_the_local_queue_serves_in_fair_order() -> None:
    async def scenario() -> list[str]:
        gate = asyncio.Event()
        queue = LocalJobQueue(gated_executor(gate), consumers=1)
        try:
            return await served_order(queue, gate, Recorder(len(SERVED_ORDER)))
        finally:
            await queue.close()

    assert asyncio.run(scenario()) == SERVED_ORDER


@pytest.mark.parametrize("processes", [1, 2])
def test_the_redis_queue_serves_in_fair_order(processes: int) -> None:
    """With one consumer the order is exactly the fair one; with two processes each taking the
    next job when free, every job runs once and b's first job comes before a's last (first come,
    first served ran a1 and a2, then a3 and a4, and b1 only after them)."""
    _, redis_url = scale_out_services()

    async def scenario() -> list[str]:
        gate = asyncio.Event()
        prefix = f"test-{secrets.token_hex(4)}"
        recorder = Recorder(len(SERVED_ORDER))
        queues = [
            RedisJobQueue(redis_url, prefix, gated_executor(gate), consumers=1)
            for _ in range(processes)
        ]
        try:
            for extra in queues[1:]:
                await extra.start(recorder)
            return await served_order(queues[0], gate, recorder)
        finally:
            for queue in queues:
                await queue.close()
            cleanup = RedisJobQueue(redis_url, prefix)
            keys = await cleanup.redis.keys(f"{prefix}:*")
            if keys:
                await cleanup.redis.delete(*keys)
            await cleanup.redis.aclose()

    order = asyncio.run(scenario())
    assert sorted(order) == sorted(SERVED_ORDER)
    if processes == 1:
        assert order == SERVED_ORDER
    else:
        assert order.index("b1") < order.index("a4")
