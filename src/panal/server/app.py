"""The FastAPI application: HTTP API, websockets and the static browser UI.

HTTP (JSON; errors are ``{"error": code, "detail": message}`` with a 4xx status):

* ``GET  /api/config``                    languages, looks, AI levels, bug names in every look
* ``POST /api/games``                     new game → id, secret seat token, invitation code
* ``POST /api/games/{id}/join``           claim an online game's open seat with its invitation
* ``GET  /api/games/{id}``                the game's state (``Authorization: Bearer <token>``
                                          adds the caller's seat and legal moves)
* ``GET  /api/games/{id}/export?format=`` ``gamestring`` or ``pgn``, as a text download
* ``POST /api/import``                    a GameString, PGN or SGF → a game to replay or continue
* ``GET  /api/archive``                   finished games, newest first

Websocket ``/ws/games/{id}``: the first message is ``{"type": "hello", "token": "…"}`` (no
token: a spectator), so the seat token never appears in a URL. The server then sends ``state``
(so a reconnect resumes) and after every change, or with ``?deltas=1`` a ``delta`` after every
change (what changed since the state before); ``error`` for a refused request, ``pong``.
The browser sends ``{"type": "move", "move": "wA1 bQ-"}`` or ``{"type": "move", "piece": "wA1",
"to": [q, r]}``, ``undo``, ``resign``, ``offer_draw``, ``accept_draw``, ``decline_draw``,
``sync``, ``ping``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from panal.hive import OPTION_SPECS, Options, names
from panal.hive.pieces import EXPANSIONS, Bug
from panal.server.account_api import PASSWORD_WORK_AT_ONCE, account_router
from panal.server.ai_pool import ai_levels
from panal.server.auth import OriginCheck, same_origin, session_account
from panal.server.bus import make_bus
from panal.server.clock import (
    CORRESPONDENCE_DAYS,
    MAX_BASE,
    MAX_INCREMENT,
    MIN_BASE,
    PRESETS,
    TimeControl,
    TimeControlError,
)
from panal.server.dispatch import Dispatch
from panal.server.hub import Connection, GameHub, Limits, LiveGame, RequestError, hash_token
from panal.server.jobs import (
    ChildPool,
    Executor,
    InlineExecutor,
    JobQueue,
    LocalJobQueue,
    RedisJobQueue,
)
from panal.server.lobby import Lobby, lobby_router
from panal.server.records_io import RecordImportError, export_pgn
from panal.server.store import Store
from panal.server.tables import TableHub, TableLimits
from panal.server.webapp import MANIFEST_MEDIA_TYPE, service_worker_script
from panal.server.websocket_session import (
    close_with_error,
    greet,
    pump_then_close,
    serve_requests,
)

__all__ = ["create_app"]

log = logging.getLogger("panal.server")

MAX_BODY_BYTES = 1_000_000
WEB_DIR = Path(str(files("panal").joinpath("web")))

Look = Literal["classic", "football"]
ColorChoice = Literal["white", "black", "random"]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGameRequest(StrictModel):
    mode: Literal["ai", "hotseat", "online"]
    clock: dict[str, Any] | None = None  # a TimeControl: {"kind": "realtime", "base", ...}
    game_type: str = Field("Base", max_length=16)
    # Rule options by name (panal.hive.OPTION_SPECS; GET /api/config lists them); the others
    # keep their defaults.
    options: dict[str, bool | str] = Field(default_factory=dict, max_length=32)
    look: Look = "classic"
    color: ColorChoice = "white"
    ai_level: str | None = Field(None, max_length=32)


class JoinRequest(StrictModel):
    invite: str = Field(max_length=64)


class ImportRequest(StrictModel):
    text: str = Field(min_length=1, max_length=MAX_BODY_BYTES // 2)
    format: Literal["auto", "gamestring", "pgn", "sgf"] = "auto"
    index: int = Field(1, ge=1, le=100_000)
    mode: Literal["review", "ai", "hotseat", "online"] = "review"
    # Rule options by name, set over the record's own (a PGN's option tags): the rules the game
    # was played with where the record does not say them. ``tournament_opening`` is one of them,
    # kept as a field of its own for the clients that send it so.
    options: dict[str, bool | str] = Field(default_factory=dict, max_length=32)
    tournament_opening: bool | None = None
    look: Look = "classic"
    color: ColorChoice = "white"
    ai_level: str | None = Field(None, max_length=32)


class BodyLimit:
    """Read each request body before the application sees it: over ``limit`` bytes (announced
    or, chunked, as it arrives) is 413; a body that does not arrive within ``timeout`` seconds
    is 408. Either way the application is never called."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _refuse(
                        send, 413, "too_large", f"request bodies are limited to {self.limit} bytes"
                    )
                    return
        chunks: list[bytes] = []
        seen = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left
                    chunk = message.get("body", b"")
                    seen += len(chunk)
                    if seen > self.limit:
                        await _refuse(
                            send,
                            413,
                            "too_large",
                            f"request bodies are limited to {self.limit} bytes",
                        )
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(
                send, 408, "timeout", f"the request body took longer than {self.timeout:g} s"
            )
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
    body = json.dumps({"error": code, "detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def client_owner(host: str | None) -> str:
    """A client's identity for fairness limits: a hash of its address (behind a proxy, uvicorn's
    ``--forwarded-allow-ips`` makes it the real client's)."""
    return hash_token(f"client:{host or 'unknown'}")[:32]


def create_app(
    db_url: str = "sqlite:///panal.sqlite3",
    *,
    redis_url: str | None = None,
    redis_prefix: str = "panal",
    ai_workers: int | None = None,
    ai_runner: Callable[[dict[str, Any]], Any] | None = None,
    levels: tuple[str, ...] | None = None,
    limits: Limits | None = None,
    table_limits: TableLimits | None = None,
    migrate: bool = True,
    body_timeout: float = 10.0,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The web platform on a database; with ``redis_url``, one of many processes (scale-out).

    ``ai_workers``: processes computing AI moves here (0: leave them to ``panal ai-worker``;
    only with Redis). ``ai_runner`` replaces the AI by a function of the job's payload (tests).
    ``clock`` is the server's time for game clocks (tests give a clock they move by hand).
    """
    store = Store(db_url, migrate=migrate)
    workers = max(1, (os.cpu_count() or 2) - 1) if ai_workers is None else ai_workers
    if workers < 1 and not redis_url:
        workers = 1  # one process: nobody else would compute the AI's moves
    executor: Executor = (
        InlineExecutor({"hive.ai_move": ai_runner})
        if ai_runner is not None
        else ChildPool(max(1, workers), warm=("panal.ai", "panal.enjambre.bots"))
    )
    jobs: JobQueue = (
        RedisJobQueue(redis_url, redis_prefix, executor, consumers=workers)
        if redis_url
        else LocalJobQueue(executor, consumers=workers)
    )
    limits = limits or Limits()
    heavy = ChildPool(1, warm=("panal.hive.records",), max_waiting=limits.heavy_waiting)
    bus = make_bus(redis_url, redis_prefix)
    hub = GameHub(
        store,
        bus,
        jobs,
        heavy,
        ai_levels() if levels is None else levels,
        shared=redis_url is not None,
        limits=limits,
        clock=clock,
    )
    tables = TableHub(store, bus, jobs, shared=redis_url is not None, limits=table_limits)
    dispatch = Dispatch(hub, tables)
    config_body = _config_body(hub.levels)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Everything imported so far lives as long as the process: take it out of the garbage
        # collector's full scans, which then pause the event loop for less time. Thousands of
        # open websockets are many long-lived objects: collecting less often keeps the tail of
        # the move latency short (benchmarks/server_latency.py).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 50, 100)
        await dispatch.start()
        hub.spawn(hub.resume_ai_games())
        try:
            yield
        finally:
            await dispatch.close()
            await store.close_async()

    app = FastAPI(title="panal", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    app.state.hub = hub
    app.state.tables = tables
    app.state.lobby = Lobby(hub)
    app.state.password_work = asyncio.Semaphore(PASSWORD_WORK_AT_ONCE)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, timeout=body_timeout)
    app.add_middleware(OriginCheck)  # outermost: a forged request is refused before all else
    app.include_router(account_router)
    app.include_router(lobby_router)

    # --- errors: always a 4xx with a code and a sentence -----------------------------------

    @app.exception_handler(RequestError)
    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        body = exc.to_json()
        body.pop("type")
        body["error"] = body.pop("code")
        body["detail"] = body.pop("message")
        headers = {}
        if "retry_after" in exc.details:
            headers["Retry-After"] = exc.details["retry_after"]
        return JSONResponse(body, exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors()[:10]:
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return JSONResponse(
            {"error": "bad_request", "detail": "; ".join(problems) or "invalid request"}, 422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            {"error": code, "detail": str(exc.detail)}, exc.status_code, headers=exc.headers
        )

    # --- API -------------------------------------------------------------------------------

    @app.get("/api/config")
    async def config() -> Response:
        return Response(config_body, media_type="application/json")

    @app.post("/api/games", status_code=201)
    async def new_game(request: NewGameRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, hub.players)
        try:
            control = TimeControl.from_json(request.clock)
        except TimeControlError as exc:
            raise RequestError("bad_clock", str(exc), 422) from None
        _, secrets_out = await hub.create(
            game_type=request.game_type,
            mode=request.mode,
            options=_rule_options(request.options),
            look=request.look,
            color=request.color,
            ai_level=request.ai_level,
            owner=client_owner(http.client.host if http.client else None),
            user=account.id if account else None,
            control=control,
        )
        return secrets_out

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: JoinRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, hub.players)
        return await hub.join(game_id, request.invite, account.id if account else None)

    @app.get("/api/games/{game_id}")
    async def game_state(
        game_id: str, authorization: Annotated[str | None, Header(max_length=200)] = None
    ) -> Response:
        live = await hub.get(game_id)
        text = live.state_text(_seats(live, authorization))
        return Response(text, media_type="application/json")

    @app.get("/api/games/{game_id}/export")
    async def export(
        game_id: str, format: Literal["gamestring", "pgn"] = "gamestring"
    ) -> PlainTextResponse:
        live = await hub.get(game_id)
        headers = _pgn_headers(live)
        try:
            if live.game is not None and len(live.moves) <= hub.limits.inline_replay_plies:
                if format == "gamestring":
                    text = live.game.game_string() + "\n"
                else:
                    text = export_pgn(live.game, headers)
            else:
                text = await hub.heavy_job(
                    "records.export",
                    {
                        "game_type": live.row.game_type,
                        "options": live.row.rules.to_values(),
                        "moves": list(live.moves),
                        "format": format,
                        "headers": headers,
                    },
                )
        except (RecordImportError, RequestError) as exc:
            raise RequestError("unsupported", str(exc), 422) from None
        suffix = "txt" if format == "gamestring" else "pgn"
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="panal-{game_id}.{suffix}"'},
        )

    @app.post("/api/import", status_code=201)
    async def import_record(request: ImportRequest, http: Request) -> dict[str, Any]:
        playable = request.mode != "review"
        rules = dict(request.options)
        if request.tournament_opening is not None:
            rules.setdefault("tournament_opening", request.tournament_opening)
        _rule_options(rules)  # names and values checked before the record is read
        result = await hub.heavy_job(
            "records.import",
            {
                "text": request.text,
                "format": request.format,
                "index": request.index,
                "rules": rules,
                "playable": playable,
                "max_plies": hub.limits.playable_plies if playable else hub.limits.review_plies,
            },
        )
        imported = result["imported"]
        finished_off_board = imported.result not in (None, "InProgress", "NotStarted")
        if request.mode == "review" and not result["settled"] and finished_off_board:
            result["settled"] = {
                "result": imported.result,
                "end_reason": imported.termination or "record",
            }
        live, secrets_out = await hub.create(
            game_type=imported.game_type,
            mode=request.mode,
            options=imported.options,
            look=request.look,
            color=request.color,
            ai_level=request.ai_level,
            owner=client_owner(http.client.host if http.client else None),
            imported={**result, "moves": imported.moves},
            headers=imported.headers,
        )
        secrets_out["plies"] = live.row.plies
        return secrets_out

    @app.get("/api/archive")
    async def archive(
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    ) -> dict[str, Any]:
        total, rows = await hub.db(hub.store.archive, limit, offset)
        return {
            "total": total,
            "games": [
                {
                    "id": row.id,
                    "game_type": row.game_type,
                    "mode": row.mode,
                    "ai_level": row.ai_level,
                    "ai_color": row.ai_color,
                    "result": row.result,
                    "end_reason": row.end_reason,
                    "plies": row.plies,
                    "look": row.look,
                    "white": row.headers.get("White"),
                    "black": row.headers.get("Black"),
                    "options": row.rules.changed(),
                    "updated_at": row.updated_at,
                }
                for row in rows
            ],
        }

    # --- websocket -------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = await hub.get(game_id)
        except RequestError as exc:
            await close_with_error(websocket, exc, 4404)
            return
        greeted = await greet(websocket, live.seats_for, "game")
        if greeted is None:
            return
        seats, player = greeted.seats, greeted.player
        # A signed-in player's seats come with the session cookie too, if this site opened the
        # socket (a page of another site must not play with the player's cookie); watching,
        # they only say that the watcher is a player.
        if same_origin(websocket.scope, required=True):
            account = await session_account(websocket, hub.players)
            if account is not None:
                held = live.seats_for(None, account.id)
                if greeted.watch:
                    player = player or bool(held)
                else:
                    seats = seats | held
        # A spectator is someone watching a game that others play: not one of its players, and
        # not a reader of a record (nobody plays it).
        spectator = not seats and not player and live.row.mode != "review"
        # ``deltas=1``: the client takes deltas after the first state (a page from before them
        # gets whole states, as it always did).
        deltas = websocket.query_params.get("deltas") == "1"
        connection = Connection(
            send=websocket.send_text, seats=seats, deltas=deltas, spectator=spectator
        )
        hub.attach(live, connection)
        pump = asyncio.get_running_loop().create_task(
            pump_then_close(websocket, connection, connection.pump())
        )
        if seats:
            await hub.schedule_ai(live)  # retries a failed AI move when a player comes back
        try:
            await serve_requests(
                websocket,
                connection,
                functools.partial(hub.handle, live, connection),
                pump,
                f"game {live.row.id}",
            )
        finally:
            hub.detach(live, connection)
            with contextlib.suppress(Exception):
                await pump

    # --- Enjambre Tácticas tables ----------------------------------------------------------

    from panal.server.table_routes import table_router  # it builds on this module's models

    app.include_router(table_router(tables, hub.players))

    # --- the browser UI --------------------------------------------------------------------

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # The installable app: the worker at the root, so that its scope is the whole site.
    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(
            WEB_DIR / "manifest.webmanifest",
            media_type=MANIFEST_MEDIA_TYPE,
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(
            service_worker_script(WEB_DIR),
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @app.get("/", include_in_schema=False)
    @app.get("/lobby", include_in_schema=False)
    @app.get("/signin", include_in_schema=False)
    @app.get("/signup", include_in_schema=False)
    @app.get("/new", include_in_schema=False)
    @app.get("/archive", include_in_schema=False)
    @app.get("/import", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/game/{game_id}", include_in_schema=False)
    @app.get("/table/{table_id}", include_in_schema=False)
    @app.get("/enjambre", include_in_schema=False)
    @app.get("/@/{name}", include_in_schema=False)
    async def game_page() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    return app


def _seats(live: LiveGame, authorization: str | None) -> frozenset[int]:
    if not authorization:
        return frozenset()
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise RequestError("bad_token", "use 'Authorization: Bearer <seat token>'", 401)
    seats = live.seats_for(token.strip())
    if not seats:
        raise RequestError("bad_token", "this seat token does not belong to this game", 403)
    return seats


def _config_body(levels: tuple[str, ...]) -> bytes:
    """``GET /api/config``: the same for every request, serialized once."""
    body = {
        "languages": list(names.LANGUAGES),
        "looks": list(names.LOOKS),
        "ai_levels": list(levels),
        "expansions": [bug.letter for bug in EXPANSIONS],
        "clocks": {
            "presets": [c.shown() for c in PRESETS],
            "min_base": MIN_BASE,
            "max_base": MAX_BASE,
            "max_increment": MAX_INCREMENT,
            "days": list(CORRESPONDENCE_DAYS),
        },
        "rule_options": [
            {
                "name": spec.name,
                "default": spec.default,
                "choices": list(spec.choices) if spec.choices else None,
                "needs": spec.expansion,
            }
            for spec in OPTION_SPECS
        ],
        "names": {
            look: {
                language: {
                    "bugs": {bug.letter: names.bug_name(bug, language, look) for bug in Bug},
                    "colors": [names.color_name(c, language, look) for c in (0, 1)],
                }
                for language in names.LANGUAGES
            }
            for look in names.LOOKS
        },
    }
    return json.dumps(body, ensure_ascii=False).encode()


def _pgn_headers(live: LiveGame) -> dict[str, str]:
    """The tags of an exported PGN: the record's own tags where it brought some (an import), else
    what the server knows: the day the game began, the AI by its level, a person as "Guest"."""
    row = live.row
    if row.mode == "review":  # a record: its date and players are what it says, or unknown
        date, players = "????.??.??", ["?", "?"]
    else:
        date = time.strftime("%Y.%m.%d", time.gmtime(row.created_at))
        accounts = live.players or {}
        players = [
            f"panal AI ({row.ai_level})"
            if row.mode == "ai" and row.ai_color == color
            else (accounts.get(side) or {}).get("name") or "Guest"
            for color, side in enumerate(("white", "black"))
        ]
    headers = {"Site": "panal", "Date": date, "White": players[0], "Black": players[1]}
    if row.control is not None:
        headers["TimeControl"] = str(row.control)
    headers.update({name: value for name, value in row.headers.items() if value.strip()})
    headers["GameType"] = row.game_type
    if row.result:
        headers["Result"] = row.result  # a resignation or an agreed draw, not only the board's
    return headers


def _rule_options(values: dict[str, bool | str]) -> Options:
    """A new game's rule options from the request (names and values checked)."""
    try:
        return Options.from_values(values)
    except (TypeError, ValueError) as exc:
        raise RequestError("bad_options", str(exc)) from None
