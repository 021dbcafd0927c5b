"""Bots through the API (docs/web.md, "Bots and the engine ladder").

A person's account makes bots and holds their tokens:

* ``POST /api/bots`` ``{"name", "limits"?}`` → 201 ``{"bot", "token"}`` (the token is shown once);
* ``GET /api/bots`` → the person's bots;
* ``POST /api/bots/{name}/token`` → a new token (the old one stops working);
* ``DELETE /api/bots/{name}/token`` → 204, the bot can no longer sign in;
* ``PUT /api/bots/{name}/limits`` ``{"speeds", "game_types", "rated", "max_games"}``.

A bot signs in with ``Authorization: Bearer bot_…`` (HTTP and websockets) and then is its own
account everywhere (it accepts challenges and plays as any account does); what only a bot needs:

* ``GET /api/bot`` → its name, owner, limits and engine;
* ``PUT /api/bot/engine`` ``{"name", "version", "options"}``: what its engine says of itself;
* ``GET /api/bot/games`` → its unfinished games (after a restart it resumes them);
* ``GET /api/bot/challenges`` → the open challenges its limits allow.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from panal.server.bots.bot_store import BotInfo, BotLimits, BotStore
from panal.server.http.models import StrictModel
from panal.server.http.request_error import RequestError
from panal.server.lobby.challenge_store import ChallengeStore
from panal.server.players.accounts import AccountError, check_name
from panal.server.players.auth import require_account, session_account
from panal.server.players.player_store import Account, NameTaken, PlayerStore

__all__ = ["bot_router"]

MAX_BOTS_PER_OWNER = 10
UNFINISHED_LIMIT = 50


class LimitsRequest(StrictModel):
    speeds: list[str] = Field(default_factory=lambda: list(BotLimits().speeds), max_length=8)
    game_types: list[str] = Field(default_factory=lambda: ["Base"], max_length=8)
    rated: str = Field("any", max_length=8)
    max_games: int = 2


class NewBotRequest(StrictModel):
    name: str = Field(max_length=40)
    limits: LimitsRequest | None = None


class EngineRequest(StrictModel):
    name: str = Field(max_length=120)
    version: str = Field("", max_length=120)
    options: dict[str, str] = Field(default_factory=dict, max_length=64)


def _limits(body: LimitsRequest | None) -> BotLimits:
    if body is None:
        return BotLimits()
    try:
        return BotLimits.from_json(body.model_dump())
    except ValueError as exc:
        raise RequestError("bad_limits", str(exc), 422) from None


def _players(request: Request) -> PlayerStore:
    players: PlayerStore = request.app.state.players
    return players


def _bots(request: Request) -> BotStore:
    return BotStore(_players(request).engine)


async def _person(request: Request) -> Account:
    """The signed-in person (a bot cannot own or manage bots)."""
    account = await require_account(request)
    if account.bot:
        raise RequestError("not_for_bots", "a bot cannot manage bots", 403)
    return account


async def _bot(request: Request) -> Account:
    account = await session_account(request, _players(request))
    if account is None or not account.bot:
        raise RequestError("bad_token", "use 'Authorization: Bearer <bot token>'", 401)
    return account


async def _owned(request: Request, name: str) -> tuple[BotStore, BotInfo]:
    owner = await _person(request)
    bots = _bots(request)
    bot = await asyncio.to_thread(bots.owned_bot, owner.id, name)
    if bot is None:
        raise RequestError("unknown_bot", "you have no bot of that name", 404)
    return bots, bot


bot_router = APIRouter()


@bot_router.post("/api/bots", status_code=201)
async def create_bot(body: NewBotRequest, request: Request) -> dict[str, Any]:
    owner = await _person(request)
    try:
        name = check_name(body.name)
    except AccountError as exc:
        raise RequestError(exc.code, str(exc), 422) from None
    limits = _limits(body.limits)
    bots = _bots(request)
    if len(await asyncio.to_thread(bots.bots_of, owner.id)) >= MAX_BOTS_PER_OWNER:
        raise RequestError("too_many_bots", f"at most {MAX_BOTS_PER_OWNER} bots each", 429)
    try:
        bot, token = await asyncio.to_thread(bots.create_bot, owner.id, name, limits)
    except NameTaken:
        raise RequestError("name_taken", "that name is taken", 409) from None
    return {"bot": bot.to_json(), "token": token}


@bot_router.get("/api/bots")
async def list_bots(request: Request) -> dict[str, Any]:
    owner = await _person(request)
    bots = await asyncio.to_thread(_bots(request).bots_of, owner.id)
    return {"bots": [b.to_json() for b in bots]}


@bot_router.post("/api/bots/{name}/token")
async def new_token(name: str, request: Request) -> dict[str, Any]:
    bots, bot = await _owned(request, name)
    return {"token": await asyncio.to_thread(bots.new_token, bot.id)}


@bot_router.delete("/api/bots/{name}/token", status_code=204)
async def revoke_token(name: str, request: Request) -> Response:
    bots, bot = await _owned(request, name)
    await asyncio.to_thread(bots.revoke_token, bot.id)
    return Response(status_code=204)


@bot_router.put("/api/bots/{name}/limits")
async def set_limits(name: str, body: LimitsRequest, request: Request) -> dict[str, Any]:
    bots, bot = await _owned(request, name)
    limits = _limits(body)
    await asyncio.to_thread(bots.set_limits, bot.id, limits)
    return {"limits": limits.to_json()}


@bot_router.get("/api/bot")
async def whoami(request: Request) -> dict[str, Any]:
    account = await _bot(request)
    bot = await asyncio.to_thread(_bots(request).bot, account.id)
    assert bot is not None
    owner = await asyncio.to_thread(_players(request).names, [bot.owner_id])
    return {**bot.to_json(), "owner": owner.get(bot.owner_id)}


@bot_router.put("/api/bot/engine")
async def report_engine(body: EngineRequest, request: Request) -> dict[str, Any]:
    account = await _bot(request)
    engine = body.model_dump()
    await asyncio.to_thread(_bots(request).set_engine, account.id, engine)
    return {"engine": engine}


@bot_router.get("/api/bot/games")
async def unfinished_games(request: Request) -> dict[str, Any]:
    account = await _bot(request)
    rows = await asyncio.to_thread(
        _players(request).games_of, account.id, finished=False, limit=UNFINISHED_LIMIT
    )
    return {"games": [row.id for row in rows]}


@bot_router.get("/api/bot/challenges")
async def allowed_challenges(request: Request) -> dict[str, Any]:
    account = await _bot(request)
    bot = await asyncio.to_thread(_bots(request).bot, account.id)
    assert bot is not None
    challenges = await asyncio.to_thread(
        ChallengeStore(_players(request)).open_challenges, time.time()
    )
    allowed = [
        c.to_json()
        for c in challenges
        if c.creator_id != account.id and bot.limits.allows(c.game_type, c.time_control, c.rated)
    ]
    return {"challenges": allowed, "max_games": bot.limits.max_games}
