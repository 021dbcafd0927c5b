"""HTTP and websocket routes of the analysis board and game reviews (``/api/analysis/…``,
``/ws/analysis``).

HTTP (JSON; errors are ``{"error": code, "detail": message}`` as everywhere):

* ``POST /api/analysis/position``        a position (see :mod:`.positions`) → its ``key`` and
                                         ``board`` (stacks, hands, legal moves), or 422 naming
                                         the broken invariant (``bad_setup``, with ``reason``)
                                         or the illegal move (``illegal_move``, with ``rule``)
* ``GET  /api/analysis/reviews/{game}``  the game's review as stored (``status`` ``none`` when
                                         none was asked for)
* ``POST /api/analysis/reviews/{game}``  review a finished game (409 ``game_not_finished``)

Websocket ``/ws/analysis?game=<id>`` (``game`` optional: a free board has none). The first
message is ``{"type": "hello", "token": <seat token or null>}``. With a game, the server then
sends its ``review`` after every change (queued, plies done, done, failed); a player of a game
still being played gets no engine (``engine_refused``). The browser sends:

* ``{"type": "position", "id": n, "position": {...}, "engine": true, "lines": 3}``: the server
  answers ``position`` (the same ``id``, the ``key`` and the ``board``), then, with the engine
  on, ``analysis`` messages for that ``key`` as the search deepens (``final`` on the last; at
  once and ``cached`` when the position was analysed before), or ``engine_error``;
* ``{"type": "engine", "on": false}``: stop the engine; ``{"type": "review"}``: review the game;
* ``ping``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Query, Request, WebSocket

from panal.server.analysis.engine import EngineClient, Engines
from panal.server.analysis.positions import board_json, read_position
from panal.server.analysis.reviews import LiveReview, Reviews
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import Greeting, Joined, serve_room
from panal.server.players.auth import session_account
from panal.server.players.player_store import PlayerStore
from panal.server.room.outbox import Outbox

__all__ = ["analysis_router"]


ENGINE_REFUSED = {
    "type": "engine_refused",
    "code": "game_in_progress",
    "message": "no engine while you play this game",
}


@dataclass(frozen=True)
class Board:
    """What a socket's hello is checked against: the game it opens (None: a free board)."""

    live: LiveReview | None
    user: int | None

    def seats_for(self, token: str | None) -> frozenset[int]:
        return frozenset() if self.live is None else self.live.game.seats_for(token, self.user)


def _engine_refused(live: LiveReview | None, seats: frozenset[int]) -> bool:
    """No engine for a player of a game still being played."""
    return live is not None and not live.game.finished and bool(seats)


def analysis_router(engines: Engines, reviews: Reviews, players: PlayerStore) -> APIRouter:
    router = APIRouter()

    @router.post("/api/analysis/position")
    async def check_position(http: Request) -> dict[str, Any]:
        body = await http.json()
        position = read_position(body.get("position") if isinstance(body, dict) else None)
        return {"key": position.key, "board": board_json(position.game)}

    @router.get("/api/analysis/reviews/{game_id}")
    async def get_review(game_id: str) -> dict[str, Any]:
        live = await reviews.get(game_id)
        return live.state()

    @router.post("/api/analysis/reviews/{game_id}")
    async def ask_review(game_id: str) -> dict[str, Any]:
        live = await reviews.request(game_id)
        return live.state()

    @router.websocket("/ws/analysis")
    async def analysis_socket(websocket: WebSocket, game: str | None = Query(None)) -> None:
        account = await session_account(websocket, players)
        user = None if account is None else account.id

        async def find() -> Board:
            return Board(None if game is None else await reviews.get(game), user)

        async def join(board: Board, greeting: Greeting) -> Joined:
            connection = Outbox(websocket.send_text)
            client = await engines.open(connection)
            live = board.live
            refused = _engine_refused(live, greeting.seats or board.seats_for(None))
            if live is not None:
                reviews.attach(live, connection)
            if refused:
                connection.post(json.dumps(ENGINE_REFUSED))

            async def handle(request: dict[str, Any]) -> None:
                await _handle(engines, reviews, client, live, refused, request)

            async def leave() -> None:
                if live is not None:
                    reviews.detach(live, connection)
                await engines.close(client)
                connection.close()

            return Joined(connection, handle, leave)

        await serve_room(websocket, find, "game", game or "board", join)

    return router


async def _handle(
    engines: Engines,
    reviews: Reviews,
    client: EngineClient,
    live: LiveReview | None,
    refused: bool,
    request: dict[str, Any],
) -> None:
    kind = request.get("type")
    if kind == "position":
        position = read_position(request.get("position"))
        client.connection.post(
            json.dumps(
                {
                    "type": "position",
                    "id": request.get("id"),
                    "key": position.key,
                    "board": board_json(position.game),
                },
                ensure_ascii=False,
            )
        )
        if request.get("engine", True) and not refused and not position.game.is_over():
            lines = request.get("lines", 3)
            await engines.analyse(client, position, lines if isinstance(lines, int) else 3)
        else:
            await engines.stop(client)
    elif kind == "engine" and not request.get("on", False):
        await engines.stop(client)
    elif kind == "review":
        if live is None:
            raise RequestError("bad_request", "a free board has no game to review")
        await reviews.request(live.id)
    else:
        raise RequestError("bad_request", f"unknown request {kind!r}")
