"""The chat of each game and each table: who may read and write which channel, the process's
chat sockets, and live delivery across processes.

A kind of room (Hive games, Enjambre tables) *plugs in* a :class:`ChatPlace` under its name
(``chat.plug("game", …)``); the chat knows no kind, and the kinds know neither the chat's
insides nor each other. A place answers one question: for a room key, the room as the chat
sees it (:class:`ChatRoom`: the seats a token or an account holds, whether play is over).

**Who reads and writes what** (:func:`rights`), as lichess does:

* a room's *players* talk in ``players``; its *spectators* in ``spectators``;
* players do not read the spectators' chat while the game is on (no advice from the crowd),
  and read it once the game (a table: its match) is over;
* spectators never read the players' chat: it is the opponents' own conversation, where a
  "good luck" or a "sorry, misclick" is said to one person, not performed for an audience;
* a spectator writes only when signed in: a guest who watches has nothing that lasts (a reload
  is a new guest), so mutes, reports and silences could not hold them. A guest who *plays*
  speaks with their seat: the seat token identifies them for the whole game.

**Live delivery**: a message is stored (:class:`ChatStore`), then :meth:`Runtime.announce`
delivers it to this process's sockets and publishes it on the bus channel ``chat:<room>``,
which every process with a socket on the room is subscribed to. Pub/sub is at most once: after
a bus outage every socket gets its channels' history again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from panal.server.chat.chat_store import (
    ChatLimits,
    ChatMessage,
    ChatStore,
    Sender,
    check_text,
)
from panal.server.http.request_error import RequestError
from panal.server.room.outbox import Outbox
from panal.server.runtime.runtime import Runtime

__all__ = ["Chat", "ChatPlace", "ChatRoom", "ChatSocket", "Rights", "Viewer", "rights"]


class ChatRoom(Protocol):
    """A game or a table as the chat sees it."""

    def seats_for(self, token: str | None) -> frozenset[int]:
        """The seats a seat token holds."""
        ...

    def account_seats(self, user_id: int) -> frozenset[int]:
        """The seats a signed-in account holds."""
        ...

    @property
    def over(self) -> bool:
        """Whether play is over (the game finished; the table's match ended)."""
        ...


class ChatPlace(Protocol):
    """A kind of room, plugged into the chat."""

    async def find(self, key: str) -> ChatRoom:
        """The room ``key`` (raises the kind's ``RequestError`` when there is none)."""
        ...


@dataclass(frozen=True)
class Viewer:
    """Someone on a room's chat: the seats they hold (none: a spectator), their account."""

    seats: frozenset[int]
    user_id: int | None
    name: str | None
    token: str | None
    over: bool

    @property
    def player(self) -> bool:
        return bool(self.seats)

    def sender(self) -> Sender | None:
        """Who this viewer speaks as (None: a guest spectator, who has no lasting name)."""
        if self.user_id is not None and self.name is not None:
            return Sender.account(self.user_id, self.name)
        if self.seats and self.token:
            return Sender.guest(self.token, min(self.seats))
        return None


@dataclass(frozen=True)
class Rights:
    reads: frozenset[str]
    writes: str | None  # the channel this viewer writes in, if any


def rights(viewer: Viewer) -> Rights:
    """What a viewer may read and write (see the module's docstring for why)."""
    if viewer.player:
        reads = {"players", "spectators"} if viewer.over else {"players"}
        return Rights(frozenset(reads), "players")
    return Rights(frozenset({"spectators"}), "spectators" if viewer.user_id is not None else None)


@dataclass(eq=False)
class ChatSocket:
    """One page's chat socket: its outbox and the channels it reads."""

    outbox: Outbox
    reads: frozenset[str]


@dataclass
class _Listeners:
    sockets: set[ChatSocket] = field(default_factory=set)


class Chat:
    """The process's chat: places plugged in, sockets by room, the store, the bus."""

    name = "chat"

    def __init__(
        self,
        runtime: Runtime,
        limits: ChatLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.runtime = runtime
        self.limits = limits or ChatLimits()
        self.store = ChatStore(runtime.store.engine, self.limits)
        self.clock = clock
        self.places: dict[str, ChatPlace] = {}
        self.rooms: dict[str, _Listeners] = {}
        runtime.listen(self.name, self)

    def plug(self, kind: str, place: ChatPlace) -> None:
        """Give the rooms of ``kind`` a chat (``/api/chat/<kind>/<key>``)."""
        self.places[kind] = place

    async def find(self, kind: str, key: str) -> ChatRoom:
        place = self.places.get(kind)
        if place is None:
            raise RequestError("unknown_chat", f"there is no chat for {kind!r}", 404)
        return await place.find(key)

    def db(self, function: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return self.runtime.db(function, *args)

    # --- writing ---------------------------------------------------------------------------

    async def say(self, room: str, viewer: Viewer, text: str) -> ChatMessage:
        """Post a message for ``viewer`` in the channel they write in, and deliver it."""
        writes = rights(viewer).writes
        sender = viewer.sender()
        if writes is None or sender is None:
            raise RequestError("chat_sign_in", "sign in to chat as a spectator", 403)
        cleaned = check_text(text, self.limits)
        message: ChatMessage = await self.db(
            self.store.post, room, writes, sender, cleaned, self.clock()
        )
        self.runtime.announce(self.channel(room), {"op": "said", **message.to_json()})
        return message

    async def delete(self, room: str, message_id: int, moderator: int) -> None:
        """A moderator deletes a message: it disappears live for everyone."""
        deleted = await self.db(self.store.delete, room, message_id, moderator, self.clock())
        if not deleted:
            raise RequestError("unknown_message", "there is no such message here", 404)
        self.runtime.announce(self.channel(room), {"op": "deleted", "id": message_id})

    # --- reading ---------------------------------------------------------------------------

    def channel(self, room: str) -> str:
        return f"{self.name}:{room}"

    async def open(self, room: str, socket: ChatSocket, welcome: dict[str, Any]) -> None:
        """Attach a socket to a room (subscribed first, so nothing said meanwhile is missed)
        and send it ``welcome`` with its channels' history."""
        listeners = self.rooms.setdefault(room, _Listeners())
        first = not listeners.sockets
        listeners.sockets.add(socket)
        if first:
            await self.runtime.bus.subscribe(self.channel(room))
        messages = await self.db(self.store.history, room, socket.reads)
        history = [m.to_json() for m in messages]
        socket.outbox.post(json.dumps({**welcome, "type": "chat", "messages": history}))

    async def close(self, room: str, socket: ChatSocket) -> None:
        listeners = self.rooms.get(room)
        if listeners is None:
            return
        listeners.sockets.discard(socket)
        if not listeners.sockets:
            del self.rooms[room]
            await self.runtime.bus.unsubscribe(self.channel(room))

    # --- the bus (a BusListener) -----------------------------------------------------------

    def on_bus_message(self, channel: str, message: Any) -> None:
        listeners = self.rooms.get(channel.partition(":")[2])
        if listeners is None or not isinstance(message, dict):
            return
        if message.get("op") == "said":
            text = json.dumps({"type": "said", "message": _said(message)})
            for socket in listeners.sockets:
                if message.get("channel") in socket.reads:
                    socket.outbox.post(text)
        elif message.get("op") == "deleted":
            text = json.dumps({"type": "deleted", "id": message.get("id")})
            for socket in listeners.sockets:
                socket.outbox.post(text)

    def on_bus_reconnect(self) -> None:
        """Messages may have been lost: send every socket its channels' history again."""
        for room, listeners in list(self.rooms.items()):
            for socket in list(listeners.sockets):
                self.runtime.spawn(self._resend(room, socket))

    async def _resend(self, room: str, socket: ChatSocket) -> None:
        messages = await self.db(self.store.history, room, socket.reads)
        body = {"type": "history", "messages": [m.to_json() for m in messages]}
        socket.outbox.post(json.dumps(body))


def _said(message: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "channel", "sender", "author", "seat", "text", "at")
    return {key: message.get(key) for key in keys}
