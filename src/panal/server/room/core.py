"""The live-room core: what every kind of room (a Hive game, an Enjambre table) does alike,
written once. It knows no game; a kind plugs in through :class:`RoomKind`.

A process keeps, for each room in use, a *live copy* (the kind's): everything in it can be
rebuilt from the database, which decides. The core

* serves a copy from memory or loads it once however many ask at the same moment, subscribed to
  its bus channel first (:class:`~panal.server.room.loader.LiveLoader`), keeps the most recently
  used, forgets the oldest nobody watches, and reloads a copy the database has moved past;
* commits a change computed by one of the kind's pure actions (under the room's lock, which the
  caller holds): the kind writes it with a compare-and-set on the room's version; refused (another
  process wrote first), nothing changed, the copy is reloaded and the request answered ``stale``;
  written, the kind applies it to the copy and shows it to this process's connections, the change
  is published on the bus, and the kind queues what follows it (jobs);
* gates the bus: a :class:`Changed` for the next version is applied as if committed here, one
  the copy cannot follow (a lost message, a restart) reloads the room; a :class:`Failure` notice
  holds only for the version it names;
* after a bus outage, checks every cached copy before it is read again.

Modelled on boardgame.io's one ``Master`` for every game and lila-ws's shared ``RoomActor`` with
versioned history and resync.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from panal.server.database.store import Conflict
from panal.server.http.request_error import RequestError
from panal.server.room.loader import LiveLoader
from panal.server.runtime.runtime import Runtime

__all__ = [
    "Changed",
    "Failure",
    "LiveRoom",
    "Reload",
    "RoomHub",
    "RoomKind",
    "RoomKindBase",
    "Rooms",
    "RowCopy",
    "StoredRow",
]

log = logging.getLogger("panal.server")


class LiveRoom(Protocol):
    """What the core needs of a kind's live copy."""

    lock: asyncio.Lock  # held while a change is computed, written and applied
    connections: set[Any]  # this process's websockets on the room
    used_at: float  # time.monotonic() of the last request (the cache forgets the oldest first)

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...


class StoredRow(Protocol):
    """The stored row a live copy is built around (a game's, a table's)."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...


class RowCopy:
    """A live copy's id and version, which are its stored row's: a base for a kind's copy."""

    row: StoredRow

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version


L = TypeVar("L", bound=LiveRoom)
C = TypeVar("C")
R = TypeVar("R", contravariant=True)  # what a hub commits: a change, or a request for one


# --- what travels on the bus -------------------------------------------------------------------


@dataclass(frozen=True)
class Changed(Generic[C]):
    """A change committed at ``version`` (the room's version after it)."""

    version: int
    change: C


@dataclass(frozen=True)
class Reload:
    """The room's row was changed at ``version`` in a way only a reload shows."""

    version: int


@dataclass(frozen=True)
class Failure:
    """Work for the room at ``version`` failed (its AI or its bots): ``code`` for the pages to
    say it in the reader's language, ``message`` in English."""

    version: int
    code: str
    message: str


def decode(message: Any) -> Changed[dict[str, Any]] | Reload | Failure | None:
    """A bus message as one of the core's types, a change's fields left as they came (the kind
    decodes them only when it applies them: most messages are this process's own, or old); None
    for one of the kind's own (see :meth:`RoomKind.on_other`) or one that is not understood."""
    if not isinstance(message, dict) or not isinstance(message.get("v"), int):
        return None
    version, op = message["v"], message.get("op")
    if op == "change":
        return Changed(version, message)
    if op == "reload":
        return Reload(version)
    if op == "failure":
        return Failure(version, str(message.get("code")), str(message.get("message")))
    return None


def encode(message: Changed[Any] | Reload | Failure, fields: dict[str, Any]) -> dict[str, Any]:
    """A message for the bus (``fields``: a change's own, see :meth:`RoomKind.encode`)."""
    if isinstance(message, Changed):
        return {"op": "change", "v": message.version, **fields}
    if isinstance(message, Reload):
        return {"op": "reload", "v": message.version}
    return {"op": "failure", "v": message.version, "code": message.code, "message": message.message}


