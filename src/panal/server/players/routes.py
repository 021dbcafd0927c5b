"""HTTP API of accounts and profiles.

* ``POST /api/account/signup``  ``{"name", "password", "language"?, "look"?, "claim"?}`` → 201,
  signed in; ``claim`` lists the ``{"game", "token"}`` seats this browser holds as a guest: those
  games become the new account's.
* ``POST /api/account/signin``  ``{"name", "password"}`` (any case of the name) → signed in; 401
  ``bad_credentials``; 429 ``slow_down`` with ``retry_after`` once too many attempts were made
  (:mod:`panal.server.players.attempts`: counted before the password is tested).
* ``POST /api/account/signout`` → 204.
* ``GET /api/account`` → ``{"name", "language", "look"}`` (``name`` null for a guest).
* ``PATCH /api/account`` ``{"language"?, "look"?}``: remembered for the account.
* ``GET /api/users/{name}`` → the profile: ratings, rating history, results, recent games, games
  in progress.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import Field

from panal.server.hive_games.game_store import GameRow
from panal.server.hive_games.games import GameHub
from panal.server.http.models import Look, StrictModel
from panal.server.http.request_error import RequestError
from panal.server.players.accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    AccountError,
    PasswordCheck,
    check_name,
    check_password,
    dummy_hash,
    hash_password,
    name_key,
    name_skeleton,
    new_session_token,
    session_key,
    verify_password,
)
from panal.server.players.attempts import (
    Gate,
    PasswordWork,
    address_key,
    sign_in_gate,
    sign_up_gate,
    signed_in,
)
from panal.server.players.auth import (
    clear_session_cookie,
    require_account,
    session_account,
    session_token,
    set_session_cookie,
)
from panal.server.players.player_store import Account, NameTaken, PlayerStore
from panal.server.runtime.runtime import Runtime

__all__ = [
    "Language",
    "Look",
    "account_router",
    "client_key",
    "pass_gate",
    "password_work",
    "start_session",
]

MAX_CLAIMS = 200

# The UI's languages and looks (panal.hive.names.LANGUAGES and LOOKS; a test checks they agree).
Language = Literal["en", "es", "pt-PT", "pt-BR"]


class SeatClaim(StrictModel):
    game: str = Field(max_length=16)
    token: str = Field(max_length=200)


class SignUpRequest(StrictModel):
    name: str = Field(max_length=NAME_MAX + 10)
    password: str = Field(max_length=PASSWORD_MAX + 10)
    language: Language | None = None
    look: Look | None = None
    claim: list[SeatClaim] = Field(default_factory=list, max_length=MAX_CLAIMS)


class SignInRequest(StrictModel):
    name: str = Field(max_length=NAME_MAX + 10)
    password: str = Field(max_length=PASSWORD_MAX + 10)


class PreferencesRequest(StrictModel):
    language: Language | None = None
    look: Look | None = None


account_router = APIRouter()


def _accounts(request: Request) -> tuple[Runtime, PlayerStore]:
    """The process's runtime (for the database's threads) and its accounts' store."""
    state = request.app.state
    return state.runtime, state.players


def client_key(request: Request) -> str:
    """A client's address, hashed (attempts are counted per address)."""
    return address_key(request.client.host if request.client else None)


async def password_work(request: Request, function: Any, *args: Any) -> Any:
    work: PasswordWork = request.app.state.password_work
    return await work.run(client_key(request), function, *args)


def _account_json(account: Account | None) -> dict[str, Any]:
    if account is None:
        return {"name": None, "language": None, "look": None}
    return {"name": account.name, "language": account.language, "look": account.look}


def _test_password(found: tuple[Account, str] | None, password: str) -> PasswordCheck:
    """The password against the account's hash, or against a dummy one when there is no such
    account (then a wrong name costs as long as a wrong password; the dummy is made here, in
    the worker thread, the first time)."""
    return verify_password(found[1] if found is not None else dummy_hash(), password)


def pass_gate(gate: Gate) -> None:
    """Refuse (429) an attempt its counters did not let through."""
    if not gate.open:
        raise RequestError(
            "slow_down",
            f"too many attempts: try again in {gate.retry_after} s",
            429,
            reason="too_many_attempts",
            details={"retry_after": str(gate.retry_after)},
        )


async def start_session(request: Request, response: Response, account: Account) -> None:
    runtime, players = _accounts(request)
    token = new_session_token()
    await runtime.db(players.create_session, session_key(token), account.id)
    set_session_cookie(response, request, token)


