"""The actions of an Enjambre table's players: pure functions from the live copy and a request
to the change it asks for (checked by the rules engine when the hub tries it on a copy)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from panal.enjambre import Action, Displace, EndTurn, Game, IllegalActionError, Place, Scout, Step
from panal.enjambre.actions import action_to_dict
from panal.hex import Hex
from panal.server.enjambre_tables.live import LiveTable
from panal.server.enjambre_tables.table_store import GameHeader, SeatRow, TableRow, TableWrite
from panal.server.http.request_error import RequestError

__all__ = ["ACTIONS", "TableChange", "TableRequest", "check_playing", "computed", "waiting_text"]

COORDINATE_LIMIT = 100


@dataclass(frozen=True)
class TableRequest:
    """One change asked of a table: actions appended to the current game, row and seat fields."""

    actions: tuple[tuple[int, Action], ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    absent: tuple[int, float] | None = None


def check_playing(live: LiveTable) -> None:
    if live.row.status == "waiting":
        raise RequestError("not_started", "the table is waiting for its players", 409)
    if live.row.status == "over":
        raise RequestError("game_over", "the match is over", 409)


def place(live: LiveTable, seat: int, message: dict[str, Any]) -> TableRequest:
    cells = message.get("cells")
    count = live.game.board.tiles_per_player
    if not isinstance(cells, list) or len(cells) != count:
        raise RequestError(
            "bad_request", f"'cells' must list {count} cells, for the tiles 1 to {count}"
        )
    return TableRequest(actions=((seat, Place(tuple(_cell(c, "cells") for c in cells))),))


def move(live: LiveTable, seat: int, message: dict[str, Any]) -> TableRequest:
    tile = _tile(message.get("tile"))
    path = message.get("path")
    if not isinstance(path, list) or not 1 <= len(path) <= 4:
        raise RequestError("bad_request", "'path' must list 1 to 4 cells, one per step")
    return TableRequest(actions=tuple((seat, Step(tile, _cell(c, "path"))) for c in path))


def scout(live: LiveTable, seat: int, message: dict[str, Any]) -> TableRequest:
    return TableRequest(actions=((seat, Scout(_tile(message.get("tile")))),))


def displace(live: LiveTable, seat: int, message: dict[str, Any]) -> TableRequest:
    return TableRequest(actions=((seat, Displace(_cell(message.get("cell"), "cell"))),))


def end(live: LiveTable, seat: int, message: dict[str, Any]) -> TableRequest:
    return TableRequest(actions=((seat, EndTurn()),))


#: The requests a seated player may make, by their ``type``.
ACTIONS: dict[str, Callable[[LiveTable, int, dict[str, Any]], TableRequest]] = {
    "place": place,
    "move": move,
    "scout": scout,
    "displace": displace,
    "end": end,
}


def _tile(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1000:
        raise RequestError("bad_request", "'tile' must be a tile id (an integer)")
    return value


def _cell(value: Any, name: str) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not all(abs(v) <= COORDINATE_LIMIT for v in value)
    ):
        raise RequestError("bad_request", f"'{name}' cells must be two integers [q, r]")
    return Hex(value[0], value[1])


@dataclass(frozen=True)
class TableChange:
    """A change as the core commits it: what is written, and (made here) the game it leads to
    (None: made by another process, whose actions are replayed here)."""

    write: TableWrite
    game: Game | None = None


def computed(live: LiveTable, change: TableRequest) -> TableChange:
    """What a change does to the table, as the core commits it: the actions tried on a copy
    of the game (an illegal one is refused, nothing changed), the game's end and the next
    game, what the table then waits for (the sweep reads it)."""
    trial = live.game.copy() if change.actions else live.game
    number = live.number
    first_ply = len(trial.log.actions)
    try:
        for player, action in change.actions:
            trial.apply(player, action)
    except IllegalActionError as exc:
        raise RequestError(
            "illegal_action",
            str(exc),
            409,
            rule=exc.code,
            details=dict(exc.details),
        ) from None
    values = dict(change.values)
    seats = {seat: dict(fields) for seat, fields in change.seats.items()}
    result: dict[str, Any] | None = None
    next_game: GameHeader | None = None
    following: Game | None = None
    if change.actions and trial.over and trial.result is not None:
        result = trial.result.to_dict()
        if number + 1 < live.row.games:
            first = (live.games[0].first_player + number + 1) % live.row.players
            next_game = GameHeader(number + 1, secrets.randbits(63), first)
            following = Game(
                live.row.players,
                options=live.options,
                seed=next_game.seed,
                first_player=first,
            )
        else:
            values["status"] = "over"
    rated_places = _rated_places(live, result) if result is not None else None
    shadow = LiveTable(
        TableRow(**{**live.row.__dict__, **values}),
        [_seat_with(seat, seats.get(seat.seat, {})) for seat in live.seats],
        live.games,
        following or trial,
    )
    values["waiting_for"] = waiting_text(shadow)
    write = TableWrite(
        values=values,
        seats=seats,
        game=number,
        first_ply=first_ply,
        actions=[(p, action_to_dict(a)) for p, a in change.actions],
        result=result,
        next_game=next_game,
        absent=change.absent,
        rated_places=rated_places,
    )
    return TableChange(write, trial)


def _rated_places(live: LiveTable, result: dict[str, Any]) -> dict[int, int] | None:
    """At a rated table, the accounts' places in a finished game (``{user_id: place}``), for
    their OpenSkill ratings; None when fewer than two accounts played. A player replaced by a
    bot after leaving is rated last (the bot's play is not theirs), and a seat the host gave a
    bot at the start is not rated."""
    if not live.row.rated:
        return None
    places = result["places"]
    last = len(places)
    rated = {
        seat.user_id: last if seat.replaced else places[seat.seat]
        for seat in live.seats
        if seat.user_id is not None
    }
    return rated if len(rated) >= 2 else None


def waiting_text(live: LiveTable) -> str | None:
    seats = live.waiting_for()
    return ",".join(str(s) for s in seats) if seats else None


def _seat_with(seat: SeatRow, values: dict[str, Any]) -> SeatRow:
    return SeatRow(**{**seat.__dict__, **values})
