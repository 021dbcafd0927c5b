"""The notifications' HTTP API and websocket (docs/web.md, "Notifications"); all need an account.

* ``GET /api/notifications``: ``{"unread": [...], "count", "switches"}``.
* ``POST /api/notifications/read`` ``{"ids": [...] | null}``: mark read (null: all).
* ``PUT /api/notifications/switches`` ``{"switches": {kind: {channel: bool}}}``: turn some.
* ``GET /api/notifications/push-key``: ``{"key"}``, the server's VAPID public key.
* ``POST /api/notifications/push`` ``{"endpoint", "keys": {"p256dh", "auth"}}``: this browser's
  push subscription (``PushSubscription.toJSON()``); ``POST /api/notifications/push/remove``
  ``{"endpoint"}``: drop it.
* Websocket ``/ws/notifications``: the state on connect and when it changes, and each new
  ``{"type": "notice", "notice", "sound"}``.
"""

from __future__ import annotations

import base64
import binascii
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, WebSocket
from pydantic import Field

from panal.server.http.models import StrictModel
from panal.server.http.request_error import RequestError
from panal.server.notifications.notification_store import CHANNELS, KINDS
from panal.server.notifications.notifications import Notifications
from panal.server.players.auth import require_account, socket_account
from panal.server.players.player_store import Account

__all__ = ["notification_router"]

LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


class ReadRequest(StrictModel):
    ids: list[int] | None = Field(None, max_length=200)


class SwitchesRequest(StrictModel):
    switches: dict[str, dict[str, bool]] = Field(max_length=len(KINDS))


class PushKeys(StrictModel):
    p256dh: str = Field(min_length=80, max_length=200)
    auth: str = Field(min_length=16, max_length=64)


class SubscribeRequest(StrictModel):
    endpoint: str = Field(min_length=10, max_length=2000)
    keys: PushKeys
    expirationTime: float | None = None  # the browser's own name for it


class RemoveRequest(StrictModel):
    endpoint: str = Field(min_length=10, max_length=2000)


def _notifications(connection: Request | WebSocket) -> Notifications:
    notifications: Notifications = connection.app.state.notifications
    return notifications


async def _player(request: Request) -> Account:
    return await require_account(request, "to have notifications")


def _turned(switches: dict[str, dict[str, bool]]) -> dict[tuple[str, str], bool]:
    turned = {}
    for kind, channels in switches.items():
        if kind not in KINDS:
            raise RequestError("bad_switch", f"no notification kind {kind!r}", 422)
        for channel, enabled in channels.items():
            if channel not in CHANNELS:
                raise RequestError("bad_switch", f"no notification channel {channel!r}", 422)
            turned[(kind, channel)] = enabled
    return turned


def _base64url_bytes(text: str, what: str) -> int:
    try:
        return len(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError):
        raise RequestError("bad_subscription", f"{what} is not base64url", 422) from None


def _checked_endpoint(endpoint: str, allow_loopback: bool) -> str:
    """A push service's address: https (the browsers' all are); plain http only on loopback
    where the server allows it (a test's push service)."""
    parts = urlsplit(endpoint)
    loopback = parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS and allow_loopback
    if not (parts.scheme == "https" or loopback) or not parts.hostname:
        raise RequestError("bad_subscription", "a push endpoint is an https address", 422)
    return endpoint


notification_router = APIRouter()


@notification_router.get("/api/notifications")
async def get_notifications(request: Request) -> dict[str, Any]:
    account = await _player(request)
    state = await _notifications(request).state(account.id)
    state.pop("type")
    return state


@notification_router.post("/api/notifications/read")
async def read_notifications(body: ReadRequest, request: Request) -> dict[str, Any]:
    account = await _player(request)
    return {"count": await _notifications(request).mark_read(account.id, body.ids)}


@notification_router.put("/api/notifications/switches")
async def put_switches(body: SwitchesRequest, request: Request) -> dict[str, Any]:
    account = await _player(request)
    notifications = _notifications(request)
    turned = _turned(body.switches)
    switches = await notifications.runtime.db(notifications.store.set_switches, account.id, turned)
    notifications.switches_changed(account.id)
    return {"switches": switches.to_json()}


@notification_router.get("/api/notifications/push-key")
async def push_key(request: Request) -> dict[str, str]:
    return {"key": _notifications(request).pusher.public_key}


@notification_router.post("/api/notifications/push", status_code=204)
async def subscribe(body: SubscribeRequest, request: Request) -> None:
    account = await _player(request)
    notifications = _notifications(request)
    endpoint = _checked_endpoint(body.endpoint, notifications.allow_loopback_push)
    if _base64url_bytes(body.keys.p256dh, "p256dh") != 65:
        raise RequestError("bad_subscription", "p256dh is not a P-256 public key", 422)
    if _base64url_bytes(body.keys.auth, "auth") != 16:
        raise RequestError("bad_subscription", "auth is not a 16-byte secret", 422)
    store = notifications.store
    await notifications.runtime.db(
        store.subscribe, account.id, endpoint, body.keys.p256dh, body.keys.auth, time.time()
    )


@notification_router.post("/api/notifications/push/remove", status_code=204)
async def unsubscribe(body: RemoveRequest, request: Request) -> None:
    account = await _player(request)
    notifications = _notifications(request)
    await notifications.runtime.db(notifications.store.unsubscribe, account.id, body.endpoint)


@notification_router.websocket("/ws/notifications")
async def notification_socket(websocket: WebSocket) -> None:
    # Only this site's pages (another site's page must not read them with the player's cookie).
    account = await socket_account(websocket, websocket.app.state.players)
    if account is None:
        await websocket.close(code=4403)  # nothing to watch: the page does not retry
        return
    await _notifications(websocket).watch(websocket, account.id)
