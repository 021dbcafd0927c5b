"""Who a request comes from, for the caps on heavy work and for the job queue's fair shares.

A browser keeps a random **client token** of its own (``panal.client`` in its storage) and sends
it with every API request in the ``X-Panal-Client`` header. The server keeps only hashes: the
**client** is the hash of that token (of the address, for a client that sends none: a script),
the **address** the hash of the request's address (behind a proxy, uvicorn's
``--forwarded-allow-ips`` makes it the real client's). Caps count per client, per account and per
address, the last much larger: many honest players behind one router (a school, a café, a
family) each have their own client, while one person who makes up new tokens is still held by
the address's cap. Nothing here knows a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy import Connection
from starlette.requests import HTTPConnection

from panal.server.database.store import lock_name
from panal.server.http.request_error import RequestError
from panal.server.room.tokens import hash_token

__all__ = [
    "CLIENT_HEADER",
    "Capacity",
    "Caps",
    "Client",
    "InFlightCap",
    "Usage",
    "UsageQuery",
    "client_of",
]

CLIENT_HEADER = "X-Panal-Client"
_CLIENT_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class Client:
    """A request's client (see the module docstring); ``account``: signed in as."""

    address: str
    key: str
    account: int | None = None


def client_of(connection: HTTPConnection, account: int | None = None) -> Client:
    host = connection.client.host if connection.client else None
    address = hash_token(f"client:{host or 'unknown'}")[:32]
    token = connection.headers.get(CLIENT_HEADER)
    if token is not None and _CLIENT_TOKEN.fullmatch(token):
        key = hash_token(f"client-token:{token}")[:32]
    else:
        key = address
    return Client(address, key, account)


@dataclass(frozen=True)
class Usage:
    """How many of a kind of heavy thing (AI games, tables with bots) are open now for a
    client, its account and its address."""

    client: int
    account: int
    address: int


@dataclass(frozen=True)
class Caps:
    """How many of a kind of heavy thing one client, one account and one address may have open
    (the address's much larger: many players behind one router)."""

    per_client: int
    per_account: int
    per_address: int


#: Counts what a client, its account and its address have open, in the caller's transaction.
UsageQuery = Callable[[Connection, Client], Usage]


class Capacity:
    """The caps on one kind of heavy thing, checked as one more is created: ``code`` is the
    refusal's error code for the pages when a client's or an account's cap is reached,
    ``<code>_here`` when an address's is; ``what`` names the things in English for the message
    ("unfinished games against the AI"); ``usage`` counts them. A process creates one at a time
    under ``creating`` (SQLite's one process takes no advisory lock: see :meth:`guard`)."""

    def __init__(self, code: str, what: str, caps: Caps, usage: UsageQuery) -> None:
        self.code = code
        self.what = what
        self.caps = caps
        self.usage = usage
        self.creating = asyncio.Lock()

    def check(self, conn: Connection, client: Client) -> None:
        """Refuse (429) one more when a cap of ``client`` is reached, counted on ``conn``."""
        usage, caps = self.usage(conn, client), self.caps
        for count, limit in ((usage.client, caps.per_client), (usage.account, caps.per_account)):
            if count >= limit:
                raise RequestError(
                    self.code,
                    f"you have {count} {self.what} (at most {limit}): finish or resign one first",
                    429,
                    details={"count": str(count), "limit": str(limit)},
                )
        if usage.address >= caps.per_address:
            raise RequestError(
                f"{self.code}_here",
                f"{usage.address} {self.what} are open from your network (at most "
                f"{caps.per_address}); try again when some have finished",
                429,
                details={"count": str(usage.address), "limit": str(caps.per_address)},
            )

    def guard(self, client: Client) -> Callable[[Connection], None]:
        """What the new thing's transaction runs first: :meth:`check` in it, under a lock on the
        client's address (every process), so that requests sent at once cannot all pass the
        count before any is stored. (In one process, the caller creates one at a time under
        ``creating``.)"""

        def check(conn: Connection) -> None:
            lock_name(conn, f"capacity:{client.address}")
            self.check(conn, client)

        return check


class InFlightCap:
    """At most ``per_client`` requests of one client at a time for a kind of heavy work that
    leaves nothing behind (the trainer's solver), in this process: one more is refused (429
    ``code``, with ``count`` and ``limit`` for the page's sentence) rather than queued, so one
    client cannot fill the worker's queue. Nothing is stored: there is nothing to count once
    the work is done."""

    def __init__(self, code: str, what: str, per_client: int) -> None:
        self.code = code
        self.what = what
        self.per_client = per_client
        self.running: Counter[str] = Counter()  # client key → requests at work

    @contextlib.contextmanager
    def one_more(self, client: Client) -> Iterator[None]:
        """Hold one of ``client``'s places while the block runs; refuse when none is left."""
        count = self.running[client.key]
        if count >= self.per_client:
            raise RequestError(
                self.code,
                f"you already have {count} {self.what} at work (at most {self.per_client}): "
                "wait for its answer",
                429,
                details={"count": str(count), "limit": str(self.per_client)},
            )
        self.running[client.key] += 1
        try:
            yield
        finally:
            self.running[client.key] -= 1
            if not self.running[client.key]:
                del self.running[client.key]