class RoomKind(Protocol[L, C]):
    """One kind of room: the few things the core cannot know.

    ``name`` prefixes its bus channels (``<name>:<id>``). A change ``C`` is computed by the
    kind's pure actions from the copy (nothing changed yet), then committed by the core."""

    name: str

    def unknown(self) -> RequestError:
        """The error for an id that names no room of this kind."""
        ...

    def stale(self) -> RequestError:
        """The error for a change another process's got ahead of."""
        ...

    async def load(self, key: str) -> L:
        """The room as stored (raises :meth:`unknown`)."""
        ...

    def take(self, live: L, fresh: L) -> None:
        """Make ``live`` the freshly loaded ``fresh`` (its connections stay)."""
        ...

    async def stored_version(self, key: str) -> int | None:
        """The room's version in the database (one indexed read; None: no such room)."""
        ...

    def evictable(self, live: L) -> bool:
        """Whether the cache may forget this copy (nobody is connected, nothing runs on it)."""
        ...

    async def write(self, live: L, change: C) -> int:
        """Store the change with a compare-and-set on ``live.version``; the new version.
        Raises :class:`~panal.server.database.store.Conflict`, nothing written, when it moved on."""
        ...

    def apply_change(self, live: L, change: C, version: int) -> None:
        """Apply a committed change (this process's or another's) to the copy."""
        ...

    async def applied(self, live: L, change: C) -> None:
        """After a change was applied here or from the bus: clear the failure it overtook and
        read what it made out of date elsewhere in the database (names, ratings)."""
        ...

    def show(self, live: L) -> None:
        """Send the copy to this process's connections, each as its viewer may see it."""
        ...

    def encode(self, change: C) -> dict[str, Any]:
        """The change's fields for the bus (JSON)."""
        ...

    def decode(self, fields: dict[str, Any]) -> C:
        """A change from another process's fields (raises anything when they are bad)."""
        ...

    def record_failure(self, live: L, failure: Failure) -> None:
        """Note the failure on the copy (it is shown next)."""
        ...

    def on_other(self, live: L, message: dict[str, Any]) -> None:
        """One of the kind's own bus messages (a spectator count), under the room's lock."""
        ...


