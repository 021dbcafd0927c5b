"""What a player can do, and the public record of what happened.

Actions name tiles by their public id (see :mod:`panal.enjambre.engine`), never by number, so an
action can be shown to everyone except :class:`Place`, which holds the player's secret setup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from panal.hex import Hex

__all__ = [
    "Action",
    "Combat",
    "Displace",
    "Displaced",
    "EndTurn",
    "Event",
    "GameEnded",
    "IllegalActionError",
    "MoveFinished",
    "Moved",
    "Place",
    "Placed",
    "Reason",
    "Scout",
    "Scouted",
    "Step",
    "TurnEnded",
    "action_from_dict",
    "action_to_dict",
]


class Reason(str):
    """Why an action is illegal: an English sentence that also carries a stable ``code`` and the
    values filled into it (``details``: cell labels, colours, numbers), so that an interface can
    say the same thing in another language. Tiles are named by the cell they stand on, as the
    players see them, never by their internal id."""

    code: str
    details: Mapping[str, str]

    def __new__(cls, code: str, template: str, **details: object) -> Reason:
        values = {name: str(value) for name, value in details.items()}
        reason = super().__new__(cls, template.format(**values))
        reason.code = code
        reason.details = MappingProxyType(values)
        return reason


class IllegalActionError(ValueError):
    """The action breaks a rule; the game is left exactly as it was.

    ``code`` and ``details`` come from the :class:`Reason` when the error was raised with one.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.code: str = getattr(reason, "code", "illegal")
        self.details: Mapping[str, str] = getattr(reason, "details", MappingProxyType({}))


@dataclass(frozen=True)
class Place:
    """Setup: ``cells[k]`` receives the tile numbered ``k + 1`` (secret)."""

    cells: tuple[Hex, ...]


@dataclass(frozen=True)
class Step:
    """Move ``tile`` one step to ``target`` (an adjacent cell, or across the colmena)."""

    tile: int
    target: Hex


@dataclass(frozen=True)
class Scout:
    """Flip ``tile`` to prove it is the 1 and, if it is, flip every adjacent enemy tile."""

    tile: int


@dataclass(frozen=True)
class Displace:
    """Put the tile pushed out of your colmena cell (advanced colmena combat) on ``target``."""

    target: Hex


@dataclass(frozen=True)
class EndTurn:
    """Finish the turn; play passes clockwise."""


Action = Place | Step | Scout | Displace | EndTurn


def action_to_dict(action: Action) -> dict[str, Any]:
    match action:
        case Place(cells):
            return {"type": "place", "cells": [list(c) for c in cells]}
        case Step(tile, target):
            return {"type": "step", "tile": tile, "target": list(target)}
        case Scout(tile):
            return {"type": "scout", "tile": tile}
        case Displace(target):
            return {"type": "displace", "target": list(target)}
        case EndTurn():
            return {"type": "end"}
    raise TypeError(f"not an action: {action!r}")


def action_from_dict(data: dict[str, Any]) -> Action:
    try:
        kind = data["type"]
        if kind == "place":
            return Place(tuple(Hex(int(q), int(r)) for q, r in data["cells"]))
        if kind == "step":
            q, r = data["target"]
            return Step(int(data["tile"]), Hex(int(q), int(r)))
        if kind == "scout":
            return Scout(int(data["tile"]))
        if kind == "displace":
            q, r = data["target"]
            return Displace(Hex(int(q), int(r)))
        if kind == "end":
            return EndTurn()
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed action {data!r}: {exc}") from exc
    raise ValueError(f"unknown action type {data.get('type')!r}")


# Public events. ``round`` and ``player`` say when and on whose turn it happened.


@dataclass(frozen=True, kw_only=True)
class Event:
    round: int
    player: int


@dataclass(frozen=True, kw_only=True)
class Placed(Event):
    """A player finished the secret setup (positions become public when everyone has)."""


@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    tile: int
    origin: Hex
    target: Hex
    via: str  # "step", "colmena" (through the colmena) or "dark" (linked dark cells)


@dataclass(frozen=True, kw_only=True)
class Combat(Event):
    """Both tiles were shown to everyone; ``eliminated`` lists the removed tile ids."""

    cell: Hex
    attacker: int
    defender: int
    attacker_number: int
    defender_number: int
    eliminated: tuple[int, ...]
    relocated_to: Hex | None = None


@dataclass(frozen=True, kw_only=True)
class Scouted(Event):
    """``tile`` was flipped; ``revealed`` pairs (tile, number) of the enemy tiles it showed."""

    tile: int
    number: int
    success: bool
    revealed: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True)
class MoveFinished(Event):
    """A marker goes on ``tile``: it cannot move again this turn."""

    tile: int


@dataclass(frozen=True, kw_only=True)
class Displaced(Event):
    tile: int
    origin: Hex
    target: Hex


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """Every shown tile is hidden again."""


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """Final scoring: each player's tile on their own colmena cell is shown."""

    queens: tuple[tuple[int, int, int], ...]  # (player, tile, number)
    scores: tuple[int, ...]
