"""The cache-and-load that the Hive hub's games and the Enjambre hub's tables share: a live copy
is served from memory (checked against the database first when it may be out of date), or loaded
once however many requests ask for it at the same moment."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from panal.server.runtime.bus import Bus

__all__ = ["LiveLoader"]


class Live(Protocol):
    used_at: float  # time.monotonic() of the last request (the cache forgets the oldest first)


L = TypeVar("L", bound=Live)


@dataclass(eq=False)
class LiveLoader(Generic[L]):
    """Live copies by id, from the hub's ``cached`` copies (least recently used first) or from
    the database.

    ``load`` reads one (raising the hub's "unknown" error when there is none), ``keep`` caches
    it, ``verify`` reloads a copy the database has moved past. A copy is verified before it is
    served when other processes may change it (``shared``) or when the hub marked it ``stale``
    (a bus message may have been lost). A copy's bus channel, ``"<kind>:<id>"``, is subscribed
    to before it is read: a change made elsewhere meanwhile is either in what is read or
    announced after it (and, shared, the check after caching covers the moment between).
    """

    kind: str
    cached: OrderedDict[str, L]
    stale: set[str]
    bus: Bus
    load: Callable[[str], Awaitable[L]]
    keep: Callable[[L], None]
    verify: Callable[[L], Awaitable[None]]
    spawn: Callable[[Awaitable[Any]], object]
    shared: bool
    _loading: dict[str, asyncio.Future[L]] = field(default_factory=dict, init=False)

    async def get(self, key: str) -> L:
        live = self.cached.get(key)
        if live is not None:
            self.cached.move_to_end(key)
            live.used_at = time.monotonic()
            if self.shared or key in self.stale:
                await self.verify(live)
            return live
        pending = self._loading.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[L] = asyncio.get_running_loop().create_future()
        self._loading[key] = future
        channel = f"{self.kind}:{key}"
        try:
            await self.bus.subscribe(channel)
            live = await self.load(key)
            self.keep(live)
            if self.shared:
                await self.verify(live)
            future.set_result(live)
            return live
        except BaseException as exc:
            if key not in self.cached:
                self.spawn(self.bus.unsubscribe(channel))
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters get it through shield
            raise
        finally:
            del self._loading[key]
