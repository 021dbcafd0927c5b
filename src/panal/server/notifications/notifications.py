"""Notifications: what a player is told wherever they are on the site, and on their phone.

One call publishes a notice to a player (:func:`notify`, or :meth:`Notifications.publish`):
it is kept (a page opened later shows it, unread), sent live to every page the player has open
in any process (the bus's channel ``notify:<account>``, which a process subscribes while it
holds a socket of that account) and pushed to their browsers by Web Push (:mod:`.push`), each
as the player's switches say (:class:`~.notification_store.Switches`).

Nothing here knows a game: a concern says what happened (a kind, the page it leads to, who did
it, a few words of detail) and the page and the service worker put it into the reader's words.
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from typing import Any

from fastapi import WebSocket

from panal.server.http.websocket_session import serve_watcher
from panal.server.notifications.notification_store import (
    CHANNELS,
    KINDS,
    Notice,
    NotificationStore,
)
from panal.server.notifications.push import Pusher
from panal.server.room.outbox import Outbox
from panal.server.runtime.runtime import Runtime

__all__ = ["CHANNEL", "Notifications", "notify"]

log = logging.getLogger("panal.server")
CHANNEL = "notify"  # the bus's channels: notify:<account id>
MAX_DETAIL_CHARS = 200  # a detail is a name or a number, never a text to carry

#: Each runtime's notifications, so that any concern that holds the runtime (every hub does)
#: publishes with one call and no new constructor argument.
_BY_RUNTIME: weakref.WeakKeyDictionary[Runtime, Notifications] = weakref.WeakKeyDictionary()


def notify(
    runtime: Runtime,
    user_id: int | None,
    kind: str,
    *,
    url: str,
    by: int | None = None,
    **details: Any,
) -> None:
    """Tell account ``user_id`` (None: a guest, who cannot be told) that ``kind`` happened;
    ``url``: the page it leads to; ``by``: the account that did it (its name is shown);
    ``details``: short JSON values the page's words use (a round's number). Runs in the
    background: the caller's change is never delayed nor failed by it. Nothing happens in a
    process without notifications (tests of other concerns)."""
    notifications = _BY_RUNTIME.get(runtime)
    if notifications is not None and user_id is not None:
        runtime.spawn(notifications.publish(user_id, kind, url=url, by=by, **details))


class Watcher(Outbox):
    """One page's socket on its player's notifications."""

    def __init__(self, websocket: WebSocket, user_id: int) -> None:
        super().__init__(websocket.send_text)
        self.user_id = user_id


class Notifications:
    """This process's part: publishing, the pages' sockets, the bus."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.store = NotificationStore(runtime.store.engine)
        self.pusher = Pusher(self.store, runtime.db)
        self.watchers: dict[int, set[Watcher]] = {}
        #: Accept push subscriptions at http://127.0.0.1 (a test's push service), not only https.
        self.allow_loopback_push = False
        runtime.listen(CHANNEL, self)
        runtime.on_start(self.start)
        _BY_RUNTIME[runtime] = self

    async def start(self) -> None:
        await self.pusher.start(time.time())

    @staticmethod
    def channel(user_id: int) -> str:
        return f"{CHANNEL}:{user_id}"

    # --- publishing --------------------------------------------------------------------------

    async def publish(
        self, user_id: int, kind: str, *, url: str, by: int | None = None, **details: Any
    ) -> Notice | None:
        """Store, show and push a notice as the player's switches say; the stored notice (None:
        the player shows none on the page). Raises ValueError for a kind or detail that is not
        one (a bug in the caller)."""
        if kind not in KINDS:
            raise ValueError(f"no notification kind {kind!r}; expected one of {KINDS}")
        for name, value in details.items():
            if (
                not isinstance(value, str | int | float | bool)
                or len(str(value)) > MAX_DETAIL_CHARS
            ):
                raise ValueError(f"detail {name!r} must be a short JSON value")
        switches = await self.runtime.db(self.store.switches, user_id)
        page, sound, push = (switches.on(kind, channel) for channel in CHANNELS)
        if not (page or push):
            return None
        bot, language, by_name = await self.runtime.db(self.store.who, user_id, by)
        if bot:
            return None
        data: dict[str, Any] = {"url": url, **details}
        if by_name is not None:
            data["by"] = by_name
        notice = None
        if page:
            notice = await self.runtime.db(self.store.add, user_id, kind, data, time.time())
            message = {"op": "notice", "notice": notice.to_json(), "sound": sound}
            self.runtime.announce(self.channel(user_id), message)
        if push:
            pushed: dict[str, Any] = {"kind": kind, "data": data, "lang": language or "en"}
            if notice is not None:
                pushed["id"] = notice.id
            await self.pusher.send(user_id, pushed)
        return notice

    async def mark_read(self, user_id: int, ids: list[int] | None) -> int:
        """Mark notices read (None: all of them); every open page of the player is told."""
        count = await self.runtime.db(self.store.mark_read, user_id, ids, time.time())
        if count:
            self.runtime.announce(self.channel(user_id), {"op": "read"})
        return count

    async def state(self, user_id: int) -> dict[str, Any]:
        """What a page shows: the newest unread notices, how many are unread, the switches."""
        notices, count = await self.runtime.db(self.store.unread, user_id)
        switches = await self.runtime.db(self.store.switches, user_id)
        return {
            "type": "notifications",
            "unread": [notice.to_json() for notice in notices],
            "count": count,
            "switches": switches.to_json(),
        }

    def switches_changed(self, user_id: int) -> None:
        self.runtime.announce(self.channel(user_id), {"op": "switches"})

    # --- the bus (a BusListener) -------------------------------------------------------------

    def on_bus_message(self, channel: str, message: Any) -> None:
        try:
            user_id = int(channel.partition(":")[2])
        except ValueError:
            return
        watchers = self.watchers.get(user_id)
        if not watchers or not isinstance(message, dict):
            return
        if message.get("op") == "notice":
            text = json.dumps(
                {"type": "notice", "notice": message.get("notice"), "sound": message.get("sound")},
                separators=(",", ":"),
            )
            for watcher in list(watchers):
                watcher.post(text)
        self.runtime.spawn(self._refresh(user_id))  # the count, the list, the switches

    def on_bus_reconnect(self) -> None:
        for user_id in list(self.watchers):
            self.runtime.spawn(self._refresh(user_id))

    async def _refresh(self, user_id: int) -> None:
        watchers = self.watchers.get(user_id)
        if not watchers:
            return
        text = json.dumps(await self.state(user_id), separators=(",", ":"))
        for watcher in list(watchers):
            watcher.post(text)

    # --- the pages' sockets ------------------------------------------------------------------

    async def watch(self, websocket: WebSocket, user_id: int) -> None:
        watcher = Watcher(websocket, user_id)

        async def attach() -> None:
            watchers = self.watchers.setdefault(user_id, set())
            if not watchers:
                await self.runtime.bus.subscribe(self.channel(user_id))
            watchers.add(watcher)
            watcher.post(json.dumps(await self.state(user_id), separators=(",", ":")))

        async def detach() -> None:
            watchers = self.watchers.get(user_id, set())
            watchers.discard(watcher)
            if not watchers and self.watchers.pop(user_id, None) is not None:
                await self.runtime.bus.unsubscribe(self.channel(user_id))

        await serve_watcher(websocket, watcher, attach, detach)
