"""The fan-out bus: what one server process tells the others.

Messages are small JSON objects on named channels: ``game:<id>`` carries every change of a game
(so each process updates its cached copy and its own websockets), and later features add their
own (``table:<id>``, ``lobby``). Two back-ends behind one interface:

* :class:`LocalBus` — the embedded default: one process, delivery is a function call.
* :class:`RedisBus` — scale-out: Redis pub/sub through redis-py's asyncio client.

Delivery is at most once, in order per channel. A receiver never trusts the bus for the truth:
every message names the game's version, and a receiver that finds a gap reloads from the
database. After Redis comes back from an outage, ``on_reconnect`` tells the receiver to check
every cached game, since messages sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Bus", "LocalBus", "MessageHandler", "RedisBus", "RedisPublisher", "make_bus"]

log = logging.getLogger("panal.server")

MessageHandler = Callable[[str, dict[str, Any]], None]


class Bus(Protocol):
    """Publish to channels and receive what is published on the channels subscribed to."""

    #: This process's id; every message published carries it as ``"from"``.
    origin: str

    async def start(self, on_message: MessageHandler, on_reconnect: Callable[[], None]) -> None:
        """Begin delivering messages of subscribed channels to ``on_message``."""
        ...

    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    async def subscribe(self, channel: str) -> None: ...

    async def unsubscribe(self, channel: str) -> None: ...

    async def close(self) -> None: ...


def new_origin() -> str:
    return f"{os.getpid()}-{secrets.token_hex(4)}"


class LocalBus:
    """One process: there is no other process to tell. Like Redis pub/sub here, a process never
    receives its own messages (it applied its own changes before publishing them)."""

    def __init__(self) -> None:
        self.origin = new_origin()
        self._channels: set[str] = set()
        self._on_message: MessageHandler | None = None

    async def start(self, on_message: MessageHandler, on_reconnect: Callable[[], None]) -> None:
        self._on_message = on_message

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        return None

    async def subscribe(self, channel: str) -> None:
        self._channels.add(channel)

    async def unsubscribe(self, channel: str) -> None:
        self._channels.discard(channel)

    async def close(self) -> None:
        self._channels.clear()


class RedisPublisher:
    """Publishes on Redis without waiting for it.

    :meth:`publish` queues a message and one task sends everything queued as one pipeline
    (``PUBLISH`` after ``PUBLISH``, no transaction) on one long-lived connection of its own,
    then reads the replies. Under load many messages thus cost one write and one read, and no
    connection is opened or closed per message (awaiting redis-py's ``publish`` made its pool
    open a new connection for each publish that overlapped another, and close it again when a
    publish was cancelled: a connect, a handshake and a read of the package's metadata from
    disk every time). Messages leave in the order they were queued, so each channel's arrive
    in order. The queue is bounded: when Redis is away longer than it takes to fill, the
    oldest messages are dropped (what they said is in the database: see :class:`RedisBus`).

    A batch that meets a broken connection (Redis restarted, or closed an idle client) is sent
    again on a new one, at once and then every half second, before anything queued after it:
    nothing is lost to a short outage and the order holds (a message that Redis took before
    the connection broke may arrive twice). A batch that Redis answers with an error is
    dropped. :meth:`close` sends what is queued first, for a little while.
    """

    #: Messages waiting at most; beyond, the oldest are dropped.
    MAX_QUEUED = 20_000
    #: Messages sent in one pipeline at most.
    MAX_BATCH = 500
    #: Seconds that connecting, or sending a batch and reading its replies, may take.
    SOCKET_TIMEOUT = 5.0
    #: Seconds the first message of a batch waits for others to join it: at 500 messages a
    #: second, 2 ms cut the CPU per message of the publishing and receiving processes by about a
    #: fifth and Redis's by 30% (benchmarks/bus_publish.py); a message to another process
    #: arrives that much later.
    GATHER = 0.002

    def __init__(self, url: str, name: str) -> None:
        """``name``: the connection's client name in Redis (``CLIENT LIST``)."""
        import redis.asyncio as redis

        # Outside any pool: only the publisher task uses it. No socket time-out of its own:
        # one bound covers a whole batch (see _send).
        self._connection = redis.ConnectionPool.from_url(
            url, socket_connect_timeout=self.SOCKET_TIMEOUT, client_name=name
        ).make_connection()  # type: ignore[no-untyped-call]
        self._outbox: deque[tuple[bytes, bytes]] = deque()
        self._queued = asyncio.Event()
        self._sending = False  # the task holds a batch taken from the queue
        self._dropped = 0
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        """Start sending (in the running event loop); what was queued before goes first."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._publish_queued())

    def publish(self, channel: str, text: str) -> None:
        """Queue a message (``channel`` is Redis's name of it)."""
        if self._closing:
            return
        if len(self._outbox) >= self.MAX_QUEUED:
            self._outbox.popleft()
            self._dropped += 1
        self._outbox.append((channel.encode(), text.encode()))
        self._queued.set()

    @property
    def queued(self) -> int:
        """Messages waiting to be sent."""
        return len(self._outbox)

    async def _publish_queued(self) -> None:
        """The publisher task: send what is queued, batch after batch, until cancelled."""
        from redis.exceptions import ResponseError

        while True:
            if not self._outbox:
                self._queued.clear()
                await self._queued.wait()
                await asyncio.sleep(self.GATHER)
            batch = [self._outbox.popleft() for _ in range(min(self.MAX_BATCH, len(self._outbox)))]
            self._sending = True
            failures = 0
            while True:
                try:
                    await self._send(batch)
                    break
                except asyncio.CancelledError:
                    self._outbox.extendleft(reversed(batch))  # close() counts what is left
                    raise
                except Exception as exc:
                    with contextlib.suppress(Exception):
                        await self._connection.disconnect()
                    if isinstance(exc, ResponseError):
                        log.warning("Redis refused %d messages: %s", len(batch), exc)
                        break
                    if failures == 1:
                        log.warning("cannot publish on Redis (%s): retrying", exc)
                    if failures:
                        await asyncio.sleep(0.5)
                    failures += 1
            self._sending = False
            if failures > 1:
                log.warning("publishing on Redis again")
            if self._dropped:
                log.warning("dropped %d messages while Redis was away", self._dropped)
                self._dropped = 0

    async def _send(self, batch: list[tuple[bytes, bytes]]) -> None:
        connection = self._connection
        commands = [(b"PUBLISH", channel, text) for channel, text in batch]
        async with asyncio.timeout(self.SOCKET_TIMEOUT):
            await connection.send_packed_command(connection.pack_commands(commands), False)
            for _ in batch:
                await connection.read_response(timeout=math.inf)

    async def flush(self, timeout: float = 2.0) -> bool:
        """Wait until everything queued so far has been sent (or ``timeout`` has passed);
        whether it was."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._outbox or self._sending:
            if self._task is None or self._task.done() or loop.time() > deadline:
                return False
            await asyncio.sleep(0.005)
        return True

    async def close(self) -> None:
        if self._task is not None:
            await self.flush(2.0)
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 2)
        if self._outbox:
            log.warning("dropped %d unsent Redis messages at shutdown", len(self._outbox))
            self._outbox.clear()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._connection.disconnect(), 2)


class RedisBus:
    """Redis pub/sub. Channel names are prefixed (``panal:game:<id>``) so that several
    deployments can share one Redis.

    Publishing never waits for Redis: messages go through a :class:`RedisPublisher`, so a
    game's changes leave, and arrive, in order. A message that never arrives (Redis away
    longer than the publisher's queue lasts) is like one lost in an outage: the database has
    the change, and receivers catch up when they find a gap in the versions or reconnect.
    """

    def __init__(self, url: str, prefix: str = "panal") -> None:
        import redis.asyncio as redis

        self.origin = new_origin()
        self.prefix = prefix
        self._redis = redis.Redis.from_url(url, health_check_interval=15)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self.publisher = RedisPublisher(url, f"panal-publisher-{self.origin}")
        self._own_prefix = b'{"from":' + json.dumps(self.origin).encode() + b","
        self._channels: set[str] = set()
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def _name(self, channel: str) -> str:
        return f"{self.prefix}:{channel}"

    async def start(self, on_message: MessageHandler, on_reconnect: Callable[[], None]) -> None:
        # A channel of its own keeps the subscription connection open from the start.
        await self._pubsub.subscribe(self._name(f"process:{self.origin}"))
        self._reader = asyncio.get_running_loop().create_task(self._read(on_message, on_reconnect))
        self.publisher.start()

    async def _read(self, on_message: MessageHandler, on_reconnect: Callable[[], None]) -> None:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        skip = len(self.prefix) + 1
        broken = False
        while True:
            try:
                # listen() reads without a time-out: a time-out that fired in the middle of a
                # message could lose it.
                async for message in self._pubsub.listen():
                    if broken:
                        broken = False
                        log.warning("Redis pub/sub is back: checking every cached game")
                        on_reconnect()
                    if message.get("type") != "message":
                        continue
                    self._deliver(message, skip, on_message)
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                if not broken:
                    log.warning("Redis pub/sub lost (%s): retrying", exc)
                broken = True
                await asyncio.sleep(0.5)

    def _deliver(self, message: dict[str, Any], skip: int, on_message: MessageHandler) -> None:
        raw = message["data"]
        # A process hears its own messages too (it is subscribed to the channels it publishes
        # on): they start with its origin (see publish) and are skipped before parsing.
        if isinstance(raw, bytes) and raw.startswith(self._own_prefix):
            return
        try:
            data = json.loads(raw)
            channel = message["channel"].decode()[skip:]
        except (ValueError, UnicodeDecodeError, AttributeError):
            log.warning("ignored a malformed bus message")
            return
        if isinstance(data, dict) and data.get("from") != self.origin:
            try:
                on_message(channel, data)
            except Exception:
                log.exception("bus message on %s", channel)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue the message (see :class:`RedisPublisher`); its origin comes first."""
        text = json.dumps({"from": self.origin, **message}, separators=(",", ":"))
        self.publisher.publish(self._name(channel), text)

    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._channels:
                self._channels.add(channel)
                await self._pubsub.subscribe(self._name(channel))

    async def unsubscribe(self, channel: str) -> None:
        async with self._lock:
            if channel in self._channels:
                self._channels.discard(channel)
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(self._name(channel))

    async def close(self) -> None:
        await self.publisher.close()  # what is queued leaves first
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 2)
        # A connection whose read was cancelled may not close politely: never wait long.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pubsub.aclose(), 2)  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._redis.aclose(), 2)


def make_bus(redis_url: str | None, prefix: str = "panal") -> Bus:
    return RedisBus(redis_url, prefix) if redis_url else LocalBus()
