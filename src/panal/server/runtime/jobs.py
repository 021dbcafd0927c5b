"""Jobs: work too heavy for the event loop (AI moves, record imports), run by worker processes.

A :class:`Job` is a kind, a key, a JSON payload and an id. The **kind** names a function that
computes a result from the payload in a worker process (``JOB_KINDS``); the **key** names what
the job belongs to (``game:<id>``), so that cancelling the key drops every job of that game; the
**id** makes submitting twice harmless (``<game>@<version>``: one AI move per position).

Two parts, each with two back-ends:

* **Executors** compute: :class:`ChildPool` keeps worker processes started with
  ``python -m panal.server.runtime.job_child`` (they die with their parent, even after ``kill
  -9``), and kills the one running a cancelled job; :class:`InlineExecutor` calls functions
  in-process (tests, stand-in AIs).
* **Queues** hold jobs until an executor is free: :class:`LocalJobQueue` (in memory, the embedded
  default) and :class:`RedisJobQueue` (a Redis stream read by a consumer group: any
  ``panal serve`` or ``panal ai-worker`` on any machine may take the next job, and a job taken by
  a process that died is claimed again after a time-out).

A queue hands each result to a :class:`JobHandler` (the process's runtime, which hands it on
to the kind of room that owns the job), which decides whether the job
still matters (``is_current``: is the game still at the version the job was computed for?) and
applies it through the same compare-and-set path as a player's move. A stale job is dropped
before it starts, and a running one is stopped when its key is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
import pickle
import secrets
import struct
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

__all__ = [
    "JOB_KINDS",
    "ChildPool",
    "Executor",
    "InlineExecutor",
    "Job",
    "JobCancelled",
    "JobError",
    "JobInputError",
    "ai_job_id",
    "report_progress",
    "run_job",
]

log = logging.getLogger("panal.server")

#: kind → "module:function" computing ``result = function(payload)`` in a worker process.
JOB_KINDS: dict[str, str] = {
    "hive.ai_move": "panal.server.hive_games.ai_pool:ai_move",
    "records.import": "panal.server.hive_games.records_io:import_job",
    "records.export": "panal.server.hive_games.records_io:export_job",
    "game.rebuild": "panal.server.hive_games.records_io:rebuild_job",
    "enjambre.bot_turn": "panal.server.enjambre_tables.bots:bot_turn",
    "analysis.position": "panal.server.analysis.engine_jobs:analyse_position",
    "analysis.review": "panal.server.analysis.engine_jobs:review_game",
    "training.puzzle": "panal.server.training.puzzle_jobs:puzzle_answer",
}

DEFAULT_TTL = 600.0  # a job not started within ten minutes is dropped (its game is abandoned)
HEADER = struct.Struct(">I")


class JobError(Exception):
    """A job did not give a result, and why, by ``kind``: ``bad_input`` (its function refused
    its payload: :class:`JobInputError`), ``failed`` (its function raised anything else),
    ``died`` (its process died), ``timeout`` (it ran out of time), ``cancelled``."""

    def __init__(
        self, message: str, kind: str = "failed", details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.details = details or {}  # a bad input's own (JobInputError.details)


class JobCancelled(JobError):
    """A job was cancelled while it ran."""

    def __init__(self, job_id: str) -> None:
        super().__init__(f"job {job_id} was cancelled", "cancelled")


class JobInputError(ValueError):
    """Raised by a job's function for a payload it cannot work on (a record that does not
    read): the job's :class:`JobError` is then of kind ``bad_input``, with this message and
    ``details`` (plain JSON values: what a page needs to say why in its own language)."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.details = details or {}


@dataclass(frozen=True)
class Job:
    kind: str
    key: str
    payload: dict[str, Any]
    id: str = field(default_factory=lambda: secrets.token_urlsafe(9))
    #: Whose work this is, for the queue's fair shares (:mod:`panal.server.runtime.fair_share`):
    #: the client, and the group of clients (an address) it belongs to.
    owner: str | None = None
    group: str | None = None
    expires_at: float = field(default_factory=lambda: time.time() + DEFAULT_TTL)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Job:
        data = json.loads(text)
        return cls(**data)

    @property
    def expired(self) -> bool:
        return time.time() > self.expires_at


#: Where :func:`report_progress` sends a running job's progress (set by whoever runs the job).
_progress_sink: Callable[[Any], None] | None = None


def report_progress(data: Any) -> None:
    """Called by a job's function while it runs: ``data`` (JSON) reaches the job's owner before
    the result (:meth:`panal.server.runtime.runtime.JobOwner.progress`), as an analysis's
    deeper lines do; nothing happens when nobody listens."""
    if _progress_sink is not None:
        _progress_sink(data)


@contextlib.contextmanager
def progress_to(sink: Callable[[Any], None] | None) -> Iterator[None]:
    """Send :func:`report_progress` to ``sink`` while the block runs."""
    global _progress_sink
    previous, _progress_sink = _progress_sink, sink
    try:
        yield
    finally:
        _progress_sink = previous


