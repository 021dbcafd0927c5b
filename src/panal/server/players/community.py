"""HTTP API of the community pages: the leaderboard and the player search.

* ``GET /api/leaderboard?game=hive&speed=blitz&provisional=false&limit=&offset=`` → ``{"game",
  "speed", "category", "provisional", "total", "players": [{"rank", "name", "rating", "shown",
  "provisional", "games"}]}``: ranked players best first, or (``provisional=true``) the players
  whose rating is still provisional, listed apart, most games first (``rank`` null). ``game`` is
  ``hive`` (with a ``speed``: bullet, blitz, rapid, classic, correspondence) or ``enjambre``
  (no speed). Refused: ``bad_leaderboard`` (422).
* ``GET /api/players?q=<prefix>&limit=`` → ``{"players": [{"name"}]}``: the accounts whose name
  begins with ``q`` in any case, alphabetically. Refused: ``bad_search`` (422) for a prefix
  that no name could begin with (empty, too long, other characters).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from panal.server.http.models import PageLimit, PageOffset
from panal.server.http.request_error import RequestError
from panal.server.players.accounts import NAME_MAX, name_key
from panal.server.players.player_store import PlayerStore
from panal.server.ratings.leaderboard import GAMES, category_of
from panal.server.runtime.runtime import Runtime

__all__ = ["community_router"]

#: What a name may begin with (accounts.check_name's characters).
_PREFIX = re.compile(rf"[A-Za-z0-9_-]{{1,{NAME_MAX}}}")
SEARCH_LIMIT = 20

community_router = APIRouter()


def _state(request: Request) -> tuple[Runtime, PlayerStore]:
    return request.app.state.runtime, request.app.state.players


@community_router.get("/api/leaderboard")
async def leaderboard(
    request: Request,
    game: Annotated[str, Query(max_length=16)] = "hive",
    speed: Annotated[str | None, Query(max_length=16)] = None,
    provisional: bool = False,
    limit: PageLimit = 50,
    offset: PageOffset = 0,
) -> dict[str, Any]:
    category = category_of(game, speed)
    if category is None:
        raise RequestError(
            "bad_leaderboard",
            f"there is no leaderboard for game={game!r} speed={speed!r}: game is one of "
            f"{', '.join(GAMES)}; hive needs a speed, enjambre has none",
            422,
        )
    runtime, players = _state(request)
    page = await runtime.db(
        players.leaderboard, category, provisional=provisional, limit=limit, offset=offset
    )
    return {
        "game": game,
        "speed": speed or None,
        "category": category,
        "provisional": provisional,
        "total": page.total,
        "players": page.players,
    }


@community_router.get("/api/players")
async def search_players(
    request: Request,
    q: Annotated[str, Query(max_length=NAME_MAX + 10)] = "",
    limit: Annotated[int, Query(ge=1, le=SEARCH_LIMIT)] = 10,
) -> dict[str, Any]:
    if not _PREFIX.fullmatch(q):
        raise RequestError(
            "bad_search",
            f"search by the first 1 to {NAME_MAX} characters of a name (letters, digits, _, -)",
            422,
        )
    runtime, players = _state(request)
    names = await runtime.db(players.search, name_key(q), limit)
    return {"players": [{"name": name} for name in names]}