class Rooms(Generic[L, C]):
    """The rooms of one kind that this process serves."""

    def __init__(self, runtime: Runtime, kind: RoomKind[L, C], cached: int) -> None:
        self.runtime = runtime
        self.kind = kind
        self.capacity = cached
        self.cached: OrderedDict[str, L] = OrderedDict()
        self._stale: set[str] = set()  # copies to verify before they are read again
        self._loader = LiveLoader(
            kind.name,
            self.cached,
            self._stale,
            runtime.bus,
            load=kind.load,
            keep=self.keep,
            verify=self.verify,
            spawn=runtime.spawn,
            shared=runtime.shared,
        )
        runtime.listen(kind.name, self)

    def channel(self, key: str) -> str:
        return f"{self.kind.name}:{key}"

    # --- the cache -------------------------------------------------------------------------

    async def get(self, key: Any) -> L:
        """The room, from memory when the copy is current, else from the database."""
        if not isinstance(key, str) or not 1 <= len(key) <= 16:
            raise self.kind.unknown()
        return await self._loader.get(key)

    def peek(self, key: str) -> L | None:
        """The cached copy, if any (nothing loaded, nothing verified)."""
        return self.cached.get(key)

    def keep(self, live: L) -> None:
        """Cache a copy (a new room, or one just loaded), forgetting the oldest beyond the
        cache's size."""
        self.cached[live.id] = live
        self.cached.move_to_end(live.id)
        self.evict()

    async def created(self, live: L) -> None:
        """Cache a room just created here, subscribed to its channel."""
        self.keep(live)
        await self.runtime.bus.subscribe(self.channel(live.id))

    def evict(self) -> None:
        """Forget the least recently used copies that nobody watches, beyond the cache's size."""
        excess = len(self.cached) - self.capacity
        if excess <= 0:
            return
        for key, live in list(self.cached.items()):
            if excess <= 0:
                break
            if live.connections or live.lock.locked() or not self.kind.evictable(live):
                continue
            del self.cached[key]
            self._stale.discard(key)
            self.runtime.spawn(self.runtime.bus.unsubscribe(self.channel(key)))
            excess -= 1

    def mark_stale(self, key: str) -> None:
        """The copy may be out of date: verify it before it is read, at once if watched."""
        live = self.cached.get(key)
        if live is not None:
            self._stale.add(key)
            if live.connections:
                self.runtime.spawn(self.verify(live))

    async def verify(self, live: L) -> None:
        """Reload the copy if the database has moved on (another process, a lost message)."""
        version = await self.kind.stored_version(live.id)
        self._stale.discard(live.id)
        if version is not None and version != live.version:
            async with live.lock:
                if version != live.version:
                    await self.reload(live)

    async def reload(self, live: L) -> None:
        """Under the room's lock: take the stored room, and show it."""
        self.kind.take(live, await self.kind.load(live.id))
        self.kind.show(live)

    # --- changing --------------------------------------------------------------------------

    async def commit(self, live: L, change: C) -> int:
        """Under the room's lock: write the change if the room is still at the version it was
        computed from, apply it here, show it and publish it; the new version. Refused: the
        copy is reloaded and :meth:`RoomKind.stale` raised; not stored: ``storage`` (503)."""
        try:
            version = await self.kind.write(live, change)
        except Conflict:
            await self.reload(live)  # another process wrote first: take its line
            raise self.kind.stale() from None
        except Exception:
            log.exception("cannot store a change of %s %s", self.kind.name, live.id)
            raise RequestError("storage", "the change could not be saved; try again", 503) from None
        self.kind.apply_change(live, change, version)
        await self.kind.applied(live, change)
        self.kind.show(live)
        await self.publish(live.id, Changed(version, change))
        return version

    async def publish(self, key: str, message: Changed[C] | Reload | Failure) -> None:
        fields = self.kind.encode(message.change) if isinstance(message, Changed) else {}
        await self.runtime.bus.publish(self.channel(key), encode(message, fields))

    async def fail(self, key: str, failure: Failure) -> None:
        """Work for the room at ``failure.version`` failed: note it, show it and tell the other
        processes (nothing, when the room moved on meanwhile)."""
        try:
            live = await self.get(key)
        except RequestError:
            return
        async with live.lock:
            if live.version == failure.version:
                await self.note_failure(live, failure)

    async def note_failure(self, live: L, failure: Failure) -> None:
        """:meth:`fail`, under the room's lock."""
        self.kind.record_failure(live, failure)
        self.kind.show(live)
        await self.publish(live.id, failure)

    # --- the bus (a BusListener) -----------------------------------------------------------

    def on_bus_message(self, channel: str, message: Any) -> None:
        live = self.cached.get(channel.partition(":")[2])
        if live is not None:
            self.runtime.spawn(self._received(live, message))

    async def _received(self, live: L, message: Any) -> None:
        typed = decode(message)
        async with live.lock:
            if typed is None:
                if isinstance(message, dict):
                    self.kind.on_other(live, message)
                return
            if isinstance(typed, Failure):
                if typed.version == live.version:
                    self.kind.record_failure(live, typed)
                    self.kind.show(live)
                return
            if typed.version <= live.version:
                return  # this process made that change, or has it already
            if isinstance(typed, Changed) and typed.version == live.version + 1:
                try:
                    change = self.kind.decode(typed.change)
                    self.kind.apply_change(live, change, typed.version)
                    await self.kind.applied(live, change)
                except Exception:
                    where = (self.kind.name, live.id)
                    log.exception("cannot apply a change of %s %s: reloading", *where)
                    await self.reload(live)
                    return
                self.kind.show(live)
                return
            await self.reload(live)

    def on_bus_reconnect(self) -> None:
        """Messages may have been lost: check every cached copy before it is read again, and
        at once those that someone is watching."""
        for key in list(self.cached):
            self.mark_stale(key)


class RoomKindBase(Generic[L, C]):
    """What every kind of room writes alike, to inherit with :class:`RoomKind`'s other methods:
    its rooms served by id, and its errors worded from its ``name`` (``stale_message``: what a
    request that came too late is told)."""

    name: str
    stale_message: str
    rooms: Rooms[L, C]

    async def get(self, key: str) -> L:
        """The room, from memory when the copy is current, else from the database."""
        return await self.rooms.get(key)

    def unknown(self) -> RequestError:
        return RequestError(f"unknown_{self.name}", f"there is no {self.name} with that id", 404)

    def stale(self) -> RequestError:
        return RequestError("stale", self.stale_message, 409)


class RoomHub(Protocol[L, R]):
    """What a kind's players that are not people (the AI of Hive games, the bots of Enjambre
    tables) need of the kind's hub: the runtime, its rooms, a room by id, and a commit through
    the same checks and compare-and-set as a person's."""

    runtime: Runtime
    rooms: Rooms[L, Any]

    async def get(self, key: str) -> L: ...

    async def commit(self, live: L, change: R) -> None: ...
