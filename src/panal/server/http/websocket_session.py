"""What every websocket of the server does alike, for Hive games and Enjambre tables: take the
seat token from a first "hello" message (never from the URL, which proxies and access logs
record), read requests as bounded JSON text, hand each to its game's or table's handler, answer a
refused or failed one with an error message, answer pings, and close a socket that fell behind."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar

from fastapi import WebSocket, WebSocketDisconnect

from panal.server.http.request_error import RequestError

__all__ = [
    "HELLO_SECONDS",
    "MAX_WS_MESSAGE_CHARS",
    "Greeting",
    "Joined",
    "Outbox",
    "close_with_error",
    "error_message",
    "greet",
    "open_session",
    "pump_then_close",
    "run_session",
    "serve_requests",
    "serve_room",
    "serve_watcher",
]

log = logging.getLogger("panal.server")

MAX_WS_MESSAGE_CHARS = 4096
HELLO_SECONDS = 10.0  # a socket that has not said hello by then is closed (4408)
MAX_TOKEN_CHARS = 200


class Outbox(Protocol):
    """The server's side of one socket: messages queued for it and how it stands."""

    closed: bool
    too_slow: bool

    def post(self, text: str) -> None: ...

    def pump(self) -> Awaitable[None]: ...

    def close(self) -> None: ...


class Seated(Protocol):
    """A game or table as a socket's hello sees it: the seats a token holds."""

    def seats_for(self, token: str | None) -> frozenset[int]: ...


R = TypeVar("R", bound=Seated)


def error_message(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


async def close_with_error(websocket: WebSocket, error: RequestError, code: int) -> None:
    """Send ``error`` and close the socket with ``code`` (4400 bad hello, 4403 wrong token, 4404
    unknown game or table): the browser shows why and does not retry."""
    with contextlib.suppress(Exception):  # the client may already be gone
        await websocket.send_text(json.dumps(error.to_json()))
        await websocket.close(code=code, reason=error.message)


class Greeting(NamedTuple):
    """Who said hello: the seat token and the seats it plays; ``watch``: the spectators' view
    was asked for (no seats), and ``player``: by one of the players (not a spectator to count)."""

    token: str | None
    seats: frozenset[int]
    watch: bool = False
    player: bool = False


async def greet(
    websocket: WebSocket, seats_for: Callable[[str | None], frozenset[int]], what: str
) -> Greeting | None:
    """Read the first message, ``{"type": "hello", "token": "…"}`` (no token or ``null``: a
    spectator), and return its token with the seats ``seats_for`` gives it. A bad, missing or
    late hello, or a token that holds no seat of this ``what`` ("game", "table"), closes the
    socket with a clear error and returns None; so does a client that left.

    ``"watch": true`` asks for the spectators' view whatever the token: no seats; a token that
    holds seats then only says that the watcher is one of the players (not counted as a
    spectator), and one that holds none is no error (anyone may watch)."""
    try:
        async with asyncio.timeout(HELLO_SECONDS):
            message = await websocket.receive()
    except TimeoutError:
        error = RequestError("no_hello", f"say hello within {HELLO_SECONDS:g} s", 408)
        await close_with_error(websocket, error, 4408)
        return None
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        hello = json.loads(message.get("text") or "")
    except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
        hello = None
    token = hello.get("token") if isinstance(hello, dict) else None
    watch = hello.get("watch", False) if isinstance(hello, dict) else False
    if (
        not isinstance(hello, dict)
        or hello.get("type") != "hello"
        or (token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS))
        or not isinstance(watch, bool)
    ):
        error = RequestError(
            "bad_request", 'the first message must be {"type": "hello", "token": <seat token>}'
        )
        await close_with_error(websocket, error, 4400)
        return None
    token = token or None
    seats = seats_for(token) if token else frozenset()
    if watch:
        return Greeting(None, frozenset(), watch=True, player=bool(seats))
    if token and not seats:
        error = RequestError("bad_token", f"this seat token does not belong to this {what}", 403)
        await close_with_error(websocket, error, 4403)
        return None
    return Greeting(token, seats)


