"""What each connection on an Enjambre table is sent, built in one place from the engine's
observation for the seat it may look at (``Game.observe(seat)``; none: the public one) through
:mod:`panal.enjambre.views`: the server holds no rules and no secrets of its own."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from panal.enjambre import EndTurn, Game, GameLog, Options
from panal.enjambre.actions import action_from_dict
from panal.enjambre.scoring import match_places
from panal.enjambre.views import events_data, observation_data
from panal.server.enjambre_tables.live import LiveTable, TableConnection
from panal.server.enjambre_tables.table_store import GameHeader, TableRow, TableStore
from panal.server.http.request_error import RequestError
from panal.server.runtime.runtime import Runtime

__all__ = ["Replays", "game_log", "http_state", "state_for"]


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


class Replays:
    """Finished games replayed step by step, the last few kept (a reader steps through one)."""

    def __init__(self, runtime: Runtime, store: TableStore, size: int) -> None:
        self.runtime = runtime
        self.store = store
        self.size = size
        self._replays: OrderedDict[tuple[str, int], Game] = OrderedDict()

    async def replay(self, live: LiveTable, number: int, step: int, view: str) -> dict[str, Any]:
        """A finished game as seen after ``step`` actions: by one seat (``view`` = its number)
        or with every number (``"all"``). Only finished games can be replayed."""
        table_id = live.id
        if not 0 <= number < len(live.games) or live.games[number].result is None:
            raise RequestError("not_finished", "only a finished game can be replayed", 409)
        if view == "all":
            viewer: int | None = None
        else:
            try:
                viewer = int(view)
            except ValueError:
                raise RequestError("bad_request", "view is a seat number or 'all'") from None
            if not 0 <= viewer < live.row.players:
                raise RequestError("bad_request", "there is no such seat")
        loaded = await self.runtime.db(self.store.game_log, table_id, number)
        assert loaded is not None
        full = game_log(live.row, *loaded)
        step = max(1, min(step, len(full.actions)))
        key = (table_id, number)
        game = self._replays.pop(key, None)
        if game is None or len(game.log.actions) >= step:
            game = await asyncio.to_thread(_replay_prefix, full, step - 1)
        for player, action in full.actions[len(game.log.actions) : step - 1]:
            game.apply(player, action)
        before = len(game.history)  # the events of the action at ``step`` come after these
        player, action = full.actions[step - 1]
        game.apply(player, action)
        self._replays[key] = game
        while len(self._replays) > self.size:
            self._replays.popitem(last=False)
        observation = game.observe_all() if viewer is None else game.observe(viewer)
        return {
            "game": number,
            "step": step,
            "steps": len(full.actions),
            "turns": [i + 1 for i, (_, a) in enumerate(full.actions) if isinstance(a, EndTurn)],
            "view": observation_data(observation, legal=False),
            "events": events_data(observation, before),
            "events_from": before,
        }


def game_log(row: TableRow, header: GameHeader, actions: list[Any]) -> GameLog:
    return GameLog(
        players=row.players,
        options=Options.from_dict(dict(row.options)),
        seed=header.seed,
        first_player=header.first_player,
        actions=[(int(p), action_from_dict(a)) for p, a in actions],
    )


def _replay_prefix(log_: GameLog, step: int) -> Game:
    game = Game(log_.players, options=log_.options, seed=log_.seed, first_player=log_.first_player)
    for player, action in log_.actions[: max(0, step)]:
        game.apply(player, action)
    return game