def run_job(kind: str, payload: Any) -> Any:
    """Compute a job's result (in a worker process)."""
    target = JOB_KINDS.get(kind)
    if target is None:
        raise JobError(f"unknown job kind {kind!r}")
    module, _, name = target.partition(":")
    function: Callable[[Any], Any] = getattr(importlib.import_module(module), name)
    return function(payload)


# --- executors ---------------------------------------------------------------------------------


#: What receives a running job's progress reports (see :func:`report_progress`).
Progress = Callable[[Any], None]


class Executor(Protocol):
    async def run(self, job: Job, timeout: float, on_progress: Progress | None = None) -> Any:
        """The job's result (its progress reports to ``on_progress`` on the way); raises
        JobError (or JobCancelled)."""
        ...

    def cancel(self, job_id: str) -> None:
        """Stop the job if it is running (it then raises JobCancelled)."""
        ...

    async def close(self) -> None: ...


class _Child:
    """One worker process and its pipes."""

    def __init__(self, warm: tuple[str, ...]) -> None:
        self.warm = warm
        self.process: asyncio.subprocess.Process | None = None
        self.killed = False

    async def ensure(self) -> asyncio.subprocess.Process:
        if self.process is not None and (self.killed or self.process.returncode is not None):
            if self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
            await self.process.wait()  # reaped: no zombie left behind
            self.process = None
        if self.process is None:
            self.killed = False
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "panal.server.runtime.job_child",
                *self.warm,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env={**os.environ, "PANAL_PARENT_PID": str(os.getpid())},
            )
        return self.process

    async def call(self, job: Job, on_progress: Progress | None = None) -> Any:
        process = await self.ensure()
        assert process.stdin is not None and process.stdout is not None
        data = pickle.dumps((job.id, job.kind, job.payload), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            process.stdin.write(HEADER.pack(len(data)) + data)
            await process.stdin.drain()
            while True:
                (size,) = HEADER.unpack(await process.stdout.readexactly(HEADER.size))
                job_id, ok, result = pickle.loads(await process.stdout.readexactly(size))
                if ok is not None:
                    break
                if on_progress is not None and job_id == job.id:  # ok None: a progress frame
                    on_progress(result)
        except (asyncio.IncompleteReadError, ConnectionError, BrokenPipeError):
            if self.killed:
                raise JobCancelled(job.id) from None
            self.kill()
            raise JobError("the worker process died", "died") from None
        if job_id != job.id:  # cannot happen: one job at a time per child
            self.kill()
            raise JobError("the worker answered another job", "died")
        if not ok:
            kind, message, details = result
            raise JobError(message, kind, details)
        return result

    def kill(self) -> None:
        self.killed = True
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def close(self) -> None:
        if self.process is None:
            return
        if self.process.returncode is None and self.process.stdin is not None:
            self.process.stdin.close()  # a clean end: the child exits on end of input
            try:
                await asyncio.wait_for(self.process.wait(), 2)
            except TimeoutError:
                self.kill()
                await self.process.wait()


class ChildPool:
    """``size`` worker processes, started on first use; each runs one job at a time."""

    def __init__(self, size: int, warm: tuple[str, ...] = (), max_waiting: int | None = None):
        self.size = max(1, size)
        self.max_waiting = max_waiting
        self._idle: asyncio.Queue[_Child] | None = None
        self._children = [_Child(warm) for _ in range(self.size)]
        self._running: dict[str, _Child] = {}
        self.waiting = 0

    def _queue(self) -> asyncio.Queue[_Child]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for child in self._children:
                self._idle.put_nowait(child)
        return self._idle

    async def start(self) -> None:
        """Start every worker now (else on first use)."""
        for child in self._children:
            await child.ensure()

    @property
    def busy(self) -> bool:
        return self.max_waiting is not None and self.waiting >= self.max_waiting

    async def run(self, job: Job, timeout: float, on_progress: Progress | None = None) -> Any:
        idle = self._queue()
        self.waiting += 1
        try:
            child = await idle.get()
        finally:
            self.waiting -= 1
        self._running[job.id] = child
        try:
            return await asyncio.wait_for(child.call(job, on_progress), timeout)
        except TimeoutError:
            child.kill()
            raise JobError(f"the job took longer than {timeout:g} s", "timeout") from None
        finally:
            del self._running[job.id]
            idle.put_nowait(child)

    def cancel(self, job_id: str) -> None:
        child = self._running.get(job_id)
        if child is not None:
            child.kill()

    def pids(self) -> list[int]:
        return [c.process.pid for c in self._children if c.process and c.process.returncode is None]

    async def close(self) -> None:
        for child in self._children:
            await child.close()


class InlineExecutor:
    """Runs jobs by calling functions in this process (tests and stand-in AIs)."""

    def __init__(self, functions: dict[str, Callable[[Any], Any]]) -> None:
        self.functions = functions

    async def run(self, job: Job, timeout: float, on_progress: Progress | None = None) -> Any:
        function = self.functions.get(job.kind)
        with progress_to(on_progress):
            if function is None:
                return run_job(job.kind, job.payload)
            result = function(job.payload)
        if asyncio.iscoroutine(result):
            result = await result
        return result

    def cancel(self, job_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


def ai_job_id(game_id: str, version: int) -> str:
    return f"{game_id}@{version}"
