"""HTTP and websocket routes of Enjambre Tácticas tables (``/api/enjambre/…``, ``/ws/tables/…``).

HTTP (JSON; errors are ``{"error": code, "detail": message}`` with a 4xx status, as for Hive):

* ``GET  /api/enjambre/config``                        the board, every rule option (from
                                                        ``panal.enjambre.Options`` itself), bots
* ``POST /api/enjambre/tables``                        a new table → id, the host's token, one
                                                        invitation per open seat; ``"rated":
                                                        true``: signed in, online, no bots
* ``POST /api/enjambre/tables/{id}/join``              take an open seat with its invitation
                                                        (as the signed-in account, if any)
* ``POST /api/enjambre/tables/{id}/seats/{n}/invite``  the host: a new invitation for a seat
* ``POST /api/enjambre/tables/{id}/seats/mine``        signed in: a token for the account's
                                                        seat (a tournament's table)
* ``GET  /api/enjambre/tables/{id}``                   the table as the token's seat sees it
                                                        (``Authorization: Bearer``; none: public)
* ``GET  /api/enjambre/tables/{id}/replay``            a finished game, step by step, by a seat
                                                        or with every number
* ``GET  /api/enjambre/tables``                        finished tables, newest first

Websocket ``/ws/tables/{id}``: the first message is ``{"type": "hello", "token": "…"}`` (no
token: a spectator), so the seat token never appears in a URL. Then the server sends ``state``
after every change, ``error`` for a refused request, ``pong``; the browser sends ``place``,
``move``, ``scout``, ``displace``, ``end``, ``look`` (pass-the-screen), ``start`` (the host),
``sync``, ``ping``.
"""

from __future__ import annotations

import functools
import json
import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi.responses import Response
from pydantic import Field

from panal.enjambre.board import default_board
from panal.enjambre.views import board_data, option_fields
from panal.server.enjambre_tables.bots import BOT_LEVELS
from panal.server.enjambre_tables.live import LiveTable, TableConnection
from panal.server.enjambre_tables.table_store import TableRow
from panal.server.enjambre_tables.tables import MAX_GAMES, MODES, TableHub
from panal.server.enjambre_tables.views import http_state, state_for
from panal.server.http.clients import client_of
from panal.server.http.models import PageLimit, PageOffset, StrictModel
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import Greeting, Joined, serve_room
from panal.server.players.auth import require_account, session_account
from panal.server.players.player_store import PlayerStore
from panal.server.room.core import Reload
from panal.server.room.tokens import hash_token, new_token

__all__ = ["table_router"]

log = logging.getLogger("panal.server")


class SeatRequest(StrictModel):
    kind: Literal["person", "bot"]
    bot: str | None = Field(None, max_length=16)
    name: str | None = Field(None, max_length=40)


class NewTableRequest(StrictModel):
    players: int = Field(ge=2, le=6)
    mode: Literal["online", "local"] = "online"
    options: dict[str, int | bool | str] = Field(default_factory=dict, max_length=64)
    games: int = Field(1, ge=1, le=MAX_GAMES)
    seats: list[SeatRequest] = Field(min_length=2, max_length=6)
    replace_after: float | None = Field(None, ge=0, le=7 * 24 * 3600)
    name: str | None = Field(None, max_length=40)
    rated: bool = False


class JoinTableRequest(StrictModel):
    seat: int = Field(ge=0, le=5)
    invite: str = Field(min_length=1, max_length=64)
    name: str | None = Field(None, max_length=40)


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RequestError("bad_token", "use 'Authorization: Bearer <seat token>'", 401)
    return token.strip()[:200]


def table_router(tables: TableHub, players: PlayerStore) -> APIRouter:
    router = APIRouter()
    config_body = json.dumps(
        {
            "board": board_data(default_board()),
            "options": option_fields(),
            "bots": list(BOT_LEVELS),
            "modes": list(MODES),
            "players": [2, 3, 4, 5, 6],
            "max_games": MAX_GAMES,
            "min_replace_after": tables.limits.min_replace_after,
        },
        ensure_ascii=False,
    ).encode()

    @router.get("/api/enjambre/config")
    async def enjambre_config() -> Response:
        return Response(config_body, media_type="application/json")

    @router.post("/api/enjambre/tables", status_code=201)
    async def new_table(request: NewTableRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        client = client_of(http, account.id if account else None)
        _, secrets_out = await tables.create(request.model_dump(), account, client)
        return secrets_out

    @router.post("/api/enjambre/tables/{table_id}/join")
    async def join_table(table_id: str, request: JoinTableRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        return await tables.join(table_id, request.seat, request.invite, request.name, account)

    @router.post("/api/enjambre/tables/{table_id}/seats/mine")
    async def my_seat(table_id: str, http: Request) -> dict[str, Any]:
        """The signed-in account's seat at a table seated by account (a tournament's): a
        token for it, as an invitation gives one."""
        account = await require_account(http, "to take your seat")
        live = await tables.get(table_id)
        token = new_token()
        seat = await tables.runtime.db(
            tables.store.account_seat, table_id, account.id, hash_token(token)
        )
        if seat is None:
            raise RequestError("no_seat", "you have no seat at this table", 403)
        async with live.lock:
            await tables.rooms.reload(live)
        await tables.rooms.publish(table_id, Reload(live.version))
        return {"id": table_id, "seat": seat, "token": token}

    @router.post("/api/enjambre/tables/{table_id}/seats/{seat}/invite")
    async def reissue_invite(
        table_id: str,
        seat: int,
        authorization: Annotated[str | None, Header(max_length=300)] = None,
    ) -> dict[str, Any]:
        return await tables.reissue_invite(table_id, seat, _token(authorization))

    @router.get("/api/enjambre/tables/{table_id}")
    async def table_state(
        table_id: str, authorization: Annotated[str | None, Header(max_length=300)] = None
    ) -> Response:
        live = await tables.get(table_id)
        token = _token(authorization)
        if token and not live.seats_for(token):
            raise RequestError("bad_token", "this seat token does not belong to this table", 403)
        body = json.dumps(http_state(live, token), separators=(",", ":"))
        return Response(body, media_type="application/json")

    @router.get("/api/enjambre/tables/{table_id}/replay")
    async def replay(
        table_id: str,
        game: Annotated[int, Query(ge=0, le=MAX_GAMES)] = 0,
        step: Annotated[int, Query(ge=0, le=1_000_000)] = 1,
        view: Annotated[str, Query(max_length=3)] = "all",
    ) -> dict[str, Any]:
        return await tables.replays.replay(await tables.get(table_id), game, step, view)

    @router.get("/api/enjambre/tables")
    async def finished_tables(limit: PageLimit = 50, offset: PageOffset = 0) -> dict[str, Any]:
        total, rows = await tables.runtime.db(tables.store.finished, limit, offset)
        return {"total": total, "tables": [_finished(row) for row in rows]}

    @router.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        async def join(live: LiveTable, greeted: Greeting) -> Joined:
            connection = TableConnection(
                websocket.send_text,
                greeted.seats,
                live.is_host(greeted.token),
                lambda c: state_for(live, c),
            )
            await tables.attach(live, connection)
            handle = functools.partial(tables.handle, live, connection)
            return Joined(connection, handle, functools.partial(tables.detach, live, connection))

        await serve_room(
            websocket, functools.partial(tables.get, table_id), "table", table_id, join
        )

    return router


def _finished(row: TableRow) -> dict[str, Any]:
    """A finished table as the list of them shows it."""
    return {
        "id": row.id,
        "players": row.players,
        "games": row.games,
        "mode": row.mode,
        "updated_at": row.updated_at,
    }
