"""What each connection on an Enjambre table is sent, built in one place from the engine's
observation for the seat it may look at (``Game.observe(seat)``; none: the public one) through
:mod:`panal.enjambre.views`: the server holds no rules and no secrets of its own."""

from __future__ import annotations

import json
from typing import Any

from panal.enjambre.scoring import match_places
from panal.enjambre.views import events_data, observation_data
from panal.server.table_live import LiveTable, TableConnection

__all__ = ["http_state", "state_for"]


def state_for(live: LiveTable, connection: TableConnection) -> str:
    """The one place that builds what a connection receives: the table's public facts and
    the observation of the seat this connection may look at (none: the public one)."""
    viewer = live.viewer(connection)
    number = live.number
    if connection.events_game != number:
        connection.events_game, connection.events_sent = number, 0
    start = connection.events_sent
    state = _state(live, viewer, connection.seats, connection.host, start)
    state["looking"] = connection.looking
    connection.events_sent = len(live.game.history)
    return json.dumps(state, separators=(",", ":"))


def http_state(live: LiveTable, token: str | None) -> dict[str, Any]:
    """``GET /api/enjambre/tables/{id}``: as the websocket's state, for the token's seat
    (a token of several seats, like a spectator, sees the public view)."""
    seats = live.seats_for(token)
    viewer = next(iter(seats)) if len(seats) == 1 else None
    return _state(live, viewer, seats, live.is_host(token), 0)


def _state(
    live: LiveTable,
    viewer: int | None,
    seats: frozenset[int],
    host: bool,
    events_from: int,
) -> dict[str, Any]:
    game = live.game
    observation = game.observe(viewer)
    playing = live.row.status == "playing"
    results = [g.result for g in live.games if g.result is not None]
    table: dict[str, Any] = {
        "id": live.id,
        "players": live.row.players,
        "mode": live.row.mode,
        "status": live.row.status,
        "rated": live.row.rated,
        "games": live.row.games,
        "game": live.number,
        "version": live.version,
        "step": len(game.log.actions),
        "replace_after": live.row.replace_after,
        "first_players": [g.first_player for g in live.games],
        "results": results,
        "bot_error": live.bot_error,
        "seats": [
            {
                "seat": seat.seat,
                "kind": seat.kind,
                "bot": seat.bot,
                "name": seat.name,
                "joined": seat.kind == "bot" or seat.token is not None,
                "replaced": seat.replaced,
                "account": seat.user_id is not None,
                # the account's Enjambre rating, "1500?" while uncertain
                "rating": live.ratings.get(seat.user_id) if seat.user_id is not None else None,
            }
            for seat in live.seats
        ],
    }
    if live.row.status == "over" and len(results) > 1:
        table["match_places"] = list(match_places([r["places"] for r in results]))
    return {
        "type": "state",
        "table": table,
        "you": sorted(seats),
        "host": host,
        "viewer": viewer,
        "view": observation_data(observation, legal=playing),
        "events_from": events_from,
        "events": events_data(observation, events_from),
    }
