"""HTTP and websocket routes of Hive games (``/api/games/…``, ``/api/import``, ``/api/archive``,
``/api/config``, ``/ws/games/…``).

HTTP (JSON; errors are ``{"error": code, "detail": message}`` with a 4xx status):

* ``GET  /api/config``                    languages, looks, AI levels, bug names in every look
* ``POST /api/games``                     new game → id, secret seat token, invitation code
* ``POST /api/games/{id}/join``           claim an online game's open seat with its invitation
* ``GET  /api/games/{id}``                the game's state (``Authorization: Bearer <token>``
                                          adds the caller's seat and legal moves)
* ``GET  /api/games/{id}/export?format=`` ``gamestring`` or ``pgn``, as a text download
* ``POST /api/import``                    a GameString, PGN or SGF → a game to replay or continue
* ``GET  /api/archive``                   finished games, newest first (filters:
                                          :mod:`panal.server.hive_games.archive_query`)
* ``GET  /api/my-games``                  the caller's unfinished games against the AI (a guest's
                                          by its client token, ``X-Panal-Client``; an account's)
* ``POST /api/my-games/{id}/resign``      resign one of them from that list

Websocket ``/ws/games/{id}``: the first message is ``{"type": "hello", "token": "…"}`` (no
token: a spectator), so the seat token never appears in a URL. The server then sends ``state``
(so a reconnect resumes) and after every change, or with ``?deltas=1`` a ``delta`` after every
change (what changed since the state before); ``error`` for a refused request, ``pong``.
The browser sends ``{"type": "move", "move": "wA1 bQ-"}`` or ``{"type": "move", "piece": "wA1",
"to": [q, r]}``, ``undo``, ``resign``, ``offer_draw``, ``accept_draw``, ``decline_draw``,
``offer_takeback``, ``accept_takeback``, ``decline_takeback``, ``sync``, ``ping``.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi.responses import PlainTextResponse, Response
from pydantic import Field

from panal.hive import OPTION_SPECS, Options, names
from panal.hive.pieces import EXPANSIONS, Bug
from panal.server.hive_games.actions import requested_clock
from panal.server.hive_games.archive_query import ArchiveQuery, archive_filter
from panal.server.hive_games.clock import (
    CORRESPONDENCE_DAYS,
    MAX_BASE,
    MAX_INCREMENT,
    MIN_BASE,
    PRESETS,
)
from panal.server.hive_games.game_store import GameRow
from panal.server.hive_games.games import GameHub
from panal.server.hive_games.live import LiveGame
from panal.server.hive_games.records_io import RecordImportError, export_pgn
from panal.server.http.body_limit import MAX_BODY_BYTES
from panal.server.http.clients import client_of
from panal.server.http.models import ColorChoice, Look, StrictModel
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import Greeting, Joined, serve_room
from panal.server.players.auth import session_account, socket_account
from panal.server.players.player_store import PlayerStore
from panal.server.room.outbox import Connection
from panal.server.runtime.runtime import Runtime

#: The longest record an import takes, in characters: half a request body, which JSON escaping
#: may double. A file of many games above it is cut to the game wanted (docs/web.md, Imports).
IMPORT_MAX_CHARS = MAX_BODY_BYTES // 2

__all__ = ["game_router"]


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
    takebacks: bool = False  # online: whether a player may propose to take back a move


class JoinRequest(StrictModel):
    invite: str = Field(max_length=64)


class ImportRequest(StrictModel):
    text: str = Field(min_length=1, max_length=IMPORT_MAX_CHARS)
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


def game_router(hub: GameHub, players: PlayerStore, runtime: Runtime) -> APIRouter:
    """The routes of Hive games, served by ``hub``."""
    router = APIRouter()
    config_body = _config_body(hub.levels)

    @router.get("/api/config")
    async def config() -> Response:
        return Response(config_body, media_type="application/json")

    @router.post("/api/games", status_code=201)
    async def new_game(request: NewGameRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        control = requested_clock(request.clock)
        _, secrets_out = await hub.create(
            game_type=request.game_type,
            mode=request.mode,
            options=_rule_options(request.options),
            look=request.look,
            color=request.color,
            ai_level=request.ai_level,
            client=client_of(http, account.id if account else None),
            user=account.id if account else None,
            control=control,
            takebacks=request.takebacks,
        )
        return secrets_out

    @router.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: JoinRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        return await hub.join(game_id, request.invite, account.id if account else None)

    @router.get("/api/games/{game_id}")
    async def game_state(
        game_id: str, authorization: Annotated[str | None, Header(max_length=200)] = None
    ) -> Response:
        live = await hub.get(game_id)
        text = live.state_text(_seats(live, authorization))
        return Response(text, media_type="application/json")

    @router.get("/api/games/{game_id}/export")
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
                text = await runtime.heavy_job(
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

    @router.post("/api/import", status_code=201)
    async def import_record(request: ImportRequest, http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        playable = request.mode != "review"
        rules = dict(request.options)
        if request.tournament_opening is not None:
            rules.setdefault("tournament_opening", request.tournament_opening)
        _rule_options(rules)  # names and values checked before the record is read
        result = await runtime.heavy_job(
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
            client=client_of(http, account.id if account else None),
            imported={**result, "moves": imported.moves},
            headers=imported.headers,
        )
        secrets_out["plies"] = live.row.plies
        return secrets_out

    @router.get("/api/my-games")
    async def my_games(http: Request) -> dict[str, Any]:
        account = await session_account(http, players)
        client = client_of(http, account.id if account else None)
        return {
            "ai_games": await hub.unfinished.listing(client),
            "idle_seconds": hub.limits.ai_idle_seconds,
        }

    @router.post("/api/my-games/{game_id}/resign", status_code=204)
    async def resign_my_game(game_id: str, http: Request) -> Response:
        account = await session_account(http, players)
        await hub.unfinished.resign(game_id, client_of(http, account.id if account else None))
        return Response(status_code=204)

    @router.get("/api/archive")
    async def archive(query: Annotated[ArchiveQuery, Query()]) -> dict[str, Any]:
        where = await archive_filter(query, players, runtime)
        total, rows = await runtime.db(hub.store.archive, query.limit, query.offset, where)
        # Games between accounts name their players by account; a record, by its own tags.
        accounts = await runtime.db(players.names, [u for row in rows for u in row.users()])
        return {"total": total, "games": [_archived(row, accounts) for row in rows]}

    # --- websocket -------------------------------------------------------------------------

    @router.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        async def join(live: LiveGame, greeted: Greeting) -> Joined:
            seats, player = greeted.seats, greeted.player
            # A player's seats come with their account too (a bot's token, or the cookie of
            # a page of this site); watching, they only say that the watcher is a player.
            account = await socket_account(websocket, players)
            if account is not None:
                held = live.seats_for(None, account.id)
                if greeted.watch:
                    player = player or bool(held)
                else:
                    seats = seats | held
            # A spectator is someone watching a game that others play: not one of its players,
            # and not a reader of a record (nobody plays it).
            spectator = not seats and not player and live.row.mode != "review"
            # ``deltas=1``: the client takes deltas after the first state (a page from before
            # them gets whole states, as it always did).
            deltas = websocket.query_params.get("deltas") == "1"
            connection = Connection(
                send=websocket.send_text, seats=seats, deltas=deltas, spectator=spectator
            )
            hub.attach(live, connection)

            async def started() -> None:
                if seats:
                    await hub.ai.schedule_ai(live)  # retries a failed AI move when a player returns

            async def leave() -> None:
                hub.detach(live, connection)

            handle = functools.partial(hub.handle, live, connection)
            return Joined(connection, handle, leave, started)

        await serve_room(websocket, functools.partial(hub.get, game_id), "game", game_id, join)

    return router


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
        "import_max_chars": IMPORT_MAX_CHARS,
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


def _archived(row: GameRow, accounts: dict[int, str]) -> dict[str, Any]:
    """One game of the archive: what it was (type, mode, rules, rated, clock), who played it
    (account names, else the record's tags) and how it ended."""
    sides = [accounts.get(user) if user is not None else None for user in row.users()]
    control = row.control
    return {
        "id": row.id,
        "game_type": row.game_type,
        "mode": row.mode,
        "ai_level": row.ai_level,
        "ai_color": row.ai_color,
        "result": row.result,
        "end_reason": row.end_reason,
        "plies": row.plies,
        "look": row.look,
        "white": sides[0] or row.headers.get("White"),
        "black": sides[1] or row.headers.get("Black"),
        "rated": row.rated,
        "clock": control.shown() if control else None,
        "options": row.rules.changed(),
        "updated_at": row.updated_at,
    }


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
