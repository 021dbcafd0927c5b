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
import os
import secrets
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Bus", "LocalBus", "MessageHandler", "RedisBus", "make_bus"]

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


class RedisBus:
    """Redis pub/sub. Channel names are prefixed (``panal:game:<id>``) so that several
    deployments can share one Redis."""

    def __init__(self, url: str, prefix: str = "panal") -> None:
        import redis.asyncio as redis

        self.origin = new_origin()
        self.prefix = prefix
        self._redis = redis.Redis.from_url(url, health_check_interval=15)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._channels: set[str] = set()
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def _name(self, channel: str) -> str:
        return f"{self.prefix}:{channel}"

    async def start(self, on_message: MessageHandler, on_reconnect: Callable[[], None]) -> None:
        # A channel of its own keeps the subscription connection open from the start.
        await self._pubsub.subscribe(self._name(f"process:{self.origin}"))
        self._reader = asyncio.get_running_loop().create_task(self._read(on_message, on_reconnect))

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
        try:
            data = json.loads(message["data"])
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
        text = json.dumps({**message, "from": self.origin}, separators=(",", ":"))
        try:
            await self._redis.publish(self._name(channel), text)
        except Exception as exc:  # the database has the change: receivers catch up on reload
            log.warning("cannot publish on %s: %s", channel, exc)

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
