"""The actions of an Enjambre table's players: pure functions from the live copy and a request
to the change it asks for (checked by the rules engine when the hub tries it on a copy)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from panal.enjambre import Action, Displace, EndTurn, Place, Scout, Step
from panal.hex import Hex
from panal.server.errors import RequestError
from panal.server.table_live import LiveTable

__all__ = ["ACTIONS", "TableRequest", "check_playing"]

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
