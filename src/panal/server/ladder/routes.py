"""The ladder's routes: a bot joins (and, by joining again, says it is still there) or leaves;
anyone reads the ranking and downloads the games.

* ``POST /api/ladder/join`` (a bot's token) → ``{"joined": true, "clock", "game_type"}``;
* ``DELETE /api/ladder/join`` (a bot's token) → 204;
* ``GET /api/ladder`` → ``{"method", "clock", "game_type", "games", "standings", "recent"}``;
* ``GET /api/ladder/games.pgn`` → every finished ladder game, PGN.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

from panal.server.http.request_error import RequestError
from panal.server.ladder.ladder import Ladder
from panal.server.players.auth import session_account
from panal.server.players.player_store import Account

__all__ = ["ladder_router"]

ladder_router = APIRouter()


def _ladder(request: Request) -> Ladder:
    ladder: Ladder = request.app.state.ladder
    return ladder


async def _bot(request: Request) -> Account:
    account = await session_account(request, request.app.state.players)
    if account is None or not account.bot:
        raise RequestError("bad_token", "only a bot joins the ladder (its API token)", 401)
    return account


@ladder_router.post("/api/ladder/join")
async def join(request: Request) -> dict[str, Any]:
    account = await _bot(request)
    ladder = _ladder(request)
    await ladder.runtime.db(ladder.store.join, account.id, time.time())
    return {
        "joined": True,
        "clock": ladder.settings.control.shown(),
        "game_type": ladder.settings.game_type,
    }


@ladder_router.delete("/api/ladder/join", status_code=204)
async def leave(request: Request) -> Response:
    account = await _bot(request)
    ladder = _ladder(request)
    await ladder.runtime.db(ladder.store.leave, account.id)
    return Response(status_code=204)


@ladder_router.get("/api/ladder")
async def standings(request: Request) -> dict[str, Any]:
    ladder = _ladder(request)
    return await ladder.runtime.db(ladder.standings)


@ladder_router.get("/api/ladder/games.pgn")
async def records(request: Request) -> PlainTextResponse:
    ladder = _ladder(request)
    text = await ladder.runtime.db(ladder.records)
    return PlainTextResponse(
        text, headers={"Content-Disposition": 'attachment; filename="panal-ladder.pgn"'}
    )