@account_router.post("/api/account/signup", status_code=201)
async def sign_up(body: SignUpRequest, request: Request, response: Response) -> dict[str, Any]:
    runtime, players = _accounts(request)
    try:
        name = check_name(body.name)
        password = check_password(body.password, name)
    except AccountError as exc:
        raise RequestError(exc.code, str(exc), 422, reason=exc.reason) from None
    pass_gate(
        await runtime.db(players.in_transaction, sign_up_gate, client_key(request), time.time())
    )
    password_hash = await password_work(request, hash_password, password)
    try:
        account = await runtime.db(
            players.create_account,
            name,
            name_key(name),
            name_skeleton(name),
            password_hash,
            body.language,
            body.look,
        )
    except NameTaken as taken:
        if taken.confusable:
            raise RequestError(
                "name_confusable",
                f"the name {name!r} reads like a name that is taken",
                409,
                reason="confusable",
            ) from None
        raise RequestError(
            "name_taken", f"the name {name!r} is taken", 409, reason="taken"
        ) from None
    games: GameHub = request.app.state.hub
    claimed = await games.claim_seats(account.id, [(seat.game, seat.token) for seat in body.claim])
    await start_session(request, response, account)
    return {**_account_json(account), "claimed": sorted(claimed)}


@account_router.post("/api/account/signin")
async def sign_in(body: SignInRequest, request: Request, response: Response) -> dict[str, Any]:
    runtime, players = _accounts(request)
    key, address = name_key(body.name), client_key(request)
    pass_gate(await runtime.db(players.in_transaction, sign_in_gate, key, address, time.time()))
    found = await runtime.db(players.account_by_key, key)
    check = await password_work(request, _test_password, found, body.password)
    if found is None or not check.ok:
        raise RequestError("bad_credentials", "wrong name or password", 401)
    account = found[0]
    if check.rehashed is not None:
        await runtime.db(players.set_password_hash, account.id, check.rehashed)
    await runtime.db(players.in_transaction, signed_in, key, address, time.time())
    await start_session(request, response, account)
    return _account_json(account)


@account_router.post("/api/account/signout", status_code=204)
async def sign_out(request: Request, response: Response) -> Response:
    runtime, players = _accounts(request)
    token = session_token(request)
    if token is not None:
        await runtime.db(players.delete_session, session_key(token))
    clear_session_cookie(response, request)
    response.status_code = 204
    return response


@account_router.get("/api/account")
async def account(request: Request) -> dict[str, Any]:
    return _account_json(await session_account(request, _accounts(request)[1]))


@account_router.patch("/api/account")
async def preferences(body: PreferencesRequest, request: Request) -> dict[str, Any]:
    runtime, players = _accounts(request)
    signed_in = await require_account(request)
    values = body.model_dump(exclude_none=True)
    await runtime.db(players.set_preferences, signed_in.id, values)
    return _account_json(
        Account(
            signed_in.id,
            signed_in.name,
            signed_in.created_at,
            values.get("language", signed_in.language),
            values.get("look", signed_in.look),
        )
    )


@account_router.get("/api/users/{name}")
async def profile(name: str, request: Request) -> dict[str, Any]:
    runtime, players = _accounts(request)
    found = await runtime.db(players.account_by_key, name_key(name[: NAME_MAX + 1]))
    if found is None:
        raise RequestError("unknown_user", "there is no player with that name", 404)
    user = found[0]
    ratings, history, results, recent, playing = await asyncio.gather(
        runtime.db(players.ratings, user.id),
        runtime.db(players.rating_history, user.id),
        runtime.db(players.results_of, user.id),
        runtime.db(players.games_of, user.id, finished=True, limit=30),
        runtime.db(players.games_of, user.id, finished=False, limit=30),
    )
    opponents = {u for row in (*recent, *playing) for u in row.users() if u not in (None, user.id)}
    names_by_id = await runtime.db(players.names, opponents)
    changes = {(entry["game"]): entry["change"] for entry in history}
    return {
        "name": user.name,
        "created_at": user.created_at,
        "ratings": [r.to_json() for r in ratings],
        "history": history,
        "results": results,
        "recent": [_game_summary(row, user.id, names_by_id, changes) for row in recent],
        "playing": [_game_summary(row, user.id, names_by_id, changes) for row in playing],
    }


def _game_summary(
    row: GameRow, user_id: int, names_by_id: dict[int, str], changes: dict[str, float]
) -> dict[str, Any]:
    color = 0 if row.white_user == user_id else 1
    opponent_user = row.users()[1 - color]
    if row.mode == "ai" and row.ai_color == 1 - color:
        opponent: dict[str, Any] = {"ai": row.ai_level}
    elif opponent_user is not None:
        opponent = {"name": names_by_id.get(opponent_user)}
    else:
        opponent = {"guest": True}
    control = row.control
    score = None
    if row.result is not None:
        won = row.result == ("WhiteWins", "BlackWins")[color]
        score = 0.5 if row.result == "Draw" else float(won)
    return {
        "id": row.id,
        "game_type": row.game_type,
        "mode": row.mode,
        "color": ("white", "black")[color],
        "opponent": opponent,
        "rated": row.rated,
        "clock": control.shown() if control else None,
        "result": row.result,
        "end_reason": row.end_reason,
        "score": score,
        "rating_change": changes.get(row.id),
        "plies": row.plies,
        "updated_at": row.updated_at,
    }
