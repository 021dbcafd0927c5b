"""What every websocket of the server does alike, for Hive games and Enjambre tables: read
requests as bounded JSON text, hand each to its game's or table's handler, answer a refused or
failed one with an error message, and close a socket that fell behind."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from fastapi import WebSocket, WebSocketDisconnect

from panal.server.hub import RequestError

__all__ = ["MAX_WS_MESSAGE_CHARS", "Outbox", "error_message", "pump_then_close", "serve_requests"]

log = logging.getLogger("panal.server")

MAX_WS_MESSAGE_CHARS = 4096


class Outbox(Protocol):
    """The server's side of one socket: messages queued for it and how it stands."""

    closed: bool
    too_slow: bool

    def post(self, text: str) -> None: ...


def error_message(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


async def serve_requests(
    websocket: WebSocket,
    connection: Outbox,
    handle: Callable[[Any], Awaitable[None]],
    pump: asyncio.Task[None],
    where: str,
) -> None:
    """Read requests and ``handle`` each until the socket closes or its ``pump`` (the task that
    sends) has stopped; ``where`` names the game or table in the log."""
    while not connection.closed:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            connection.post(error_message("bad_request", "send JSON text messages, not binary"))
            continue
        if len(text) > MAX_WS_MESSAGE_CHARS:
            connection.post(
                error_message("too_large", f"messages are limited to {MAX_WS_MESSAGE_CHARS}")
            )
            continue
        try:
            request = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
            connection.post(error_message("bad_json", "that message is not valid JSON"))
            continue
        try:
            await handle(request)
        except RequestError as exc:
            body = exc.to_json()
            if isinstance(request, dict) and isinstance(request.get("id"), (int, str)):
                body["id"] = request["id"]
            connection.post(json.dumps(body, ensure_ascii=False))
        except Exception:  # a bug must not close the game for everyone: report and go on
            log.exception("request %r in %s", text[:200], where)
            connection.post(
                error_message("server_error", "the server could not handle that request")
            )
        if pump.done():
            return


async def pump_then_close(
    websocket: WebSocket, connection: Outbox, pumping: Awaitable[None]
) -> None:
    """Run the connection's sending; a connection dropped for falling behind is closed (1013:
    try again later), and the browser reconnects and resumes."""
    await pumping
    if connection.too_slow:
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="too slow: reconnect")