async def open_session(
    websocket: WebSocket, find: Callable[[], Awaitable[R]], what: str
) -> tuple[R, Greeting] | None:
    """Accept the socket, ``find`` its game or table (an unknown one closes it, 4404) and
    :func:`greet` it; None when the socket was closed or left."""
    await websocket.accept()
    try:
        room = await find()
    except RequestError as exc:
        await close_with_error(websocket, exc, 4404)
        return None
    greeted = await greet(websocket, room.seats_for, what)
    if greeted is None:
        return None
    return room, greeted


async def serve_requests(
    websocket: WebSocket,
    connection: Outbox,
    handle: Callable[[dict[str, Any]], Awaitable[None]],
    pump: asyncio.Task[None],
    where: str,
) -> None:
    """Read requests, answer pings and ``handle`` each other one (a JSON object) until the
    socket closes or its ``pump`` (the task that sends) has stopped; ``where`` names the game or
    table in the log."""
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
            if not isinstance(request, dict):
                raise RequestError("bad_request", "a message must be a JSON object")
            if request.get("type") == "ping":
                connection.post('{"type":"pong"}')
            else:
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


async def run_session(
    websocket: WebSocket,
    connection: Outbox,
    handle: Callable[[dict[str, Any]], Awaitable[None]],
    where: str,
    *,
    leave: Callable[[], Awaitable[None]],
    started: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """One greeted, attached socket from start to end: send its outbox in a task of its own,
    run ``started`` (what a kind does once the socket is up), serve its requests, then
    ``leave`` (detach it from its room) and wait for the sending to stop."""
    pump = asyncio.get_running_loop().create_task(
        pump_then_close(websocket, connection, connection.pump())
    )
    if started is not None:
        await started()
    try:
        await serve_requests(websocket, connection, handle, pump, where)
    finally:
        # Shielded: the leaving releases what the socket held (its presence in a room, its
        # engine's job), so it must end even when this task is cancelled (a server shutting
        # down, a client whose task is cancelled as it disconnects).
        await asyncio.shield(leave())
        with contextlib.suppress(Exception):
            await pump


async def serve_watcher(
    websocket: WebSocket,
    connection: Outbox,
    attach: Callable[[], Awaitable[None]],
    detach: Callable[[], Awaitable[None]],
) -> None:
    """A socket that only watches (the lobby, a tournament): accepted, ``attach`` (which posts
    the first state), pings answered until it closes, then ``detach``."""
    await websocket.accept()
    pump: asyncio.Future[None] = asyncio.ensure_future(connection.pump())
    try:
        await attach()
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") == '{"type":"ping"}':
                connection.post('{"type":"pong"}')
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        await asyncio.shield(detach())  # as run_session's leaving: it must end
        connection.close()
        with contextlib.suppress(Exception):
            await pump


@dataclass(frozen=True)
class Joined:
    """A socket's place in its room, as the room's kind made it: its outbox (attached to the
    room), how its requests are handled, how it leaves, and what the kind does once it is up."""

    connection: Outbox
    handle: Callable[[dict[str, Any]], Awaitable[None]]
    leave: Callable[[], Awaitable[None]]
    started: Callable[[], Awaitable[None]] | None = None


async def serve_room(
    websocket: WebSocket,
    find: Callable[[], Awaitable[R]],
    what: str,
    key: str,
    join: Callable[[R, Greeting], Awaitable[Joined]],
) -> None:
    """A game's or a table's socket, from its hello to its end: :func:`open_session` (find the
    room ``key``, greet), ``join`` (the kind's connection, attached), then :func:`run_session`."""
    opened = await open_session(websocket, find, what)
    if opened is None:
        return
    joined = await join(*opened)
    await run_session(
        websocket,
        joined.connection,
        joined.handle,
        f"{what} {key}",
        leave=joined.leave,
        started=joined.started,
    )
