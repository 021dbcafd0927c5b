"""Web Push (RFC 8030), encrypted as RFC 8291 says (``aes128gcm``, RFC 8188) and signed with
the server's VAPID key (RFC 8292), by pywebpush and py-vapid.

The key pair is made at the first start and kept in the database (``server_keys``), so every
process, and every restart, signs with the same key the browsers subscribed with. The operator
names a contact for the push services in ``PANAL_VAPID_SUBJECT`` (a ``mailto:`` or ``https:``
address; some services refuse a push without a real one).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush_async

from panal.server.notifications.notification_store import NotificationStore, PushSubscription

__all__ = ["PUSH_TTL_SECONDS", "Pusher", "vapid_subject"]

log = logging.getLogger("panal.server")
VAPID_KEY = "vapid"
DEFAULT_SUBJECT = "mailto:webmaster@panal.invalid"
PUSH_TTL_SECONDS = 24 * 3600  # a push not delivered within a day is stale news
PUSH_TIMEOUT_SECONDS = 10.0
GONE = (404, 410)  # the push service says the subscription no longer exists


def vapid_subject() -> str:
    """The contact the push services are given (``PANAL_VAPID_SUBJECT``)."""
    return os.environ.get("PANAL_VAPID_SUBJECT") or DEFAULT_SUBJECT


def _new_private_pem() -> str:
    vapid = Vapid02()
    vapid.generate_keys()
    return str(vapid.private_pem().decode("ascii"))


class Pusher:
    """Sends a player's browsers a push message; drops the subscriptions that are gone."""

    def __init__(self, store: NotificationStore, db: Callable[..., Awaitable[Any]]) -> None:
        self.store = store
        self.db = db
        self._vapid: Vapid02 | None = None
        self._public_key = ""

    async def start(self, now: float) -> None:
        """Read the server's key pair, made first if there is none."""
        pem = await self.db(self.store.server_key, VAPID_KEY, _new_private_pem, now)
        self._vapid = Vapid02.from_pem(pem.encode("ascii"))
        point = self._vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self._public_key = base64.urlsafe_b64encode(point).rstrip(b"=").decode("ascii")

    @property
    def public_key(self) -> str:
        """The application server key a browser subscribes with (base64url, uncompressed
        P-256 point)."""
        return self._public_key

    async def send(self, user_id: int, message: dict[str, Any]) -> int:
        """Push ``message`` (JSON) to each of the player's subscriptions; how many took it."""
        subscriptions = await self.db(self.store.subscriptions, user_id)
        if not subscriptions or self._vapid is None:
            return 0
        text = json.dumps(message, separators=(",", ":"))
        sent = await asyncio.gather(*(self._send_one(s, text) for s in subscriptions))
        return sum(sent)

    async def _send_one(self, subscription: PushSubscription, text: str) -> bool:
        try:
            await webpush_async(
                subscription.info(),
                data=text,
                vapid_private_key=self._vapid,
                vapid_claims={"sub": vapid_subject()},  # a new dict: pywebpush adds to it
                ttl=PUSH_TTL_SECONDS,
                timeout=PUSH_TIMEOUT_SECONDS,
            )
        except WebPushException as exc:
            status = exc.status_code
            if status in GONE:
                await self.db(self.store.drop_subscription, subscription.id)
            else:
                log.warning("push to %s failed: %s", _host(subscription.endpoint), status)
            return False
        except Exception as exc:  # an unreachable push service must not break the caller
            log.warning("push to %s failed: %s", _host(subscription.endpoint), exc)
            return False
        return True


def _host(endpoint: str) -> str:
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else endpoint
