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
of the ring of groups (if it has more). A client or group that had nothing waiting and nothing
running comes in ahead of those already served (after the others that came in the same way),
one with a job running at the end of the ring: a player with one
AI move to wait for is served before the next job of a client with a backlog, which shares
what is left (max-min fairness: the light users get what they ask, the heavy ones share the
rest). Each ring is thus two lists, the ``fresh`` then the ``served``.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator

from panal.server.runtime.jobs import Job

__all__ = ["DONE_FAIR", "QUEUE_FAIR", "TAKE_FAIR", "FairShares", "share_of"]


def share_of(job: Job) -> tuple[str, str]:
    """The job's (group, client): a job without a client is the server's own, one share."""
    owner = job.owner or ""
    return (job.group or owner, owner)


class _Ring:
    """Members with work waiting, in the order they are served: first those that came since
    they were last served (``fresh``, in the order they came), then the others (``served``)."""

    def __init__(self) -> None:
        self.fresh: OrderedDict[str, None] = OrderedDict()
        self.served: OrderedDict[str, None] = OrderedDict()

    def __bool__(self) -> bool:
        return bool(self.fresh or self.served)

    def first(self) -> str:
        return next(iter(self.fresh or self.served))

    def come_in(self, name: str, fresh: bool) -> None:
        """``name`` has work waiting again: among the fresh, or (it has a job running: it has
        just been served) at the end of the ring."""
        (self.fresh if fresh else self.served)[name] = None

    def take(self, name: str, more: bool) -> None:
        """``name`` was just served: to the end of the ring if it has ``more``, else out."""
        self.fresh.pop(name, None)
        self.served.pop(name, None)
        if more:
            self.served[name] = None


class FairShares:
    """Queued jobs in the order of fair shares (see the module docstring)."""

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], deque[Job]] = {}  # (group, client) → its jobs
        self._groups = _Ring()
        self._clients: dict[str, _Ring] = {}  # group → its clients
        self._running: Counter[str | tuple[str, str]] = Counter()  # jobs taken, not done
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Job]:
        for jobs in self._jobs.values():
            yield from jobs

    def push(self, job: Job) -> None:
        group, client = share_of(job)
        jobs = self._jobs.setdefault((group, client), deque())
        jobs.append(job)
        self._size += 1
        if len(jobs) == 1:  # the client had nothing waiting: it comes (back) in
            clients = self._clients.setdefault(group, _Ring())
            if not clients:
                self._groups.come_in(group, fresh=not self._running[group])
            clients.come_in(client, fresh=not self._running[(group, client)])

    def pop(self) -> Job | None:
        """The next job in fair order (None when nothing waits)."""
        if not self._groups:
            return None
        group = self._groups.first()
        clients = self._clients[group]
        client = clients.first()
        jobs = self._jobs[(group, client)]
        job = jobs.popleft()
        self._size -= 1
        if not jobs:
            del self._jobs[(group, client)]
        clients.take(client, bool(jobs))
        self._groups.take(group, bool(clients))
        if not clients:
            del self._clients[group]
        self._running[group] += 1
        self._running[(group, client)] += 1
        return job

    def done(self, job: Job) -> None:
        """A job taken by :meth:`pop` has finished (a client or group with a job running is
        not fresh when it comes back: it has just been served)."""
        group, client = share_of(job)
        for key in (group, (group, client)):
            self._running[key] -= 1
            if self._running[key] <= 0:
                del self._running[key]

    def remove(self, drop: Callable[[Job], bool]) -> list[Job]:
        """Take out the queued jobs for which ``drop`` is true (the others keep their place)."""
        dropped: list[Job] = []
        for (group, client), jobs in list(self._jobs.items()):
            kept = deque(job for job in jobs if not drop(job))
            dropped.extend(job for job in jobs if drop(job))
            if kept:
                self._jobs[(group, client)] = kept
                continue
            del self._jobs[(group, client)]
            clients = self._clients[group]
            clients.take(client, False)
            if not clients:
                del self._clients[group]
                self._groups.take(group, False)
        self._size -= len(dropped)
        return dropped


#: Redis keys under ``<stream>``: ``:groups:fresh`` and ``:groups`` the ring of groups,
#: ``:clients:<group>:fresh`` and ``:clients:<group>`` a group's ring of clients,
#: ``:waiting:<group>:<client>`` a client's jobs, ``:wake`` a list consumers block on. (Group and
#: client names are hashes: no ``:`` in them.) ``:running`` counts the jobs taken and not
#: done per group and per ``<group>:<client>`` (a process that dies leaves its count behind:
#: that client then joins the end of the ring instead of the fresh, no worse than round robin).
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
local running = base .. ':running'
if redis.call('RPUSH', waiting, ARGV[2]) == 1 then
    if redis.call('LLEN', clients) + redis.call('LLEN', clients .. ':fresh') == 0 then
        if redis.call('HEXISTS', running, group) == 1 then
            redis.call('RPUSH', base .. ':groups', group)
        else
            redis.call('RPUSH', base .. ':groups:fresh', group)
        end
    end
    if redis.call('HEXISTS', running, group .. ':' .. client) == 1 then
        redis.call('RPUSH', clients, client)
    else
        redis.call('RPUSH', clients .. ':fresh', client)
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
local group = redis.call('LPOP', base .. ':groups:fresh')
if not group then
    group = redis.call('LPOP', base .. ':groups')
end
if not group then
    return 0
end
local clients = base .. ':clients:' .. group
local client = redis.call('LPOP', clients .. ':fresh')
if not client then
    client = redis.call('LPOP', clients)
end
local job = false
if client then
    local waiting = base .. ':waiting:' .. group .. ':' .. client
    job = redis.call('LPOP', waiting)
    if redis.call('LLEN', waiting) > 0 then
        redis.call('RPUSH', clients, client)
    end
end
if redis.call('LLEN', clients) + redis.call('LLEN', clients .. ':fresh') > 0 then
    redis.call('RPUSH', base .. ':groups', group)
end
if not job then
    return 0
end
redis.call('HINCRBY', base .. ':running', group, 1)
redis.call('HINCRBY', base .. ':running', group .. ':' .. client, 1)
redis.call('XADD', base, 'MAXLEN', '~', ARGV[1], '*', 'job', job)
return 1
"""

#: KEYS: the stream; ARGV: group, client. A job taken by TAKE_FAIR is done (or dropped).
DONE_FAIR = """
local running = KEYS[1] .. ':running'
for _, field in ipairs({ARGV[1], ARGV[1] .. ':' .. ARGV[2]}) do
    if redis.call('HINCRBY', running, field, -1) <= 0 then
        redis.call('HDEL', running, field)
    end
end
return 0
"""
