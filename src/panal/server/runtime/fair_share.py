"""Fair shares of the job queue: the next job to run is chosen round robin, first among groups
of clients (their addresses), then among the clients of the group served, so no client's work
waits behind another's backlog and many clients opened from one address weigh as one.

A job names its share with :attr:`Job.group <panal.server.runtime.jobs.Job>` and
:attr:`Job.owner`; within one client, its jobs run first in, first out. What a client or a group
is, the callers decide (nothing here knows a game): the web routes make the client the account,
or the browser's client token, and the group the address.

:class:`FairShares` is the in-memory order (one process); :data:`TAKE_FAIR` and
:data:`QUEUE_FAIR` are the same order kept in Redis lists (many processes), each one step for
Redis. The order, for both: a ring of groups with waiting work, and for each group a ring of its
clients with waiting work; taking a job takes the first group's first client's first job, then
puts that client back at the end of its group's ring (if it has more) and the group at the end
of the ring of groups (if it has more). A client or group that has nothing waiting leaves its
ring and rejoins at the end when it next submits.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Iterator

from panal.server.runtime.jobs import Job

__all__ = ["QUEUE_FAIR", "TAKE_FAIR", "FairShares", "share_of"]


def share_of(job: Job) -> tuple[str, str]:
    """The job's (group, client): a job without a client is the server's own, one share."""
    owner = job.owner or ""
    return (job.group or owner, owner)


class FairShares:
    """Queued jobs in the order of fair shares (see the module docstring)."""

    def __init__(self) -> None:
        # group → client → that client's jobs; dicts keep the rings' order (served: moved last).
        self._groups: OrderedDict[str, OrderedDict[str, deque[Job]]] = OrderedDict()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Job]:
        for clients in self._groups.values():
            for jobs in clients.values():
                yield from jobs

    def push(self, job: Job) -> None:
        group, client = share_of(job)
        clients = self._groups.setdefault(group, OrderedDict())
        clients.setdefault(client, deque()).append(job)
        self._size += 1

    def pop(self) -> Job | None:
        """The next job in fair order (None when nothing waits)."""
        if not self._groups:
            return None
        group, clients = next(iter(self._groups.items()))
        client, jobs = next(iter(clients.items()))
        job = jobs.popleft()
        self._size -= 1
        if jobs:
            clients.move_to_end(client)
        else:
            del clients[client]
        if clients:
            self._groups.move_to_end(group)
        else:
            del self._groups[group]
        return job

    def remove(self, drop: Callable[[Job], bool]) -> list[Job]:
        """Take out the queued jobs for which ``drop`` is true (their clients keep their place)."""
        dropped: list[Job] = []
        for group in list(self._groups):
            clients = self._groups[group]
            for client in list(clients):
                kept = deque(job for job in clients[client] if not drop(job))
                dropped.extend(job for job in clients[client] if drop(job))
                if kept:
                    clients[client] = kept
                else:
                    del clients[client]
            if not clients:
                del self._groups[group]
        self._size -= len(dropped)
        return dropped


#: Redis keys under ``<stream>``: ``:groups`` the ring of groups, ``:clients:<group>`` a group's
#: ring of clients, ``:waiting:<group>:<client>`` a client's jobs, ``:wake`` a list consumers
#: block on. (Group and client names are hashes: no ``:`` in them.)
#:
#: KEYS: the job's dedupe key, the stream; ARGV: the key's time to live, the job, group, client.
#: Queues the job unless a job with its id is queued or running.
QUEUE_FAIR = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
    return 0
end
local base = KEYS[2]
local group, client = ARGV[3], ARGV[4]
local clients = base .. ':clients:' .. group
local waiting = base .. ':waiting:' .. group .. ':' .. client
if redis.call('RPUSH', waiting, ARGV[2]) == 1 then
    if redis.call('RPUSH', clients, client) == 1 then
        redis.call('RPUSH', base .. ':groups', group)
    end
end
redis.call('LPUSH', base .. ':wake', '1')
redis.call('LTRIM', base .. ':wake', 0, 63)
return 1
"""

#: KEYS: the stream; ARGV: its approximate length limit. Moves the next job in fair order onto
#: the stream (where a consumer group hands it out, holds and reclaims it); 1 if there was one.
TAKE_FAIR = """
local base = KEYS[1]
local group = redis.call('LPOP', base .. ':groups')
if not group then
    return 0
end
local clients = base .. ':clients:' .. group
local client = redis.call('LPOP', clients)
local job = false
if client then
    local waiting = base .. ':waiting:' .. group .. ':' .. client
    job = redis.call('LPOP', waiting)
    if redis.call('LLEN', waiting) > 0 then
        redis.call('RPUSH', clients, client)
    end
end
if redis.call('LLEN', clients) > 0 then
    redis.call('RPUSH', base .. ':groups', group)
end
if not job then
    return 0
end
redis.call('XADD', base, 'MAXLEN', '~', ARGV[1], '*', 'job', job)
return 1
"""
