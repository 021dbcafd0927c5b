"""The chat's routes (``<kind>``: ``game`` or ``table``, whatever is plugged in; see docs/web.md,
"Chat"):

* ``POST   /api/chat/{kind}/{key}``                   ``{"text": …}``: say something (201)
* ``DELETE /api/chat/{kind}/{key}/messages/{id}``     a moderator deletes a message (204)
* ``POST   /api/chat/{kind}/{key}/messages/{id}/report``  report a message (204)
* ``GET    /api/chat/mutes``, ``PUT``/``DELETE /api/chat/mutes/{sender}``: an account's mutes

A player speaks with their seat token (``Authorization: Bearer <token>``) or their account's
cookie, as on the game's socket. Websocket ``/ws/chat/{kind}/{key}``: the first message is the
game's hello (``{"type": "hello", "token": …}``); the server answers ``chat`` (the channels this
socket reads and the one it writes in, its history, the account's mutes, whether a moderator),
then ``said`` and ``deleted`` as they happen, ``history`` after a bus outage, ``pong``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import Field

from panal.server.chat.chat import Chat, ChatRoom, ChatSocket, Viewer, rights
from panal.server.http.models import StrictModel
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import open_session, run_session
from panal.server.players.auth import require_account, session_account, socket_account
from panal.server.players.player_store import Account, PlayerStore
from panal.server.room.outbox import Outbox

__all__ = ["chat_router"]

SENDER = re.compile(r"^(u:[0-9]{1,12}|g:[0-9a-f]{16})$")


class SayRequest(StrictModel):
    text: str = Field(max_length=2000)


def _bearer(request: Request) -> str | None:
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or token.startswith("bot_"):
        return None  # a bot's API token is an account's, read by session_account
    if len(token) > 200:
        raise RequestError("bad_token", "this seat token does not belong here", 403)
    return token


def _viewer(
    room: ChatRoom, seats: frozenset[int], token: str | None, account: Account | None
) -> Viewer:
    if account is not None:
        seats = seats | room.account_seats(account.id)
    return Viewer(
        seats,
        account.id if account else None,
        account.name if account else None,
        token,
        room.over,
    )


def chat_router(chat: Chat, players: PlayerStore) -> APIRouter:
    router = APIRouter()

    async def request_viewer(kind: str, key: str, request: Request) -> tuple[str, Viewer]:
        room = await chat.find(kind, key)
        token = _bearer(request)
        seats = room.seats_for(token) if token else frozenset()
        if token and not seats:
            raise RequestError("bad_token", f"this seat token does not belong to this {kind}", 403)
        account = await session_account(request, players)
        return f"{kind}:{key}", _viewer(room, seats, token, account)

    async def moderator(request: Request) -> Account:
        account = await session_account(request, players)
        if account is None or not await chat.db(chat.store.is_moderator, account.id):
            raise RequestError("not_moderator", "only a moderator may do that", 403)
        return account

    @router.post("/api/chat/{kind}/{key}", status_code=201)
    async def say(kind: str, key: str, body: SayRequest, request: Request) -> dict[str, Any]:
        room, viewer = await request_viewer(kind, key, request)
        message = await chat.say(room, viewer, body.text)
        return message.to_json()

    @router.delete("/api/chat/{kind}/{key}/messages/{message_id}", status_code=204)
    async def delete(kind: str, key: str, message_id: int, request: Request) -> Response:
        account = await moderator(request)
        await chat.find(kind, key)
        await chat.delete(f"{kind}:{key}", message_id, account.id)
        return Response(status_code=204)

    @router.post("/api/chat/{kind}/{key}/messages/{message_id}/report", status_code=204)
    async def report(kind: str, key: str, message_id: int, request: Request) -> Response:
        room, viewer = await request_viewer(kind, key, request)
        sender = viewer.sender()
        if sender is None:
            raise RequestError("chat_sign_in", "sign in to report a message", 403)
        message = await chat.db(chat.store.message, room, message_id)
        if message.channel not in rights(viewer).reads:
            raise RequestError("unknown_message", "there is no such message here", 404)
        await chat.db(chat.store.report, message_id, sender.key, chat.clock())
        return Response(status_code=204)

    @router.get("/api/chat/mutes")
    async def mutes(request: Request) -> dict[str, Any]:
        account = await require_account(request)
        return {"muted": await chat.db(chat.store.mutes, account.id)}

    @router.put("/api/chat/mutes/{sender}", status_code=204)
    async def mute(sender: str, request: Request) -> Response:
        account = await require_account(request)
        if not SENDER.match(sender) or sender == f"u:{account.id}":
            raise RequestError("bad_sender", "that is nobody you can mute")
        await chat.db(chat.store.mute, account.id, sender, chat.clock())
        return Response(status_code=204)

    @router.delete("/api/chat/mutes/{sender}", status_code=204)
    async def unmute(sender: str, request: Request) -> Response:
        account = await require_account(request)
        await chat.db(chat.store.unmute, account.id, sender)
        return Response(status_code=204)

    @router.websocket("/ws/chat/{kind}/{key}")
    async def listen(websocket: WebSocket, kind: str, key: str) -> None:
        opened = await open_session(websocket, functools.partial(chat.find, kind, key), kind)
        if opened is None:
            return
        room, greeted = opened
        account = await socket_account(websocket, players)
        viewer = _viewer(room, greeted.seats, greeted.token, account)
        allowed = rights(viewer)
        sender = viewer.sender()
        welcome: dict[str, Any] = {
            "reads": sorted(allowed.reads),
            "writes": allowed.writes if sender is not None else None,
            "me": sender.key if sender is not None else None,
            "over": viewer.over,
            "max_chars": chat.limits.max_chars,
            "muted": [],
            "moderator": False,
        }
        if account is not None:
            welcome["muted"] = await chat.db(chat.store.mutes, account.id)
            welcome["moderator"] = await chat.db(chat.store.is_moderator, account.id)
        socket = ChatSocket(Outbox(websocket.send_text), allowed.reads)
        name = f"{kind}:{key}"
        await chat.open(name, socket, welcome)

        async def refuse(request: dict[str, Any]) -> None:
            raise RequestError("bad_request", "chat messages are sent with POST /api/chat/…")

        async def leave() -> None:
            await chat.close(name, socket)

        await run_session(websocket, socket.outbox, refuse, f"chat {name}", leave=leave)

    return router
