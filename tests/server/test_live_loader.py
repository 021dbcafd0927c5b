"""The hubs' one cache-and-load (games and tables): a copy is loaded once however many ask at
the same moment, subscribed to before it is read, verified when shared or stale, and a failed
load caches nothing and leaves no subscription behind."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import pytest

from panal.server.room.loader import LiveLoader
from panal.server.runtime.bus import LocalBus


@dataclass
class Copy:
    id: str
    used_at: float = 0.0


class RecordingBus(LocalBus):
    """One process's bus that notes its subscriptions in ``events``."""

    def __init__(self, events: list[str]) -> None:
        super().__init__()
        self.events = events

    async def subscribe(self, channel: str) -> None:
        self.events.append(f"subscribe {channel}")
        await super().subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        self.events.append(f"unsubscribe {channel}")
        await super().unsubscribe(channel)


class Recorder:
    """The hub's side: what was loaded, verified and subscribed to, in order."""

    def __init__(self, shared: bool) -> None:
        self.events: list[str] = []
        self.cached: OrderedDict[str, Copy] = OrderedDict()
        self.stale: set[str] = set()
        self.release = asyncio.Event()
        self.missing = {"nope"}
        self.tasks: list[asyncio.Task[Any]] = []
        bus = RecordingBus(self.events)
        self.loader = LiveLoader(
            "game",
            self.cached,
            self.stale,
            bus,
            load=self.load,
            keep=self.keep,
            verify=self.verify,
            spawn=self.spawn,
            shared=shared,
        )

    async def load(self, key: str) -> Copy:
        self.events.append(f"load {key}")
        await self.release.wait()
        if key in self.missing:
            raise LookupError(key)
        return Copy(key)

    def keep(self, copy: Copy) -> None:
        self.cached[copy.id] = copy

    async def verify(self, copy: Copy) -> None:
        self.events.append(f"verify {copy.id}")
        self.stale.discard(copy.id)

    def spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self.tasks.append(task)
        return task


def test_one_load_for_many_callers_subscribed_first() -> None:
    async def scenario() -> None:
        hub = Recorder(shared=False)
        waiting = [asyncio.ensure_future(hub.loader.get("g1")) for _ in range(5)]
        await asyncio.sleep(0.01)
        hub.release.set()
        copies = await asyncio.gather(*waiting)
        assert all(copy is copies[0] for copy in copies)
        assert hub.events == ["subscribe game:g1", "load g1"]
        assert await hub.loader.get("g1") is copies[0]  # from memory, not verified
        assert copies[0].used_at > 0
        hub.stale.add("g1")  # a bus message may have been lost: checked once
        await hub.loader.get("g1")
        await hub.loader.get("g1")
        assert hub.events[2:] == ["verify g1"]

    asyncio.run(scenario())


def test_a_shared_copy_is_verified_on_load_and_on_every_request() -> None:
    async def scenario() -> None:
        hub = Recorder(shared=True)
        hub.release.set()
        await hub.loader.get("g1")
        await hub.loader.get("g1")
        assert hub.events == ["subscribe game:g1", "load g1", "verify g1", "verify g1"]

    asyncio.run(scenario())


def test_a_failed_load_caches_nothing_and_unsubscribes() -> None:
    async def scenario() -> None:
        hub = Recorder(shared=False)
        waiting = [asyncio.ensure_future(hub.loader.get("nope")) for _ in range(3)]
        await asyncio.sleep(0.01)
        hub.release.set()
        results = await asyncio.gather(*waiting, return_exceptions=True)
        assert all(isinstance(result, LookupError) for result in results)
        await asyncio.gather(*hub.tasks)
        assert hub.events == ["subscribe game:nope", "load nope", "unsubscribe game:nope"]
        assert not hub.cached
        with pytest.raises(LookupError):  # asked again: loaded again, not a remembered failure
            await hub.loader.get("nope")

    asyncio.run(scenario())
