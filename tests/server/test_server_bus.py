"""The Redis bus: publishing queues, and one publisher task sends what is queued as a pipeline on
one long-lived connection. Each channel's messages arrive in the order they were published, even
when many tasks publish at once; publishing opens no connection per message; a message published
while Redis is away is sent when it is back (or, if the queue overflowed, dropped: the receivers
then reload from the database)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import pytest
import redis.asyncio as redis

from panal.server.runtime.bus import RedisBus, RedisPublisher
from tests.server.conftest import scale_out_services

CHANNELS = 20
PER_CHANNEL = 100


class Inbox:
    def __init__(self) -> None:
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self.reconnects = 0
        self.arrived = asyncio.Event()

    def on_message(self, channel: str, message: dict[str, Any]) -> None:
        self.messages.setdefault(channel, []).append(message)
        self.arrived.set()

    def on_reconnect(self) -> None:
        self.reconnects += 1

    def count(self) -> int:
        return sum(len(each) for each in self.messages.values())

    async def wait_for(self, total: int, timeout: float = 20.0) -> None:
        async with asyncio.timeout(timeout):
            while self.count() < total:
                self.arrived.clear()
                await self.arrived.wait()


async def connections_received(redis_url: str) -> int:
    """Connections Redis accepted since it started (``INFO stats``)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(redis_url)
    try:
        info = await client.info("stats")
    finally:
        await client.aclose()
    return int(info["total_connections_received"]) - 1  # not counting this one


def test_each_channel_keeps_its_order_under_concurrent_publishes() -> None:
    _, redis_url = scale_out_services()
    prefix = f"test-{secrets.token_hex(4)}"

    async def scenario() -> None:
        sender, receiver = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        inbox, own = Inbox(), Inbox()
        await receiver.start(inbox.on_message, inbox.on_reconnect)
        await sender.start(own.on_message, own.on_reconnect)
        try:
            channels = [f"game:g{i}" for i in range(CHANNELS)]
            for channel in channels:
                await receiver.subscribe(channel)
                await sender.subscribe(channel)  # a process hears its own messages: skipped
            await sender.publish(channels[0], {"op": "warm", "n": -1})
            await inbox.wait_for(1)
            opened_before = await connections_received(redis_url)

            async def publisher(channel: str) -> None:
                for n in range(PER_CHANNEL):
                    await sender.publish(channel, {"op": "change", "n": n})
                    if n % 7 == 0:
                        await asyncio.sleep(0)  # interleave with the other publishers

            await asyncio.gather(*(publisher(channel) for channel in channels))
            await inbox.wait_for(1 + CHANNELS * PER_CHANNEL)
            assert await connections_received(redis_url) == opened_before + 1  # no connection churn
            for channel in channels:
                numbers = [m["n"] for m in inbox.messages[channel] if m["op"] == "change"]
                assert numbers == list(range(PER_CHANNEL)), channel
                assert all(m["from"] == sender.origin for m in inbox.messages[channel])
            assert own.count() == 0
        finally:
            await sender.close()
            await receiver.close()

    asyncio.run(scenario())


def test_what_is_queued_while_redis_is_away_is_sent_after_and_close_flushes() -> None:
    """The publishing connection is cut (as by a Redis restart): the messages queued meanwhile
    arrive, in order, on a new one; close() sends what is queued before it returns."""
    _, redis_url = scale_out_services()
    prefix = f"test-{secrets.token_hex(4)}"

    async def scenario() -> None:
        sender, receiver = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        inbox, own = Inbox(), Inbox()
        await receiver.start(inbox.on_message, inbox.on_reconnect)
        await sender.start(own.on_message, own.on_reconnect)
        closed = False
        try:
            await receiver.subscribe("game:x")
            await sender.publish("game:x", {"n": 0})
            await inbox.wait_for(1)
            # Redis drops the publisher's connection (as a restart or an idle time-out would).
            killer = redis.Redis.from_url(redis_url)
            name = f"panal-publisher-{sender.origin}"
            killed = [c for c in await killer.client_list() if c.get("name") == name]
            assert len(killed) == 1
            await killer.client_kill_filter(_id=killed[0]["id"])
            await asyncio.sleep(0.1)
            for n in range(1, 51):
                await sender.publish("game:x", {"n": n})
            await inbox.wait_for(51)
            for n in range(51, 61):
                await sender.publish("game:x", {"n": n})
            await sender.close()  # flushes first
            closed = True
            await inbox.wait_for(61)
            numbers = [m["n"] for m in inbox.messages["game:x"]]
            # Nothing lost, in order (a message Redis took before the cut could come twice).
            assert list(dict.fromkeys(numbers)) == list(range(61))
            publishers = [c for c in await killer.client_list() if c.get("name") == name]
            assert publishers == []  # closed with the bus
            await killer.aclose()
        finally:
            if not closed:
                await sender.close()
            await receiver.close()

    asyncio.run(scenario())


def test_the_queue_is_bounded_and_drops_the_oldest(monkeypatch: pytest.MonkeyPatch) -> None:
    """25 messages queued before the publisher starts (as while Redis is away), room for 10:
    the last 10 arrive, in order."""
    _, redis_url = scale_out_services()
    prefix = f"test-{secrets.token_hex(4)}"
    monkeypatch.setattr(RedisPublisher, "MAX_QUEUED", 10)

    async def scenario() -> list[int]:
        receiver, inbox = RedisBus(redis_url, prefix), Inbox()
        await receiver.start(inbox.on_message, inbox.on_reconnect)
        publisher = RedisPublisher(redis_url, f"test-publisher-{prefix}")
        try:
            await receiver.subscribe("game:y")
            for n in range(25):
                publisher.publish(f"{prefix}:game:y", json.dumps({"from": "elsewhere", "n": n}))
            assert publisher.queued == 10
            publisher.start()
            await inbox.wait_for(10)
            await asyncio.sleep(0.2)  # nothing more comes
            return [m["n"] for m in inbox.messages["game:y"]]
        finally:
            await publisher.close()
            await receiver.close()

    assert asyncio.run(scenario()) == list(range(15, 25))
